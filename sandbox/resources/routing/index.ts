/** The lead routing resource: rules and default rules of each business type, assign roles, assignable members. */
import type { SandboxModule } from '../../core/module';
import { routingRoutes } from './routes';
import { seedRouting } from './seed';

export * from './state';
export { activeWeekdays } from './days';
export { ROUTING_IDS } from './seed';

/** Lead routing endpoints. */
export const routingModule: SandboxModule = { name: 'routing', routes: routingRoutes, seed: seedRouting };
