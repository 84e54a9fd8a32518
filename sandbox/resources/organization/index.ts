/** The organization resource: organization info, company, offices, permission profiles (state and permissions in ./access.ts). */
import type { SandboxModule } from '../../core/module';
import { organizationRoutes, seedOrganization } from './routes';

export * from './access';
export { ORG_CODES } from './routes';

/** Organization endpoints. */
export const organizationModule: SandboxModule = { name: 'organization', routes: organizationRoutes, seed: seedOrganization };
