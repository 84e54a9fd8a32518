import { DEMO_API_KEY, OTHER_AGENT_API_KEY, SEED_IDS } from '../../sandbox';
import { CALENDAR_SEED, calendarState } from '../../sandbox/resources/calendar';
import { client, s, useSandbox } from './helpers';

const sb = useSandbox();

const api = () => client(sb.url, { token: DEMO_API_KEY });
const other = () => client(sb.url, { token: OTHER_AGENT_API_KEY });
const WINDOW = { startTime: CALENDAR_SEED.from, endTime: CALENDAR_SEED.to };
const list = (params: Record<string, unknown>) => api().get('/v2.0/calendar', { params });
const DAY = 86_400_000;

/** A future instant on a whole hour, `days` from now. */
const future = (days: number) => Math.ceil((Date.now() + days * DAY) / 3_600_000) * 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', '+00:00');

function taskBody(extra: Record<string, unknown> = {}) {
	return {
		type: 'TASK',
		leadId: SEED_IDS.bigLeadId,
		content: 'Call back',
		startAt: iso(future(2)),
		endAt: iso(future(2) + 1_800_000),
		timeZoneCode: 'America/Chicago',
		taskWay: 'Call',
		assignedRole: 'Agent',
		...extra,
	};
}

function expectInvalid(r: { status: number; body: any }, pattern?: RegExp) {
	expect(r.status).toBe(400);
	expect(r.body.code).toBe(20012);
	if (pattern) expect(r.body.message).toMatch(pattern);
}

