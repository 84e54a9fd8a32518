/** The vendor resource: the vendor directory of the caller's team. */
import type { SandboxModule } from '../../core/module';
import { seedVendors, vendorRoutes } from './routes';

export * from './routes';

/** Vendor endpoints. */
export const vendorModule: SandboxModule = { name: 'vendor', routes: vendorRoutes, seed: seedVendors };
