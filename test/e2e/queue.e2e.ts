/**
 * The package in n8n's queue mode (n8n 2.41.1): Postgres and Redis from Debian's packages, one main, two workers and
 * two webhook processes (queueServer.ts, scripts/queue-stack.js), the package installed by n8n itself in each from a
 * local registry (N8N_COMMUNITY_PACKAGES, installQueue.ts; on 2.8.x unpacked into each process's folder).
 *
 *   - each process installed it at its start; the editor's Execute step, Execute workflow and the Lofty Trigger's
 *     listening for a test event run on the workers (installQueue.ts)
 *   - a representative set of operations (every pagination style over several pages, a write chain, an error path,
 *     both credential types) run as the editor's "Execute workflow" does, and run on the workers: each execution
 *     is named by exactly one worker's log, none by main's
 *   - the Lofty Trigger across the two webhook processes (queueTrigger.ts)
 *   - pacing across workers: two bulk jobs at once with one credential under a time-scaled limit (queueBulk.ts)
 *   - stopping the set leaves no process behind
 *
 * Skipped with a log line where Postgres or Redis is not installed (apt-get install -y postgresql redis-server);
 * in CI (CI=true) that is a failure instead.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { type Sandbox, SEED_IDS, startSandbox } from '../../sandbox';
import { ROOT } from './n8nServer';
import { byId, type Json } from './plan';
import { PAGED, buildQueuePlan } from './queuePlan';
import { QueueN8nServer, queueServicesMissing } from './queueServer';
import { defineTriggerTests } from './queueTrigger';
import { defineInstallTests } from './installQueue';
import { runBulk } from './queueBulk';
import { TRIGGER, chain, flowProblems, loftyNode, oauthCredentialData, oauthToken, outputOf } from './suite';

const VERSION = process.env.LOFTY_E2E_N8N_VERSION || '2.41.1';
const API_CRED = 'Lofty API key (queue e2e)';
const OAUTH_CRED = 'Lofty OAuth2 (queue e2e)';
const missing = queueServicesMissing();

if (missing.length && process.env.CI !== 'true') {
	// eslint-disable-next-line no-console
	console.log(`[e2e queue] SKIPPED: ${missing.join(' and ')} not installed (apt-get install -y postgresql redis-server)`);
	describe('n8n queue mode', () => {
		test.skip(`${missing.join(', ')} not installed`, () => undefined);
	});
} else {
	describe(`n8n ${VERSION} in queue mode: Postgres, Redis, main, 2 workers, 2 webhook processes`, () => {
		// Installed as a user installs it from n8n 3.0 on (installQueue.ts): on 2.41.x, N8N_COMMUNITY_PACKAGES from a registry.
		const n8n = new QueueN8nServer(VERSION, undefined, { fromRegistry: /^2\.4\d\./.test(VERSION) });
		let sandbox: Sandbox;
		const creds = { api: {} as Json, oauth: {} as Json };
		const executions: string[] = [];
		const summary: string[] = [];
		const t0 = Date.now();

		async function run(wf: { name: string; nodes: Json[]; connections: Json }) {
			const id = await n8n.createWorkflow(wf);
			const ex = await n8n.runWorkflow(id, TRIGGER);
			executions.push(ex.id);
			return ex;
		}

		beforeAll(async () => {
			if (missing.length) throw new Error(`queue mode needs ${missing.join(' and ')}: apt-get install -y postgresql redis-server`);
			sandbox = await startSandbox({ port: 0, rateLimit: { perWindow: 1_000_000, windowMs: 60_000 } });
			await n8n.start();
			const token = await oauthToken(sandbox, `${n8n.base}/rest/oauth2-credential/callback`);
			creds.api = { id: await n8n.createCredential(API_CRED, 'loftyApi', { apiKey: sandbox.apiKey, baseUrl: sandbox.url }), name: API_CRED };
			const oauthData = oauthCredentialData(sandbox, { ...token, token_type: token.token_type ?? 'Bearer' });
			creds.oauth = { id: await n8n.createCredential(OAUTH_CRED, 'loftyOAuth2Api', oauthData), name: OAUTH_CRED };
		});

		afterAll(async () => {
			await n8n.stop();
			await sandbox?.stop();
			const text = [
				`===== e2e summary: n8n ${VERSION} in queue mode =====`,
				...summary,
				`setup: ${Object.entries(n8n.timings).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}s`).join(', ')}`,
				`duration: ${((Date.now() - t0) / 1000).toFixed(1)}s`,
			].join('\n');
			process.stdout.write(`\n${text}\n\n`);
			fs.mkdirSync(path.join(ROOT, '.e2e'), { recursive: true });
			fs.writeFileSync(path.join(ROOT, '.e2e', `summary-queue-${VERSION}.txt`), `${text}\n`);
		});

		if (/^2\.4\d\./.test(VERSION)) defineInstallTests({ n8n: () => n8n, sandbox: () => sandbox, creds: () => creds, summary });

		describe('operations run on the workers', () => {
			for (const flow of buildQueuePlan()) {
				test(`${flow.title}: ${flow.steps.map((s) => `${s.resource}.${s.operation}${s.oauth ? ' (OAuth2)' : ''}`).join(', ')}`, async () => {
					const paged = flow.steps.filter((s) => PAGED[s.name]);
					const before = paged.map((s) => sandbox.count(PAGED[s.name].method, PAGED[s.name].path));
					const nodes = flow.steps.map((s, i) => loftyNode(s, creds, 220 * (i + 1), { executeOnce: true, onError: 'continueRegularOutput' }));
					const ex = await run(chain(`Lofty queue e2e: ${flow.title}`, nodes));
					const problems = flowProblems(ex, flow);
					if (problems.length) throw new Error(`execution ${ex.id} (${ex.status}):\n${problems.join('\n\n')}`);
					expect(ex.status).toBe('success');
					// Each pagination style made exactly the requests its pages need.
					const made = paged.map((s, i) => `${s.name} (${PAGED[s.name].style}): ${sandbox.count(PAGED[s.name].method, PAGED[s.name].path) - before[i]}`);
					expect(made).toEqual(paged.map((s) => `${s.name} (${PAGED[s.name].style}): ${PAGED[s.name].requests}`));
					if (made.length) summary.push(`pages: ${made.join('; ')} requests`);
				});
			}

			test('an error as the user meets it: Lead Get of a lead the user cannot see fails the execution with HTTP 404 LEAD_NOT_EXIST', async () => {
				const step = { name: 'Get Hidden Lead', resource: 'lead', operation: 'get', params: { leadId: byId(SEED_IDS.notSharedLeadId) } };
				const ex = await run(chain('Lofty queue e2e: error path', [loftyNode(step, creds, 220)]));
				expect(ex.status).toBe('error');
				expect(outputOf(ex, step.name).error).toMatch(/HTTP 404 LEAD_NOT_EXIST/);
				expect(ex.error?.message).toMatch(/HTTP 404 LEAD_NOT_EXIST/);
			});

			test('every execution ran on a worker: each is named by exactly one worker log, none by the main log', () => {
				const ran = n8n.executionsByWorker();
				expect(executions.length).toBeGreaterThanOrEqual(4);
				for (const id of executions) expect({ id, workers: ran[id]?.length ?? 0 }).toEqual({ id, workers: 1 });
				expect(n8n.stack.logOf('main')).not.toMatch(/Worker started execution/);
				const perWorker: Record<string, number> = {};
				for (const id of executions) perWorker[ran[id][0]] = (perWorker[ran[id][0]] ?? 0) + 1;
				summary.push(`executions by worker: ${Object.entries(perWorker).map(([w, c]) => `${w} ${c}`).join(', ')}`);
			});
		});

		defineTriggerTests({ n8n: () => n8n, sandbox: () => sandbox, creds: () => creds, summary });

		describe('pacing across workers', () => {
			// Lofty's Development limit (100 a minute) time-scaled by 30, so that two workers surely come up against it.
			const LIMIT = { perWindow: 100, windowMs: 2000 };
			// Which worker takes which execution is n8n's choice (on a busy machine one may take both): the test asserts
			// what the node guarantees either way.
			test(`two executions on the workers updating 400 leads at once with one credential under a ${LIMIT.perWindow} per ${LIMIT.windowMs / 1000} s limit: the limit is reached and holds, no failed item, every write applied once`, async () => {
				sandbox.setRateLimit(LIMIT);
				try {
					const o = await runBulk(n8n, sandbox, creds.api, { jobs: 2, n: 400, label: 'pacing', windowMs: LIMIT.windowMs });
					summary.push(
						`pacing: 2 executions (workers ${o.workers.join(', ')}), 400 updates at ${LIMIT.perWindow} per ${LIMIT.windowMs / 1000} s: busiest window ${o.busiest}, ${o.windows} windows, ${o.refused} answers 429, ${o.failed} failed items, ${o.writtenTwice} leads written twice, job ${(o.jobMs / 1000).toFixed(1)} s`,
					);
					expect(o.statuses).toEqual(['success', 'success']);
					// the executions together came up against the limit (else this would test nothing)
					expect(o.busiest).toBeGreaterThanOrEqual(LIMIT.perWindow * 0.9);
					// The limit held: past what a window allows, each execution sends at most its Parallel Requests (8) before an
					// answer shows the window used up (README, Pacing across workers); Lofty refuses those, and they go again.
					expect(o.refused).toBeLessThanOrEqual(o.windows * 2 * 8);
					expect({ items: o.items, failed: o.failed, errors: o.errors, updated: o.updated, writtenTwice: o.writtenTwice }).toEqual({
						items: 400,
						failed: 0,
						errors: [],
						updated: 400,
						writtenTwice: 0,
					});
				} finally {
					sandbox.setRateLimit({ perWindow: 1_000_000, windowMs: 60_000 });
				}
			});
		});

		describe('stopping', () => {
			test('stopping the set (webhook processes, workers, main, task runners, Redis, Postgres) leaves no process behind', async () => {
				const ports = [n8n.stack.main.ports.http, n8n.stack.redis.port, n8n.stack.postgres.port, ...n8n.stack.webhooks.map((w: Json) => w.ports.http)];
				await n8n.stop();
				expect(n8n.leftovers).toEqual([]);
				// and nothing listens on their ports any more
				const { freePort } = require('../../scripts/n8n-harness'); // eslint-disable-line @typescript-eslint/no-require-imports
				for (const port of ports) expect(await freePort(port)).toBe(port);
				summary.push(`stopped: no process left, ${ports.length} ports free again`);
			});
		});
	});
}
