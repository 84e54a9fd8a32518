/**
 * Calendar V2 and Tasks/Appointments are one store in one identifier namespace (api-spec.md General rule 4):
 * what one route writes the other reads, calendar writes emit the task/appointment webhook events (listIds 10
 * and 11), identifiers never collide, and the task reminder sees entries from every route.
 */
import { DEMO_API_KEY, SEED_IDS } from '../../sandbox';
import { webhookDelivery } from '../../sandbox/resources/webhook/delivery';
import { CALENDAR_SEED } from '../../sandbox/resources/calendar';
import { notificationState } from '../../sandbox/resources/notification';
import { TASK_SEED, taskState } from '../../sandbox/resources/task';
import { client, s, useSandbox } from './helpers';

const sb = useSandbox();
afterEach(() => jest.restoreAllMocks());

const api = () => client(sb.url, { token: DEMO_API_KEY });
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** A future instant on a whole hour, `days` from now. */
const future = (days: number) => Math.ceil((Date.now() + days * DAY) / HOUR) * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();
const lead = SEED_IDS.bigLeadId;

const calendarTask = (start: number, extra: Record<string, unknown> = {}) => ({
	type: 'TASK',
	leadId: lead,
	content: 'Call back',
	startAt: iso(start),
	endAt: iso(start + HOUR / 2),
	timeZoneCode: 'America/Chicago',
	taskWay: 'Call',
	assignedRole: 'Agent',
	...extra,
});
const calendarAppointment = (start: number) => ({ type: 'APPOINTMENT', leadId: lead, content: 'Showing', startAt: iso(start), endAt: iso(start + HOUR), timeZoneCode: 'UTC', address: '1 Main St' });

async function createViaCalendar(body: Record<string, unknown>): Promise<string> {
	const r = await api().post('/v2.0/calendar', { body });
	expect(r.status).toBe(200);
	return r.body.data.id;
}

async function createViaTasks(body: Record<string, unknown>): Promise<string> {
	const r = await api().post('/v2.0/tasks', { body: { leadId: lead, assignedRole: 'Agent', content: 'From Tasks V2', ...body } });
	expect(r.status).toBe(200);
	return s(r.body.taskId);
}

const calendarWindow = (from: number, to: number) =>
	api().get('/v2.0/calendar', { params: { startTime: from, endTime: to, includeFinished: true, pageSize: 500 } });

