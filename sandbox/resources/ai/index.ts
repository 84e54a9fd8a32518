/** The AI resource (Intelligent Features): call script, call summary, pre-meeting insight, lead analysis; its own lower rate limit. */
import type { SandboxModule } from '../../core/module';
import { aiRoutes, seedAi } from './routes';

export * from './limiter';
export * from './routes';

/** AI endpoints. */
export const aiModule: SandboxModule = { name: 'ai', routes: aiRoutes, seed: seedAi };
