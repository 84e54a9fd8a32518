/**
 * Reading back what deliveries did not bring (nodes/LoftyTrigger/catchUp.ts) with a scripted Lofty: leads created
 * in an owed range read newest first within the budget, calls/emails/texts through the polling trigger's read
 * (mocked here: its own tests are the polling ones), what stays owed, and the keys each caught-up event is
 * remembered under. The trigger runs of the same: test/trigger/catchUp.test.ts.
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { caughtKey, deliveredDedupe, readBack, recordOf, runKey } from '../../nodes/LoftyTrigger/catchUp';
import { loftyRequest } from '../../nodes/Lofty/transport/request';
import { readSource } from '../../nodes/LoftyPollingTrigger/sources';

jest.mock('../../nodes/Lofty/transport/request', () => ({ ...jest.requireActual('../../nodes/Lofty/transport/request'), loftyRequest: jest.fn() }));
jest.mock('../../nodes/LoftyPollingTrigger/sources', () => ({ ...jest.requireActual('../../nodes/LoftyPollingTrigger/sources'), readSource: jest.fn() }));
const lofty = loftyRequest as jest.MockedFunction<typeof loftyRequest>;
const source = readSource as jest.MockedFunction<typeof readSource>;

/** n8n's clock in the test (a whole second, as a Date header is). */
const T = 1_700_000_000_000;
let now = T;
const ctx = { name: 'webhook' } as unknown as IWebhookFunctions;

/** Lofty's lead list, newest first, served in pages as GET /v1.0/leads answers; `date`: its clock for the Date header. */
function leadList(leads: IDataObject[], date?: number, each?: (offset: number) => void) {
	lofty.mockImplementation(async (_ctx, request) => {
		const qs = request.qs as IDataObject;
		each?.(Number(qs.offset));
		if (date !== undefined) request.onAnswer?.({ date: new Date(date).toUTCString() });
		const offset = Number(qs.offset);
		return { leads: leads.slice(offset, offset + Number(qs.limit)), _metadata: { total: leads.length } };
	});
}
const lead = (leadId: string, createTime: number | undefined): IDataObject => ({ leadId, createTime });
const leadIds = (events: Array<{ json: IDataObject }>) => events.map((e) => e.json.leadId ?? e.json.timelineId);
const owedIn = (data: IDataObject) => (data.catchUp as IDataObject).owed;

beforeEach(() => {
	now = T;
	jest.spyOn(Date, 'now').mockImplementation(() => now);
	lofty.mockReset();
	source.mockReset();
});
afterEach(() => jest.restoreAllMocks());

describe('the keys of an event a catch-up can bring', () => {
	it('a created lead by its leadId, a created call/email/text by its timelineId; nothing for other lists or actions', () => {
		expect(recordOf(2, { action: 'created', leadId: '5' })).toBe('2|created|5');
		expect(recordOf(6, { action: 'created', timelineId: '9', leadId: '5' })).toBe('6|created|9');
		expect(recordOf(8, { action: 'created', timelineId: '9' })).toBe('8|created|9');
		for (const [list, json] of [
			[2, { action: 'updated', leadId: '5' }],
			[3, { action: 'created', leadId: '5' }],
			[2, { action: 'created', leadId: 5 }],
			[2, { action: 'created', leadId: '' }],
			[6, { action: 'created', leadId: '5' }],
		] as Array<[number, IDataObject]>) {
			expect(recordOf(list, json)).toBeUndefined();
		}
		expect([runKey('x'), caughtKey('x')]).toEqual(['ran|x', 'caught|x']);
	});

	it("a delivered event: skipped when its catch-up or a run had it, and marks what it heard; other events by their own key", () => {
		expect(deliveredDedupe({ json: { listId: 2, action: 'created', leadId: '5' }, action: 'created', dedupeKey: 'k', timed: true })).toEqual({
			key: 'k',
			timed: true,
			seenAs: ['caught|2|created|5', 'ran|2|created|5'],
			marks: ['heard|2|created|5'],
		});
		expect(deliveredDedupe({ json: { listId: 3, action: 'created', leadId: '5' }, action: 'created', dedupeKey: 'k', timed: false })).toEqual({ key: 'k', timed: false, seenAs: ['ran|k'] });
		expect(deliveredDedupe({ json: { listId: '2', action: 'created', leadId: '5' }, action: 'created', dedupeKey: 'k', timed: true })).toEqual({ key: 'k', timed: true, seenAs: ['ran|k'] });
	});
});

