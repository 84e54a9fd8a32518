import type { SandboxModule } from '../module';

/** Task endpoints. */
export const taskModule: SandboxModule = { name: 'task', routes: [] };
