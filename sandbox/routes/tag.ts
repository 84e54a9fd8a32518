import type { SandboxModule } from '../module';

/** Tag endpoints. */
export const tagModule: SandboxModule = { name: 'tag', routes: [] };
