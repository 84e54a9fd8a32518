/** The listing resource: the V1 search, the published-listings XML feed, the V2 search. */
import type { SandboxModule } from '../../core/module';
import { listingRoutes } from './routes';
import { seedListings } from './seed';

export * from './state';

/** Listing endpoints. */
export const listingModule: SandboxModule = { name: 'listing', routes: listingRoutes, seed: seedListings };
