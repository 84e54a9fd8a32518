/**
 * The Lofty Trigger (Lead Info, Text, Pipeline Change) in a real n8n 2.41.1 restarted (SIGTERM with deliveries in
 * flight, same database, down about 3 s plus its start) while the sandbox makes a lead, a text to it and a stage change
 * every 400 ms (from 3 s before the stop until the new n8n answers HTTP) and delivers them as Lofty does: real time,
 * one request per subscription, 5xx and no answer retried after 30 s, deliveries answered 404 while n8n registers its
 * webhooks discarded. Then Lofty delivers nothing (its retries held back) for up to CATCH_UP_WINDOW_MS: every created
 * lead and text made so far must have run exactly once by then, brought by the catch-up n8n's start begins (issue 44:
 * before, it began only with the next delivery). Then the retries go out, and the account below is taken.
 * What it measures, per created lead and text (restartLedger.ts): the executions that hold it,
 * delivered or caught up (`caughtUp: true`), and those whose trigger step passed it on. Every one must reach an
 * execution and run at most once, those whose delivery n8n was handling when told to stop included (the trigger's first
 * step drops an event already run, runOnce.ts; how many it dropped is logged). n8n gets SIGKILL if it is still there
 * 10 s after the SIGTERM (as docker does): an execution it was running then shows as crashed, n8n's to retry, as one
 * n8n created after its stop stopped waiting for executions; none may end in an error. Stage changes cannot be read back: the count lost is logged; the same rule for running
 * twice. A failure names each event lost or run twice with what every delivery of it got and the executions that hold it.
 * Measured 2026-11-27 (n8n 2.41.1): on main before the fix (be1f8d0) 11 of 60 leads and 11 texts lost (the catch-up read
 * nothing: another delivery's save dropped what the first delivery after the restart owed); now none lost in 16 runs,
 * 1 to 4 events run twice in 8 of them, all at the stop; with the trigger's execute() (runOnce.ts) none run twice in
 * 6 runs, though in the 4 that counted it the first step dropped nothing (up to 7 events delivered at the stop).
 * Since the run marks live with the delivery marks (dedupe.ts) and every saved copy holds them, it fails on any double
 * (LOFTY_E2E_RESTART_LENIENT=1 lets one delivered at the stop pass, never in CI).
 * 60 to 125 s for the file (n8n's first start included). With the window without deliveries (2026-11-29, n8n 2.41.1 on
 * a machine at load 20+): the catch-up had every lead and text run 30 s after n8n answered; the file took about as long
 * as before (the held-back retries go out at once when the window ends, instead of 30 s after their failure).
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';

import { DEMO_API_KEY, type Sandbox, parseJson, startSandbox, stringifyJson } from '../../sandbox';
import { configureDelivery, emitStageChange, webhookDelivery } from '../../sandbox/resources/webhook/delivery';
import { webhookState } from '../../sandbox/resources/webhook';
import { N8nServer, httpRequest, loftyTriggerNode, n8nInstalled } from './n8nServer';
import { type EventAccount, accountEvents, describeAccounts, itemsOfExecution, outsideContract } from './restartLedger';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const VERSION = process.env.LOFTY_E2E_N8N_VERSION || '2.41.1';
const TRIGGER = 'Lofty Trigger';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** How long after n8n answers again every created lead and text made before it must have run, with no delivery meanwhile. */
const CATCH_UP_WINDOW_MS = 60_000;
const title = `Lofty Trigger in n8n ${VERSION}: restarted while Lofty delivers, what was discarded at start is caught up`;

/** Copies n8n's SQLite database (with its WAL) under .e2e/<dir>/<label>.sqlite: what it held at that moment. */
function copyDatabase(dir: string, label: string): void {
	const db = `${dir}/user/.n8n/database.sqlite`;
	for (const suffix of ['', '-wal', '-shm']) if (fs.existsSync(db + suffix)) fs.copyFileSync(db + suffix, `${dir}/${label}.sqlite${suffix}`);
}

