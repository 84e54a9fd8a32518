/** The member resource: the caller, the team's members, a member by account or user id (users live in the core store). */
import type { SandboxModule } from '../../core/module';
import { memberRoutes } from './routes';

/** Member endpoints. */
export const memberModule: SandboxModule = { name: 'member', routes: memberRoutes };
