import type { SandboxModule } from '../module';

/** Communication endpoints. */
export const communicationModule: SandboxModule = { name: 'communication', routes: [] };
