import type { Route } from './router';
import type { Store } from './store';

/**
 * An endpoint group of the sandbox. Its state lives in `store.ext(name, init)` (cleared with the
 * store), its demo data is added by `seed` after the lead seed, so it can refer to seeded leads.
 */
export interface SandboxModule {
	name: string;
	routes: Route[];
	seed?: (store: Store) => void;
}
