/**
 * Return All against a repeating server (sandbox faults repeatPage, staleCursor, pageCap, overstateTotal), one
 * list of each paging style: the node never emits a record twice, never spins, and never ends short of the total
 * Lofty announced without saying so (transport/pageGuard.ts; docs/api-readings.md).
 */
import { SEED_IDS } from '../../sandbox';
import { CALENDAR_SEED } from '../../sandbox/resources/calendar';
import { COMM_SEED } from '../../sandbox/resources/communication';
import { byId, run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const faults = () => sandbox().faults;
const visibleLeads = () => [...sandbox().store.leads.values()].filter((l) => l.deletedAt === null && sandbox().store.canAccess(BigInt(SEED_IDS.demoUserId), l)).length;
const leads = { resource: 'lead', operation: 'getAll', returnAll: true };
const LEADS = { method: 'GET', path: '/v1.0/leads' };
const calendar = { resource: 'calendar', operation: 'getAll', returnAll: true, filters: { startTime: new Date(CALENDAR_SEED.from).toISOString(), endTime: new Date(CALENDAR_SEED.to).toISOString(), includeFinished: true } };
const CALENDAR = { method: 'GET', path: '/v2.0/calendar' };
const iso = (ms: number) => new Date(ms).toISOString();
const search = { resource: 'communication', operation: 'searchByAgent', returnAll: true, startTime: iso(COMM_SEED.windowStart), endTime: iso(COMM_SEED.windowEnd) };
const SEARCH = { method: 'GET', path: '/v2.0/communication/agent' };

describe('offset paging (Lead: Get Many)', () => {
	it('a page that repeats the previous one stops the read with an error, no record returned twice', async () => {
		faults().inject({ kind: 'repeatPage', skip: 1, match: LEADS });
		const error = await runError(sandbox(), leads);
		expect(error.message).toBe('Lofty answered the next page with records it had already sent (after 100 records): the list does not advance');
		expect(error.description).toMatch(/Nothing was returned for this item, so that no record is returned twice/);
		expect(sandbox().count('GET', '/v1.0/leads')).toBe(2);
	});

	it('a scroll id that does not advance stops the read', async () => {
		faults().inject({ kind: 'staleCursor', param: 'scrollId', field: '_metadata.scrollId', skip: 1, match: LEADS });
		const error = await runError(sandbox(), leads);
		expect(error.message).toMatch(/records it had already sent \(after 200 records\)/);
		expect(sandbox().count('GET', '/v1.0/leads')).toBe(3);
	});

	it('pages shorter than asked while the total says more: read on, every lead once', async () => {
		faults().inject({ kind: 'pageCap', param: 'limit', max: 30, times: 100, match: LEADS });
		const n = visibleLeads();
		const items = await run(sandbox(), leads);
		expect(items).toHaveLength(n);
		expect(new Set(items.map((i) => i.json.leadId)).size).toBe(n);
		expect(sandbox().count('GET', '/v1.0/leads')).toBe(Math.ceil(n / 30));
	});

	it('a total larger than the records there are: an error naming both, not a silent end', async () => {
		faults().inject({ kind: 'overstateTotal', field: '_metadata.total', by: 3, times: 100, match: LEADS });
		const n = visibleLeads();
		const error = await runError(sandbox(), leads);
		expect(error.message).toBe(`The list ended after ${n} records although Lofty announced ${n + 3}`);
	});

	it('with Continue On Fail the failed item says why and the other items complete', async () => {
		faults().inject({ kind: 'repeatPage', skip: 1, match: LEADS });
		const items = await run(sandbox(), (i) => (i === 0 ? leads : { resource: 'lead', operation: 'get', leadId: byId(SEED_IDS.bigLeadId) }), { items: [{}, {}], continueOnFail: true });
		expect(items[0]).toEqual({ json: expect.objectContaining({ error: expect.stringMatching(/already sent/) }), pairedItem: { item: 0 } });
		expect(items[1].json.leadId).toBe(SEED_IDS.bigLeadId);
	});
});

describe('page paging (Calendar: Get Many)', () => {
	it('a server with a smaller largest page: read on in its size from the first page, every entry once', async () => {
		faults().inject({ kind: 'pageCap', param: 'pageSize', max: 400, times: 100, match: CALENDAR });
		const items = await run(sandbox(), calendar);
		expect(items).toHaveLength(CALENDAR_SEED.demoCount);
		expect(new Set(items.map((i) => i.json.id)).size).toBe(CALENDAR_SEED.demoCount);
		expect(sandbox().requests.map((r) => [r.query.page, r.query.pageSize])).toEqual(
			Array.from({ length: Math.ceil(CALENDAR_SEED.demoCount / 400) }, (_, k) => [String(k), k === 0 ? '500' : '400']),
		);
	});

	it('a later page shorter than asked while the total says more: an error, since page numbers would skip records', async () => {
		faults().inject({ kind: 'pageCap', param: 'pageSize', max: 400, skip: 1, times: 100, match: CALENDAR });
		const error = await runError(sandbox(), calendar);
		expect(error.message).toBe('Lofty sent 400 of 500 records on page 2 while saying more follow (after 800 records): reading on by page number would skip records');
	});

	it('a repeated page stops the read', async () => {
		faults().inject({ kind: 'repeatPage', skip: 1, match: CALENDAR });
		expect((await runError(sandbox(), calendar)).message).toMatch(/already sent \(after 500 records\)/);
	});
});

describe('keyset paging (Communication: Get Call History)', () => {
	const history = { resource: 'communication', operation: 'getCallHistory', leadId: byId(COMM_SEED.historyLeadId), returnAll: true };

	it('a page that does not advance past currentId stops the read', async () => {
		faults().inject({ kind: 'repeatPage', skip: 1, match: { method: 'GET', path: '/v1.0/communication/call/v2' } });
		const error = await runError(sandbox(), history);
		expect(error.message).toMatch(/already sent \(after 1000 records\)/);
		expect(sandbox().count('GET', '/v1.0/communication/call/v2')).toBe(2);
	});
});

describe('cursor paging (Communication: Search Agent Communications)', () => {
	it('a cursor that repeats stops the read instead of looping', async () => {
		faults().inject({ kind: 'staleCursor', param: 'cursor', field: 'nextCursor', skip: 1, match: SEARCH });
		const error = await runError(sandbox(), search);
		expect(error.message).toBe('Lofty sent back a page cursor it had sent before (after 2000 records): the list does not advance');
		expect(sandbox().count('GET', '/v2.0/communication/agent')).toBe(2);
	});

	it('a repeated page stops the read', async () => {
		faults().inject({ kind: 'repeatPage', skip: 1, match: SEARCH });
		expect((await runError(sandbox(), search)).message).toMatch(/already sent \(after 1000 records\)/);
	});
});
