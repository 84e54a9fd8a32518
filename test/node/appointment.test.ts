import type { ILoadOptionsFunctions } from 'n8n-workflow';

import { SEED_IDS, parseJson } from '../../sandbox';
import { TASK_SEED, taskState } from '../../sandbox/resources/task';
import { searchAppointments } from '../../nodes/Lofty/methods/appointment';
import { createContext } from '../harness/context';
import { apiKeyCredential, byId, node, run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const appt = (operation: string, extra: Record<string, unknown> = {}) => run(sandbox(), { resource: 'appointment', operation, ...extra });
const apptError = (operation: string, extra: Record<string, unknown> = {}) => runError(sandbox(), { resource: 'appointment', operation, ...extra });
const sentBody = (n = 0) => parseJson(sandbox().requests[n].body) as Record<string, unknown>;
const stored = (id: string) => taskState(sandbox().store).find(BigInt(id))!;
const lead = byId(TASK_SEED.leadId);
const showing = { leadId: lead, content: 'Showing at 9 Elm St', startAt: '2026-05-02T10:00:00-05:00', endAt: '2026-05-02T11:00:00-05:00', assignedRole: 'Agent' };

describe('Appointment: Create', () => {
	it('creates an entry of type Appointment through the V2 task endpoint', async () => {
		const [item] = await appt('create', { ...showing, additionalFields: { address: '9 Elm St, Austin, TX', timeZoneCode: 'America/Chicago' } });
		expect(sandbox().requests[0]).toMatchObject({ method: 'POST', path: '/v2.0/tasks' });
		expect(sentBody()).toMatchObject({ type: 'Appointment', content: 'Showing at 9 Elm St', startAt: '2026-05-02T10:00:00-05:00', endAt: '2026-05-02T11:00:00-05:00', address: '9 Elm St, Austin, TX' });
		expect(sandbox().requests[0].body).toContain(`"leadId":${TASK_SEED.leadId}`);
		const entry = stored(item.json.taskId as string);
		expect([entry.kind, entry.type, entry.startAt]).toEqual(['appointment', 'Appointment', Date.parse('2026-05-02T15:00:00Z')]);
	});

	it('keeps the type Appointment whatever Other Fields say', async () => {
		await appt('create', { ...showing, additionalFields: { extraFields: '{"type": "Call"}' } });
		expect(sentBody().type).toBe('Appointment');
	});

	it('refuses End before Start before sending; times without offset are read in Time Zone, else the workflow\'s', async () => {
		const order = await apptError('create', { ...showing, endAt: '2026-05-02T09:00:00-05:00' });
		expect(order.message).toBe('Invalid value for "End": must not be earlier than Start');
		expect(sandbox().requests).toHaveLength(0);
		await appt('create', { ...showing, startAt: '2026-05-02T10:00:00', endAt: '2026-05-02T11:00:00' });
		expect(sentBody()).toMatchObject({ startAt: '2026-05-02T10:00:00-04:00', endAt: '2026-05-02T11:00:00-04:00' });
		await appt('create', { ...showing, startAt: '2026-05-02T10:00:00', endAt: '2026-05-02T11:00:00', additionalFields: { timeZoneCode: 'Europe/Berlin' } });
		expect(sentBody(1)).toMatchObject({ startAt: '2026-05-02T10:00:00+02:00', endAt: '2026-05-02T11:00:00+02:00' });
	});

	it('explains PERMISSION_DENIED and LEAD_NOT_EXIST', async () => {
		expect((await apptError('create', { ...showing, leadId: byId(SEED_IDS.notSharedLeadId) })).message).toMatch(/403 PERMISSION_DENIED/);
		expect((await apptError('create', { ...showing, leadId: byId('31') })).message).toMatch(/404 LEAD_NOT_EXIST/);
	});
});

describe('Appointment: Get', () => {
	it('returns the appointment with start and end in its time zone', async () => {
		const [item] = await appt('get', { appointmentId: byId(TASK_SEED.appointmentId) });
		expect(sandbox().requests[0].path).toBe(`/v2.0/tasks/${TASK_SEED.appointmentId}`);
		expect(item.json).toMatchObject({ id: TASK_SEED.appointmentId, type: 'Appointment', timeZoneCode: 'America/Chicago', address: '12 Oak Ave, Austin, TX 78701' });
		expect(item.json.startAt).toBe('2026-01-08T10:00:00-06:00');
	});

	it('explains TASK_NOT_EXIST and PERMISSION_DENIED', async () => {
		expect((await apptError('get', { appointmentId: byId('404') })).message).toMatch(/404 TASK_NOT_EXIST/);
		const denied = await apptError('get', { appointmentId: byId(TASK_SEED.otherAgentAppointmentId) });
		expect(denied.message).toMatch(/403 PERMISSION_DENIED/);
		expect(denied.description).toMatch(/another agent's lead/);
	});
});

describe('Appointment: Get Many', () => {
	it('keeps only the appointments of the lead', async () => {
		const items = await appt('getAll', { leadId: lead });
		expect(items.map((i) => i.json.id).sort()).toEqual([TASK_SEED.appointmentId, TASK_SEED.finishedAppointmentId].sort());
		expect(items.every((i) => i.json.type === 'Appointment')).toBe(true);
		expect(items[0].json).not.toHaveProperty('leadEmail');
		const [full] = await appt('getAll', { leadId: lead, simplify: false });
		expect(full.json).toHaveProperty('leadEmail');
	});

	it('explains PERMISSION_DENIED and LEAD_NOT_EXIST', async () => {
		expect((await apptError('getAll', { leadId: byId(SEED_IDS.notSharedLeadId) })).message).toMatch(/403 PERMISSION_DENIED/);
		expect((await apptError('getAll', { leadId: byId('31') })).message).toMatch(/404 LEAD_NOT_EXIST/);
	});
});

describe('Appointment: Update', () => {
	it('moves the appointment and reports which one', async () => {
		const [item] = await appt('update', {
			appointmentId: byId(TASK_SEED.appointmentId),
			updateFields: { startAt: '2026-01-09T14:00:00', endAt: '2026-01-09T15:30:00', timeZoneCode: 'America/Chicago', address: '14 Oak Ave' },
		});
		expect(item.json).toMatchObject({ appointmentId: TASK_SEED.appointmentId, updated: true });
		expect(sentBody()).toEqual({ startAt: '2026-01-09T14:00:00-06:00', endAt: '2026-01-09T15:30:00-06:00', timeZoneCode: 'America/Chicago', address: '14 Oak Ave' });
		expect(stored(TASK_SEED.appointmentId)).toMatchObject({ startAt: Date.parse('2026-01-09T20:00:00Z'), address: '14 Oak Ave' });
	});

	it('refuses before sending: nothing to change, End before Start', async () => {
		expect((await apptError('update', { appointmentId: byId(TASK_SEED.appointmentId), updateFields: {} })).message).toMatch(/^Invalid value for "Update Fields"/);
		const order = await apptError('update', { appointmentId: byId(TASK_SEED.appointmentId), updateFields: { startAt: '2026-01-09T14:00:00Z', endAt: '2026-01-09T13:00:00Z' } });
		expect(order.message).toBe('Invalid value for "End": must not be earlier than Start');
		expect(sandbox().requests).toHaveLength(0);
	});

	it('explains TASK_NOT_EXIST and PERMISSION_DENIED', async () => {
		expect((await apptError('update', { appointmentId: byId('404'), updateFields: { content: 'x' } })).message).toMatch(/TASK_NOT_EXIST/);
		expect((await apptError('update', { appointmentId: byId(TASK_SEED.otherAgentAppointmentId), updateFields: { content: 'x' } })).message).toMatch(/PERMISSION_DENIED/);
	});
});

describe('Appointment: Delete, Finish, Unfinish', () => {
	it('finishes, reopens and deletes', async () => {
		const id = TASK_SEED.appointmentId;
		expect((await appt('finish', { appointmentId: byId(id) }))[0].json).toMatchObject({ appointmentId: id, finished: true });
		expect(stored(id).finishFlag).toBe(true);
		expect((await appt('unfinish', { appointmentId: byId(id) }))[0].json).toMatchObject({ appointmentId: id, finished: false });
		expect(stored(id).finishFlag).toBe(false);
		expect((await appt('delete', { appointmentId: byId(id) }))[0].json).toMatchObject({ appointmentId: id, deleted: true });
		expect(stored(id).deleteFlag).toBe(true);
		expect(sandbox().requests.map((r) => `${r.method} ${r.path}`)).toEqual([
			`POST /v2.0/tasks/${id}/finish`,
			`POST /v2.0/tasks/${id}/unfinish`,
			`DELETE /v2.0/tasks/${id}`,
		]);
	});

	it('explain TASK_NOT_EXIST and PERMISSION_DENIED', async () => {
		for (const operation of ['finish', 'unfinish', 'delete']) {
			expect((await apptError(operation, { appointmentId: byId('404') })).message).toMatch(/404 TASK_NOT_EXIST/);
			expect((await apptError(operation, { appointmentId: byId(TASK_SEED.otherAgentAppointmentId) })).message).toMatch(/403 PERMISSION_DENIED/);
		}
	});
});

describe('Appointment: Get Many (V1)', () => {
	it('returns the bare list of the lead\'s appointments', async () => {
		const items = await appt('getAllV1', { leadId: lead, simplify: false });
		expect(sandbox().requests[0]).toMatchObject({ path: '/v1.0/appts', query: { leadId: TASK_SEED.leadId } });
		const ids = items.map((i) => i.json.id);
		expect(ids.sort()).toEqual([TASK_SEED.appointmentId, TASK_SEED.finishedAppointmentId].sort());
		const first = items.find((i) => i.json.id === TASK_SEED.appointmentId)!.json;
		expect(first).toMatchObject({ descr: 'Showing at 12 Oak Ave', assignToUid: SEED_IDS.demoUserId });
		const [simple] = await appt('getAllV1', { leadId: lead });
		expect(simple.json).not.toHaveProperty('createTime');
	});

	it('explains PERMISSION_DENIED and LEAD_NOT_EXIST', async () => {
		expect((await apptError('getAllV1', { leadId: byId(SEED_IDS.notSharedLeadId) })).message).toMatch(/403 PERMISSION_DENIED/);
		expect((await apptError('getAllV1', { leadId: byId('31') })).message).toMatch(/404 LEAD_NOT_EXIST/);
	});
});

describe('Appointment picker', () => {
	it('lists only my appointments, searchable', async () => {
		const ctx = createContext(node, { params: {}, credential: apiKeyCredential(sandbox()) }) as unknown as ILoadOptionsFunctions;
		const all = await searchAppointments.call(ctx);
		expect(all.results.map((r) => r.value)).toEqual(expect.arrayContaining([TASK_SEED.appointmentId, TASK_SEED.finishedAppointmentId]));
		expect(all.results.map((r) => r.value)).not.toContain(TASK_SEED.openTaskId);
		const found = await searchAppointments.call(ctx, 'oak ave');
		expect(found.results.map((r) => r.value)).toEqual([TASK_SEED.appointmentId]);
	});
});
