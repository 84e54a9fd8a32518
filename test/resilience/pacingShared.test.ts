/**
 * Executions sharing one credential against the sandbox: a slow request never holds up another execution's
 * request (the pacer waits for an answer PROBE_WAIT_MS at most), and the shared budget still holds under both
 * readings of X-RateLimit-Remaining (as of the request, as of the answer). No timing assertions: which
 * execution finished first, what was sent while the slow request was open, the answers 429 and the windows used.
 */
import { resetPacing } from '../../nodes/Lofty/transport/pacing';
import { SEED_IDS, type Sandbox } from '../../sandbox';
import { byId, run, useSandbox } from '../harness/sandbox';
import { STEP_BUDGET_MS } from '../harness/budgets';

const sandbox = useSandbox();
beforeEach(() => resetPacing());

const leadPath = '/v1.0/leads/{leadId}';
const getLead = (leadId: string) => ({ resource: 'lead', operation: 'get', leadId: byId(leadId) });
const items = (n: number) => Array.from({ length: n }, () => ({}));
/** Longer than the probe's bound plus a round trip, even on a busy machine. */
const SLOW_MS = 8000;

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
		sandbox().faults.inject({ kind: 'slow', delayMs: SLOW_MS, match: { method: 'GET', path: leadPath } });
		const first = started(run(sandbox(), getLead(SEED_IDS.bigLeadId)));
		// The slow request reached Lofty (logged on arrival, answered SLOW_MS later).
		await until(() => sandbox().requests.length === 1);
		const second = await run(sandbox(), getLead(other));
		expect(second[0].json.leadId).toBe(other);
		expect(first.done).toBe(false);
		expect(sandbox().concurrency().now).toBe(1); // the slow one, still open
		const out = (await first.promise) as Array<{ json: { leadId?: string } }>;
		expect(out[0].json.leadId).toBe(SEED_IDS.bigLeadId);
		expect(sandbox().requests.map((r) => r.status)).toEqual([200, 200]);
	});

	it('a request waiting for the next window goes at its reset, though a request of the old window is still open', async () => {
		sandbox().setRateLimit({ perWindow: 3, windowMs: 1000 });
		const ids = addLeads(sandbox(), 4, 'Win');
		// The third of three requests (the whole window) is slow.
		sandbox().faults.inject({ kind: 'slow', delayMs: SLOW_MS, skip: 2, match: { method: 'GET', path: leadPath } });
		const first = started(run(sandbox(), (i) => getLead(ids[i]), { items: items(3) }));
		await until(() => sandbox().requests.length === 3);
		const second = await run(sandbox(), getLead(ids[3]));
		expect(second[0].json.leadId).toBe(ids[3]);
		expect(first.done).toBe(false);
		await first.promise;
		expect(sandbox().requests.map((r) => r.status)).toEqual([200, 200, 200, 200]);
	});
});

/** The sandbox's fixed windows replayed from the request log: how many windows the accepted requests used. */
function windowsUsed(times: number[], windowMs: number): number {
	let windows = 0;
	let end = -Infinity;
	for (const time of [...times].sort((a, b) => a - b)) {
		if (time >= end) {
			windows++;
			end = time + windowMs;
		}
	}
	return windows;
}

describe.each(['request', 'answer'] as const)('two executions share one credential (Remaining as of the %s)', (remainingAt) => {
	it('no 429, every write once, and each window used to the full', async () => {
		const perWindow = 30;
		// Long enough that a loaded machine sends a window's 30 requests well within it (at 1 s, stalls left windows
		// half used under `npm run test:starved`).
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
		// Both executions had requests in flight at once, and no window was left with room while the next was awaited.
		expect(sandbox().concurrency().most).toBeGreaterThan(8);
		expect(windowsUsed(puts.map((r) => r.time), windowMs)).toBe(90 / perWindow);
	});
});
