import type { SandboxModule } from '../module';

/** Routing endpoints. */
export const routingModule: SandboxModule = { name: 'routing', routes: [] };
