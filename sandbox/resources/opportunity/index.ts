/** The opportunity resource: alerts sent to agents. */
import type { SandboxModule } from '../../core/module';
import { opportunityRoutes, seedOpportunity } from './routes';

export * from './routes';

/** Opportunity endpoints. */
export const opportunityModule: SandboxModule = { name: 'opportunity', routes: opportunityRoutes, seed: seedOpportunity };
