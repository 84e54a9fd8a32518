import type { SandboxModule } from '../module';

/** Lead Pipeline endpoints. */
export const leadPipelineModule: SandboxModule = { name: 'leadPipeline', routes: [] };
