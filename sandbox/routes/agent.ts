import type { SandboxModule } from '../module';

/** Agent endpoints. */
export const agentModule: SandboxModule = { name: 'agent', routes: [] };
