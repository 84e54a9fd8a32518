import type { SandboxModule } from '../module';

/** Transaction endpoints. */
export const transactionModule: SandboxModule = { name: 'transaction', routes: [] };
