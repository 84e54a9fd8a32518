import { SEED_IDS } from '../../sandbox';
import { NOTIFICATION_IDS, notificationState } from '../../sandbox/resources/notification';
import { salesAgentState } from '../../sandbox/resources/salesAgent';
import { apiKeyCredential, run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const N = { resource: 'notification' };
const sent = () => notificationState(sandbox().store).sent;

describe('Notification: Send Task Reminder', () => {
	it('pushes a reminder for a task to its assigned agent, sending the 64-bit ID exactly', async () => {
		const [item] = await run(sandbox(), { ...N, operation: 'sendTaskReminder', type: 'TASK', taskId: NOTIFICATION_IDS.bigTaskId });
		expect(item.json.message).toBe('Push sent successfully');
		expect(sandbox().requests[0].body).toBe(`{"type":"TASK","taskId":${NOTIFICATION_IDS.bigTaskId}}`);
		expect(sent()).toEqual([expect.objectContaining({ channel: 'push', toUserId: BigInt(SEED_IDS.otherAgentUserId) })]);
	});

	it('pushes a reminder for an appointment', async () => {
		const [item] = await run(sandbox(), { ...N, operation: 'sendTaskReminder', type: 'APPOINTMENT', taskId: NOTIFICATION_IDS.appointmentId });
		expect(item.json.message).toBe('Push sent successfully');
	});

	it('explains 400 20012 when the ID is not a task of that kind in the team', async () => {
		for (const [type, taskId] of [
			['TASK', NOTIFICATION_IDS.appointmentId],
			['TASK', NOTIFICATION_IDS.foreignTaskId],
		]) {
			const error = await runError(sandbox(), { ...N, operation: 'sendTaskReminder', type, taskId });
			expect(error.message).toMatch(/HTTP 400 20012/);
			expect(error.description).toMatch(/no such task or appointment/);
		}
		expect(sent()).toHaveLength(0);
	});

	it('refuses a task ID that is not a number before sending', async () => {
		const error = await runError(sandbox(), { ...N, operation: 'sendTaskReminder', type: 'TASK', taskId: '12-task' });
		expect(error.message).toMatch(/^Invalid value for "Task or Appointment ID"/);
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('Notification: Send SMS', () => {
	it("texts the current user's phone", async () => {
		const [item] = await run(sandbox(), { ...N, operation: 'sendSms', content: 'Call back Ada' });
		expect(item.json.message).toBe('SMS sent successfully');
		expect(sent()).toEqual([expect.objectContaining({ channel: 'sms', to: '+15125551011', content: 'Call back Ada' })]);
	});

	it('refuses a blank message before sending', async () => {
		const error = await runError(sandbox(), { ...N, operation: 'sendSms', content: '' });
		expect(error.message).toBe('Invalid value for "Message": is required (Lofty would answer MISSING_PARAMETER)');
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('Notification: Send Email', () => {
	it("emails the current user, HTML allowed", async () => {
		const [item] = await run(sandbox(), { ...N, operation: 'sendEmail', subject: 'New lead', content: '<p>Hello</p>' });
		expect(item.json.message).toBe('Email sent successfully');
		expect(sent()).toEqual([expect.objectContaining({ channel: 'email', to: 'demo.owner@example.com', subject: 'New lead', content: '<p>Hello</p>' })]);
	});

	it('needs a subject before sending', async () => {
		const error = await runError(sandbox(), { ...N, operation: 'sendEmail', subject: ' ', content: 'x' });
		expect(error.message).toMatch(/"Subject": is required/);
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('Notification: Send SMS From AI Number', () => {
	it('uses the Sales Agent endpoint', async () => {
		const [item] = await run(sandbox(), { ...N, operation: 'sendSmsViaAiNumber', content: 'Hi from Anna' });
		expect(item.json.message).toBe('SMS sent successfully');
		expect(sandbox().count('POST', '/v2.0/sales-agent/ai-number/send-sms-to-agent')).toBe(1);
		expect(salesAgentState(sandbox().store).aiSms[0]).toMatchObject({ from: '+15125550199', content: 'Hi from Anna' });
	});

	it('explains 400 20012 for a user without a Sales Agent', async () => {
		const error = await runError(sandbox(), { ...N, operation: 'sendSmsViaAiNumber', content: 'Hi' }, { credential: apiKeyCredential(sandbox(), sandbox().otherAgentApiKey) });
		expect(error.message).toMatch(/HTTP 400 20012/);
		expect(error.description).toMatch(/no AI virtual number/);
	});
});