describe('readBack: created leads', () => {
	it('the leads created in the owed range up to now, as caught-up items with their keys; the debt paid off on apply', async () => {
		const data: IDataObject = { catchUp: { owed: { 2: { from: T - 1000 } }, skewMs: 0, teamId: 't1' } };
		leadList([lead('L1', T - 100), lead('L2', T - 500), { leadId: null, createTime: T - 600 }, lead('L0', undefined), lead('L3', T - 1000), lead('L4', T - 2000)]);
		const read = await readBack(ctx, data, [2, 6], T + 60_000);
		expect(leadIds(read.events)).toEqual(['L1', 'L2', 'L3']);
		expect(read.events[0]).toEqual({
			json: expect.objectContaining({ event: 'lead.created', listId: 2, teamId: 't1', action: 'created', leadId: 'L1', updateTime: T - 100, caughtUp: true, deliveryId: null }),
			dedupe: { key: 'caught|2|created|L1', timed: true, seenAs: ['heard|2|created|L1', 'ran|2|created|L1'] },
		});
		expect(read.more).toBe(false);
		expect(lofty.mock.calls[0][1]).toEqual(expect.objectContaining({ method: 'GET', path: '/v1.0/leads', qs: { sort: 'CreateTime', desc: true, limit: 100, offset: 0 } }));
		expect(owedIn(data)).toEqual({ 2: { from: T - 1000 } });
		read.apply();
		expect(data.catchUp).toEqual({ owed: {}, skewMs: 0, teamId: 't1' });
	});

	it("reads by Lofty's clock (the answers' Date), and keeps the skew measured", async () => {
		const data: IDataObject = { catchUp: { owed: { 2: { from: T - 10_000, to: T - 5000 } } } };
		// Lofty's clock is a minute ahead: its times of the owed range are a minute later.
		const skew = 60_500;
		leadList([lead('new', T + skew - 1000), lead('in', T + skew - 6000), lead('early', T - 6000), lead('old', T + skew - 11_000)], T + 60_000);
		const read = await readBack(ctx, data, [2], T + 60_000);
		expect(leadIds(read.events)).toEqual(['in']);
		read.apply();
		expect(data.catchUp).toEqual({ owed: {}, skewMs: skew });
	});

	it('an end where the last read stopped is read back with the skew it was stored with, whatever the answers tell now', async () => {
		const data: IDataObject = { catchUp: { owed: { 2: { from: T - 100_000, to: T - 5000 } }, skewMs: 0 } };
		leadList([lead('above', T - 4999), lead('end', T - 5000), lead('in', T - 30_000), lead('out', T - 40_000)], T + 60_000);
		const read = await readBack(ctx, data, [2], T + 60_000);
		expect(leadIds(read.events)).toEqual(['end', 'in']);
	});

	it('pages above the range and the first below its end are read whatever the budget; then the budget ends the read and the rest stays owed', async () => {
		const data: IDataObject = { catchUp: { owed: { 2: { from: T - 100_000, to: T - 1000 } }, skewMs: 0 } };
		// 150 leads above the range's end, then 200 in it, then older ones.
		const list = [...Array.from({ length: 150 }, (_, i) => lead(`a${i}`, T - i)), ...Array.from({ length: 200 }, (_, i) => lead(`r${i}`, T - 2000 - i)), lead('o', T - 200_000)];
		const asked: number[] = [];
		leadList(list, undefined, (offset) => asked.push(offset));
		const read = await readBack(ctx, data, [2], T);
		expect(asked).toEqual([0, 100]);
		expect(leadIds(read.events)).toEqual(Array.from({ length: 50 }, (_, i) => `r${i}`));
		expect(read.more).toBe(true);
		read.apply();
		// Leads are read newest first: what is left is older than the oldest read.
		expect(owedIn(data)).toEqual({ 2: { from: T - 100_000, to: T - 2049 } });

		asked.length = 0;
		const whole = await readBack(ctx, { catchUp: { owed: { 2: { from: T - 100_000, to: T - 1000 } } } }, [2], T + 1);
		expect(asked).toEqual([0, 100, 200, 300]);
		expect(whole.events).toHaveLength(200);
		expect(whole.more).toBe(false);
	});

	it('leads created at the start of the range on the next page are read too', async () => {
		const list = [...Array.from({ length: 99 }, (_, i) => lead(`l${i}`, T - i)), lead('l99', T - 1000), lead('l100', T - 1000), lead('old', T - 2000)];
		leadList(list);
		const read = await readBack(ctx, { catchUp: { owed: { 2: { from: T - 1000 } }, skewMs: 0 } }, [2], T + 60_000);
		expect(read.events.map((e) => e.json.leadId).slice(-2)).toEqual(['l99', 'l100']);
		expect(read.more).toBe(false);
	});

	it('every page above the range is read whatever the budget, and the first that reaches below its end', async () => {
		const data: IDataObject = { catchUp: { owed: { 2: { from: T - 100_000, to: T - 1000 } }, skewMs: 0 } };
		// 250 leads above the range's end, then 100 in it; then a first page that ends with a lead exactly at its end.
		const list = [...Array.from({ length: 250 }, (_, i) => lead(`a${i}`, T - i)), ...Array.from({ length: 100 }, (_, i) => lead(`r${i}`, T - 2000 - i))];
		const asked: number[] = [];
		leadList(list, undefined, (offset) => asked.push(offset));
		const read = await readBack(ctx, data, [2], T);
		expect(asked).toEqual([0, 100, 200]);
		expect(read.events).toHaveLength(50);

		const atEnd = [...Array.from({ length: 99 }, (_, i) => lead(`a${i}`, T - i)), lead('end', T - 1000), ...Array.from({ length: 100 }, (_, i) => lead(`r${i}`, T - 2000 - i))];
		asked.length = 0;
		leadList(atEnd, undefined, (offset) => asked.push(offset));
		const second = await readBack(ctx, { catchUp: { owed: { 2: { from: T - 100_000, to: T - 1000 } }, skewMs: 0 } }, [2], T);
		expect(asked).toEqual([0, 100]);
		expect(second.events).toHaveLength(101);
	});

	it('the read stops at the page that reaches below the range; a lead without an ID makes no event', async () => {
		const list = [...Array.from({ length: 50 }, (_, i) => lead(`l${i}`, T - i)), { createTime: T - 60 }, ...Array.from({ length: 200 }, (_, i) => lead(`o${i}`, T - 5000 - i))];
		const asked: number[] = [];
		leadList(list, undefined, (offset) => asked.push(offset));
		const read = await readBack(ctx, { catchUp: { owed: { 2: { from: T - 1000 } }, skewMs: 0 } }, [2], T + 60_000);
		expect(asked).toEqual([0]);
		expect(read.events.map((e) => e.json.leadId)).toEqual(Array.from({ length: 50 }, (_, i) => `l${i}`));
	});

	it('without an end to the range only the first page is read whatever the budget', async () => {
		const data: IDataObject = { catchUp: { owed: { 2: { from: T - 100_000 } }, skewMs: 0 } };
		const asked: number[] = [];
		leadList(Array.from({ length: 250 }, (_, i) => lead(`l${i}`, T - i)), undefined, (offset) => asked.push(offset));
		const read = await readBack(ctx, data, [2], T);
		expect(asked).toEqual([0]);
		expect(read.events).toHaveLength(100);
		read.apply();
		expect(owedIn(data)).toEqual({ 2: { from: T - 100_000, to: T - 99 } });
	});

	it('a budget that ends before anything with a time was read leaves the debt as it was; another failure fails the read', async () => {
		const data: IDataObject = { catchUp: { owed: { 2: { from: T - 100_000 } }, skewMs: 0 } };
		leadList(Array.from({ length: 250 }, (_, i) => lead(`l${i}`, undefined)));
		const read = await readBack(ctx, data, [2], T);
		expect(read).toEqual(expect.objectContaining({ events: [], more: true }));
		read.apply();
		expect(owedIn(data)).toEqual({ 2: { from: T - 100_000, to: T - 100_000 } });

		lofty.mockRejectedValue(Object.assign(new Error('out of time'), { deadlineReached: true }));
		const timedOut = await readBack(ctx, { catchUp: { owed: { 2: { from: T - 100 } }, skewMs: 0 } }, [2], T);
		expect(timedOut.more).toBe(true);

		lofty.mockRejectedValue(new Error('Lofty is down'));
		await expect(readBack(ctx, { catchUp: { owed: { 2: { from: T - 100 } } } }, [2], T + 60_000)).rejects.toThrow('Lofty is down');
	});
});

