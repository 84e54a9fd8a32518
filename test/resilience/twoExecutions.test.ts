/**
 * Two executions at once end in the same Lofty state as one after the other (issue 26): two trigger deliveries, two
 * workflows, writing to the same leads, transactions and new people at the same moment, each its own fields
 * (test/harness/diffItems.ts `twoExecutions`), so that their writes do not contradict each other. One sandbox gets the
 * two item lists one after the other, the other gets both at once (Parallel Requests 8, answers after 0 to 12 ms);
 * the final states must be the same. A write that sends what it read first (a transaction's whole custom-field
 * list, Create or Update) loses the other execution's value when the two interleave.
 *
 * Generated on fast-check as in differential.test.ts: LOFTY_DIFF_RUNS pairs of lists (default 25, 200 with
 * `npm run test:diff`); a failure shrinks and prints its seed and path (LOFTY_DIFF_SEED, LOFTY_DIFF_PATH replay it).
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { type Sandbox, startSandbox } from '../../sandbox';
import { test } from '@fast-check/jest';

import { itemLists, type Params } from '../harness/diffItems';
import { propertyBudgetMs } from '../harness/budgets';
import { diffRuns, propertyOptions, shrinkingBounded } from '../harness/diffRuns';
import { forgetProcessMemory } from '../harness/processMemory';
import { run } from '../harness/sandbox';
import { idsIn, stateDifference } from '../harness/storeSnapshot';

const CLOCK = Date.UTC(2026, 2, 1, 12);

let sequential: Sandbox;
let together: Sandbox;
beforeAll(async () => {
	const options = { port: 0, rateLimit: { perWindow: 1_000_000, windowMs: 60_000 } };
	[sequential, together] = await Promise.all([startSandbox(options), startSandbox(options)]);
	for (const sb of [sequential, together]) {
		// New leads go to one agent (round robin would follow the order of the creates; README, Performance).
		const route = sb.store.routeAgent.bind(sb.store);
		sb.store.routeAgent = (teamId: bigint) => route(teamId, false);
	}
});
afterAll(async () => await Promise.all([sequential?.stop(), together?.stop()]));

function fresh(): void {
	for (const sb of [sequential, together]) {
		sb.store.now = () => CLOCK;
		sb.reset();
	}
	together.setLatency({ fixedMs: 0, jitterMs: 12 });
	forgetProcessMemory();
}

async function execution(sb: Sandbox, items: Params[], parallelRequests: number): Promise<INodeExecutionData[]> {
	return await run(sb, (i) => ({ ...items[i], requestOptions: { parallelRequests } }), { items: items.map(() => ({})), continueOnFail: true });
}

describe('two executions at once end in the same Lofty state as one after the other', () => {
	const RUNS = diffRuns(25);
	test.prop([shrinkingBounded(itemLists((generator) => generator.twoExecutions(8)))], propertyOptions<[[Params[], Params[]]]>(RUNS))('the same final state', async ([a, b]) => {
		fresh();
		const known = idsIn([a, b]);
		const ranSequentially = [...(await execution(sequential, a, 1)), ...(await execution(sequential, b, 1))];
		// The two executions are independent: the second is not waiting for the first to end.
		const ranTogether = (await Promise.all([execution(together, a, 8), execution(together, b, 8)])).flat();
		const failed = (out: INodeExecutionData[]) => out.filter((o) => o.json.error !== undefined).map((o) => o.json.error);
		// The item lists are valid: a failure would hide the writes this test is about.
		expect({ failed: failed(ranSequentially) }).toEqual({ failed: [] });
		expect({ failed: failed(ranTogether) }).toEqual({ failed: [] });
		const where = 'P1 is one after the other, P8 both at once';
		expect({ where, difference: stateDifference(sequential, together, known, true) }).toEqual({ where, difference: undefined });
	}, propertyBudgetMs(RUNS));
});
