/**
 * Executions sharing one credential against the sandbox: a slow request never holds up another execution's
 * request (the pacer waits for an answer PROBE_WAIT_MS at most), and the shared budget still holds under both
 * readings of X-RateLimit-Remaining (as of the request, as of the answer). Outcomes only: the slow answer is held
 * until the test lets it go, so "still open" does not depend on the machine's speed; whether each window is used to
 * the full is measured by `npm run bench` (row 10, two executions sharing one credential).
 */
import { resetPacing } from '../../nodes/Lofty/transport/pacing';
import { SEED_IDS, type Sandbox } from '../../sandbox';
import { byId, run, useSandbox } from '../harness/sandbox';
import { HUNG_MS, STEP_BUDGET_MS } from '../harness/budgets';

const sandbox = useSandbox();
beforeEach(() => resetPacing());

const leadPath = '/v1.0/leads/{leadId}';
const getLead = (leadId: string) => ({ resource: 'lead', operation: 'get', leadId: byId(leadId) });
const items = (n: number) => Array.from({ length: n }, () => ({}));
/** An answer held back until the test lets it go. */
function heldAnswer(): { until: Promise<void>; release: () => void } {
	let release!: () => void;
	const until = new Promise<void>((resolve) => (release = resolve));
	return { until, release };
}

function addLeads(sb: Sandbox, count: number, prefix: string): string[] {
	return Array.from({ length: count }, (_, i) => sb.store.addLead({ firstName: `${prefix}${i}`, ownerUserId: SEED_IDS.demoUserId }).leadId.toString());
}

async function until(condition: () => boolean): Promise<void> {
	while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Starts a run and tells whether it has finished. */
function started(promise: Promise<unknown>) {
	const state = { done: false, promise };
	void promise.finally(() => (state.done = true));
	return state;
}

describe('a slow request does not hold up the other executions of the credential', () => {
	it("the first request of the process is slow: a second execution's Lead > Get is answered while it is still open", async () => {
		const other = addLeads(sandbox(), 1, 'Other')[0];
		const held = heldAnswer();
		sandbox().faults.inject({ kind: 'slow', delayMs: HUNG_MS, until: held.until, match: { method: 'GET', path: leadPath } });
		const first = started(run(sandbox(), getLead(SEED_IDS.bigLeadId)));
		// The slow request reached Lofty (logged on arrival, answered when let go).
		await until(() => sandbox().requests.length === 1);
		const second = await run(sandbox(), getLead(other));
		expect(second[0].json.leadId).toBe(other);
		expect(first.done).toBe(false);
		expect(sandbox().concurrency().now).toBe(1); // the slow one, still open
		held.release();
		const out = (await first.promise) as Array<{ json: { leadId?: string } }>;
		expect(out[0].json.leadId).toBe(SEED_IDS.bigLeadId);
		expect(sandbox().requests.map((r) => r.status)).toEqual([200, 200]);
	});

	it('a request waiting for the next window goes at its reset, though a request of the old window is still open', async () => {
		sandbox().setRateLimit({ perWindow: 3, windowMs: 1000 });
		const ids = addLeads(sandbox(), 4, 'Win');
		// The third of three requests (the whole window) is slow.
		const held = heldAnswer();
		sandbox().faults.inject({ kind: 'slow', delayMs: HUNG_MS, until: held.until, skip: 2, match: { method: 'GET', path: leadPath } });
		const first = started(run(sandbox(), (i) => getLead(ids[i]), { items: items(3) }));
		await until(() => sandbox().requests.length === 3);
		const second = await run(sandbox(), getLead(ids[3]));
		expect(second[0].json.leadId).toBe(ids[3]);
		expect(first.done).toBe(false);
		held.release();
		await first.promise;
		expect(sandbox().requests.map((r) => r.status)).toEqual([200, 200, 200, 200]);
	});
});

describe.each(['request', 'answer'] as const)('two executions share one credential (Remaining as of the %s)', (remainingAt) => {
	it('no 429 and every write once', async () => {
		const perWindow = 30;
		// Three windows of 30 writes; how full each is, is `npm run bench`'s (row 10).
		const windowMs = STEP_BUDGET_MS;
		sandbox().setRateLimit({ perWindow, windowMs, remainingAt });
		sandbox().setLatency({ fixedMs: 20, jitterMs: 40 });
		const ids = addLeads(sandbox(), 90, `Share${remainingAt}`);
		const update = (offset: number) => (i: number) => ({
			resource: 'lead',
			operation: 'update',
			leadId: byId(ids[offset + i]),
			updateFields: { firstName: `Updated${offset + i}` },
		});
		const [a, b] = await Promise.all([run(sandbox(), update(0), { items: items(45) }), run(sandbox(), update(45), { items: items(45) })]);
		expect([...a, ...b].filter((o) => o.json.error !== undefined)).toEqual([]);
		const puts = sandbox().requests.filter((r) => r.method === 'PUT');
		expect(puts.filter((r) => r.status === 429)).toHaveLength(0);
		expect(sandbox().faults.writes('PUT', leadPath)).toBe(90);
		expect(ids.map((id) => sandbox().store.getLead(id)?.firstName)).toEqual(ids.map((_, i) => `Updated${i}`));
	});
});
