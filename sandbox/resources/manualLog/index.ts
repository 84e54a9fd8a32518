/** The manual log resource: logged calls, emails and texts (in the communication state; written asynchronously). */
import type { SandboxModule } from '../../core/module';
import { manualLogRoutes } from './routes';

export * from './routes';

/** Manual Log endpoints (seeded logged communications come from the Communication module's seed). */
export const manualLogModule: SandboxModule = { name: 'manualLog', routes: manualLogRoutes };
