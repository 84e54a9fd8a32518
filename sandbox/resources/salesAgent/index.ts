/** The Sales Agent resource (V2): the caller's AI assistant, quota, settings, working pool, mutes, plan tasks, AI SMS. */
import type { SandboxModule } from '../../core/module';
import { salesAgentRoutes } from './routes';
import { seedSalesAgents } from './seed';

export * from './state';
export { SALES_AGENT_IDS } from './seed';
export { workingLeadView } from './views';

/** Sales Agent endpoints. */
export const salesAgentModule: SandboxModule = { name: 'salesAgent', routes: salesAgentRoutes, seed: seedSalesAgents };
