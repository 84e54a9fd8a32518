/**
 * Stop and failure mean stop (issue 35, item 6; transport/itemGate.ts): an item that has not sent anything when the
 * execution is cancelled, or (without Continue On Fail) when an earlier item has failed the run, sends nothing, as
 * at Parallel Requests 1. Items waiting for their turn or for the rate limit are such items.
 */
import { heldTurns } from '../../nodes/Lofty/model/turns';
import { resetPacing } from '../../nodes/Lofty/transport/pacing';
import { SEED_IDS } from '../../sandbox';
import { gate, until } from '../harness/gates';
import { forgetProcessMemory } from '../harness/processMemory';
import { byId, run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
beforeEach(() => {
	forgetProcessMemory();
	resetPacing();
});
afterEach(() => expect(heldTurns()).toBe(0));

const update = (leadId: string, firstName: string, parallelRequests = 8) => ({
	resource: 'lead',
	operation: 'update',
	leadId: byId(leadId),
	updateFields: { firstName },
	requestOptions: { parallelRequests },
});
const puts = () => sandbox().requests.filter((r) => r.method === 'PUT');

describe('a cancelled execution sends nothing more', () => {
	it('items waiting for their turn on one lead do not write after the stop', async () => {
		const written = gate();
		sandbox().faults.inject({ kind: 'slow', until: written.promise, match: { method: 'PUT' } });
		const stop = new AbortController();
		const names = ['First', 'Second', 'Third'];
		const running = run(sandbox(), (i) => update(SEED_IDS.bigLeadId, names[i]), { items: [{}, {}, {}], cancelSignal: stop.signal, continueOnFail: true });
		await until(() => puts().length === 1);
		stop.abort();
		written.open();
		await running;
		expect(puts().map((r) => JSON.parse(r.body).firstName)).toEqual(['First']);
	});

	it('items waiting for the rate limit do not write after the stop', async () => {
		sandbox().faults.inject({ kind: '429', retryAfterSec: 1, match: { method: 'PUT' } });
		const stop = new AbortController();
		const leads = [SEED_IDS.bigLeadId, SEED_IDS.bigLeadId2];
		const running = run(sandbox(), (i) => update(leads[i], `Paced ${i}`), { items: [{}, {}], cancelSignal: stop.signal, continueOnFail: true });
		await until(() => puts().some((r) => r.status === 429));
		stop.abort();
		await running;
		expect(puts().filter((r) => r.status === 200)).toEqual([]);
	});

	it('an n8n without a cancel signal runs every item', async () => {
		await run(sandbox(), (i) => update(SEED_IDS.bigLeadId, `Item ${i}`), { items: [{}, {}] });
		expect(puts().map((r) => JSON.parse(r.body).firstName)).toEqual(['Item 0', 'Item 1']);
	});
});

describe('without Continue On Fail, a failed item stops the items that have not started', () => {
	const failing = () => sandbox().faults.inject({ kind: '500', match: { method: 'PUT', path: `/v1.0/leads/${SEED_IDS.bigLeadId}` } });

	it.each([1, 8])('at Parallel Requests %i: the item waiting for its turn sends nothing, the node fails with the first item', async (parallel) => {
		failing();
		const error = await runError(sandbox(), (i) => update(SEED_IDS.bigLeadId, `Item ${i}`, parallel), { items: [{}, {}, {}] });
		expect(error.context?.itemIndex).toBe(0);
		expect(puts().length).toBe(1);
	});

	it('with Continue On Fail, the later items still run', async () => {
		failing();
		const out = await run(sandbox(), (i) => update(SEED_IDS.bigLeadId, `Item ${i}`), { items: [{}, {}, {}], continueOnFail: true });
		expect(out.map((o) => o.json.error === undefined)).toEqual([false, true, true]);
	});
});