describe('GET /v2.0/calendar', () => {
	it('needs startTime or endTime: 400 20012 without both', async () => {
		expectInvalid(await list({}), /startTime or endTime/);
	});

	it('wraps a page under data with total, page and pageSize; IDs are composite, numbers above 2^53 exact', async () => {
		const r = await list({ ...WINDOW, leadId: SEED_IDS.bigLeadId });
		expect(r.status).toBe(200);
		const { data } = r.body;
		expect(Object.keys(data).sort()).toEqual(['items', 'page', 'pageSize', 'total']);
		expect(data.page).toBe(0);
		expect(data.pageSize).toBe(20);
		const task = data.items.find((i: any) => i.id === CALENDAR_SEED.task);
		expect(task).toMatchObject({ type: 'TASK', finished: false, timeZoneCode: 'America/Los_Angeles' });
		expect(s(task.taskId)).toBe('9007199254745001');
		expect(s(task.leadId)).toBe(SEED_IDS.bigLeadId);
		expect(r.text).toContain(`"leadId":${SEED_IDS.bigLeadId}`);
		expect(task.startAt).toMatch(/^2030-06-03T09:00:00-07:00$/);
		expect(task.startAtMs).toBe(Date.UTC(2030, 5, 3, 16));
	});

	it('lists only the caller\'s entries, open ones unless includeFinished=true', async () => {
		const open = (await list({ ...WINDOW, pageSize: 1 })).body.data.total;
		const all = (await list({ ...WINDOW, pageSize: 1, includeFinished: true })).body.data.total;
		expect(all).toBe(CALENDAR_SEED.demoCount);
		expect(open).toBeLessThan(all);
		const mine = [...calendarState(sb.store).entries.values()].filter((e) => s(e.ownerUserId) === SEED_IDS.demoUserId);
		expect(open).toBe(mine.filter((e) => !e.finished).length);
		const ids = (await other().get('/v2.0/calendar', { params: { ...WINDOW, pageSize: 500 } })).body.data.items.map((i: any) => i.id);
		expect(ids).toContain(CALENDAR_SEED.otherAgentTask);
		expect(ids).not.toContain(CALENDAR_SEED.task);
	});

	it('calendarTime spec: startTime / endTime are epoch ms; ISO there is refused naming the format; startTimeMs is unknown', async () => {
		const from = Date.UTC(2026, 0, 1);
		const to = Date.UTC(2026, 6, 1);
		const byMs = (await list({ startTime: from, endTime: to, pageSize: 500 })).body.data.total;
		expect(byMs).toBeGreaterThan(0);
		expectInvalid(await list({ startTime: '2025-12-31T16:00:00-08:00', endTime: to }), /Unparsable timestamp '2025-12-31T16:00:00-08:00' for 'startTime': expected epoch milliseconds/);
		expectInvalid(await list({ startTimeMs: from, endTimeMs: to }), /at least one of startTime or endTime is required/);
		expectInvalid(await list({ startTime: 'next tuesday' }), /Unparsable timestamp 'next tuesday' for 'startTime'/);
		expectInvalid(await list({ startTime: to, endTime: from }), /endTime must not be before startTime/);
	});

	it('calendarTime openapi: startTime / endTime are ISO 8601 (epoch ms there is refused), startTimeMs when startTime is absent', async () => {
		const from = Date.UTC(2026, 0, 1);
		const to = Date.UTC(2026, 6, 1);
		const byMs = (await list({ startTime: from, endTime: to, pageSize: 500 })).body.data.total;
		sb.readings.set({ calendarTime: 'openapi' });
		const byIso = (await list({ startTime: '2025-12-31T16:00:00-08:00', endTime: '2026-07-01T00:00:00Z', pageSize: 500 })).body.data.total;
		const byMsParam = (await list({ startTimeMs: from, endTimeMs: to, pageSize: 500 })).body.data.total;
		expect(byIso).toBe(byMs);
		expect(byMsParam).toBe(byMs);
		// the string form is preferred over the Ms form, and epoch ms in it is a format error
		expect((await list({ startTime: '2026-01-01T00:00:00Z', startTimeMs: 1, endTime: '2026-07-01T00:00:00Z', pageSize: 500 })).body.data.total).toBe(byMs);
		expectInvalid(await list({ startTime: from, startTimeMs: from, endTimeMs: to }), /Unparsable timestamp '\d+' for 'startTime': expected ISO 8601 with offset/);
		// an ISO time without offset is read in timeZoneCode, and refused without it
		expect((await list({ startTime: '2026-01-01T00:00:00', endTime: '2026-07-01T00:00:00Z', timeZoneCode: 'UTC', pageSize: 500 })).body.data.total).toBe(byMs);
		expectInvalid(await list({ startTime: '2026-01-01T00:00:00' }), /no UTC offset/);
	});

	it('pageSize is 1 to 500 and pages are 0-based', async () => {
		expect((await list({ ...WINDOW, pageSize: 500 })).body.data.items).toHaveLength(500);
		for (const bad of [0, 501]) expectInvalid(await list({ ...WINDOW, pageSize: bad }));
		expectInvalid(await list({ ...WINDOW, page: -1 }));
		const first = (await list({ ...WINDOW, pageSize: 3 })).body.data.items.map((i: any) => i.id);
		const second = (await list({ ...WINDOW, pageSize: 3, page: 1 })).body.data.items.map((i: any) => i.id);
		expect(first).toHaveLength(3);
		expect(second.some((id: string) => first.includes(id))).toBe(false);
	});

	it('sorts by startTime descending by default, ascending with desc=false', async () => {
		const desc = (await list({ ...WINDOW, pageSize: 50 })).body.data.items.map((i: any) => i.startAtMs);
		expect(desc).toEqual([...desc].sort((a, b) => b - a));
		const asc = (await list({ ...WINDOW, pageSize: 50, desc: false })).body.data.items.map((i: any) => i.startAtMs);
		expect(asc).toEqual([...asc].sort((a, b) => a - b));
		expectInvalid(await list({ ...WINDOW, sort: 'colour' }), /'sort'/);
	});

	it('filters by sourceType codes, comma-separated or repeated', async () => {
		const items = (await list({ ...WINDOW, pageSize: 500, sourceType: '2' })).body.data.items;
		expect(items.length).toBeGreaterThan(0);
		expect(items.every((i: any) => i.sourceType === 2 && i.type === 'APPOINTMENT')).toBe(true);
		const both = (await list({ ...WINDOW, pageSize: 1, sourceType: '2,4' })).body.data.total;
		const appointments = (await list({ ...WINDOW, pageSize: 1, sourceType: '2' })).body.data.total;
		expect(both).toBeGreaterThan(appointments);
		expectInvalid(await list({ ...WINDOW, sourceType: 'x' }));
	});
});

