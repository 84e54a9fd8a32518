import { DEMO_API_KEY, OTHER_AGENT_API_KEY, SEED_IDS } from '../../sandbox';
import { TASK_SEED } from '../../sandbox/resources/task';
import { client, s, useSandbox } from './helpers';

const sb = useSandbox();

const api = () => client(sb.url, { token: DEMO_API_KEY });

describe('GET /v1.0/appts', () => {
	it('returns a bare array of the lead\'s appointments, start and end as epoch ms, no tasks', async () => {
		const r = await api().get('/v1.0/appts', { params: { leadId: TASK_SEED.leadId } });
		expect(r.status).toBe(200);
		expect(Array.isArray(r.body)).toBe(true);
		const ids = r.body.map((a: { id: bigint }) => s(a.id));
		expect(ids).toEqual(expect.arrayContaining([TASK_SEED.appointmentId, TASK_SEED.finishedAppointmentId]));
		expect(ids).not.toContain(TASK_SEED.openTaskId);
		const appt = r.body.find((a: { id: bigint }) => s(a.id) === TASK_SEED.appointmentId);
		expect(typeof appt.deadline).toBe('number');
		expect(appt.endTime - appt.deadline).toBe(3_600_000);
		expect(appt).toMatchObject({ descr: 'Showing at 12 Oak Ave', finishFlag: false, deleteFlag: false, assignRoleType: 1 });
		expect(s(appt.assignToUid)).toBe(SEED_IDS.demoUserId);
	});

	it('is empty for a lead without appointments', async () => {
		const r = await api().get('/v1.0/appts', { params: { leadId: TASK_SEED.emptyLeadId } });
		expect(r.body).toEqual([]);
	});

	it('leadId required (MISSING_PARAMETER), minimum 1 (20012), LEAD_NOT_EXIST, PERMISSION_DENIED', async () => {
		expect((await api().get('/v1.0/appts')).body.code).toBe('MISSING_PARAMETER');
		const zero = await api().get('/v1.0/appts', { params: { leadId: 0 } });
		expect([zero.status, zero.body.code]).toEqual([400, 20012]);
		const missing = await api().get('/v1.0/appts', { params: { leadId: '77' } });
		expect([missing.status, missing.body.code]).toEqual([404, 'LEAD_NOT_EXIST']);
		const denied = await api().get('/v1.0/appts', { params: { leadId: SEED_IDS.notSharedLeadId } });
		expect([denied.status, denied.body.code]).toEqual([403, 'PERMISSION_DENIED']);
		const own = await client(sb.url, { token: OTHER_AGENT_API_KEY }).get('/v1.0/appts', { params: { leadId: SEED_IDS.notSharedLeadId } });
		expect(own.body.map((a: { id: bigint }) => s(a.id))).toContain(TASK_SEED.otherAgentAppointmentId);
	});

	it('hides a deleted appointment', async () => {
		await api().delete(`/v2.0/tasks/${TASK_SEED.appointmentId}`);
		const r = await api().get('/v1.0/appts', { params: { leadId: TASK_SEED.leadId } });
		expect(r.body.map((a: { id: bigint }) => s(a.id))).not.toContain(TASK_SEED.appointmentId);
	});
});
