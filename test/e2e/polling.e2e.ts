/**
 * The Lofty Polling Trigger in a real n8n (2.41.1; 2.8.4 when installed; 1.123.81 in CI or when installed): a
 * workflow with the trigger on New Lead and New Call, polling every minute, activated through the public API.
 *
 *   - activation runs a first poll that only takes note (leads and calls from before do not start anything);
 *   - leads and a call written in the sandbox between polls start one execution at the next poll, each record once;
 *   - n8n stopped and started again on the same database, a lead written while it was down, then the next polls:
 *     that lead once, nothing earlier again.
 *
 * On 2.41.1 it runs twice: with n8n's in-memory poll schedule (its default) and with its database-backed poll
 * scheduler switched on (DURABLE_SCHEDULER). n8n polls at most once a minute, so each run takes about four minutes.
 * With the durable scheduler (36 s a poll), also, on an n8n of its own, lead backlogs more than one poll reads
 * (pollingScroll.ts): where Lofty pages leads only by scroll and its scrolls expire (n8n restarted while one is
 * read), and 4,000 leads paged by offset with Lofty answering slowly.
 *
 * The runs, one n8n server and one sandbox each, go side by side (scenario.ts): every run's tests are its own, and
 * the runs wait for their minute ticks at the same time, so the file takes about as long as its longest run.
 */
import { type Sandbox, SEED_IDS, parseJson, startSandbox } from '../../sandbox';
import { commState } from '../../sandbox/resources/communication/state';
import { N8nServer, httpRequest, n8nInstalled } from './n8nServer';
import { defineScrollBacklogRun } from './pollingScroll';
import { DURABLE_SCHEDULER, activate, createPollingWorkflow, executionsOf, finished, itemsOf, keyOf } from './pollingWorkflow';
import { BackgroundScenario } from './scenario';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/**
 * How long a wait for the next poll's items may take before it fails: a poll comes once a minute (at n8n's seeded
 * second), so ten minutes leave ten polls' margin for a loaded machine; a passing wait ends at the poll that emits.
 */
const NEXT_POLLS_MS = 600_000;

/** Every run of the file, started together before the first test (their steps run in the background). */
const scenarios: BackgroundScenario[] = [];
beforeAll(() => {
	for (const scenario of scenarios) scenario.start();
});
/** n8n servers start one after the other: a start is CPU-bound, and the build it may run (dist/ stale) runs once. */
let starts: Promise<unknown> = Promise.resolve();
function startOneAtATime(start: () => Promise<void>): Promise<void> {
	const next = starts.catch(() => undefined).then(start);
	starts = next;
	return next;
}
afterAll(() => Promise.all(scenarios.map((scenario) => scenario.stop())), 30 * 60_000);

