/** The agent resource: create agents, add agent tags, deactivate and reactivate (license seats). */
import type { SandboxModule } from '../../core/module';
import { agentRoutes, seedAgents } from './routes';

export { AGENT_CODES } from './routes';
export * from './state';

/** Agent endpoints. */
export const agentModule: SandboxModule = { name: 'agent', routes: agentRoutes, seed: seedAgents };
