import type { SandboxModule } from '../module';

/** AI endpoints. */
export const aiModule: SandboxModule = { name: 'ai', routes: [] };
