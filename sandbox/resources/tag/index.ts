/** The tag resource: the team's lead tags. */
import type { SandboxModule } from '../../core/module';
import { tagRoutes, seedTag } from './routes';

export * from './routes';

/** Tag endpoints. */
export const tagModule: SandboxModule = { name: 'tag', routes: tagRoutes, seed: seedTag };