describe('POST /v2.0/calendar', () => {
	it('creates a task: {data: {id: "<n>-task", type, message}}', async () => {
		const r = await api().post('/v2.0/calendar', { body: taskBody() });
		expect(r.status).toBe(200);
		expect(r.body.data.id).toMatch(/^\d+-task$/);
		expect(r.body.data.type).toBe('TASK');
		const entry = calendarState(sb.store).entries.get(r.body.data.id)!;
		expect(entry).toMatchObject({ kind: 'task', taskWay: 'Call', assignedRole: 'Agent', content: 'Call back' });
		expect(s(entry.ownerUserId)).toBe(SEED_IDS.demoUserId);
	});

	it('reads type and taskWay case-insensitively', async () => {
		const r = await api().post('/v2.0/calendar', { body: taskBody({ type: 'task', taskWay: 'email' }) });
		expect(r.status).toBe(200);
		expect(calendarState(sb.store).entries.get(r.body.data.id)!.taskWay).toBe('Email');
	});

	it.each([
		['type', /'type' is required/],
		['leadId', /'leadId' is required/],
		['content', /'content' is required/],
		['startAt', /'startAt' is required/],
		['endAt', /'endAt' is required/],
		['timeZoneCode', /'timeZoneCode' is required/],
		['taskWay', /'taskWay' is required when type is TASK/],
		['assignedRole', /'assignedRole' is required when type is TASK/],
	])('refuses a task without %s: 400 20012', async (field, pattern) => {
		const body: Record<string, unknown> = taskBody();
		delete body[field];
		expectInvalid(await api().post('/v2.0/calendar', { body }), pattern);
	});

	it('refuses bad values: type, taskWay, assignedRole, time zone, past or reversed times', async () => {
		const bad: Array<[Record<string, unknown>, RegExp]> = [
			[{ type: 'MEETING' }, /'type' must be TASK or APPOINTMENT/],
			[{ taskWay: 'Fax' }, /'taskWay' must be/],
			[{ assignedRole: 'Lender' }, /'assignedRole' must be Agent or Assistant/],
			[{ timeZoneCode: 'Mars/Olympus' }, /IANA/],
			[{ startAt: iso(Date.now() - DAY) }, /'startAt' must be later than the current server time/],
			[{ endAt: iso(future(1)) }, /'endAt' must not be before 'startAt'/],
			[{ startAt: 'tomorrow' }, /Unparsable timestamp 'tomorrow' for 'startAt'/],
		];
		for (const [extra, pattern] of bad) expectInvalid(await api().post('/v2.0/calendar', { body: taskBody(extra) }), pattern);
	});

	it('an offset inside startAt wins; without one the time is read in timeZoneCode', async () => {
		const day = new Date(future(3)).toISOString().slice(0, 10);
		const a = await api().post('/v2.0/calendar', { body: taskBody({ startAt: `${day}T09:00:00+02:00`, endAt: `${day}T09:30:00+02:00` }) });
		const b = await api().post('/v2.0/calendar', { body: taskBody({ startAt: `${day}T09:00:00`, endAt: `${day}T09:30:00`, timeZoneCode: 'UTC' }) });
		const entries = calendarState(sb.store).entries;
		expect(entries.get(a.body.data.id)!.startMs).toBe(Date.parse(`${day}T07:00:00Z`));
		expect(entries.get(b.body.data.id)!.startMs).toBe(Date.parse(`${day}T09:00:00Z`));
	});

	it('accepts startAtMs / endAtMs when startAt / endAt are absent', async () => {
		const { startAt, endAt, ...rest } = taskBody();
		const r = await api().post('/v2.0/calendar', { body: { ...rest, startAtMs: Date.parse(startAt), endAtMs: Date.parse(endAt) } });
		expect(r.status).toBe(200);
	});

	it('creates an appointment without taskWay; midnight to midnight is all-day', async () => {
		const day = new Date(future(5)).toISOString().slice(0, 10);
		const next = new Date(Date.parse(day) + DAY).toISOString().slice(0, 10);
		const r = await api().post('/v2.0/calendar', {
			body: { type: 'APPOINTMENT', leadId: SEED_IDS.bigLeadId, content: 'Open house', startAt: `${day}T00:00:00-05:00`, endAt: `${next}T00:00:00-05:00`, timeZoneCode: 'America/Chicago', address: '1 Main St' },
		});
		expect(r.status).toBe(200);
		expect(r.body.data.id).toMatch(/^\d+-appointment$/);
		expect(calendarState(sb.store).entries.get(r.body.data.id)).toMatchObject({ allDay: true, address: '1 Main St', taskWay: null });
	});

	it('shares one numeric namespace between tasks and appointments', async () => {
		const t = (await api().post('/v2.0/calendar', { body: taskBody() })).body.data.id as string;
		const a = (await api().post('/v2.0/calendar', { body: { ...taskBody(), type: 'APPOINTMENT' } })).body.data.id as string;
		expect(BigInt(a.split('-')[0])).toBe(BigInt(t.split('-')[0]) + 1n);
	});

	it('refuses a lead the caller does not manage: 400 20017', async () => {
		const r = await api().post('/v2.0/calendar', { body: taskBody({ leadId: SEED_IDS.notSharedLeadId }) });
		expect(r.status).toBe(400);
		expect(r.body.code).toBe(20017);
		expectInvalid(await api().post('/v2.0/calendar', { body: taskBody({ leadId: '123' }) }), /lead 123 does not exist/);
		expectInvalid(await api().post('/v2.0/calendar', { body: taskBody({ leadId: SEED_IDS.trashedLeadId }) }));
	});

	it('needs a JSON body', async () => {
		const r = await api().post('/v2.0/calendar', { rawBody: 'type=TASK', headers: { 'Content-Type': 'text/plain' } });
		expect(r.status).toBe(400);
		expect(r.body.code).toBe(20001);
	});
});

