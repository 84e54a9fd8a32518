/**
 * Flows of the end-to-end plan (plan.ts) about communication: calls, communication history and sending,
 * manual logs and notifications to the agent.
 */
import { SEED_IDS } from '../../sandbox';
import { COMM_SEED } from '../../sandbox/resources/communication';
import { NOTIFICATION_IDS } from '../../sandbox/resources/notification';
import { type Flow, DAY, byId, iso } from './planSteps';

const BIG = SEED_IDS.bigLeadId;

export function callFlow(): Flow {
	return {
		title: 'call',
		steps: [
			{ name: 'Get Many Calls', resource: 'call', operation: 'getAll', params: { leadId: byId(COMM_SEED.historyLeadId), returnAll: false, limit: 150 }, count: 150 },
			{ name: 'Get Call', resource: 'call', operation: 'get', params: { callId: COMM_SEED.bigLeadCallId }, count: 1 },
			{ name: 'Recording URL', resource: 'call', operation: 'getRecordingUrl', params: { callId: COMM_SEED.bigLeadCallId }, count: 1 },
			{
				name: 'Download Recording',
				resource: 'call',
				operation: 'downloadRecording',
				params: { callId: COMM_SEED.bigLeadCallDialerId },
				count: 1,
				check: (items) => expect(items[0]).toMatchObject({ callId: COMM_SEED.bigLeadCallDialerId, mimeType: 'audio/wav', fileSize: 16044 }),
			},
			{ name: 'Call By Communication ID', resource: 'call', operation: 'getByCommunicationId', params: { communicationId: COMM_SEED.bigLeadLoggedCallId }, count: 1 },
		],
	};
}

export function communicationFlow(): Flow {
	return {
		title: 'communication',
		steps: [
			{ name: 'Call History', resource: 'communication', operation: 'getCallHistory', params: { leadId: byId(COMM_SEED.historyLeadId), returnAll: false, limit: 7 }, count: 7 },
			{ name: 'Call History V1', resource: 'communication', operation: 'getCallHistoryV1', params: { leadId: byId(COMM_SEED.historyLeadId), returnAll: false, limit: 7 }, count: 7 },
			{ name: 'Email History', resource: 'communication', operation: 'getEmailHistory', params: { leadId: byId(COMM_SEED.historyLeadId), returnAll: true }, count: [COMM_SEED.historyEmails, 100000] },
			{ name: 'Text History', resource: 'communication', operation: 'getTextHistory', params: { leadId: byId(COMM_SEED.historyLeadId), returnAll: false, limit: 10 }, count: 10 },
			{ name: 'Get Call Communication', resource: 'communication', operation: 'getCall', params: { communicationId: COMM_SEED.bigLeadCallId }, count: 1 },
			{ name: 'Get Email Communication', resource: 'communication', operation: 'getEmail', params: { communicationId: COMM_SEED.bigLeadLoggedEmailId }, count: 1 },
			{ name: 'Get Text Communication', resource: 'communication', operation: 'getText', params: { communicationId: COMM_SEED.bigLeadTextId }, count: 1 },
			{
				name: 'Search By Agent',
				resource: 'communication',
				operation: 'searchByAgent',
				params: { startTime: iso(COMM_SEED.windowStart), endTime: iso(COMM_SEED.windowEnd), returnAll: false, limit: 25 },
				count: 25,
			},
			{
				name: 'Search By Agent V1',
				resource: 'communication',
				operation: 'searchByAgentV1',
				params: { type: 'ALL', startTime: iso(COMM_SEED.busyDay), endTime: iso(COMM_SEED.busyDay + DAY - 1), returnAll: false, limit: 10 },
				count: 10,
			},
			{
				name: 'Send SMS',
				resource: 'communication',
				operation: 'sendSms',
				params: { leadId: byId(BIG), content: 'See you at 5', additionalFields: { phoneNumber: '4155559876', phoneCode: '1' } },
				count: 1,
			},
			{
				name: 'Send Email',
				resource: 'communication',
				operation: 'sendEmail',
				params: { leadId: byId(BIG), subject: 'Open house', content: 'Saturday 2pm', additionalFields: { toEmail: 'second@example.com' } },
				count: 1,
			},
		],
	};
}

export function manualLogFlow(): Flow {
	return {
		title: 'manualLog',
		steps: [
			{
				name: 'Log Call',
				resource: 'manualLog',
				operation: 'create',
				params: { leadId: byId(BIG), logType: 'logCall', content: 'Talked about financing', additionalFields: { leadPhoneNumber: '5865865860' } },
				count: 1,
				check: ([it]) => expect(it).toMatchObject({ leadId: BIG, logType: 'logCall' }),
			},
			{ name: 'Get Manual Log', resource: 'manualLog', operation: 'get', params: { logTypeId: COMM_SEED.bigLeadLoggedCallId }, count: 1 },
			{
				name: 'Get Many Manual Logs',
				resource: 'manualLog',
				operation: 'getAll',
				params: { leadId: byId(COMM_SEED.historyLeadId), logType: 'logText', returnAll: false, limit: 500 },
				count: COMM_SEED.historyLoggedTexts,
			},
			{
				name: 'Delete Manual Log',
				resource: 'manualLog',
				operation: 'delete',
				params: { logTypeId: COMM_SEED.bigLeadLoggedTextId },
				count: 1,
				check: ([it]) => expect(it).toEqual({ deleted: true, logTypeId: COMM_SEED.bigLeadLoggedTextId }),
			},
		],
	};
}

export function notificationFlow(): Flow {
	return {
		title: 'notification',
		steps: [
			{
				name: 'Task Reminder',
				resource: 'notification',
				operation: 'sendTaskReminder',
				params: { type: 'TASK', taskId: NOTIFICATION_IDS.bigTaskId },
				count: 1,
				check: ([it]) => expect(it.message).toBe('Push sent successfully'),
			},
			{ name: 'SMS To Agent', resource: 'notification', operation: 'sendSms', params: { content: 'Call back Ada' }, count: 1, check: ([it]) => expect(it.message).toBe('SMS sent successfully') },
			{
				name: 'Email To Agent',
				resource: 'notification',
				operation: 'sendEmail',
				params: { subject: 'New lead', content: '<p>Hello</p>' },
				count: 1,
				check: ([it]) => expect(it.message).toBe('Email sent successfully'),
			},
			{ name: 'SMS Via AI Number', resource: 'notification', operation: 'sendSmsViaAiNumber', params: { content: 'Hi from Anna' }, count: 1 },
		],
	};
}
