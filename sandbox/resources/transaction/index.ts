/** The transaction resource: V1 per-lead transactions, the V2 search and pipelines, Brokermint callbacks. */
import type { SandboxModule } from '../../core/module';
import { brokermintRoutes } from './brokermint';
import { transactionV1Routes } from './routes';
import { transactionV2Routes } from './search';
import { seedTransactions } from './seed';

export * from './state';
export { TX_SEED } from './seed';
export { transactionView } from './views';

/** Transaction endpoints. */
export const transactionModule: SandboxModule = {
	name: 'transaction',
	routes: [...transactionV1Routes, ...transactionV2Routes, ...brokermintRoutes],
	seed: seedTransactions,
};
