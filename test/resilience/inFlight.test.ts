/**
 * Requests in flight against the sandbox answering after a latency: several items (and pages) on their way at
 * once, yet the output, pairing, per-item errors and exactly-once writes as with one at a time. No timing
 * assertions: never more in flight than Parallel Requests allows, what was applied, what every item ended with.
 * How many are in flight at once (a machine's speed decides it) is measured by `npm run bench` (row 11).
 */
import { resetPacing } from '../../nodes/Lofty/transport/pacing';
import { SEED_IDS, type Sandbox } from '../../sandbox';
import { byId, run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
beforeEach(() => {
	resetPacing();
	sandbox().setLatency({ fixedMs: 30, jitterMs: 30 });
});

function addLeads(sb: Sandbox, count: number, prefix: string): string[] {
	return Array.from({ length: count }, (_, i) => sb.store.addLead({ firstName: `${prefix}${i}`, ownerUserId: SEED_IDS.demoUserId }).leadId.toString());
}

const leadPath = '/v1.0/leads/{leadId}';
const MISSING = '999999999999999999';
const update = (ids: string[], extra: Record<string, unknown> = {}) => (i: number) => ({
	resource: 'lead',
	operation: 'update',
	leadId: byId(ids[i]),
	updateFields: { firstName: `Updated${i}` },
	...extra,
});
const items = (n: number) => Array.from({ length: n }, () => ({}));
const puts = () => sandbox().requests.filter((r) => r.method === 'PUT');

describe('items in flight', () => {
	it('keeps several requests in flight, with the output in item order, each paired, each write applied once', async () => {
		const ids = addLeads(sandbox(), 40, 'Par');
		const out = await run(sandbox(), update(ids), { items: items(40) });
		expect(sandbox().concurrency().most).toBeLessThanOrEqual(8);
		expect(out.map((o) => o.pairedItem)).toEqual(ids.map((_, item) => ({ item })));
		expect(out.map((o) => o.json.leadId)).toEqual(ids);
		expect(sandbox().faults.writes('PUT', leadPath)).toBe(40);
		expect(ids.map((id) => sandbox().store.getLead(id)?.firstName)).toEqual(ids.map((_, i) => `Updated${i}`));
		expect(puts().every((r) => r.status === 200)).toBe(true);
	});

	it('Parallel Requests 1 sends one item at a time', async () => {
		const ids = addLeads(sandbox(), 12, 'One');
		await run(sandbox(), update(ids, { requestOptions: { parallelRequests: 1 } }), { items: items(12) });
		expect(sandbox().concurrency().most).toBe(1);
		expect(sandbox().faults.writes('PUT', leadPath)).toBe(12);
	});

	it('stays within the Parallel Requests set', async () => {
		const ids = addLeads(sandbox(), 30, 'Three');
		await run(sandbox(), update(ids, { requestOptions: { parallelRequests: 3 } }), { items: items(30) });
		expect(sandbox().concurrency().most).toBeLessThanOrEqual(3);
		expect(sandbox().faults.writes('PUT', leadPath)).toBe(30);
	});

	it('with Continue On Fail, a failing item fails alone among the items in flight', async () => {
		const ids = addLeads(sandbox(), 20, 'Cof');
		ids[5] = MISSING;
		ids[11] = `${MISSING}7`;
		const out = await run(sandbox(), update(ids), { items: items(20), continueOnFail: true });
		expect(out.map((o) => o.pairedItem)).toEqual(ids.map((_, item) => ({ item })));
		expect(out.map((o) => (o.json.error ? 'error' : o.json.leadId))).toEqual(ids.map((id) => (id.startsWith(MISSING) ? 'error' : id)));
		expect(out[5].json.error).toMatch(/LEAD_NOT_EXIST|404/);
		expect(sandbox().faults.writes('PUT', leadPath)).toBe(18);
	});

	it('without Continue On Fail, fails with the first failing item in item order once the requests in flight have settled', async () => {
		const ids = addLeads(sandbox(), 60, 'Stop');
		ids[3] = MISSING;
		ids[6] = `${MISSING}7`;
		const error = await runError(sandbox(), update(ids), { items: items(60) });
		expect(error.context?.itemIndex).toBe(3);
		expect(error.message).toMatch(/HTTP 404/);
		// Nothing is left on its way, nothing was sent twice, and the items after the failure were not all sent.
		expect(sandbox().concurrency().now).toBe(0);
		const sent = puts().map((r) => r.path);
		expect(new Set(sent).size).toBe(sent.length);
		expect(sent.length).toBeLessThan(60);
	});

	it('sends writes to the same record one after another, in item order', async () => {
		const leadId = SEED_IDS.bigLeadId;
		const out = await run(sandbox(), (i) => ({ resource: 'lead', operation: 'update', leadId: byId(leadId), updateFields: { firstName: `Same${i}` } }), {
			items: items(10),
		});
		expect(out).toHaveLength(10);
		expect(puts().map((r) => JSON.parse(r.body).firstName)).toEqual(Array.from({ length: 10 }, (_, i) => `Same${i}`));
		expect(sandbox().store.getLead(leadId)?.firstName).toBe('Same9');
	});

	it('a 429 burst in the middle of a parallel run: every write is still applied exactly once', async () => {
		const ids = addLeads(sandbox(), 30, 'Burst');
		sandbox().faults.inject({ kind: '429', times: 3, retryAfterSec: 1, skip: 10, match: { method: 'PUT' } });
		const out = await run(sandbox(), update(ids), { items: items(30) });
		expect(out.every((o) => o.json.error === undefined)).toBe(true);
		expect(puts().filter((r) => r.status === 429)).toHaveLength(3);
		expect(sandbox().faults.writes('PUT', leadPath)).toBe(30);
		expect(ids.map((id) => sandbox().store.getLead(id)?.firstName)).toEqual(ids.map((_, i) => `Updated${i}`));
	});

	it('stays within a small announced limit with requests in flight: no 429', async () => {
		const ids = addLeads(sandbox(), 24, 'Lim');
		sandbox().setRateLimit({ perWindow: 10, windowMs: 1000 });
		const out = await run(sandbox(), update(ids), { items: items(24) });
		expect(out.every((o) => o.json.error === undefined)).toBe(true);
		expect(puts().filter((r) => r.status === 429)).toHaveLength(0);
		expect(sandbox().concurrency().most).toBeLessThanOrEqual(8);
	});
});

describe('Return All with pages in parallel', () => {
	const getAll = { resource: 'lead', operation: 'getAll', returnAll: true, simplify: false };

	it('reads every record once, in the order of one page after another, with ceil(N / 100) requests', async () => {
		addLeads(sandbox(), 1000, 'Page');
		const sequential = await run(sandbox(), { ...getAll, requestOptions: { parallelRequests: 1 } });
		expect(sandbox().concurrency().most).toBe(1);
		sandbox().requests.length = 0;
		sandbox().resetConcurrency();
		const parallel = await run(sandbox(), getAll);
		expect(parallel.map((o) => o.json.leadId)).toEqual(sequential.map((o) => o.json.leadId));
		expect(new Set(parallel.map((o) => o.json.leadId)).size).toBe(parallel.length);
		expect(sandbox().requests).toHaveLength(Math.ceil(parallel.length / 100));
		expect(parallel.every((o) => (o.pairedItem as { item: number }).item === 0)).toBe(true);
	});

	it('pages of several items share the Parallel Requests of the execution', async () => {
		addLeads(sandbox(), 600, 'Share');
		const out = await run(sandbox(), { ...getAll, requestOptions: { parallelRequests: 4 } }, { items: items(3) });
		expect(sandbox().concurrency().most).toBeLessThanOrEqual(4);
		const perItem = out.length / 3;
		expect(out.map((o) => (o.pairedItem as { item: number }).item)).toEqual([0, 1, 2].flatMap((item) => Array(perItem).fill(item)));
	});
});