describe('per-entry endpoints', () => {
	const put = (id: string, body: unknown) => api().put(`/v2.0/calendar/${id}`, { body });

	it('PUT applies only the non-empty fields', async () => {
		const start = future(10);
		const r = await put(CALENDAR_SEED.task, { content: 'New text', reminderType: 'Email', address: '', startAt: iso(start), endAt: iso(start + 3_600_000) });
		expect(r.status).toBe(200);
		expect(r.body).toEqual({ message: 'Calendar updated successfully' });
		const e = calendarState(sb.store).entries.get(CALENDAR_SEED.task)!;
		expect(e).toMatchObject({ content: 'New text', reminderType: 'Email', startMs: start, timeZoneCode: 'America/Los_Angeles' });
		expect((await put(CALENDAR_SEED.task, {})).status).toBe(200);
		expect(calendarState(sb.store).entries.get(CALENDAR_SEED.task)!.content).toBe('New text');
	});

	it('PUT refuses past times and an end before the start', async () => {
		expectInvalid(await put(CALENDAR_SEED.task, { startAt: iso(Date.now() - 60_000) }), /later than the current server time/);
		expectInvalid(await put(CALENDAR_SEED.task, { endAt: iso(future(1)) }), /'endAt' must not be before 'startAt'/);
	});

	it('PUT moves an entry to another managed lead, not to an unmanaged one', async () => {
		expect((await put(CALENDAR_SEED.task, { leadId: SEED_IDS.sharedLeadId })).status).toBe(200);
		expect(s(calendarState(sb.store).entries.get(CALENDAR_SEED.task)!.leadId)).toBe(SEED_IDS.sharedLeadId);
		const r = await put(CALENDAR_SEED.task, { leadId: SEED_IDS.notSharedLeadId });
		expect(r.status).toBe(400);
		expect(r.body.code).toBe(20017);
	});

	it.each([
		['PUT', ''],
		['DELETE', ''],
		['POST', '/finish'],
		['POST', '/unfinish'],
	])('%s %s: bad ID format and unknown entries are 400 20012, unmanaged leads 400 20017', async (method, suffix) => {
		const go = (id: string) => (method === 'PUT' ? api().put : method === 'DELETE' ? api().delete : api().post)(`/v2.0/calendar/${id}${suffix}`, method === 'PUT' ? { body: { content: 'x' } } : {});
		expectInvalid(await go('9007199254745001'), /must be '<numericId>-task'/);
		expectInvalid(await go('9007199254745001-meeting'));
		expectInvalid(await go('9007199254745001-appointment'), /not found/);
		expectInvalid(await go('1-task'), /not found/);
		const denied = await go(CALENDAR_SEED.otherAgentTask);
		expect(denied.status).toBe(400);
		expect(denied.body.code).toBe(20017);
	});

	it('acts on the other agent\'s entry of a lead shared with the caller', async () => {
		expect((await api().post(`/v2.0/calendar/${CALENDAR_SEED.sharedLeadAppointment}/finish`)).status).toBe(200);
	});

	it('finish and unfinish flip the state; finished entries need includeFinished to be listed', async () => {
		const ids = async () => (await list({ ...WINDOW, leadId: SEED_IDS.bigLeadId, pageSize: 500 })).body.data.items.map((i: any) => i.id);
		expect(await ids()).toContain(CALENDAR_SEED.task);
		const r = await api().post(`/v2.0/calendar/${CALENDAR_SEED.task}/finish`);
		expect(r.body).toEqual({ message: 'Calendar marked as finished' });
		expect(await ids()).not.toContain(CALENDAR_SEED.task);
		await api().post(`/v2.0/calendar/${CALENDAR_SEED.task}/unfinish`);
		expect(await ids()).toContain(CALENDAR_SEED.task);
	});

	it('DELETE removes the entry; a second DELETE is 400 20012', async () => {
		expect((await api().delete(`/v2.0/calendar/${CALENDAR_SEED.appointment}`)).body).toEqual({ message: 'Calendar deleted successfully' });
		expectInvalid(await api().delete(`/v2.0/calendar/${CALENDAR_SEED.appointment}`), /not found/);
	});

	it('a Smart Plan task cannot be updated or deleted (TASK_IS_SMARTPLAN) but can be finished', async () => {
		for (const r of [await put(CALENDAR_SEED.smartPlanTask, { content: 'x' }), await api().delete(`/v2.0/calendar/${CALENDAR_SEED.smartPlanTask}`)]) {
			expect(r.status).toBe(400);
			expect(r.body.code).toBe('TASK_IS_SMARTPLAN');
		}
		expect((await api().post(`/v2.0/calendar/${CALENDAR_SEED.smartPlanTask}/finish`)).status).toBe(200);
	});
});

