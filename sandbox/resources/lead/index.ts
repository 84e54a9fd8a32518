/**
 * The lead resource: CRUD and search (./routes.ts), writes to parts of a lead and the routing preview (./parts.ts),
 * activities and saved searches (./reads.ts). Leads live in the core store and are seeded by core/seed.ts.
 */
import type { SandboxModule } from '../../core/module';
import { leadPartRoutes } from './parts';
import { leadReadRoutes } from './reads';
import { leadRoutes } from './routes';

export { leadPersistence } from './persistence';
export { leadScrolls } from './scrolls';
export { leadTagRefusal } from './tagRefusal';

/** Lead endpoints. */
export const leadModule: SandboxModule = { name: 'lead', routes: [...leadRoutes, ...leadPartRoutes, ...leadReadRoutes] };
