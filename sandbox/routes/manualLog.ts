import type { SandboxModule } from '../module';

/** Manual Log endpoints. */
export const manualLogModule: SandboxModule = { name: 'manualLog', routes: [] };
