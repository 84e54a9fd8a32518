/** The webhook resource: subscriptions (state, seed, routes) and their delivery engine (./delivery). */
import type { SandboxModule } from '../../core/module';
import { webhookRoutes } from './routes';
import { seedWebhooks } from './seed';

export * from './state';
export { WEBHOOK_IDS } from './seed';

/** Webhook endpoints. */
export const webhookModule: SandboxModule = { name: 'webhook', routes: webhookRoutes, seed: seedWebhooks };
