/**
 * n8n 2.8.4 on the system Node 20 (the newest n8n for Node 20, and the oldest 2.x the package supports): a smaller
 * set. Outside CI it is skipped with a log line when it is not in the cache (`node scripts/n8n-runtime.js
 * --version 2.8.4` installs it, about 2 minutes); in CI it is installed when missing, never skipped.
 */
import { defineApiChangeChecks } from './n8nApiChanges';
import { buildSmallPlan } from './plan';
import { defineSuite } from './suite';
import { defineWebhookAnswerSuite } from './webhookAnswer';

defineSuite({ version: '2.8.4', plan: buildSmallPlan, skipWhenNotInstalled: !process.env.CI });
defineApiChangeChecks('2.8.4', !process.env.CI);
defineWebhookAnswerSuite('2.8.4', !process.env.CI);