describe('one store for Tasks V2 and Calendar V2', () => {
	it('a task created via Tasks V2 is listed by the calendar for its time range, as <id>-task', async () => {
		const due = future(40);
		const id = await createViaTasks({ type: 'Email', endAt: iso(due) });
		const items = (await calendarWindow(due - HOUR, due + HOUR)).body.data.items;
		const item = items.find((i: { id: string }) => i.id === `${id}-task`);
		// a task with only a deadline sits at its deadline
		expect(item).toMatchObject({ type: 'TASK', sourceType: 1, content: 'From Tasks V2', finished: false, startAtMs: due, endAtMs: due });
		expect(s(item.taskId)).toBe(id);
		expect(item.title).toMatch(/ - Email$/);
		const outside = (await calendarWindow(due + HOUR, due + 2 * HOUR)).body.data.items.map((i: { id: string }) => i.id);
		expect(outside).not.toContain(`${id}-task`);
	});

	it('an appointment created via Tasks V2 is listed as <id>-appointment at its start', async () => {
		const start = future(41);
		const id = await createViaTasks({ type: 'Appointment', startAt: iso(start), endAt: iso(start + HOUR), timeZoneCode: 'America/New_York' });
		const items = (await calendarWindow(start, start)).body.data.items;
		expect(items.map((i: { id: string }) => i.id)).toEqual([`${id}-appointment`]);
		expect(items[0]).toMatchObject({ type: 'APPOINTMENT', sourceType: 2, timeZoneCode: 'America/New_York', endAtMs: start + HOUR });
	});

	it('an entry created via the calendar is a task or appointment of Tasks V2, V1 and /v1.0/appts', async () => {
		const start = future(42);
		const taskId = (await createViaCalendar(calendarTask(start))).split('-')[0];
		const task = (await api().get(`/v2.0/tasks/${taskId}`)).body.task;
		expect(task).toMatchObject({ type: 'Call', content: 'Call back', timeZoneCode: 'America/Chicago', assignedRole: 'Agent' });
		expect(Date.parse(task.startAt)).toBe(start);
		expect((await api().get(`/v1.0/tasks/${taskId}`)).status).toBe(200);
		const apptId = (await createViaCalendar(calendarAppointment(start))).split('-')[0];
		expect((await api().get(`/v2.0/tasks/${apptId}`)).body.task).toMatchObject({ type: 'Appointment', address: '1 Main St' });
		const appts = (await api().get('/v1.0/appts', { params: { leadId: lead } })).body.map((a: { id: bigint }) => s(a.id));
		expect(appts).toContain(apptId);
	});

	it('changes through one route are seen by the other', async () => {
		const [, seededNumber] = /^(\d+)-task$/.exec(CALENDAR_SEED.task)!;
		await api().put(`/v2.0/tasks/${seededNumber}`, { body: { content: 'Edited through Tasks V2' } });
		await api().post(`/v2.0/tasks/${seededNumber}/finish`);
		const listed = (await calendarWindow(CALENDAR_SEED.from, CALENDAR_SEED.to)).body.data.items.find((i: { id: string }) => i.id === CALENDAR_SEED.task);
		expect(listed).toMatchObject({ content: 'Edited through Tasks V2', finished: true });
		await api().post(`/v2.0/calendar/${CALENDAR_SEED.task}/unfinish`);
		expect((await api().get(`/v2.0/tasks/${seededNumber}`)).body.task.finishFlag).toBe(false);
		// deleted through Tasks V2: gone from the calendar (400 20012 not found)
		await api().delete(`/v2.0/tasks/${seededNumber}`);
		const gone = await api().post(`/v2.0/calendar/${CALENDAR_SEED.task}/finish`);
		expect([gone.status, gone.body.code]).toEqual([400, 20012]);
		// deleted through the calendar: gone from Tasks V2
		await api().delete(`/v2.0/calendar/${CALENDAR_SEED.appointment}`);
		expect((await api().get(`/v2.0/tasks/${CALENDAR_SEED.appointment.split('-')[0]}`)).body.code).toBe('TASK_NOT_EXIST');
	});

	it('the composite ID must name the entry\'s kind', async () => {
		const r = await api().post(`/v2.0/calendar/${TASK_SEED.appointmentId}-task/finish`);
		expect([r.status, r.body.code]).toEqual([400, 20012]);
		expect((await api().post(`/v2.0/calendar/${TASK_SEED.appointmentId}-appointment/finish`)).status).toBe(200);
	});
});

describe('identifiers', () => {
	it('never collide across V1, V2 and the calendar: one counter, none taken by a seed', async () => {
		const before = new Set(taskState(sb.store).entries.keys());
		const start = future(43);
		const v1 = await api().post('/v1.0/tasks', { body: { leadId: lead, content: 'V1', deadline: start, type: 'Call', assignedRole: 'Agent' } });
		const ids = [
			s(v1.body.taskId),
			await createViaTasks({ type: 'Call', endAt: iso(start) }),
			(await createViaCalendar(calendarTask(start))).split('-')[0],
			(await createViaCalendar(calendarAppointment(start))).split('-')[0],
			await createViaTasks({ type: 'Appointment', startAt: iso(start), endAt: iso(start + HOUR) }),
		];
		expect(new Set(ids).size).toBe(ids.length);
		expect(ids.some((id) => before.has(id))).toBe(false);
		const numbers = ids.map(BigInt);
		expect(numbers.slice(1).every((n, k) => n === numbers[k] + 1n)).toBe(true);
		expect(taskState(sb.store).entries.size).toBe(before.size + ids.length);
	});

	it('a seed cannot reuse an identifier', () => {
		const seeded = taskState(sb.store).find(BigInt(TASK_SEED.openTaskId))!;
		expect(() => taskState(sb.store).add({ ...seeded })).toThrow(/already taken/);
	});

	it('the demo calendar count in CALENDAR_SEED matches the store', async () => {
		const r = await calendarWindow(CALENDAR_SEED.from, CALENDAR_SEED.to);
		expect(r.body.data.total).toBe(CALENDAR_SEED.demoCount);
	});
});

