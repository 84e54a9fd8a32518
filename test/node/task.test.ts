import type { ILoadOptionsFunctions } from 'n8n-workflow';

import { OTHER_AGENT_API_KEY, READING_VALUES, SEED_IDS, parseJson } from '../../sandbox';
import { TASK_SEED, taskState } from '../../sandbox/resources/task';
import { getTimeZones, searchTasks } from '../../nodes/Lofty/methods/task';
import { createContext } from '../harness/context';
import { apiKeyCredential, byId, node, run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const task = (operation: string, extra: Record<string, unknown> = {}) => run(sandbox(), { resource: 'task', operation, ...extra });
const taskError = (operation: string, extra: Record<string, unknown> = {}) => runError(sandbox(), { resource: 'task', operation, ...extra });
/** The JSON body of the n-th request, parsed losslessly (64-bit IDs come back as bigint). */
const sentBody = (n = 0) => parseJson(sandbox().requests[n].body) as Record<string, unknown>;
const stored = (id: string) => taskState(sandbox().store).find(BigInt(id))!;
const lead = byId(TASK_SEED.leadId);
const loadContext = () => createContext(node, { params: {}, credential: apiKeyCredential(sandbox()) }) as unknown as ILoadOptionsFunctions;

describe('Task: Create', () => {
	it('creates a task with the lead ID sent exactly and the due time with its offset', async () => {
		const [item] = await task('create', { leadId: lead, type: 'Email', content: 'Send the CMA', endAt: '2026-03-01T16:00:00-08:00', assignedRole: 'Agent' });
		expect(item.json.taskId).toMatch(/^\d+$/);
		expect(sandbox().requests[0].body).toContain(`"leadId":${TASK_SEED.leadId}`);
		expect(sentBody()).toMatchObject({ type: 'Email', content: 'Send the CMA', endAt: '2026-03-01T16:00:00-08:00', assignedRole: 'Agent' });
		const entry = stored(item.json.taskId as string);
		expect([entry.kind, entry.endAt]).toEqual(['task', Date.parse('2026-03-02T00:00:00Z')]);
	});

	it('reads a time without offset in the chosen Time Zone and sends the offset', async () => {
		const [item] = await task('create', {
			leadId: lead,
			type: 'Call',
			content: 'Call',
			endAt: '2026-07-01T09:30:00',
			assignedRole: 'Assistant',
			additionalFields: { timeZoneCode: 'America/New_York', startAt: '2026-07-01T09:00:00', address: 'Office' },
		});
		expect(sentBody()).toMatchObject({ endAt: '2026-07-01T09:30:00-04:00', startAt: '2026-07-01T09:00:00-04:00', timeZoneCode: 'America/New_York', address: 'Office' });
		expect(stored(item.json.taskId as string).endAt).toBe(Date.parse('2026-07-01T13:30:00Z'));
	});

	it('an offset inside the time wins over Time Zone', async () => {
		await task('create', { leadId: lead, type: 'Call', content: 'x', endAt: '2026-03-01T16:00:00Z', assignedRole: 'Agent', additionalFields: { timeZoneCode: 'Asia/Tokyo' } });
		expect(sentBody().endAt).toBe('2026-03-01T16:00:00Z');
	});

	// A time without offset or Time Zone is in the workflow's time zone (test/node/dates.test.ts).
	it('refuses before sending: Start after Due At, an unknown Time Zone', async () => {
		const base = { leadId: lead, type: 'Call', content: 'x', assignedRole: 'Agent' };
		const order = await taskError('create', { ...base, endAt: '2026-03-01T16:00:00Z', additionalFields: { startAt: '2026-03-01T17:00:00Z' } });
		expect(order.message).toBe('Invalid value for "Due At": must not be earlier than Start');
		const zone = await taskError('create', { ...base, endAt: '2026-03-01T16:00:00Z', additionalFields: { timeZoneCode: 'Mars/Olympus' } });
		expect(zone.message).toMatch(/^Invalid value for "Time Zone"/);
		const appt = await taskError('create', { ...base, endAt: '2026-03-01T16:00:00Z', additionalFields: { extraFields: '{"type": "Appointment"}' } });
		expect(appt.message).toMatch(/Appointment > Create/);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('explains PERMISSION_DENIED on another agent\'s lead and LEAD_NOT_EXIST on a missing one', async () => {
		const base = { type: 'Call', content: 'x', endAt: '2026-03-01T16:00:00Z', assignedRole: 'Agent' };
		const denied = await taskError('create', { ...base, leadId: byId(SEED_IDS.notSharedLeadId) });
		expect(denied.message).toMatch(/HTTP 403 PERMISSION_DENIED/);
		expect(denied.description).toMatch(/another agent's lead/);
		const missing = await taskError('create', { ...base, leadId: byId('4242') });
		expect(missing.message).toMatch(/HTTP 404 LEAD_NOT_EXIST/);
	});

	it('explains 20012 from Lofty (a value passed through Other Fields)', async () => {
		const error = await taskError('create', { leadId: lead, type: 'Call', content: 'x', endAt: '2026-03-01T16:00:00Z', assignedRole: 'Agent', additionalFields: { extraFields: '{"assignedRole": "Lender"}' } });
		expect(error.message).toMatch(/HTTP 400 20012/);
		expect(error.description).toMatch(/UTC offset/);
	});
});

describe('Task: Get', () => {
	it('returns the task with its ID above 2^53 exactly, simplified by default', async () => {
		const [item] = await task('get', { taskId: byId(TASK_SEED.openTaskId) });
		expect(item.json.id).toBe(TASK_SEED.openTaskId);
		expect(item.json.leadId).toBe(TASK_SEED.leadId);
		expect(item.json).toHaveProperty('content', 'Call about the pre-approval');
		expect(item.json).not.toHaveProperty('leadEmail');
		const [full] = await task('get', { taskId: byId(TASK_SEED.openTaskId), simplify: false });
		expect(full.json).toHaveProperty('leadEmail');
		expect(full.json.task).toBeUndefined();
	});

	it('finds an appointment too (one ID namespace)', async () => {
		const [item] = await task('get', { taskId: byId(TASK_SEED.appointmentId) });
		expect(item.json.type).toBe('Appointment');
	});

	it('explains TASK_NOT_EXIST and PERMISSION_DENIED', async () => {
		const missing = await taskError('get', { taskId: byId('123456') });
		expect(missing.message).toMatch(/HTTP 404 TASK_NOT_EXIST/);
		expect(missing.description).toMatch(/share one ID space/);
		const denied = await taskError('get', { taskId: byId(TASK_SEED.otherAgentTaskId) });
		expect(denied.message).toMatch(/HTTP 403 PERMISSION_DENIED/);
	});

	it('refuses a non-numeric ID before sending', async () => {
		const error = await taskError('get', { taskId: byId('abc') });
		expect(error.message).toMatch(/^Invalid value for "Task"/);
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('Task: Get Many', () => {
	it('returns the tasks of a lead without its appointments unless asked', async () => {
		const items = await task('getAll', { leadId: lead });
		const ids = items.map((i) => i.json.id);
		expect(ids).toEqual(expect.arrayContaining([TASK_SEED.openTaskId, TASK_SEED.finishedTaskId, TASK_SEED.smartPlanTaskId]));
		expect(ids).not.toContain(TASK_SEED.appointmentId);
		expect(sandbox().requests[0].query).toEqual({ leadId: TASK_SEED.leadId });
		const all = await task('getAll', { leadId: lead, options: { includeAppointments: true } });
		expect(all.map((i) => i.json.id)).toEqual(expect.arrayContaining([TASK_SEED.appointmentId, TASK_SEED.openTaskId]));
		expect(sandbox().requests[1].query).toEqual({ leadId: TASK_SEED.leadId });
	});

	it('simplifies unless Simplify is off', async () => {
		const [simple] = await task('getAll', { leadId: lead });
		expect(simple.json).not.toHaveProperty('leadPhone');
		const [full] = await task('getAll', { leadId: lead, simplify: false });
		expect(full.json).toHaveProperty('leadPhone');
	});

	it('returns nothing for a lead without tasks', async () => {
		expect(await task('getAll', { leadId: byId(TASK_SEED.emptyLeadId) })).toEqual([]);
	});

	it('explains PERMISSION_DENIED and LEAD_NOT_EXIST', async () => {
		expect((await taskError('getAll', { leadId: byId(SEED_IDS.notSharedLeadId) })).message).toMatch(/403 PERMISSION_DENIED/);
		expect((await taskError('getAll', { leadId: byId('5') })).message).toMatch(/404 LEAD_NOT_EXIST/);
	});
});

// docs/api-readings.md, row 9: every paging test of Get My Tasks runs with currentId exclusive (spec) and inclusive.
describe.each(READING_VALUES.currentId)('Task: Get My Tasks (currentId %s)', (reading) => {
	beforeEach(() => sandbox().readings.set({ currentId: reading }));
	const mine = () => [...taskState(sandbox().store).entries.values()].filter((t) => String(t.assignedUserId) === SEED_IDS.demoUserId && !t.deleteFlag).length;

	it('Return All pages 100 at a time by the last ID until a short page', async () => {
		const n = mine();
		const items = await task('getMyTasks', { returnAll: true });
		expect(items).toHaveLength(n);
		expect(new Set(items.map((i) => i.json.id)).size).toBe(n);
		const requests = sandbox().requests;
		// from the same id, each page brings 99 new tasks
		expect(requests).toHaveLength(reading === 'spec' ? Math.ceil(n / 100) : 1 + Math.ceil((n - 100) / 99));
		expect(requests.map((r) => r.query.limit)).toEqual(requests.map(() => '100'));
		expect(requests[0].query.currentId).toBeUndefined();
		expect(requests[1].query.currentId).toBe(items[99].json.id);
	});

	it('Limit asks for no more than needed', async () => {
		const items = await task('getMyTasks', { limit: 150 });
		expect(items).toHaveLength(150);
		expect(new Set(items.map((i) => i.json.id)).size).toBe(150);
		// from the same id, the second page brings 49 new tasks: one more page asks for the last one (and its start)
		expect(sandbox().requests.map((r) => r.query.limit)).toEqual(reading === 'spec' ? ['100', '50'] : ['100', '50', '2']);
	});

	it('gets another agent\'s tasks in a chosen time zone', async () => {
		const items = await task('getMyTasks', { returnAll: true, filters: { userId: SEED_IDS.otherAgentUserId, timeZoneCode: 'Asia/Tokyo' } });
		expect(items.length).toBeGreaterThan(0);
		expect(items.every((i) => i.json.assignedUserId === SEED_IDS.otherAgentUserId)).toBe(true);
		expect(items[0].json.endAt).toMatch(/\+09:00$/);
		expect(sandbox().requests[0].query).toMatchObject({ userId: SEED_IDS.otherAgentUserId, timeZoneCode: 'Asia/Tokyo' });
	});

	it('explains PERMISSION_DENIED for an agent reading someone else\'s tasks, and USER_NOT_EXIST', async () => {
		const denied = await runError(sandbox(), { resource: 'task', operation: 'getMyTasks', filters: { userId: SEED_IDS.demoUserId } }, { credential: apiKeyCredential(sandbox(), OTHER_AGENT_API_KEY) });
		expect(denied.message).toMatch(/403 PERMISSION_DENIED/);
		expect(denied.description).toMatch(/tasks of another agent/);
		const unknown = await taskError('getMyTasks', { filters: { userId: '123' } });
		expect(unknown.message).toMatch(/404 USER_NOT_EXIST/);
		expect(unknown.description).toMatch(/not a member of your Lofty team/);
	});

	it('refuses an unknown time zone and a Limit below 1 before sending', async () => {
		expect((await taskError('getMyTasks', { filters: { timeZoneCode: 'Nowhere/City' } })).message).toMatch(/^Invalid value for "Time Zone"/);
		expect((await taskError('getMyTasks', { limit: 0 })).message).toMatch(/^Invalid value for "Limit"/);
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('Task: Update', () => {
	it('changes only the given fields and reports which task', async () => {
		const [item] = await task('update', { taskId: byId(TASK_SEED.openTaskId), updateFields: { content: 'Call about the offer', endAt: '2026-02-01T10:00:00-06:00' } });
		expect(item.json).toMatchObject({ taskId: TASK_SEED.openTaskId, updated: true, message: expect.any(String) });
		expect(sentBody()).toEqual({ content: 'Call about the offer', endAt: '2026-02-01T10:00:00-06:00' });
		const entry = stored(TASK_SEED.openTaskId);
		expect([entry.content, entry.endAt, entry.type]).toEqual(['Call about the offer', Date.parse('2026-02-01T16:00:00Z'), 'Call']);
	});

	it('refuses nothing to change (Time Zone alone) and a time that is not one before sending', async () => {
		const none = await taskError('update', { taskId: byId(TASK_SEED.openTaskId), updateFields: { timeZoneCode: 'UTC' } });
		expect(none.message).toMatch(/^Invalid value for "Update Fields": set at least one of/);
		const notATime = await taskError('update', { taskId: byId(TASK_SEED.openTaskId), updateFields: { startAt: '2026-02-31T10:00:00' } });
		expect(notATime.message).toMatch(/^Invalid value for "Start": must be a date and time .* Update Fields > Time Zone, or when that is empty in the zone of "Times Without Offset Are In"/);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('explains TASK_IS_SMARTPLAN, TASK_NOT_EXIST and PERMISSION_DENIED', async () => {
		const smart = await taskError('update', { taskId: byId(TASK_SEED.smartPlanTaskId), updateFields: { content: 'x' } });
		expect(smart.message).toMatch(/HTTP 400 TASK_IS_SMARTPLAN/);
		expect(smart.description).toMatch(/Smart Plan/);
		expect((await taskError('update', { taskId: byId('99'), updateFields: { content: 'x' } })).message).toMatch(/404 TASK_NOT_EXIST/);
		expect((await taskError('update', { taskId: byId(TASK_SEED.otherAgentTaskId), updateFields: { content: 'x' } })).message).toMatch(/403 PERMISSION_DENIED/);
	});
});

describe('Task: Delete', () => {
	it('deletes and says so', async () => {
		const [item] = await task('delete', { taskId: byId(TASK_SEED.openTaskId) });
		expect(item.json).toMatchObject({ taskId: TASK_SEED.openTaskId, deleted: true });
		expect(stored(TASK_SEED.openTaskId).deleteFlag).toBe(true);
		expect((await taskError('get', { taskId: byId(TASK_SEED.openTaskId) })).message).toMatch(/TASK_NOT_EXIST/);
	});

	it('explains TASK_IS_SMARTPLAN, TASK_NOT_EXIST and PERMISSION_DENIED', async () => {
		expect((await taskError('delete', { taskId: byId(TASK_SEED.smartPlanTaskId) })).message).toMatch(/TASK_IS_SMARTPLAN/);
		expect((await taskError('delete', { taskId: byId('99') })).message).toMatch(/TASK_NOT_EXIST/);
		expect((await taskError('delete', { taskId: byId(TASK_SEED.otherAgentTaskId) })).message).toMatch(/PERMISSION_DENIED/);
	});
});

describe('Task: Finish and Unfinish', () => {
	it('moves a task open -> finished -> open', async () => {
		const [done] = await task('finish', { taskId: byId(TASK_SEED.openTaskId) });
		expect(done.json).toMatchObject({ taskId: TASK_SEED.openTaskId, finished: true });
		expect(stored(TASK_SEED.openTaskId).finishFlag).toBe(true);
		const [open] = await task('unfinish', { taskId: byId(TASK_SEED.openTaskId) });
		expect(open.json).toMatchObject({ taskId: TASK_SEED.openTaskId, finished: false });
		expect(stored(TASK_SEED.openTaskId).finishFlag).toBe(false);
		expect(sandbox().requests.map((r) => `${r.method} ${r.path}`)).toEqual([
			`POST /v2.0/tasks/${TASK_SEED.openTaskId}/finish`,
			`POST /v2.0/tasks/${TASK_SEED.openTaskId}/unfinish`,
		]);
	});

	it('explains TASK_IS_SMARTPLAN, TASK_NOT_EXIST and PERMISSION_DENIED', async () => {
		for (const operation of ['finish', 'unfinish']) {
			expect((await taskError(operation, { taskId: byId(TASK_SEED.smartPlanTaskId) })).message).toMatch(/400 TASK_IS_SMARTPLAN/);
			expect((await taskError(operation, { taskId: byId('99') })).message).toMatch(/404 TASK_NOT_EXIST/);
			expect((await taskError(operation, { taskId: byId(TASK_SEED.otherAgentTaskId) })).message).toMatch(/403 PERMISSION_DENIED/);
		}
	});

	it('with Continue On Fail, a failed item does not stop the others', async () => {
		const items = await run(
			sandbox(),
			(i) => ({ resource: 'task', operation: 'finish', taskId: byId([TASK_SEED.smartPlanTaskId, TASK_SEED.openTaskId][i]) }),
			{ items: [{}, {}], continueOnFail: true },
		);
		expect(items[0].json.error).toBeDefined();
		expect(items[1].json).toMatchObject({ finished: true });
	});
});

describe('Task (V1)', () => {
	it('Create (V1) sends the deadline as epoch milliseconds', async () => {
		const [item] = await task('createV1', { leadId: lead, type: 'Text', content: 'Text the lead', deadline: '2026-03-01T21:20:00Z', assignedRole: 'Agent' });
		expect(sentBody()).toMatchObject({ deadline: 1772400000000, type: 'Text', content: 'Text the lead', assignedRole: 'Agent' });
		expect(sandbox().requests[0].path).toBe('/v1.0/tasks');
		const [got] = await task('getV1', { taskId: byId(item.json.taskId as string) });
		expect(got.json).toMatchObject({ deadline: '2026-03-01 21:20:00', finishFlag: false });
	});

	it('Create (V1) explains PERMISSION_DENIED', async () => {
		const error = await taskError('createV1', { leadId: byId(SEED_IDS.notSharedLeadId), type: 'Text', content: 'x', deadline: '2026-03-01T21:20:00Z', assignedRole: 'Agent' });
		expect(error.message).toMatch(/403 PERMISSION_DENIED/);
	});

	it('Get (V1) unwraps {task}; appointments are not found (TASK_NOT_EXIST)', async () => {
		const [item] = await task('getV1', { taskId: byId(TASK_SEED.finishedTaskId), simplify: false });
		expect(item.json).toMatchObject({ id: TASK_SEED.finishedTaskId, finishFlag: true, subject: 'Austin listings' });
		const error = await taskError('getV1', { taskId: byId(TASK_SEED.appointmentId) });
		expect(error.message).toMatch(/404 TASK_NOT_EXIST/);
		expect(error.description).toMatch(/V1 task operations only tasks/);
		expect((await taskError('getV1', { taskId: byId(TASK_SEED.otherAgentTaskId) })).message).toMatch(/403 PERMISSION_DENIED/);
	});

	it('Get Many (V1) returns the lead\'s tasks from taskList', async () => {
		const items = await task('getAllV1', { leadId: lead });
		expect(items.map((i) => i.json.id)).toEqual(expect.arrayContaining([TASK_SEED.openTaskId, TASK_SEED.smartPlanTaskId]));
		expect(items.map((i) => i.json.id)).not.toContain(TASK_SEED.appointmentId);
		expect(items[0].json.taskList).toBeUndefined();
		expect((await taskError('getAllV1', { leadId: byId(SEED_IDS.notSharedLeadId) })).message).toMatch(/403 PERMISSION_DENIED/);
		expect((await taskError('getAllV1', { leadId: byId('5') })).message).toMatch(/404 LEAD_NOT_EXIST/);
	});

	it('Update (V1) changes fields, and Mark Finished alone finishes', async () => {
		const [item] = await task('updateV1', { taskId: byId(TASK_SEED.openTaskId), updateFields: { content: 'Changed', type: 'Other', deadline: '2026-04-01T12:00:00Z' } });
		expect(item.json).toMatchObject({ taskId: TASK_SEED.openTaskId, updated: true });
		expect(sentBody()).toEqual({ content: 'Changed', deadline: Date.parse('2026-04-01T12:00:00Z'), type: 'Other' });
		expect(stored(TASK_SEED.openTaskId)).toMatchObject({ content: 'Changed', type: 'Other', endAt: Date.parse('2026-04-01T12:00:00Z') });
		await task('updateV1', { taskId: byId(TASK_SEED.openTaskId), updateFields: { finishFlag: true } });
		expect(sentBody(1)).toEqual({ finishFlag: true });
		expect(stored(TASK_SEED.openTaskId).finishFlag).toBe(true);
	});

	it('Update (V1) refuses before sending: nothing to change, Mark Finished with other fields', async () => {
		expect((await taskError('updateV1', { taskId: byId(TASK_SEED.openTaskId), updateFields: { finishFlag: false } })).message).toMatch(/^Invalid value for "Update Fields"/);
		expect((await taskError('updateV1', { taskId: byId(TASK_SEED.openTaskId), updateFields: { finishFlag: true, content: 'x' } })).message).toMatch(/^Invalid value for "Mark Finished"/);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('Update (V1) explains INVALID_UPDATE_OPERATION_LEADID, TASK_IS_SMARTPLAN, TASK_NOT_EXIST, PERMISSION_DENIED', async () => {
		const wrongLead = await taskError('updateV1', { taskId: byId(TASK_SEED.openTaskId), updateFields: { content: 'x', leadId: SEED_IDS.activityLeadId } });
		expect(wrongLead.message).toMatch(/400 INVALID_UPDATE_OPERATION_LEADID/);
		expect(wrongLead.description).toMatch(/cannot be changed/);
		const [ok] = await task('updateV1', { taskId: byId(TASK_SEED.openTaskId), updateFields: { content: 'x', leadId: TASK_SEED.leadId } });
		expect(ok.json.updated).toBe(true);
		expect((await taskError('updateV1', { taskId: byId(TASK_SEED.smartPlanTaskId), updateFields: { finishFlag: true } })).message).toMatch(/TASK_IS_SMARTPLAN/);
		expect((await taskError('updateV1', { taskId: byId('99'), updateFields: { content: 'x' } })).message).toMatch(/TASK_NOT_EXIST/);
		expect((await taskError('updateV1', { taskId: byId(TASK_SEED.otherAgentTaskId), updateFields: { content: 'x' } })).message).toMatch(/PERMISSION_DENIED/);
	});

	it('Delete (V1) deletes; explains TASK_IS_SMARTPLAN and TASK_NOT_EXIST', async () => {
		const [item] = await task('deleteV1', { taskId: byId(TASK_SEED.finishedTaskId) });
		expect(item.json).toMatchObject({ taskId: TASK_SEED.finishedTaskId, deleted: true });
		expect(sandbox().requests[0]).toMatchObject({ method: 'DELETE', path: `/v1.0/tasks/${TASK_SEED.finishedTaskId}` });
		expect((await taskError('deleteV1', { taskId: byId(TASK_SEED.smartPlanTaskId) })).message).toMatch(/TASK_IS_SMARTPLAN/);
		expect((await taskError('deleteV1', { taskId: byId(TASK_SEED.appointmentId) })).message).toMatch(/TASK_NOT_EXIST/);
		expect((await taskError('deleteV1', { taskId: byId(TASK_SEED.otherAgentTaskId) })).message).toMatch(/PERMISSION_DENIED/);
	});
});

describe('Task picker and Time Zone dropdown', () => {
	it('lists my tasks (no appointments), searchable, paged by the last ID', async () => {
		const first = await searchTasks.call(loadContext());
		expect(first.results.length).toBeGreaterThan(0);
		expect(first.results.map((r) => r.value)).not.toContain(TASK_SEED.appointmentId);
		expect(first.paginationToken).toMatch(/^\d+$/);
		expect(sandbox().requests[0].query).toEqual({ limit: '100' });
		await searchTasks.call(loadContext(), undefined, first.paginationToken);
		expect(sandbox().requests[1].query).toEqual({ limit: '100', currentId: first.paginationToken });
		const found = await searchTasks.call(loadContext(), 'pre-approval');
		expect(found.results.map((r) => r.value)).toContain(TASK_SEED.openTaskId);
		expect(found.results.every((r) => /pre-approval/i.test(r.name))).toBe(true);
	});

	it('offers IANA time zones, alphabetically', async () => {
		const zones = await getTimeZones.call(loadContext());
		const values = zones.map((z) => z.value);
		expect(values).toEqual(expect.arrayContaining(['America/Los_Angeles', 'Europe/Berlin', 'UTC']));
		expect(zones.map((z) => z.name)).toEqual([...zones.map((z) => z.name)].sort((a, b) => a.localeCompare(b)));
	});
});
