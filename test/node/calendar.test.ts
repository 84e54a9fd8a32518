import type { ILoadOptionsFunctions } from 'n8n-workflow';

import { READING_VALUES, SEED_IDS } from '../../sandbox';
import { CALENDAR_SEED, calendarState } from '../../sandbox/resources/calendar';
import { getCalendarTimeZones, searchCalendarEntries } from '../../nodes/Lofty/methods/calendar';
import { createContext } from '../harness/context';
import { apiKeyCredential, byId, node, run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const DAY = 86_400_000;

/** A date (yyyy-MM-dd) some days ahead, so that times on it are in the future. */
const dayAhead = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
const entries = () => calendarState(sandbox().store).entries;
const sentBody = (index = 0) => JSON.parse(sandbox().requests[index].body);

function createTask(extra: Record<string, unknown> = {}) {
	const day = dayAhead(3);
	return {
		resource: 'calendar',
		operation: 'create',
		type: 'TASK',
		leadId: byId(SEED_IDS.bigLeadId),
		content: 'Call about the offer',
		startAt: `${day}T09:00:00`,
		endAt: `${day}T09:30:00`,
		timeZoneCode: 'America/Los_Angeles',
		taskWay: 'Call',
		assignedRole: 'Agent',
		...extra,
	};
}

describe('Calendar: Create', () => {
	it('creates a task, reading times without an offset in the chosen time zone, and returns the composite ID', async () => {
		const [item] = await run(sandbox(), createTask());
		expect(item.json.id).toMatch(/^\d+-task$/);
		expect(item.json.type).toBe('TASK');
		const body = sentBody();
		expect(body.startAt).toMatch(new RegExp(`^${dayAhead(3)}T09:00:00-0[78]:00$`));
		expect(body).toMatchObject({ type: 'TASK', taskWay: 'Call', assignedRole: 'Agent', timeZoneCode: 'America/Los_Angeles' });
		expect(sandbox().requests[0].body).toContain(`"leadId":${SEED_IDS.bigLeadId}`);
		const entry = entries().get(item.json.id as string)!;
		expect(entry.content).toBe('Call about the offer');
	});

	it('keeps an offset given inside the time (it wins over the time zone)', async () => {
		const day = dayAhead(4);
		await run(sandbox(), createTask({ startAt: `${day}T09:00:00+02:00`, endAt: `${day}T10:00:00+02:00` }));
		expect(sentBody().startAt).toBe(`${day}T09:00:00+02:00`);
		expect(sentBody().endAt).toBe(`${day}T10:00:00+02:00`);
	});

	it('creates an appointment with an address and does not send Task Way', async () => {
		const [item] = await run(sandbox(), createTask({ type: 'APPOINTMENT', additionalFields: { address: '1 Main St, Austin' } }));
		expect(item.json.id).toMatch(/^\d+-appointment$/);
		expect(sentBody().taskWay).toBeUndefined();
		expect(entries().get(item.json.id as string)!.address).toBe('1 Main St, Austin');
	});

	it('refuses an address on a task before sending', async () => {
		const error = await runError(sandbox(), createTask({ additionalFields: { address: '1 Main St' } }));
		expect(error.message).toMatch(/^Invalid value for "Address": applies to appointments only/);
		expect(sandbox().requests).toHaveLength(0);
	});

	it.each([
		[{ startAt: '2020-01-01T09:00:00Z' }, /"Start": must be in the future/],
		[{ endAt: `${dayAhead(3)}T08:00:00` }, /"End": must not be before Start/],
		[{ timeZoneCode: 'Mars/Olympus' }, /"Time Zone Name or ID": must be an IANA time zone/],
		[{ timeZoneCode: '' }, /"Time Zone Name or ID": is required/],
		[{ content: ' ' }, /"Content": is required/],
		[{ startAt: 'soon' }, /"Start": must be a date and time/],
	])('refuses %j before sending', async (extra, pattern) => {
		const error = await runError(sandbox(), createTask(extra));
		expect(error.message).toMatch(pattern);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('explains 20017 when the user does not manage the lead', async () => {
		const error = await runError(sandbox(), createTask({ leadId: byId(SEED_IDS.notSharedLeadId) }));
		expect(error.message).toMatch(/HTTP 400 20017/);
		expect(error.description).toMatch(/does not manage this lead/);
	});

	it('explains 20012 when Lofty rejects a value', async () => {
		const error = await runError(sandbox(), createTask({ leadId: byId('123') }));
		expect(error.message).toMatch(/HTTP 400 20012/);
		expect(error.description).toMatch(/Lofty rejected a value/);
	});
});

describe('Calendar: Get Many', () => {
	const window = { startTime: new Date(CALENDAR_SEED.from).toISOString(), endTime: new Date(CALENDAR_SEED.to).toISOString() };

	it('Return All fetches ceil(N/500) pages of 500 and returns every entry', async () => {
		const items = await run(sandbox(), { resource: 'calendar', operation: 'getAll', returnAll: true, filters: { ...window, includeFinished: true } });
		expect(items).toHaveLength(CALENDAR_SEED.demoCount);
		expect(new Set(items.map((i) => i.json.id)).size).toBe(CALENDAR_SEED.demoCount);
		expect(sandbox().count('GET', '/v2.0/calendar')).toBe(Math.ceil(CALENDAR_SEED.demoCount / 500));
		expect(sandbox().requests.map((r) => [r.query.page, r.query.pageSize])).toEqual([['0', '500'], ['1', '500'], ['2', '500']]);
		expect(items.map((i) => i.json.id)).toContain(CALENDAR_SEED.task);
	});

	it('sends From and To as epoch milliseconds and stops at the Limit', async () => {
		const items = await run(sandbox(), { resource: 'calendar', operation: 'getAll', limit: 30, filters: window });
		expect(items).toHaveLength(30);
		expect(sandbox().requests).toHaveLength(1);
		expect(sandbox().requests[0].query).toMatchObject({ startTime: String(CALENDAR_SEED.from), endTime: String(CALENDAR_SEED.to), page: '0', pageSize: '30' });
	});

	it('filters by lead, finished state and source type, with IDs exact', async () => {
		const items = await run(sandbox(), {
			resource: 'calendar',
			operation: 'getAll',
			returnAll: true,
			filters: { ...window, leadId: byId(SEED_IDS.bigLeadId), includeFinished: true, sourceType: ['1', '4'] },
		});
		const ids = items.map((i) => i.json.id);
		expect(ids).toEqual(expect.arrayContaining([CALENDAR_SEED.task, CALENDAR_SEED.finishedTask, CALENDAR_SEED.smartPlanTask]));
		expect(ids).not.toContain(CALENDAR_SEED.appointment);
		expect(items.every((i) => i.json.leadId === SEED_IDS.bigLeadId)).toBe(true);
		expect(items.find((i) => i.json.id === CALENDAR_SEED.task)?.json.taskId).toBe('9007199254745001');
		expect(sandbox().requests[0].query).toMatchObject({ sourceType: '1,4', includeFinished: 'true', leadId: SEED_IDS.bigLeadId });
	});

	it('takes the window from the startTimeMs / endTimeMs fields too', async () => {
		const items = await run(sandbox(), {
			resource: 'calendar',
			operation: 'getAll',
			limit: 5,
			filters: { startTimeMs: window.startTime, endTimeMs: window.endTime },
		});
		expect(items).toHaveLength(5);
		expect(sandbox().requests[0].query).toMatchObject({ startTimeMs: String(CALENDAR_SEED.from) });
	});

	it('refuses a list without a window, a reversed window or non-numeric source types before sending', async () => {
		for (const [filters, pattern] of [
			[{}, /"From": set From or To/],
			[{ startTime: window.endTime, endTime: window.startTime }, /"To": must not be before From/],
			[{ ...window, sourceType: ['task'] }, /"Source Types": must be whole-number codes/],
		] as const) {
			const error = await runError(sandbox(), { resource: 'calendar', operation: 'getAll', filters });
			expect(error.message).toMatch(pattern);
		}
		expect(sandbox().requests).toHaveLength(0);
	});

	it('explains 20012 when Lofty rejects a sort field', async () => {
		const error = await runError(sandbox(), { resource: 'calendar', operation: 'getAll', filters: { ...window, sort: 'colour' } });
		expect(error.message).toMatch(/HTTP 400 20012/);
		expect(error.description).toMatch(/Lofty rejected a value/);
	});
});

// docs/api-readings.md, row 1: epoch ms in startTime (spec) or ISO 8601 there and epoch ms in startTimeMs (OpenAPI).
describe.each(READING_VALUES.calendarTime)('Calendar: the time window (calendarTime %s)', (reading) => {
	beforeEach(() => sandbox().readings.set({ calendarTime: reading }));
	const window = { startTime: new Date(CALENDAR_SEED.from).toISOString(), endTime: new Date(CALENDAR_SEED.to).toISOString() };
	/** The requests that got an answer, and whether each carried startTime as epoch ms. */
	const sent = (path: string) => sandbox().requests.filter((r) => r.method === 'GET' && r.path === path).map((r) => ({ status: r.status, epoch: /^\d+$/.test(String(r.query.startTime)), q: r.query }));

	it('Get Many, Return All: every entry once; after one refusal naming the format, every page in the reading Lofty follows', async () => {
		const items = await run(sandbox(), { resource: 'calendar', operation: 'getAll', returnAll: true, filters: { ...window, includeFinished: true } });
		expect(items).toHaveLength(CALENDAR_SEED.demoCount);
		expect(new Set(items.map((i) => i.json.id)).size).toBe(CALENDAR_SEED.demoCount);
		const requests = sent('/v2.0/calendar');
		expect(requests.map((r) => [r.status, r.epoch])).toEqual(
			reading === 'spec' ? [[200, true], [200, true], [200, true]] : [[400, true], [200, false], [200, false], [200, false]],
		);
		for (const r of requests) expect(r.q).toMatchObject({ startTimeMs: String(CALENDAR_SEED.from), endTimeMs: String(CALENDAR_SEED.to) });
		if (reading === 'openapi') expect(requests[1].q.startTime).toBe(new Date(CALENDAR_SEED.from).toISOString().replace('.000Z', '+00:00'));
	});

	it('Get Many from the From (startTimeMs) field alone; a second item needs no second refusal', async () => {
		const items = await run(sandbox(), { resource: 'calendar', operation: 'getAll', limit: 5, filters: { startTimeMs: window.startTime, endTimeMs: window.endTime } }, { items: [{}, {}] });
		expect(items).toHaveLength(10);
		expect(sent('/v2.0/calendar').map((r) => r.status)).toEqual(reading === 'spec' ? [200, 200] : [400, 200, 200]);
	});

	it('Get Available Slots: the same slots, in the time zone asked for', async () => {
		const from = `${dayAhead(2)}T00:00:00Z`;
		const to = `${dayAhead(16)}T00:00:00Z`;
		const items = await run(sandbox(), { resource: 'calendar', operation: 'getAvailableSlots', startTime: from, endTime: to, options: { timeZoneCode: 'America/New_York' } });
		expect(items).toHaveLength(10);
		expect(items[0].json.startTime).toMatch(/T(09|1\d):00:00-0[45]:00$/);
		const requests = sent('/v2.0/calendar/meetings/available');
		expect(requests.map((r) => [r.status, r.epoch])).toEqual(reading === 'spec' ? [[200, true]] : [[400, true], [200, false]]);
		// the ISO form carries the chosen time zone's offset
		if (reading === 'openapi') expect(requests[1].q.startTime).toMatch(/^\d{4}-\d\d-\d\dT19:00:00-0[45]:00$/);
	});

	it('the calendar-entry picker lists entries', async () => {
		const day = dayAhead(10);
		const [created] = await run(sandbox(), createTask({ content: 'Sign the listing agreement', startAt: `${day}T09:00:00Z`, endAt: `${day}T10:00:00Z` }));
		const context = createContext(node, { params: { authentication: 'apiKey' }, credential: apiKeyCredential(sandbox()) }) as unknown as ILoadOptionsFunctions;
		const result = await searchCalendarEntries.call(context, 'listing agreement');
		expect(result.results).toEqual([expect.objectContaining({ value: created.json.id })]);
		expect(sent('/v2.0/calendar').map((r) => r.status)).toEqual(reading === 'spec' ? [200] : [400, 200]);
	});
});

describe('Calendar: Update', () => {
	const update = (calendarId: string, updateFields: Record<string, unknown>) =>
		run(sandbox(), { resource: 'calendar', operation: 'update', calendarId: byId(calendarId), updateFields });

	it('moves an entry to another lead given by its Lofty URL, sending the ID exactly', async () => {
		const url = `https://crm.lofty.com/admin/home/lead/detail/${SEED_IDS.sharedLeadId}`;
		await update(CALENDAR_SEED.task, { leadId: { __rl: true, mode: 'url', value: url } });
		expect(sandbox().requests[0].body).toBe(`{"leadId":${SEED_IDS.sharedLeadId}}`);
		expect(String(entries().get(CALENDAR_SEED.task)!.leadId)).toBe(SEED_IDS.sharedLeadId);
	});

	it('changes the content of an entry by its composite ID and says so', async () => {
		const [item] = await update(CALENDAR_SEED.task, { content: 'Bring the contract', reminderType: 'Email', reminderTime: '30' });
		expect(item.json).toMatchObject({ calendarId: CALENDAR_SEED.task, updated: true, message: 'Calendar updated successfully' });
		expect(sandbox().requests[0].path).toBe(`/v2.0/calendar/${CALENDAR_SEED.task}`);
		expect(entries().get(CALENDAR_SEED.task)).toMatchObject({ content: 'Bring the contract', reminderType: 'Email', reminderTime: '30' });
	});

	it('moves an entry to new times given with an offset, or read in the chosen time zone', async () => {
		const day = dayAhead(6);
		await update(CALENDAR_SEED.appointment, { startAt: `${day}T15:00:00Z`, endAt: `${day}T16:00:00Z` });
		expect(entries().get(CALENDAR_SEED.appointment)!.startMs).toBe(Date.parse(`${day}T15:00:00Z`));
		await update(CALENDAR_SEED.appointment, { startAt: `${day}T10:00:00`, endAt: `${day}T11:00:00`, timeZoneCode: 'UTC' });
		expect(sentBody(1)).toMatchObject({ startAt: `${day}T10:00:00+00:00`, timeZoneCode: 'UTC' });
		expect(entries().get(CALENDAR_SEED.appointment)!.startMs).toBe(Date.parse(`${day}T10:00:00Z`));
	});

	it.each([
		['12345', /"Calendar Entry": must be a calendar ID like 12345-task/],
		['12345-Task', /"Calendar Entry": must be a calendar ID/],
		['task-12345', /"Calendar Entry": must be a calendar ID/],
	])('refuses the malformed ID %s before sending', async (calendarId, pattern) => {
		const error = await runError(sandbox(), { resource: 'calendar', operation: 'update', calendarId: byId(calendarId), updateFields: { content: 'x' } });
		expect(error.message).toMatch(pattern);
		expect(sandbox().requests).toHaveLength(0);
	});

	it.each([
		[{}, /"Update Fields": add at least one field/],
		[{ startAt: `${dayAhead(3)}T25:00:00` }, /"Start": must be a date and time .*; a date without a UTC offset is read in Update Fields > Time Zone Name or ID, or when that is empty in the zone of "Times Without Offset Are In"/],
		[{ endAt: '2020-05-01T10:00:00Z' }, /"End": must be in the future/],
		[{ address: '1 Main St' }, /"Address": applies to appointments only, and this entry is a task/],
	])('refuses %j before sending', async (updateFields, pattern) => {
		const error = await runError(sandbox(), { resource: 'calendar', operation: 'update', calendarId: byId(CALENDAR_SEED.task), updateFields });
		expect(error.message).toMatch(pattern);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('explains TASK_IS_SMARTPLAN', async () => {
		const error = await runError(sandbox(), { resource: 'calendar', operation: 'update', calendarId: byId(CALENDAR_SEED.smartPlanTask), updateFields: { content: 'x' } });
		expect(error.message).toMatch(/HTTP 400 TASK_IS_SMARTPLAN/);
		expect(error.description).toMatch(/Smart Plan/);
	});

	it('explains 20017 for an entry of a lead the user does not manage', async () => {
		const error = await runError(sandbox(), { resource: 'calendar', operation: 'update', calendarId: byId(CALENDAR_SEED.otherAgentTask), updateFields: { content: 'x' } });
		expect(error.message).toMatch(/HTTP 400 20017/);
		expect(error.description).toMatch(/does not manage this lead/);
	});
});

describe('Calendar: Delete, Finish, Unfinish', () => {
	const act = (operation: string, calendarId: string) => run(sandbox(), { resource: 'calendar', operation, calendarId: byId(calendarId) });

	it('deletes an entry and returns {deleted: true, calendarId}', async () => {
		const [item] = await act('delete', CALENDAR_SEED.appointment);
		expect(item.json).toMatchObject({ deleted: true, calendarId: CALENDAR_SEED.appointment });
		expect(entries().has(CALENDAR_SEED.appointment)).toBe(false);
	});

	it('explains 20012 for an entry that no longer exists', async () => {
		await act('delete', CALENDAR_SEED.appointment);
		const error = await runError(sandbox(), { resource: 'calendar', operation: 'finish', calendarId: byId(CALENDAR_SEED.appointment) });
		expect(error.message).toMatch(/HTTP 400 20012.*not found/);
		expect(error.description).toMatch(/still exists/);
	});

	it('explains TASK_IS_SMARTPLAN on delete', async () => {
		const error = await runError(sandbox(), { resource: 'calendar', operation: 'delete', calendarId: byId(CALENDAR_SEED.smartPlanTask) });
		expect(error.description).toMatch(/Smart Plan/);
	});

	it('finishes and reopens an entry', async () => {
		const [done] = await act('finish', CALENDAR_SEED.task);
		expect(done.json).toMatchObject({ calendarId: CALENDAR_SEED.task, finished: true });
		expect(entries().get(CALENDAR_SEED.task)!.finished).toBe(true);
		expect(sandbox().requests[0]).toMatchObject({ method: 'POST', path: `/v2.0/calendar/${CALENDAR_SEED.task}/finish` });
		const [open] = await act('unfinish', CALENDAR_SEED.task);
		expect(open.json).toMatchObject({ calendarId: CALENDAR_SEED.task, finished: false });
		expect(entries().get(CALENDAR_SEED.task)!.finished).toBe(false);
	});

	it.each(['delete', 'finish', 'unfinish'])('%s: refuses a malformed ID before sending and explains 20017', async (operation) => {
		const error = await runError(sandbox(), { resource: 'calendar', operation, calendarId: byId('9007199254745001') });
		expect(error.message).toMatch(/"Calendar Entry": must be a calendar ID/);
		expect(sandbox().requests).toHaveLength(0);
		const denied = await runError(sandbox(), { resource: 'calendar', operation, calendarId: byId(CALENDAR_SEED.otherAgentTask) });
		expect(denied.message).toMatch(/HTTP 400 20017/);
	});
});

describe('Calendar: Get Available Slots', () => {
	const slots = (extra: Record<string, unknown>) => ({ resource: 'calendar', operation: 'getAvailableSlots', ...extra });

	it('returns one item per free slot, 10 unless a limit is set', async () => {
		const from = `${dayAhead(2)}T00:00:00Z`;
		const to = `${dayAhead(16)}T00:00:00Z`;
		const items = await run(sandbox(), slots({ startTime: from, endTime: to }));
		expect(items).toHaveLength(10);
		expect(Object.keys(items[0].json).sort()).toEqual(['endTime', 'endTimeMs', 'startTime', 'startTimeMs']);
		expect(sandbox().requests[0].query).toMatchObject({ startTime: String(Date.parse(from)), endTime: String(Date.parse(to)) });
		const three = await run(sandbox(), slots({ startTime: from, endTime: to, options: { limit: 3, timeZoneCode: 'America/New_York' } }));
		expect(three).toHaveLength(3);
		expect(three[0].json.startTime).toMatch(/T(09|1\d):00:00-0[45]:00$/);
	});

	it.each([
		[{ startTime: '2020-01-01T00:00:00Z', endTime: `${dayAhead(2)}T00:00:00Z` }, /"From": must be in the future/],
		[{ startTime: `${dayAhead(3)}T00:00:00Z`, endTime: `${dayAhead(2)}T00:00:00Z` }, /"To": must be later than From/],
		[{ startTime: `${dayAhead(1)}T00:00:00Z`, endTime: `${dayAhead(100)}T00:00:00Z` }, /"To": must be at most 90 days after From/],
		[{ startTime: `${dayAhead(1)}T00:00:00Z`, endTime: `${dayAhead(2)}T00:00:00Z`, options: { limit: 0 } }, /"Limit": must be at least 1/],
		[{ startTime: `${dayAhead(1)}T00:00:00Z`, endTime: `${dayAhead(2)}T00:00:00Z`, options: { limit: 2.5 } }, /"Limit": must be a whole number, got 2.5/],
	])('refuses %j before sending', async (extra, pattern) => {
		const error = await runError(sandbox(), slots(extra));
		expect(error.message).toMatch(pattern);
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('Calendar pickers and dropdowns', () => {
	function loadContext(): ILoadOptionsFunctions {
		return createContext(node, { params: { authentication: 'apiKey' }, credential: apiKeyCredential(sandbox()) }) as unknown as ILoadOptionsFunctions;
	}

	it('lists calendar entries for the picker, by composite ID, filtered by text', async () => {
		const day = dayAhead(10);
		const [created] = await run(sandbox(), createTask({ content: 'Sign the listing agreement', startAt: `${day}T09:00:00Z`, endAt: `${day}T10:00:00Z` }));
		const result = await searchCalendarEntries.call(loadContext(), 'listing agreement');
		expect(result.results).toEqual([expect.objectContaining({ value: created.json.id })]);
		expect(result.results[0].name).toContain(day);
		expect(sandbox().requests[1].query).toMatchObject({ includeFinished: 'true', page: '0', pageSize: '100' });
	});

	it('offers IANA time zones', async () => {
		const zones = await getCalendarTimeZones.call(loadContext());
		expect(zones.map((z) => z.value)).toEqual(expect.arrayContaining(['America/Los_Angeles', 'Europe/Berlin', 'UTC']));
		expect(zones.find((z) => z.value === 'America/Los_Angeles')?.name).toBe('America/Los Angeles');
	});
});