describe('readBack: calls, emails and texts', () => {
	const call = (id: string, time: number): { id: string; time: number; record: IDataObject } => ({ id, time, record: { id, leadId: 'L9', agentId: 'A1', communicationType: 'CALL' } });

	it("Lofty's clock asked first when unknown; the first list's first page whatever the budget; later lists only within it", async () => {
		const data: IDataObject = { catchUp: { owed: { 6: { from: T - 5000 }, 7: { from: T - 4000, to: T - 1000 }, 8: { from: T - 3000 } } } };
		lofty.mockImplementation(async (_c, request) => (request.onAnswer?.({ date: new Date(T + 60_000).toUTCString() }), { email: 'me' }));
		source.mockImplementation(async (_c, name, from, to) => {
			if (name === 'call') return { found: [call('c1', from() + 10), call('', from() + 20)], complete: false, readUpTo: to - 100 };
			// The budget ends exactly now: the next list is not read.
			now = T + 500;
			return { found: [], complete: true };
		});
		const read = await readBack(ctx, data, [6, 7, 8], T + 500);
		expect(lofty.mock.calls.map(([, r]) => r.path)).toEqual(['/v1.0/me']);
		expect(source.mock.calls.map(([, name, from, to, options]) => [name, from(), to, options.deadline, options.settings])).toEqual([
			['call', T - 5000 + 60_500, T + 60_500, T + 10_000, { teamView: true, includeAutomatic: false }],
			['email', T - 4000 + 60_500, T - 1000 + 60_500, T + 500, { teamView: true, includeAutomatic: false }],
		]);
		expect(read.events).toEqual([
			{
				json: expect.objectContaining({ event: 'call.created', listId: 6, timelineId: 'c1', leadId: 'L9', agentId: 'A1', caughtUp: true, updateTime: T - 5000 + 60_510 }),
				dedupe: { key: 'caught|6|created|c1', timed: true, seenAs: ['heard|6|created|c1', 'ran|6|created|c1'] },
			},
		]);
		expect(read.more).toBe(true);
		read.apply();
		// Calls are read oldest first: what is left is newer than the last one read (on n8n's clock again).
		expect(data.catchUp).toEqual({ owed: { 6: { from: T - 100 }, 8: { from: T - 3000 } }, skewMs: 60_500 });
	});

	it("an owed range's end is on Lofty's clock too, once its answer told it", async () => {
		lofty.mockImplementation(async (_c, request) => (request.onAnswer?.({ date: new Date(T + 60_000).toUTCString() }), {}));
		source.mockResolvedValue({ found: [], complete: true });
		await readBack(ctx, { catchUp: { owed: { 7: { from: T - 4000, to: T - 1000 } } } }, [7], T + 60_000);
		expect(source.mock.calls.map(([, name, from, to]) => [name, from(), to])).toEqual([['email', T - 4000 + 60_500, T - 1000 + 60_500]]);
	});

	it('a known clock is not asked; a range with an end keeps it; lists not chosen are not read and stay owed; what was owed meanwhile stays', async () => {
		const data: IDataObject = { catchUp: { owed: { 6: { from: T - 5000, to: T - 2000 }, 8: { from: T - 3000 } }, skewMs: 0 } };
		source.mockResolvedValue({ found: [call('c1', T - 4000)], complete: false });
		const read = await readBack(ctx, data, [6], T + 60_000);
		expect(lofty).not.toHaveBeenCalled();
		expect(source.mock.calls.map(([, name, from, to]) => [name, from(), to])).toEqual([['call', T - 5000, T - 2000]]);
		(data.catchUp as IDataObject).owed = { 6: { from: T - 5000, to: T - 2000 }, 7: { from: T - 10 } };
		read.apply();
		expect(owedIn(data)).toEqual({ 6: { from: T - 5000, to: T - 2000 }, 7: { from: T - 10 } });
	});

	it('nothing owed: nothing read, nothing changed but the clock kept', async () => {
		const data: IDataObject = {};
		const read = await readBack(ctx, data, [2, 6, 7, 8], T);
		expect(read).toEqual(expect.objectContaining({ events: [], more: false }));
		read.apply();
		expect(data).toEqual({ catchUp: { owed: {} } });
		expect(lofty).not.toHaveBeenCalled();
	});
});
