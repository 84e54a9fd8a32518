/**
 * Two executions at once end in the same Lofty state as one after the other (issue 26): two trigger deliveries, two
 * workflows, writing to the same leads, transactions and new people at the same moment, each its own fields
 * (test/harness/diffItems.ts `twoExecutions`), so that their writes do not contradict each other. One sandbox gets the
 * two item lists one after the other, the other gets both at once (Parallel Requests 8, answers after 0 to 12 ms);
 * the final states must be the same. A write that sends what it read first (a transaction's whole custom-field
 * list, Create or Update) loses the other execution's value when the two interleave.
 *
 * Seeds as in differential.test.ts: LOFTY_DIFF_SEEDS (default 25, 200 with `npm run test:diff`) from
 * LOFTY_DIFF_SEED_FROM.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { type Sandbox, startSandbox } from '../../sandbox';
import { ItemGenerator, type Params } from '../harness/diffItems';
import { diffSeeds } from '../harness/diffSeeds';
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
	it.each(diffSeeds())('seed %i', async (seed) => {
		const [a, b] = new ItemGenerator(seed).twoExecutions(8);
		fresh();
		const known = idsIn([a, b]);
		const ranSequentially = [...(await execution(sequential, a, 1)), ...(await execution(sequential, b, 1))];
		// The two executions are independent: the second is not waiting for the first to end.
		const ranTogether = (await Promise.all([execution(together, a, 8), execution(together, b, 8)])).flat();
		const failed = (out: INodeExecutionData[]) => out.filter((o) => o.json.error !== undefined).map((o) => o.json.error);
		// The item lists are valid: a failure would hide the writes this test is about.
		expect({ seed, failed: failed(ranSequentially) }).toEqual({ seed, failed: [] });
		expect({ seed, failed: failed(ranTogether) }).toEqual({ seed, failed: [] });
		const where = `seed ${seed} (rerun: LOFTY_DIFF_SEED_FROM=${seed} LOFTY_DIFF_SEEDS=1 npx jest test/resilience/twoExecutions.test.ts); P1 is one after the other, P8 both at once`;
		expect({ where, difference: stateDifference(sequential, together, known, true) }).toEqual({ where, difference: undefined });
	});
});