/** One run: its own n8n and sandbox, activation, then new records at the next poll, and a restart. */
function definePollingSuite(version: string, skipWhenNotInstalled = false, scheduler: 'in-memory' | 'durable' = 'in-memory'): void {
	if (skipWhenNotInstalled && !n8nInstalled(version)) {
		process.stdout.write(`[polling e2e ${version}] SKIPPED: n8n ${version} is not installed in the cache (node scripts/n8n-runtime.js --version ${version})\n`);
		describe.skip(`Lofty Polling Trigger (n8n ${version})`, () => test('skipped', () => undefined));
		return;
	}
	describe(`Lofty Polling Trigger in n8n ${version} (${scheduler} poll scheduler)`, () => {
		const n8n = new N8nServer(version, `polling-${version}-${scheduler}`, scheduler === 'durable' ? DURABLE_SCHEDULER : {});
		let sandbox: Sandbox;
		let workflowId = '';

		const newLead = async (firstName: string): Promise<string> => {
			const r = await httpRequest('POST', `${sandbox.url}/v1.0/leads`, JSON.stringify({ firstName }), { Authorization: `token ${sandbox.apiKey}`, 'content-type': 'application/json' });
			return String((parseJson(r.text) as Json).leadId);
		};
		const newCall = (): string =>
			commState(sandbox.store)
				.add({ leadId: BigInt(SEED_IDS.bigLeadId), agentId: BigInt(SEED_IDS.demoUserId), kind: 'CALL', communicationType: 'MANUAL', direction: 'Outbound', time: Date.now() - 1000 })
				.id.toString();

		const executions = () => executionsOf(n8n, workflowId);

		/** Waits (bounded by NEXT_POLLS_MS) until the executions hold `count` items. */
		async function items(count: number, what: string): Promise<Json[]> {
			const deadline = Date.now() + NEXT_POLLS_MS;
			for (;;) {
				const exs = await executions();
				const all = exs.flatMap(itemsOf);
				if (exs.every(finished) && all.length >= count) return all;
				if (Date.now() > deadline) throw new Error(`${what}: ${all.length} of ${count} items within ${NEXT_POLLS_MS / 1000} s\n${n8n.logTail(30)}`);
				await sleep(1000);
			}
		}

		const setup = async () => {
			sandbox = await startSandbox({ port: 0, rateLimit: { perWindow: 1_000_000, windowMs: 60_000 } });
			await startOneAtATime(() => n8n.start());
			workflowId = await createPollingWorkflow(n8n, sandbox, `Lofty e2e: polling trigger (${version})`, ['lead', 'call']);
		};
		const teardown = async () => {
			if (workflowId) await n8n.api('POST', `/workflows/${workflowId}/deactivate`).catch(() => undefined);
			await n8n.stop();
			await sandbox?.stop();
		};
		const scenario = new BackgroundScenario(setup, teardown);
		scenarios.push(scenario);

		scenario.test('activation takes note of what is there: nothing from before starts the workflow', async () => {
			await newLead('Before Activation');
			await activate(n8n, sandbox, workflowId, ['/v1.0/leads', '/v2.0/communication/agent']);
			await sleep(2000);
			expect(await executions()).toEqual([]);
		});

		scenario.test('leads and a call written between polls: one item each at the next poll, in the webhook events\' shape', async () => {
			const a = await newLead('Polled A');
			const b = await newLead('Polled B');
			const call = newCall();
			const all = await items(3, 'the new leads and call');
			expect(all.map(keyOf).sort()).toEqual([`call.created:${SEED_IDS.bigLeadId}:${call}`, `lead.created:${a}:`, `lead.created:${b}:`].sort());
			expect(all.find((i) => i.leadId === a)).toMatchObject({ listId: 2, action: 'created', teamId: SEED_IDS.teamId, eventKey: 'createdLead', deliveryId: null });
			for (const ex of await executions()) expect(ex.status).toBe('success');
		});

		scenario.test('n8n stopped and started on the same database: the lead written meanwhile once, nothing earlier again', async () => {
			const before = (await executions()).flatMap(itemsOf).length;
			await n8n.halt();
			const c = await newLead('While Down');
			await n8n.restart();
			const all = await items(before + 1, 'the lead written while n8n was down');
			// One more poll (the one that emits a lead written now): only that lead is new, nothing came twice.
			const d = await newLead('After Restart');
			const after = await items(all.length + 1, 'the lead written after the restart');
			expect(after).toHaveLength(all.length + 1);
			expect(after.filter((i) => i.leadId === d && i.event === 'lead.created')).toHaveLength(1);
			expect(after.filter((i) => i.leadId === c && i.event === 'lead.created')).toHaveLength(1);
			expect(new Set(after.map(keyOf)).size).toBe(after.length);
		});
	});
}

// The longest run first (the backlogs take a few polls; after a restart the durable scheduler polls only at the
// ticks): the runs start in this order, one after the other.
defineScrollBacklogRun(process.env.LOFTY_E2E_N8N_VERSION || '2.41.1', (scenario) => scenarios.push(scenario), startOneAtATime);
definePollingSuite(process.env.LOFTY_E2E_N8N_VERSION || '2.41.1', false, 'durable');
definePollingSuite(process.env.LOFTY_E2E_N8N_VERSION || '2.41.1');
definePollingSuite('2.8.4', true);
definePollingSuite('1.123.81', !process.env.CI);