if (!n8nInstalled(VERSION)) {
	const why = `n8n ${VERSION} is not installed in the cache`;
	// eslint-disable-next-line no-console
	console.log(`[e2e ${VERSION}] SKIPPED: ${why}`);
	describe(title, () => test.skip(why, () => undefined));
} else {
	const n8n = new N8nServer(VERSION, `trigger-restart-${VERSION}`, {});
	let sb: Sandbox;
	let workflowId = '';
	const webhookId = randomUUID();

	const executions = async (): Promise<Json[]> => {
		const r = await n8n.api('GET', `/executions?workflowId=${workflowId}&includeData=true&limit=250`);
		if (r.status !== 200) throw new Error(`executions: ${r.status} ${r.text.slice(0, 300)}`);
		return r.json.data ?? [];
	};
	const api = async (path: string, body: unknown) => {
		const r = await httpRequest('POST', `${sb.url}${path}`, stringifyJson(body), { Authorization: `token ${DEMO_API_KEY}`, 'content-type': 'application/json' });
		if (r.status >= 300) throw new Error(`sandbox POST ${path}: ${r.status} ${r.text.slice(0, 200)}`);
		// 64-bit ids: not through JSON.parse
		return parseJson(r.text) as Json;
	};

	describe(title, () => {
		beforeAll(async () => {
			sb = await startSandbox({ port: 0, rateLimit: { perWindow: 1_000_000, windowMs: 60_000 } });
			configureDelivery(sb.store, { allowHttpCallbacks: true, autoDeliver: true, timeoutMs: 5000 });
			webhookDelivery(sb);
			await n8n.start();
		});
		afterAll(async () => {
			await n8n.stop();
			await sb?.stop();
		});

		test('every created lead and text runs across the restart exactly once (if n8n needed SIGKILL: reaches an execution, crashed ones being n8n\'s), those n8n was handling when told to stop included; stage changes never twice', async () => {
			const cred = await n8n.createCredential('Lofty API key (restart e2e)', 'loftyApi', { apiKey: DEMO_API_KEY, baseUrl: sb.url });
			const trigger = loftyTriggerNode(TRIGGER, webhookId, { events: [2, 8, 12], options: {} }, { id: cred, name: 'Lofty API key (restart e2e)' });
			workflowId = await n8n.createWorkflow({ name: 'Lofty e2e: trigger restart', nodes: [trigger], connections: {} });
			const r = await n8n.api('POST', `/workflows/${workflowId}/activate`);
			if (r.status !== 200) throw new Error(`activate: ${r.status} ${r.text.slice(0, 300)}`);
			const hookUrl = `${n8n.base}/webhook/${webhookId}/webhook`;
			const subs = () => [...webhookState(sb.store).subscriptions.values()].filter((s) => s.callbackUrl.split('?')[0] === hookUrl);
			for (let i = 0; subs().length < 3; i++) {
				if (i > 200) throw new Error('no subscriptions');
				await sleep(100);
			}

			// Lofty at a steady pace: a lead, a text to it and a stage change every 400 ms, from 3 s before the stop until the new
			// n8n answers HTTP (its webhooks are registered seconds after that: the last deliveries get 404 and are discarded)
			const t0 = Date.now();
			const leads: string[] = [];
			let stages = 0;
			let producing = true;
			const producer = (async () => {
				for (let i = 0; producing; i++) {
					const lead = await api('/v1.0/leads', { firstName: `Restart${i}`, lastName: 'E2E', emails: [`restart${i}@example.com`], phones: [String(5550200000 + i)] });
					const leadId = String(lead.leadId);
					leads.push(leadId);
					await api('/v1.0/message/sms/send', { leadId, content: `Hello ${i}` });
					emitStageChange(sb.store, sb.store.getLead(BigInt(leadId))!, 'New', `S${i}`, Date.now());
					stages++;
					await sleep(400);
				}
			})();
			await sleep(3000);
			const stop = { from: Date.now(), to: Infinity };
			// SIGKILL 10 s after the SIGTERM, as docker and systemd do: executions still running then are n8n's (crashed)
			const killed = await n8n.halt();
			stop.to = Date.now();
			// what n8n left stored at its stop (the static data a catch-up after the restart starts from), for a failing run
			copyDatabase(n8n.dir, 'at-stop');
			await sleep(3000);
			// then Lofty holds back every delivery (its retries of the outage included) until the catch-up window ends: what
			// the new n8n runs of the events made so far, its start alone must have brought (issue 44: no event after a restart)
			let heldBackAt = 0;
			const holdBack = (async () => {
				while (producing) {
					const up = await httpRequest('GET', `${n8n.base}/healthz`).then((r) => r.status === 200, () => false);
					if (up) producing = false;
					else await sleep(100);
				}
				await producer;
				configureDelivery(sb.store, { autoDeliver: false });
				heldBackAt = Date.now();
			})();
			await n8n.restart();
			await holdBack;
			const log = () => sb.webhooks.log.filter((e) => e.callbackUrl.startsWith(hookUrl));
			const caughtUpBy = Date.now() + CATCH_UP_WINDOW_MS;
			let startOnly = accountEvents(leads, log(), await executions(), TRIGGER, t0, stop);
			while (startOnly.some((a) => a.held === 0 && a.event !== 'pipeline.updated') && Date.now() < caughtUpBy) {
				await sleep(1000);
				startOnly = accountEvents(leads, log(), await executions(), TRIGGER, t0, stop);
			}
			const caughtUpIn = ((Date.now() - heldBackAt) / 1000).toFixed(1);
			const sentAfterHoldBack = log().filter((e) => e.time > heldBackAt + 100);
			configureDelivery(sb.store, { autoDeliver: true });
			// Lofty's retries of the outage (30 s after each failure, ±20%) and the catch-up; every execution finished
			const deadline = Date.now() + 90_000;
			let accounts: EventAccount[] = [];
			for (;;) {
				const all = await executions();
				accounts = accountEvents(leads, log(), all, TRIGGER, t0, stop);
				const pending = subs().some((s) => sb.webhooks.pending(s.subscribeId) > 0);
				const running = all.some((ex) => ex.status === 'running' || ex.status === 'new');
				if ((accounts.every((a) => a.held >= 1 || a.event === 'pipeline.updated') && !pending && !running) || Date.now() > deadline) break;
				await sleep(2000);
			}
			// a late duplicate would show up here
			await sleep(3000);
			const all = await executions();
			accounts = accountEvents(leads, log(), all, TRIGGER, t0, stop);
			const items = all.filter((ex) => ex.status === 'success').flatMap((ex) => itemsOfExecution(ex, TRIGGER));
			const lost = accounts.filter((a) => a.held === 0 && a.event !== 'pipeline.updated');
			const twice = accounts.filter((a) => a.runs > 1);
			const discarded = log().filter((e) => e.outcome === 'discarded');
			const dropped = [...fs.readFileSync(n8n.logFile, 'utf8').matchAll(/Lofty Trigger: (\d+) event\(s\) already run were dropped/g)].map((m) => Number(m[1]));
			const unfinished = all.filter((ex) => ex.status !== 'success').map((ex) => `${ex.id} ${ex.status}`);
			// eslint-disable-next-line no-console
			console.log(
				`[e2e ${VERSION}] restart: ${leads.length} leads, ${leads.length} texts, ${stages} stage changes made; deliveries discarded: ${discarded.length}; ` +
					`lost: ${lost.filter((a) => a.event === 'lead.created').length} leads, ${lost.filter((a) => a.event === 'text.created').length} texts, ` +
					`${accounts.filter((a) => a.event === 'pipeline.updated' && a.held === 0).length} stage changes; delivered at the stop: ${accounts.filter((a) => a.atStop).length}; run twice: ${twice.length} (at the stop: ${twice.filter((a) => a.atStop).length}); caught up: ${items.filter((i) => i.caughtUp === true).length}; ` +
					`dropped as already run: ${dropped.reduce((a, b) => a + b, 0)} in ${dropped.length} executions; ` +
					`executions not completed: ${unfinished.length ? unfinished.join(', ') : 'none'}${killed ? ' (n8n needed SIGKILL 10 s after the SIGTERM)' : ''}; ${((Date.now() - t0) / 1000).toFixed(0)} s` +
					describeAccounts(accounts).map((line) => `\n  ${line}`).join(''),
			);
			// eslint-disable-next-line no-console
			console.log(
				`[e2e ${VERSION}] restart, no delivery after it: ${sentAfterHoldBack.length} sent while held back; within ${caughtUpIn} s of the start ` +
					`(window ${CATCH_UP_WINDOW_MS / 1000} s) lost ${startOnly.filter((a) => a.held === 0 && a.event !== 'pipeline.updated').length}, run twice ${startOnly.filter((a) => a.runs > 1).length}` +
					describeAccounts(startOnly.filter((a) => a.held === 0 || a.runs > 1)).map((line) => `\n  ${line}`).join(''),
			);
			expect(sentAfterHoldBack).toEqual([]);
			expect(outsideContract(startOnly)).toEqual([]);
			// the restart left something to catch up (deliveries discarded during the start, or held back unanswered)
			expect(items.filter((i) => i.caughtUp === true).length).toBeGreaterThan(0);
			expect(outsideContract(accounts)).toEqual([]);
			// Nothing of the trigger's keeps an execution from completing: none ended in an error. One left 'new' or 'crashed'
			// is n8n's: it waits at its stop only for the executions running when the wait begins, and still takes deliveries
			// after it; an execution created then is abandoned at the exit and marked crashed at the next start (read in
			// 2.8.4's and 2.41.1's ActiveExecutions.shutdown; 2.8.4: "23 crashed", created 0.3 s after the SIGTERM, its
			// delivery unanswered, no "Waiting for ... active executions" in the log). Had the trigger's first step kept one
			// running (its question to the webhook waits up to 30 s), n8n would have waited for it and needed the SIGKILL.
			expect(all.filter((ex) => !['success', 'new', 'running', 'crashed'].includes(ex.status)).map((ex) => `${ex.id} ${ex.status}`)).toEqual([]);
		});
	});
}
