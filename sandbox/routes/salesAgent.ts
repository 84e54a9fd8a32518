import type { SandboxModule } from '../module';

/** Sales Agent endpoints. */
export const salesAgentModule: SandboxModule = { name: 'salesAgent', routes: [] };