describe('GET /v2.0/calendar/meetings/available', () => {
	const slots = (params: Record<string, unknown>) => api().get('/v2.0/calendar/meetings/available', { params });

	it('returns at most limit (default 10) one-hour weekday slots, earliest first, with the total', async () => {
		const from = future(1);
		const r = await slots({ startTime: from, endTime: from + 14 * DAY, timeZoneCode: 'America/Chicago' });
		expect(r.status).toBe(200);
		expect(r.body.data.slots).toHaveLength(10);
		expect(r.body.data.total).toBeGreaterThan(10);
		const starts = r.body.data.slots.map((x: any) => x.startTimeMs);
		expect(starts).toEqual([...starts].sort((a, b) => a - b));
		const first = r.body.data.slots[0];
		expect(first.endTimeMs - first.startTimeMs).toBe(3_600_000);
		expect(first.startTime).toMatch(/^\d{4}-\d{2}-\d{2}T(09|1\d):00:00-0[56]:00$/);
		expect((await slots({ startTime: from, endTime: from + 14 * DAY, limit: 3 })).body.data.slots).toHaveLength(3);
	});

	it('leaves out slots taken by open appointments, whichever route made them', async () => {
		const monday = Date.UTC(2030, 5, 3, 0);
		const starts = async () => (await slots({ startTime: monday, endTime: monday + 2 * DAY, timeZoneCode: 'America/Los_Angeles', limit: 100 })).body.data.slots.map((x: any) => x.startTimeMs);
		const showing = Date.UTC(2030, 5, 4, 16); // Tuesday 09:00-10:00 Los Angeles
		expect(await starts()).toContain(showing);
		const viaTasks = await api().post('/v2.0/tasks', { body: { type: 'Appointment', leadId: SEED_IDS.bigLeadId, content: 'Showing', assignedRole: 'Agent', startAt: iso(showing), endAt: iso(showing + 3_600_000) } });
		expect(viaTasks.status).toBe(200);
		const viaCalendar = await api().post('/v2.0/calendar', { body: { type: 'APPOINTMENT', leadId: SEED_IDS.bigLeadId, content: 'Second showing', startAt: iso(showing + 7_200_000), endAt: iso(showing + 10_800_000), timeZoneCode: 'UTC' } });
		expect(viaCalendar.status).toBe(200);
		const taken = await starts();
		expect(taken).not.toContain(showing);
		expect(taken).toContain(showing + 3_600_000);
		expect(taken).not.toContain(showing + 7_200_000);
		await api().post(`/v2.0/calendar/${viaCalendar.body.data.id}/finish`);
		expect(await starts()).toContain(showing + 7_200_000);
	});

	it('calendarTime openapi: ISO with offset or the Ms forms; the string form wins when both are given; spec: epoch ms only', async () => {
		const from = future(2);
		const byMs = (await slots({ startTime: from, endTime: from + 7 * DAY, limit: 500 })).body.data.total;
		expectInvalid(await slots({ startTime: iso(from), endTime: iso(from + 7 * DAY) }), /expected epoch milliseconds/);
		sb.readings.set({ calendarTime: 'openapi' });
		const a = (await slots({ startTime: iso(from), endTime: iso(from + 7 * DAY), limit: 500 })).body.data.total;
		const b = (await slots({ startTimeMs: from, endTimeMs: from + 7 * DAY, limit: 500 })).body.data.total;
		const c = (await slots({ startTime: iso(from), startTimeMs: 1, endTime: iso(from + 7 * DAY), limit: 500 })).body.data.total;
		expect(a).toBe(byMs);
		expect(b).toBe(a);
		expect(c).toBe(a);
		expectInvalid(await slots({ startTime: from, endTime: from + 7 * DAY }), /expected ISO 8601 with offset/);
	});

	it('refuses missing, past, reversed or over-90-day ranges and a limit below 1', async () => {
		const from = future(1);
		expectInvalid(await slots({ endTime: from + DAY }), /startTime or startTimeMs is required/);
		expectInvalid(await slots({ startTime: from }), /endTime or endTimeMs is required/);
		expectInvalid(await slots({ startTime: Date.now() - DAY, endTime: from }), /later than the current server time/);
		expectInvalid(await slots({ startTime: from, endTime: from }), /end time must be later/);
		expectInvalid(await slots({ startTime: from, endTime: from + 91 * DAY }), /90 days/);
		expect((await slots({ startTime: from, endTime: from + 90 * DAY })).status).toBe(200);
		expectInvalid(await slots({ startTime: from, endTime: from + DAY, limit: 0 }));
	});
});
