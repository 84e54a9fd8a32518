import type { SandboxModule } from '../module';

/** Call endpoints. */
export const callModule: SandboxModule = { name: 'call', routes: [] };
