/**
 * Queue mode installed the way n8n 3.0 expects (part of queue.e2e.ts, whose set then starts with `fromRegistry`):
 * nothing is copied into any process's folder; a local registry serves the packed package (scripts/registry.js) and
 * every process gets N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV, N8N_COMMUNITY_PACKAGES and N8N_REINSTALL_MISSING_PACKAGES
 * (installServer.ts envManagedInstall). With OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS=true (n8n 3.0's only behaviour), in
 * the editor (Chromium):
 *
 *   - main installs the list at its start; each worker and webhook process installs, at its start, what main recorded
 *   - a Lofty node's Execute step, Execute workflow, and the Lofty Trigger's listening for a test event each run on a
 *     worker (named by exactly one worker's log, none by main's) and succeed
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';

// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-ignore
import type { Browser, Page } from 'playwright-core';

import { type Sandbox, SEED_IDS, stringifyJson } from '../../sandbox';
import { configureDelivery } from '../../sandbox/resources/webhook/delivery';
import { PACKAGE_NAME, ROOT, httpRequest, loftyTriggerNode } from './n8nServer';
import { browserMissing, executeStep, openNode, outputAfter, signedInPage } from './installPage';
import { byId, type Json } from './plan';
import type { QueueN8nServer } from './queueServer';
import { chain, loftyNode } from './suite';

const VERSION: string = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface InstallContext {
	n8n: () => QueueN8nServer;
	sandbox: () => Sandbox;
	creds: () => { api: Json };
	summary: string[];
}

export function defineInstallTests(ctx: InstallContext): void {
	const missing = browserMissing();
	if (missing && process.env.CI !== 'true') {
		process.stdout.write(`[e2e queue install] editor steps SKIPPED: ${missing}\n`);
	}
	describe('installed by n8n from a registry (N8N_COMMUNITY_PACKAGES), run on the workers from the editor', () => {
		let browser: Browser | undefined;
		let page: Page;
		const n8n = () => ctx.n8n();

		/** The executions of a workflow after `start`, once one more has finished; the newest. */
		async function nextExecution(workflowId: string, start: () => Promise<unknown>): Promise<Json> {
			const list = async () => ((await n8n().api('GET', `/executions?workflowId=${workflowId}&limit=50`)).json?.data ?? []) as Json[];
			const before = new Set((await list()).map((e) => String(e.id)));
			await start();
			for (const deadline = Date.now() + 120_000; Date.now() < deadline; await sleep(250)) {
				const done = (await list()).find((e) => !before.has(String(e.id)) && (e.finished || e.stoppedAt));
				if (done) return done;
			}
			throw new Error(`no new execution of ${workflowId} finished within 120 s\n${n8n().logTail(20)}`);
		}

		/** The execution ran on one worker and succeeded; main's log names no execution. */
		async function ranOnAWorker(execution: Json, what: string): Promise<void> {
			const workers = n8n().executionsByWorker()[String(execution.id)] ?? [];
			const error = execution.status === 'success' ? undefined : (await n8n().waitExecution(String(execution.id))).error?.message;
			expect({ what, status: execution.status, error, workers: workers.length }).toEqual({ what, status: 'success', error: undefined, workers: 1 });
			expect(n8n().stack.logOf('main')).not.toMatch(/Worker started execution/);
			ctx.summary.push(`${what}: execution ${execution.id} on ${workers[0]}`);
		}

		beforeAll(async () => {
			if (missing) return;
			({ browser, page } = await signedInPage(n8n().base, n8n().registry.env.HTTPS_PROXY));
		});
		afterAll(async () => {
			await browser?.close().catch(() => undefined);
		});

		test('main, each worker and the webhook process installed it at their start from the registry; nothing was copied by hand; the editor cannot change the list', async () => {
			const processes = [n8n().stack.main, ...n8n().stack.workers, ...n8n().stack.webhooks] as Array<{ name: string; userFolder: string }>;
			const installed = processes.map(({ name, userFolder }) => {
				const nodes = path.join(userFolder, '.n8n', 'nodes');
				const read = (f: string) => (fs.existsSync(f) ? JSON.parse(fs.readFileSync(f, 'utf8')) : {});
				return { name, folder: read(path.join(nodes, 'node_modules', PACKAGE_NAME, 'package.json')).version, listed: read(path.join(nodes, 'package.json')).dependencies?.[PACKAGE_NAME] };
			});
			expect(installed).toEqual(processes.map(({ name }) => ({ name, folder: VERSION, listed: VERSION })));
			// n8n's own words: main from the list, the others from what main recorded
			expect(n8n().stack.logOf('main')).toContain(`Installed community package '${PACKAGE_NAME}@${VERSION}' from env`);
			for (const p of processes.slice(1)) expect({ [p.name]: /Packages reinstalled successfully/.test(n8n().stack.logOf(p.name)) }).toEqual({ [p.name]: true });
			// each process fetched the tarball from the registry (through the stand-in for registry.npmjs.org)
			const tarballs = n8n().registry.requests.filter((r: Json) => r.path === `/${PACKAGE_NAME}/-/${PACKAGE_NAME}-${VERSION}.tgz` && r.status === 200);
			expect(tarballs.length).toBe(processes.length);
			const refused = await n8n().rest('POST', '/rest/community-packages', { name: PACKAGE_NAME });
			expect({ status: refused.status, text: refused.text }).toMatchObject({ status: 400, text: expect.stringMatching(/managed via environment variables/) });
			ctx.summary.push(`install: ${processes.length} processes installed ${PACKAGE_NAME}@${VERSION} at start from the registry`);
		});

		(missing ? test.skip : test)("the editor's Execute step on a Lofty node runs on a worker", async () => {
			const step = { name: 'Lofty', resource: 'lead', operation: 'get', params: { leadId: byId(SEED_IDS.bigLeadId) } };
			const workflowId = await n8n().createWorkflow(chain('Lofty queue install: Execute step', [loftyNode(step, ctx.creds() as { api: Json; oauth: Json }, 300)]));
			let shown = '';
			const execution = await nextExecution(workflowId, async () => (shown = await executeStep(page, n8n().base, workflowId, 'Lofty', /leadId/)));
			expect(shown).toContain(SEED_IDS.bigLeadId);
			await ranOnAWorker(execution, 'Execute step');
		});

		(missing ? test.skip : test)("the editor's Execute workflow runs on a worker", async () => {
			const step = { name: 'Lofty', resource: 'lead', operation: 'getAll', params: { returnAll: false, limit: 3 } };
			const workflowId = await n8n().createWorkflow(chain('Lofty queue install: Execute workflow', [loftyNode(step, ctx.creds() as { api: Json; oauth: Json }, 300)]));
			await page.goto(`${n8n().base}/workflow/${workflowId}`);
			const execution = await nextExecution(workflowId, () => page.locator('[data-test-id=execute-workflow-button]').click());
			await ranOnAWorker(execution, 'Execute workflow');
			const full = await n8n().waitExecution(String(execution.id));
			expect(full.runData.Lofty[0].data.main[0]).toHaveLength(3);
		});

		(missing ? test.skip : test)("the Lofty Trigger's listening for a test event: main subscribes, the event Lofty sends runs on a worker", async () => {
			const trigger = loftyTriggerNode('Lofty Trigger', randomUUID(), { events: [2], fetchFullRecord: false, options: {} }, ctx.creds().api);
			const workflowId = await n8n().createWorkflow({ name: 'Lofty queue install: test event', nodes: [trigger], connections: {} });
			configureDelivery(ctx.sandbox().store, { autoDeliver: true, allowHttpCallbacks: true, timeoutMs: 5000 });
			try {
				const ndv = await openNode(page, n8n().base, workflowId, 'Lofty Trigger');
				let leadId = '';
				let shown = '';
				const execution = await nextExecution(workflowId, async () => {
					shown = await outputAfter(ndv, /leadId/, async () => {
						await ndv.locator('[data-test-id=node-execute-button]').click();
						await waitForTestSubscription(ctx.sandbox(), String(trigger.webhookId));
						// a lead created in Lofty: the sandbox delivers its Lead Info event to the listening trigger
						const made = await httpRequest('POST', `${ctx.sandbox().url}/v1.0/leads`, stringifyJson({ firstName: 'Queue', lastName: `Install ${Date.now()}` }), {
							Authorization: `token ${ctx.sandbox().apiKey}`,
							'content-type': 'application/json',
						});
						expect(made.status).toBeLessThan(300);
						leadId = /"leadId"\s*:\s*(\d+)/.exec(made.text)![1];
					});
				});
				expect(shown).toContain(leadId);
				await ranOnAWorker(execution, 'Lofty Trigger test event');
			} finally {
				configureDelivery(ctx.sandbox().store, { autoDeliver: false });
			}
		});
	});
}

/** Waits until the sandbox holds a subscription whose callback is the trigger's test address (/webhook-test/...). */
async function waitForTestSubscription(sandbox: Sandbox, webhookId: string): Promise<void> {
	for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(200)) {
		const r = await httpRequest('GET', `${sandbox.url}/v1.0/webhooks`, undefined, { Authorization: `token ${sandbox.apiKey}` });
		if (r.text.includes(`/webhook-test/${webhookId}/`)) return;
	}
	throw new Error(`no test subscription for ${webhookId} within 60 s`);
}
