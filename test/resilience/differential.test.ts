/**
 * Parallel Requests changes speed, never results (issues 18, 26). For every write operation of the node (from the
 * resource tables), generated item lists (test/harness/diffItems.ts, on fast-check) run once at Parallel Requests 1
 * and once at 8, against two sandboxes reset to the same seed data, the run at 8 answering after a random latency per
 * request: the final Lofty state (test/harness/storeSnapshot.ts) and the output items (order, pairing, errors) must
 * be the same. Each case starts from nothing: the sandboxes reset and the node's process-wide memories cleared
 * (test/harness/processMemory.ts). Two executions at once: twoExecutions.test.ts.
 *
 * `npm test` runs LOFTY_DIFF_RUNS lists per resource (default 7; `npm run test:diff` 200). A failure shrinks to the
 * smallest item list that still differs and prints it with fast-check's seed and path; replay it with
 * LOFTY_DIFF_SEED=<seed> LOFTY_DIFF_PATH=<path> npx jest test/resilience/differential.test.ts -t '<resource>'. The
 * faults Lofty names (lost answers, 5xx, the read delay, Continue On Fail off): faultDifferential.test.ts.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { type Sandbox, startSandbox } from '../../sandbox';
import { test } from '@fast-check/jest';

import { itemLists, type Params, type WriteOp, writeOperations } from '../harness/diffItems';
import { propertyBudgetMs } from '../harness/budgets';
import { diffRuns, propertyOptions, shrinkingBounded } from '../harness/diffRuns';
import { forgetProcessMemory } from '../harness/processMemory';
import { run } from '../harness/sandbox';
import { canonical, idsIn, stateDifference } from '../harness/storeSnapshot';

const RUNS = diffRuns(7);
const CLOCK = Date.UTC(2026, 2, 1, 12);

let one: Sandbox;
let eight: Sandbox;

/**
 * Two sandboxes of their own for each resource's property: a request of another resource's runs that a loaded machine
 * delivers late (the client gave up on it) cannot reach them.
 */
async function startBoth(): Promise<void> {
	const options = { port: 0, rateLimit: { perWindow: 1_000_000, windowMs: 60_000 } };
	[one, eight] = await Promise.all([startSandbox(options), startSandbox(options)]);
	for (const sb of [one, eight]) {
		// Lofty's lead routing hands new leads out round robin in the order they arrive: which agent a new lead gets
		// may differ when creates run at once (docs/performance.md). Pinned to one agent here, so the test sees the rest.
		const route = sb.store.routeAgent.bind(sb.store);
		sb.store.routeAgent = (teamId: bigint) => route(teamId, false);
	}
}

/** Both sandboxes back to the seed data, on one fixed clock; the one for Parallel Requests 8 answers after 0 to 12 ms. */
function fresh(): void {
	for (const sb of [one, eight]) {
		// Before the reset: seed data dated relative to now (and seeded lazily) is then the same in both.
		sb.store.now = () => CLOCK;
		sb.reset();
	}
	// One item at a time: a latency changes nothing but the time taken.
	eight.setLatency({ fixedMs: 0, jitterMs: 12 });
	forgetProcessMemory();
}

async function runAt(sb: Sandbox, items: Params[], parallelRequests: number): Promise<INodeExecutionData[]> {
	return await run(sb, (i) => ({ ...items[i], requestOptions: { parallelRequests } }), { items: items.map(() => ({})), continueOnFail: true });
}

const byResource = new Map<string, WriteOp[]>();
for (const w of writeOperations()) byResource.set(w.resource, [...(byResource.get(w.resource) ?? []), w]);

describe('the same item lists at Parallel Requests 1 and 8 end with the same Lofty state and the same output', () => {
	it('covers every write operation of the tables', () => {
		const listed = [...byResource.values()].flat().map((w) => `${w.resource}.${w.op.value}`);
		expect(listed.length).toBeGreaterThan(50);
		expect(listed).toEqual(expect.arrayContaining(['lead.update', 'lead.upsert', 'transaction.update', 'organization.updateOffice', 'salesAgent.updateSettings']));
	});

	const lists = (resource: string) =>
		itemLists((generator) => {
			const items = generator.itemsFor(byResource.get(resource)!, 10);
			return { items, skip: generator.int(items.length) };
		});
	describe.each([...byResource.keys()])('%s', (resource) => {
		beforeAll(startBoth);
		afterAll(async () => await Promise.all([one?.stop(), eight?.stop()]));
		test.prop([shrinkingBounded(lists(resource))], propertyOptions<[{ items: Params[]; skip: number }]>(RUNS))('same state and output', async ({ items, skip }) => {
			const t0 = Date.now();
			fresh();
			const t1 = Date.now();
			// IDs the items name stay as they are; every other ID (seeded or new) reads #new, so that records created in
			// another order compare equal, and a new ID that happens to equal a seeded one does not stand out.
			const known = idsIn(items);
			// A 429 on one request (the same count into each run): that write waits and is sent again, later than the
			// items after it were; nothing may show it.
			for (const sb of [one, eight]) sb.faults.inject({ kind: '429', times: 1, retryAfterSec: 0, skip });
			const outOne = await runAt(one, items, 1);
			const t2 = Date.now();
			const outEight = await runAt(eight, items, 8);
			const t3 = Date.now();
			const where = `resource ${resource} (fast-check prints the seed and path to replay it)`;
			const shown = (out: INodeExecutionData[]) => out.map((o) => JSON.stringify(canonical({ pairedItem: o.pairedItem, json: o.json }, known)));
			const [a, b] = [shown(outOne), shown(outEight)];
			const item = a.findIndex((line, i) => line !== b[i]);
			expect({ where, item, p1: a[item], p8: b[item] }).toEqual({ where, item: -1, p1: undefined, p8: undefined });
			expect(a.length).toBe(b.length);
			const difference = stateDifference(one, eight, known);
			// LOFTY_DIFF_STATS=1: how the items ended, to see that the lists do real work, and where the time goes.
			if (process.env.LOFTY_DIFF_STATS) {
				const ok = outOne.filter((o) => o.json.error === undefined).length;
				console.log(`${resource}: ${items.length} items, ${ok} ok; ms: reset ${t1 - t0}, P1 ${t2 - t1}, P8 ${t3 - t2}, compare ${Date.now() - t3}`);
			}
			expect({ where, difference }).toEqual({ where, difference: undefined });
		}, propertyBudgetMs(RUNS));
	});
});
