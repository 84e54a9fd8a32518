import { DEMO_API_KEY, OTHER_AGENT_API_KEY, SEED_IDS } from '../../sandbox';
import { TASK_SEED, taskState } from '../../sandbox/resources/task';
import { client, s, useSandbox } from './helpers';

const sb = useSandbox();

const api = () => client(sb.url, { token: DEMO_API_KEY });
const other = () => client(sb.url, { token: OTHER_AGENT_API_KEY });
const json = (body: unknown) => ({ rawBody: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
/** A body with a 64-bit lead ID written as an exact JSON integer. */
const withLead = (leadId: string, rest: Record<string, unknown>) => ({
	rawBody: JSON.stringify(rest).replace(/^\{/, `{"leadId":${leadId},`),
	headers: { 'Content-Type': 'application/json' },
});

const v2Task = { type: 'Call', content: 'Call back', assignedRole: 'Agent', endAt: '2026-03-01T16:00:00-08:00' };

describe('POST /v2.0/tasks', () => {
	it('creates a task and an appointment in one ID namespace, IDs above 2^53 written exactly', async () => {
		const task = await api().post('/v2.0/tasks', withLead(TASK_SEED.leadId, v2Task));
		expect(task.status).toBe(200);
		expect(typeof task.body.taskId).toBe('bigint');
		const appt = await api().post('/v2.0/tasks', withLead(TASK_SEED.leadId, { ...v2Task, type: 'Appointment', startAt: '2026-03-01T15:00:00-08:00' }));
		expect(appt.body.taskId).toBe(task.body.taskId + 1n);
		const list = await api().get('/v2.0/tasks', { params: { leadId: TASK_SEED.leadId } });
		const ids = list.body.tasks.map((t: { id: bigint }) => s(t.id));
		expect(ids).toEqual(expect.arrayContaining([s(task.body.taskId), s(appt.body.taskId)]));
		const v1 = await api().get('/v1.0/appts', { params: { leadId: TASK_SEED.leadId } });
		expect(v1.body.map((a: { id: bigint }) => s(a.id))).toContain(s(appt.body.taskId));
	});

	it('an offset inside the string wins over timeZoneCode; without one the time is read in timeZoneCode', async () => {
		const withOffset = await api().post('/v2.0/tasks', withLead(TASK_SEED.leadId, { ...v2Task, endAt: '2026-03-01T16:00:00Z', timeZoneCode: 'America/Los_Angeles' }));
		const got = await api().get(`/v2.0/tasks/${withOffset.body.taskId}`);
		expect(got.body.task.endAt).toBe('2026-03-01T08:00:00-08:00');
		const local = await api().post('/v2.0/tasks', withLead(TASK_SEED.leadId, { ...v2Task, endAt: '2026-07-01T09:30:00', timeZoneCode: 'America/New_York' }));
		const got2 = await api().get(`/v2.0/tasks/${local.body.taskId}`);
		expect(got2.body.task.endAt).toBe('2026-07-01T09:30:00-04:00');
		expect(got2.body.task.timeZoneCode).toBe('America/New_York');
	});

	it('without timeZoneCode the entry is held in the creating user\'s zone, fixed then (their profile moving later does not move it)', async () => {
		const made = await api().post('/v2.0/tasks', withLead(TASK_SEED.leadId, { ...v2Task, endAt: '2026-12-01T09:00:00-06:00' }));
		const owner = sb.store.getUser(SEED_IDS.demoUserId)!;
		expect(owner.timeZoneId).toBe('America/Los_Angeles');
		owner.timeZoneId = 'America/New_York';
		const got = await api().get(`/v2.0/tasks/${made.body.taskId}`);
		expect([got.body.task.endAt, got.body.task.timeZoneCode]).toEqual(['2026-12-01T07:00:00-08:00', 'America/Los_Angeles']);
	});

	it('refuses a time without offset and without timeZoneCode, and unparsable times, with 400 20012 naming the value', async () => {
		const r = await api().post('/v2.0/tasks', withLead(TASK_SEED.leadId, { ...v2Task, endAt: '2026-03-01T16:00:00' }));
		expect(r.status).toBe(400);
		expect(r.body.code).toBe(20012);
		expect(r.body.message).toContain('2026-03-01T16:00:00');
		const bad = await api().post('/v2.0/tasks', withLead(TASK_SEED.leadId, { ...v2Task, endAt: 'tomorrow' }));
		expect([bad.status, bad.body.code]).toEqual([400, 20012]);
		expect(bad.body.message).toMatch(/tomorrow.*ISO-8601/);
		const zone = await api().post('/v2.0/tasks', withLead(TASK_SEED.leadId, { ...v2Task, timeZoneCode: 'Mars/Olympus' }));
		expect([zone.status, zone.body.code]).toEqual([400, 20012]);
		const order = await api().post('/v2.0/tasks', withLead(TASK_SEED.leadId, { ...v2Task, startAt: '2026-03-02T01:00:00Z' }));
		expect([order.status, order.body.code]).toEqual([400, 20012]);
	});

	it('requires type, content, leadId, assignedRole and endAt; rejects unknown type and role', async () => {
		for (const field of ['type', 'content', 'assignedRole', 'endAt']) {
			const body = { ...v2Task } as Record<string, unknown>;
			delete body[field];
			const r = await api().post('/v2.0/tasks', withLead(TASK_SEED.leadId, body));
			expect([r.status, r.body.code, field]).toEqual([400, 'MISSING_PARAMETER', field]);
		}
		const noLead = await api().post('/v2.0/tasks', json(v2Task));
		expect(noLead.body.code).toBe('MISSING_PARAMETER');
		const badType = await api().post('/v2.0/tasks', withLead(TASK_SEED.leadId, { ...v2Task, type: 'Meeting' }));
		expect([badType.status, badType.body.code]).toEqual([400, 20012]);
		const badRole = await api().post('/v2.0/tasks', withLead(TASK_SEED.leadId, { ...v2Task, assignedRole: 'Lender' }));
		expect([badRole.status, badRole.body.code]).toEqual([400, 20012]);
	});

	it('needs Content-Type JSON', async () => {
		const r = await api().post('/v2.0/tasks', { rawBody: JSON.stringify(v2Task) });
		expect([r.status, r.body.code]).toEqual([400, 20001]);
	});

	it('403 PERMISSION_DENIED on another agent\'s lead, 404 LEAD_NOT_EXIST on a missing or trashed one', async () => {
		const denied = await api().post('/v2.0/tasks', withLead(SEED_IDS.notSharedLeadId, v2Task));
		expect([denied.status, denied.body.code]).toEqual([403, 'PERMISSION_DENIED']);
		const missing = await api().post('/v2.0/tasks', withLead('999999999', v2Task));
		expect([missing.status, missing.body.code]).toEqual([404, 'LEAD_NOT_EXIST']);
		const trashed = await api().post('/v2.0/tasks', withLead(SEED_IDS.trashedLeadId, v2Task));
		expect([trashed.status, trashed.body.code]).toEqual([404, 'LEAD_NOT_EXIST']);
		const shared = await api().post('/v2.0/tasks', withLead(SEED_IDS.sharedLeadId, v2Task));
		expect(shared.status).toBe(200);
	});
});

describe('GET /v2.0/tasks and /v2.0/tasks/{taskId}', () => {
	it('lists tasks and appointments of a lead; leadId is required', async () => {
		const r = await api().get('/v2.0/tasks', { params: { leadId: TASK_SEED.leadId } });
		const types = r.body.tasks.map((t: { type: string }) => t.type);
		expect(types).toContain('Appointment');
		expect(types).toContain('Call');
		expect(r.body.tasks.every((t: { leadId: bigint }) => s(t.leadId) === TASK_SEED.leadId)).toBe(true);
		expect((await api().get('/v2.0/tasks')).body.code).toBe('MISSING_PARAMETER');
		const denied = await api().get('/v2.0/tasks', { params: { leadId: SEED_IDS.notSharedLeadId } });
		expect([denied.status, denied.body.code]).toEqual([403, 'PERMISSION_DENIED']);
		const missing = await api().get('/v2.0/tasks', { params: { leadId: '42' } });
		expect([missing.status, missing.body.code]).toEqual([404, 'LEAD_NOT_EXIST']);
	});

	it('resolves an appointment ID as well as a task ID, wrapped in {task}', async () => {
		const appt = await api().get(`/v2.0/tasks/${TASK_SEED.appointmentId}`);
		expect(appt.body.task.type).toBe('Appointment');
		expect(s(appt.body.task.id)).toBe(TASK_SEED.appointmentId);
		expect(appt.body.task.startAt).toMatch(/-0[56]:00$/);
		const task = await api().get(`/v2.0/tasks/${TASK_SEED.openTaskId}`);
		expect(task.body.task.type).toBe('Call');
	});

	it('404 TASK_NOT_EXIST for an unknown ID, 403 PERMISSION_DENIED for another agent\'s entry', async () => {
		const missing = await api().get('/v2.0/tasks/12345');
		expect([missing.status, missing.body.code]).toEqual([404, 'TASK_NOT_EXIST']);
		const denied = await api().get(`/v2.0/tasks/${TASK_SEED.otherAgentTaskId}`);
		expect([denied.status, denied.body.code]).toEqual([403, 'PERMISSION_DENIED']);
		const own = await other().get(`/v2.0/tasks/${TASK_SEED.otherAgentTaskId}`);
		expect(own.status).toBe(200);
		const zero = await api().get('/v2.0/tasks/0');
		expect([zero.status, zero.body.code]).toEqual([400, 20012]);
	});
});

describe('PUT /v2.0/tasks/{taskId}', () => {
	it('applies only the fields given', async () => {
		const r = await api().put(`/v2.0/tasks/${TASK_SEED.openTaskId}`, json({ content: 'New text' }));
		expect(r.status).toBe(200);
		expect(r.body).toEqual({ message: expect.any(String) });
		const got = await api().get(`/v2.0/tasks/${TASK_SEED.openTaskId}`);
		expect(got.body.task.content).toBe('New text');
		expect(got.body.task.type).toBe('Call');
	});

	it('MISSING_PARAMETER when nothing to change (timeZoneCode alone is not a change)', async () => {
		const r = await api().put(`/v2.0/tasks/${TASK_SEED.openTaskId}`, json({ timeZoneCode: 'UTC' }));
		expect([r.status, r.body.code]).toEqual([400, 'MISSING_PARAMETER']);
	});

	it('TASK_IS_SMARTPLAN, TASK_NOT_EXIST and PERMISSION_DENIED', async () => {
		const smart = await api().put(`/v2.0/tasks/${TASK_SEED.smartPlanTaskId}`, json({ content: 'x' }));
		expect([smart.status, smart.body.code]).toEqual([400, 'TASK_IS_SMARTPLAN']);
		const missing = await api().put('/v2.0/tasks/777', json({ content: 'x' }));
		expect([missing.status, missing.body.code]).toEqual([404, 'TASK_NOT_EXIST']);
		const denied = await api().put(`/v2.0/tasks/${TASK_SEED.otherAgentAppointmentId}`, json({ content: 'x' }));
		expect([denied.status, denied.body.code]).toEqual([403, 'PERMISSION_DENIED']);
	});
});

describe('finish, unfinish, delete (V2)', () => {
	it('open -> finished -> open, idempotent at each end', async () => {
		const path = `/v2.0/tasks/${TASK_SEED.appointmentId}`;
		expect((await api().post(`${path}/finish`)).status).toBe(200);
		expect((await api().get(path)).body.task.finishFlag).toBe(true);
		expect((await api().get(path)).body.task.finishTime).toEqual(expect.any(String));
		expect((await api().post(`${path}/finish`)).status).toBe(200);
		expect((await api().post(`${path}/unfinish`)).status).toBe(200);
		const reopened = (await api().get(path)).body.task;
		expect([reopened.finishFlag, reopened.finishTime]).toEqual([false, null]);
		expect((await api().post(`${path}/unfinish`)).status).toBe(200);
	});

	it('a Smart Plan task cannot be finished, reopened or deleted', async () => {
		for (const [method, suffix] of [['post', '/finish'], ['post', '/unfinish'], ['delete', '']] as const) {
			const r = await api()[method](`/v2.0/tasks/${TASK_SEED.smartPlanTaskId}${suffix}`);
			expect([r.status, r.body.code]).toEqual([400, 'TASK_IS_SMARTPLAN']);
		}
	});

	it('delete answers {message}; the entry is then gone (TASK_NOT_EXIST)', async () => {
		const r = await api().delete(`/v2.0/tasks/${TASK_SEED.openTaskId}`);
		expect(r.body).toEqual({ message: expect.any(String) });
		const again = await api().get(`/v2.0/tasks/${TASK_SEED.openTaskId}`);
		expect([again.status, again.body.code]).toEqual([404, 'TASK_NOT_EXIST']);
		const twice = await api().delete(`/v2.0/tasks/${TASK_SEED.openTaskId}`);
		expect(twice.body.code).toBe('TASK_NOT_EXIST');
	});

	it('another agent\'s entries: PERMISSION_DENIED', async () => {
		for (const suffix of ['/finish', '/unfinish']) {
			const r = await api().post(`/v2.0/tasks/${TASK_SEED.otherAgentTaskId}${suffix}`);
			expect([r.status, r.body.code]).toEqual([403, 'PERMISSION_DENIED']);
		}
		expect((await api().delete(`/v2.0/tasks/${TASK_SEED.otherAgentTaskId}`)).body.code).toBe('PERMISSION_DENIED');
	});
});

describe('GET /v2.0/tasks/my-tasks', () => {
	const mine = () => [...taskState(sb.store).entries.values()].filter((t) => s(t.assignedUserId) === SEED_IDS.demoUserId && !t.deleteFlag);

	it('limit defaults to 10, accepts 1 to 100, LIMIT_NOT_VALID outside', async () => {
		expect((await api().get('/v2.0/tasks/my-tasks')).body.tasks).toHaveLength(10);
		expect((await api().get('/v2.0/tasks/my-tasks', { params: { limit: 1 } })).body.tasks).toHaveLength(1);
		expect((await api().get('/v2.0/tasks/my-tasks', { params: { limit: 100 } })).body.tasks).toHaveLength(100);
		for (const bad of [0, 101]) {
			const r = await api().get('/v2.0/tasks/my-tasks', { params: { limit: bad } });
			expect([r.status, r.body.code]).toEqual([400, 'LIMIT_NOT_VALID']);
		}
	});

	it('currentId must be >= 0 (20012)', async () => {
		const r = await api().get('/v2.0/tasks/my-tasks', { params: { currentId: -1 } });
		expect([r.status, r.body.code]).toEqual([400, 20012]);
	});

	it('walks every entry assigned to the caller by keyset, latest start first, without repeats', async () => {
		const seen: string[] = [];
		let currentId: string | undefined;
		let starts: number[] = [];
		for (;;) {
			const r = await api().get('/v2.0/tasks/my-tasks', { params: { limit: 100, currentId, timeZoneCode: 'UTC' } });
			const page = r.body.tasks as Array<{ id: bigint; startAt: string | null; endAt: string }>;
			seen.push(...page.map((t) => s(t.id)));
			starts = starts.concat(page.map((t) => Date.parse(t.startAt ?? t.endAt)));
			if (page.length < 100) break;
			currentId = s(page[page.length - 1].id);
		}
		expect(seen).toHaveLength(mine().length);
		expect(new Set(seen).size).toBe(seen.length);
		expect([...starts].sort((a, b) => b - a)).toEqual(starts);
	});

	it('formats times in timeZoneCode, else in the caller\'s zone', async () => {
		const utc = await api().get('/v2.0/tasks/my-tasks', { params: { timeZoneCode: 'UTC', limit: 1 } });
		expect(utc.body.tasks[0].endAt).toMatch(/\+00:00$/);
		const tokyo = await api().get('/v2.0/tasks/my-tasks', { params: { timeZoneCode: 'Asia/Tokyo', limit: 1 } });
		expect(tokyo.body.tasks[0].endAt).toMatch(/\+09:00$/);
		const bad = await api().get('/v2.0/tasks/my-tasks', { params: { timeZoneCode: 'Nowhere/City' } });
		expect([bad.status, bad.body.code]).toEqual([400, 20012]);
	});

	it('userId: an admin may read another member\'s tasks; an agent may not read others\' (PERMISSION_DENIED)', async () => {
		const oscar = await api().get('/v2.0/tasks/my-tasks', { params: { userId: SEED_IDS.otherAgentUserId, limit: 100 } });
		expect(oscar.status).toBe(200);
		expect(oscar.body.tasks.every((t: { assignedUserId: bigint }) => s(t.assignedUserId) === SEED_IDS.otherAgentUserId)).toBe(true);
		expect(oscar.body.tasks.length).toBeGreaterThan(0);
		const denied = await other().get('/v2.0/tasks/my-tasks', { params: { userId: SEED_IDS.demoUserId } });
		expect([denied.status, denied.body.code]).toEqual([403, 'PERMISSION_DENIED']);
		const unknown = await api().get('/v2.0/tasks/my-tasks', { params: { userId: '123' } });
		expect([unknown.status, unknown.body.code]).toEqual([404, 'USER_NOT_EXIST']);
	});
});

describe('V1 tasks', () => {
	const v1Task = { content: 'Email the CMA', deadline: 1772400000000, type: 'Email', assignedRole: 'Agent' };

	it('creates with an epoch deadline, lists under taskList with UTC text times, never appointments', async () => {
		const created = await api().post('/v1.0/tasks', withLead(TASK_SEED.leadId, v1Task));
		expect(typeof created.body.taskId).toBe('bigint');
		const got = await api().get(`/v1.0/tasks/${created.body.taskId}`);
		expect(got.body.task.deadline).toBe('2026-03-01 21:20:00');
		expect(got.body.task.finishTime).toBe('');
		const list = await api().get('/v1.0/tasks', { params: { leadId: TASK_SEED.leadId } });
		expect(list.body.taskList.map((t: { id: bigint }) => s(t.id))).toContain(s(created.body.taskId));
		expect(list.body.taskList.some((t: { type: string }) => t.type === 'Appointment')).toBe(false);
		const appt = await api().get(`/v1.0/tasks/${TASK_SEED.appointmentId}`);
		expect([appt.status, appt.body.code]).toEqual([404, 'TASK_NOT_EXIST']);
	});

	it('create requires content, leadId, deadline, type and assignedRole; deadline must be epoch ms; Appointment is not a V1 type', async () => {
		for (const field of ['content', 'deadline', 'type', 'assignedRole']) {
			const body = { ...v1Task } as Record<string, unknown>;
			delete body[field];
			const r = await api().post('/v1.0/tasks', withLead(TASK_SEED.leadId, body));
			expect([r.status, r.body.code, field]).toEqual([400, 'MISSING_PARAMETER', field]);
		}
		const date = await api().post('/v1.0/tasks', withLead(TASK_SEED.leadId, { ...v1Task, deadline: '2026-03-01' }));
		expect([date.status, date.body.code]).toEqual([400, 20012]);
		const appt = await api().post('/v1.0/tasks', withLead(TASK_SEED.leadId, { ...v1Task, type: 'Appointment' }));
		expect([appt.status, appt.body.code]).toEqual([400, 20012]);
		const denied = await api().post('/v1.0/tasks', withLead(SEED_IDS.notSharedLeadId, v1Task));
		expect([denied.status, denied.body.code]).toEqual([403, 'PERMISSION_DENIED']);
	});

	it('PUT answers an empty body; finishFlag finishes and ignores the rest', async () => {
		const r = await api().put(`/v1.0/tasks/${TASK_SEED.openTaskId}`, json({ finishFlag: true, content: 'ignored' }));
		expect(r.status).toBe(200);
		expect(r.text).toBe('');
		const got = (await api().get(`/v1.0/tasks/${TASK_SEED.openTaskId}`)).body.task;
		expect(got.finishFlag).toBe(true);
		expect(got.content).not.toBe('ignored');
		const edit = await api().put(`/v1.0/tasks/${TASK_SEED.openTaskId}`, json({ content: 'changed', type: 'Text' }));
		expect(edit.status).toBe(200);
		const after = (await api().get(`/v1.0/tasks/${TASK_SEED.openTaskId}`)).body.task;
		expect([after.content, after.type]).toEqual(['changed', 'Text']);
	});

	it("GET names the task's lead and assignee (TaskResponse leadId, assignedUserId, assignedRole); PUT assignedRole hands it to that role", async () => {
		const lead = sb.store.getLead(TASK_SEED.leadId)!;
		const assistant = [...sb.store.users.values()].find((u) => u.roleName === 'Assistant')!;
		lead.customRoleList.push({ roleId: 3, role: 'Assistant', assigneeId: assistant.userId, assignee: assistant.email });
		const got = (await api().get(`/v1.0/tasks/${TASK_SEED.openTaskId}`)).body.task;
		expect([s(got.leadId), s(got.assignedUserId), got.assignedRole]).toEqual([TASK_SEED.leadId, SEED_IDS.demoUserId, 'Agent']);
		expect((await api().put(`/v1.0/tasks/${TASK_SEED.openTaskId}`, json({ assignedRole: 'Assistant' }))).status).toBe(200);
		const after = (await api().get(`/v1.0/tasks/${TASK_SEED.openTaskId}`)).body.task;
		expect([s(after.assignedUserId), after.assignedRole]).toEqual([s(assistant.userId), 'Assistant']);
	});

	it('PUT errors: MISSING_PARAMETER, INVALID_UPDATE_OPERATION_LEADID, TASK_IS_SMARTPLAN, TASK_NOT_EXIST, PERMISSION_DENIED', async () => {
		expect((await api().put(`/v1.0/tasks/${TASK_SEED.openTaskId}`, json({}))).body.code).toBe('MISSING_PARAMETER');
		const wrongLead = await api().put(`/v1.0/tasks/${TASK_SEED.openTaskId}`, json({ leadId: 651095960136641, content: 'x' }));
		expect([wrongLead.status, wrongLead.body.code]).toEqual([400, 'INVALID_UPDATE_OPERATION_LEADID']);
		const sameLead = await api().put(`/v1.0/tasks/${TASK_SEED.openTaskId}`, withLead(TASK_SEED.leadId, { content: 'x' }));
		expect(sameLead.status).toBe(200);
		const smart = await api().put(`/v1.0/tasks/${TASK_SEED.smartPlanTaskId}`, json({ finishFlag: true }));
		expect([smart.status, smart.body.code]).toEqual([400, 'TASK_IS_SMARTPLAN']);
		expect((await api().put('/v1.0/tasks/31337', json({ content: 'x' }))).body.code).toBe('TASK_NOT_EXIST');
		const denied = await api().put(`/v1.0/tasks/${TASK_SEED.otherAgentTaskId}`, json({ content: 'x' }));
		expect([denied.status, denied.body.code]).toEqual([403, 'PERMISSION_DENIED']);
	});

	it('DELETE answers an empty body; appointments are not V1 tasks', async () => {
		const r = await api().delete(`/v1.0/tasks/${TASK_SEED.finishedTaskId}`);
		expect([r.status, r.text]).toEqual([200, '']);
		expect((await api().get(`/v1.0/tasks/${TASK_SEED.finishedTaskId}`)).body.code).toBe('TASK_NOT_EXIST');
		expect((await api().delete(`/v1.0/tasks/${TASK_SEED.appointmentId}`)).body.code).toBe('TASK_NOT_EXIST');
		expect((await api().delete(`/v1.0/tasks/${TASK_SEED.smartPlanTaskId}`)).body.code).toBe('TASK_IS_SMARTPLAN');
	});

	it('list errors: MISSING_PARAMETER, LEAD_NOT_EXIST, PERMISSION_DENIED', async () => {
		expect((await api().get('/v1.0/tasks')).body.code).toBe('MISSING_PARAMETER');
		expect((await api().get('/v1.0/tasks', { params: { leadId: '5' } })).body.code).toBe('LEAD_NOT_EXIST');
		const denied = await api().get('/v1.0/tasks', { params: { leadId: SEED_IDS.notSharedLeadId } });
		expect([denied.status, denied.body.code]).toEqual([403, 'PERMISSION_DENIED']);
	});
});
