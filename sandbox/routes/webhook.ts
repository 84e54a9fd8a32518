import type { SandboxModule } from '../module';

/** Webhook endpoints. */
export const webhookModule: SandboxModule = { name: 'webhook', routes: [] };
