import type { SandboxModule } from '../module';

/** Lead Pond endpoints. */
export const leadPondModule: SandboxModule = { name: 'leadPond', routes: [] };
