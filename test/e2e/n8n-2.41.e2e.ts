/** n8n 2.41.1 on Node 24 (installed into ~/.cache/n8n-nodes-lofty on first use): every resource. */
import { defineApiChangeChecks } from './n8nApiChanges';
import { buildPlan } from './plan';
import { defineSuite } from './suite';
import { defineWebhookAnswerSuite } from './webhookAnswer';

defineSuite({ version: process.env.LOFTY_E2E_N8N_VERSION || '2.41.1', plan: buildPlan });
defineApiChangeChecks(process.env.LOFTY_E2E_N8N_VERSION || '2.41.1');
defineWebhookAnswerSuite(process.env.LOFTY_E2E_N8N_VERSION || '2.41.1');