describe('calendar writes emit the task and appointment webhook events', () => {
	const emitted = () => {
		const spy = jest.spyOn(webhookDelivery(sb), 'emit');
		return () => spy.mock.calls.map(([e]) => ({ listId: e.listId, key: e.key, data: e.data as Record<string, unknown> }));
	};

	it('task: created, updated, finished, updated (reopened), deleted on listId 10 with taskId', async () => {
		const events = emitted();
		const id = await createViaCalendar(calendarTask(future(44)));
		await api().put(`/v2.0/calendar/${id}`, { body: { content: 'Moved' } });
		await api().put(`/v2.0/calendar/${id}`, { body: {} }); // nothing changes: no event
		await api().post(`/v2.0/calendar/${id}/finish`);
		await api().post(`/v2.0/calendar/${id}/finish`); // already finished: no event
		await api().post(`/v2.0/calendar/${id}/unfinish`);
		await api().delete(`/v2.0/calendar/${id}`);
		const got = events();
		expect(got.map((e) => e.key)).toEqual(['createdTask', 'updatedTask', 'finishedTask', 'updatedTask', 'deletedTask']);
		expect(got.every((e) => e.listId === 10)).toBe(true);
		expect(got.every((e) => s(e.data.taskId) === id.split('-')[0] && s(e.data.leadId) === lead && typeof e.data.updateTime === 'number')).toBe(true);
	});

	it('appointment: created, updated, finished, deleted on listId 11 with apptId', async () => {
		const events = emitted();
		const id = await createViaCalendar(calendarAppointment(future(45)));
		await api().put(`/v2.0/calendar/${id}`, { body: { address: '2 Main St' } });
		await api().post(`/v2.0/calendar/${id}/finish`);
		await api().delete(`/v2.0/calendar/${id}`);
		const got = events();
		expect(got.map((e) => e.key)).toEqual(['createdAppt', 'updatedAppt', 'finishedAppt', 'deletedAppt']);
		expect(got.every((e) => e.listId === 11 && s(e.data.apptId) === id.split('-')[0])).toBe(true);
	});

	it('moving an entry to another lead reports the new lead', async () => {
		const events = emitted();
		await api().put(`/v2.0/calendar/${CALENDAR_SEED.task}`, { body: { leadId: SEED_IDS.sharedLeadId } });
		expect(events()).toEqual([{ listId: 10, key: 'updatedTask', data: expect.objectContaining({ leadId: BigInt(SEED_IDS.sharedLeadId) }) }]);
	});

	it('refused writes emit nothing', async () => {
		const events = emitted();
		await api().put(`/v2.0/calendar/${CALENDAR_SEED.smartPlanTask}`, { body: { content: 'x' } });
		await api().delete(`/v2.0/calendar/${CALENDAR_SEED.otherAgentTask}`);
		await api().post('/v2.0/calendar', { body: calendarTask(Date.now() - DAY) });
		expect(events()).toEqual([]);
	});
});

describe('the task reminder sees tasks from every route', () => {
	const PUSH = '/v2.0/sales-agent/notification/app-push/send-task-reminder';
	const push = (taskId: string, type: string) => api().post(PUSH, { rawBody: `{"taskId":${taskId},"type":"${type}"}`, headers: { 'Content-Type': 'application/json' } });

	it('created through Tasks V2 or Calendar V2, seeded by either module; not once deleted', async () => {
		const start = future(46);
		const viaTasks = await createViaTasks({ type: 'Text', endAt: iso(start) });
		const viaCalendar = (await createViaCalendar(calendarTask(start))).split('-')[0];
		const apptViaCalendar = (await createViaCalendar(calendarAppointment(start))).split('-')[0];
		for (const [id, type] of [[viaTasks, 'TASK'], [viaCalendar, 'TASK'], [apptViaCalendar, 'APPOINTMENT'], [CALENDAR_SEED.task.split('-')[0], 'TASK'], [TASK_SEED.openTaskId, 'TASK']]) {
			const r = await push(id, type);
			expect([id, r.status]).toEqual([id, 200]);
		}
		const sent = notificationState(sb.store).sent;
		expect(sent.map((n) => s(n.refId))).toEqual([viaTasks, viaCalendar, apptViaCalendar, CALENDAR_SEED.task.split('-')[0], TASK_SEED.openTaskId]);
		expect(sent.every((n) => s(n.toUserId) === SEED_IDS.demoUserId)).toBe(true);
		await api().delete(`/v2.0/calendar/${viaCalendar}-task`);
		expect((await push(viaCalendar, 'TASK')).body.code).toBe(20012);
		expect((await push(apptViaCalendar, 'TASK')).body.code).toBe(20012);
	});
});
