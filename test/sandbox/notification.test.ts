import { DEMO_API_KEY } from '../../sandbox';
import { NOTIFICATION_IDS, notificationState } from '../../sandbox/resources/notification';
import { TASK_SEED } from '../../sandbox/resources/task';
import { client, useSandbox } from './helpers';

const sb = useSandbox();

const api = () => client(sb.url, { token: DEMO_API_KEY });
const PUSH = '/v2.0/sales-agent/notification/app-push/send-task-reminder';

describe(`POST ${PUSH}`, () => {
	it('taskId and type required; type TASK or APPOINTMENT; unknown task 400 20012', async () => {
		expect((await api().post(PUSH, { body: { type: 'TASK' } })).body.code).toBe('MISSING_PARAMETER');
		expect((await api().post(PUSH, { body: { taskId: 1 } })).body.code).toBe('MISSING_PARAMETER');
		expect((await api().post(PUSH, { body: { taskId: NOTIFICATION_IDS.taskId, type: 'CALL' } })).body.code).toBe(20012);
		const unknown = await api().post(PUSH, { body: { taskId: 123, type: 'TASK' } });
		expect([unknown.status, unknown.body.code]).toEqual([400, 20012]);
		expect(unknown.body.message).toMatch(/not found/);
	});

	it('pushes to the assigned agent of a task or appointment of the team', async () => {
		expect((await api().post(PUSH, { body: { taskId: Number(NOTIFICATION_IDS.taskId), type: 'TASK' } })).body).toEqual({ message: expect.any(String) });
		expect((await api().post(PUSH, { body: { taskId: Number(NOTIFICATION_IDS.appointmentId), type: 'APPOINTMENT' } })).status).toBe(200);
		expect((await api().post(PUSH, { body: { taskId: Number(NOTIFICATION_IDS.appointmentId), type: 'TASK' } })).status).toBe(400);
		expect((await api().post(PUSH, { body: { taskId: Number(NOTIFICATION_IDS.foreignTaskId), type: 'TASK' } })).status).toBe(400);
		expect(notificationState(sb.store).sent.map((n) => n.channel)).toEqual(['push', 'push']);
	});

	it('sees the seeded tasks of the task module too, and not deleted ones', async () => {
		const id = TASK_SEED.openTaskId;
		const raw = (taskId: string, type: string) => ({ rawBody: `{"taskId":${taskId},"type":"${type}"}`, headers: { 'Content-Type': 'application/json' } });
		expect((await api().post(PUSH, raw(id, 'TASK'))).status).toBe(200);
		expect((await api().post(PUSH, raw(TASK_SEED.appointmentId, 'APPOINTMENT'))).status).toBe(200);
		await api().delete(`/v2.0/tasks/${id}`);
		expect((await api().post(PUSH, raw(id, 'TASK'))).body.code).toBe(20012);
	});
});

describe('POST /v2.0/sales-agent/message/sms|email/send-to-agent', () => {
	it('SMS: content required and not blank', async () => {
		const path = '/v2.0/sales-agent/message/sms/send-to-agent';
		expect((await api().post(path, { body: {} })).body.code).toBe('MISSING_PARAMETER');
		expect((await api().post(path, { body: { content: '  ' } })).body.code).toBe(20012);
		expect((await api().post(path, { body: { content: 1 } })).body.code).toBe(20012);
		expect((await api().post(path, { body: { content: 'ok' } })).body).toEqual({ message: 'SMS sent successfully' });
	});

	it('email: subject and content required and not blank', async () => {
		const path = '/v2.0/sales-agent/message/email/send-to-agent';
		expect((await api().post(path, { body: { content: 'x' } })).body.code).toBe('MISSING_PARAMETER');
		expect((await api().post(path, { body: { subject: 'x' } })).body.code).toBe('MISSING_PARAMETER');
		expect((await api().post(path, { body: { subject: '', content: 'x' } })).body.code).toBe(20012);
		expect((await api().post(path, { body: { subject: 'S', content: '<b>x</b>' } })).body).toEqual({ message: 'Email sent successfully' });
		expect(notificationState(sb.store).sent[0]).toMatchObject({ channel: 'email', to: 'demo.owner@example.com' });
	});
});
