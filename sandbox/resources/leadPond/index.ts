/** The lead pond resource: the ponds the caller may see and their leads. */
import type { SandboxModule } from '../../core/module';
import { leadPondRoutes, seedLeadPond } from './routes';

export * from './routes';

/** Lead Pond endpoints. */
export const leadPondModule: SandboxModule = { name: 'leadPond', routes: leadPondRoutes, seed: seedLeadPond };
