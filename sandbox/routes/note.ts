import type { SandboxModule } from '../module';

/** Note endpoints. */
export const noteModule: SandboxModule = { name: 'note', routes: [] };
