import type { SandboxModule } from '../module';

/** Vendor endpoints. */
export const vendorModule: SandboxModule = { name: 'vendor', routes: [] };
