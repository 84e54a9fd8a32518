/** The lead pipeline resource: the team's pipeline stages. */
import type { SandboxModule } from '../../core/module';
import { leadPipelineRoutes, seedLeadPipeline } from './routes';

export * from './routes';

/** Lead Pipeline endpoints. */
export const leadPipelineModule: SandboxModule = { name: 'leadPipeline', routes: leadPipelineRoutes, seed: seedLeadPipeline };
