/**
 * n8n 1.123.81 on Node 24 (the 1.x line, which n8n still ships security releases of): what matters most to its users.
 * The credential tests and an OAuth2 connect through n8n's own flow, the smaller set of operations plus lists read to
 * their last page, the error paths, the Lofty Trigger's activation, deliveries, duplicates and deactivation (the shared
 * suite), and the n8n-workflow facts the transport's guards rely on. Outside CI it is skipped with a log line when it
 * is not in the cache (`node scripts/n8n-runtime.js --version 1.123.81`, about 4 minutes); in CI it is installed.
 */
import { defineApiChangeChecks } from './n8nApiChanges';
import { type Flow, type Step, buildPlan, buildSmallPlan } from './plan';
import { defineSuite } from './suite';
import { defineWebhookAnswerSuite } from './webhookAnswer';

/** The smaller set, and lists read with Return All across many pages (250 emails of one lead; sold listings). */
function buildPlan1x(): Flow[] {
	const steps = buildPlan().flatMap((f) => f.steps);
	const step = (name: string): Step => steps.find((s) => s.name === name)!;
	return [...buildSmallPlan(), { title: 'every page of a list', steps: [step('Email History'), step('Sold Listings'), step('Lead Stages')] }];
}

defineSuite({ version: '1.123.81', plan: buildPlan1x, skipWhenNotInstalled: !process.env.CI });
defineApiChangeChecks('1.123.81', !process.env.CI);
defineWebhookAnswerSuite('1.123.81', !process.env.CI);
