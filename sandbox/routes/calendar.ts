import type { SandboxModule } from '../module';

/** Calendar endpoints. */
export const calendarModule: SandboxModule = { name: 'calendar', routes: [] };
