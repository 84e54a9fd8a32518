import type { SandboxModule } from '../module';

/** Listing endpoints. */
export const listingModule: SandboxModule = { name: 'listing', routes: [] };
