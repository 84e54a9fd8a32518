import type { Route } from './router';
import type { Store } from './store';

/**
 * A resource of the sandbox (sandbox/resources/<name>/, listed in sandbox/resources/index.ts). Its state lives in
 * `store.ext(name, init)` (cleared with the store), its demo data is added by `seed` after the core seed
 * (core/seed.ts: team, members, offices, leads), so it can refer to seeded leads.
 */
export interface SandboxModule {
	name: string;
	routes: Route[];
	seed?: (store: Store) => void;
}
