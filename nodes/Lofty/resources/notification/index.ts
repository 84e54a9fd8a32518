import type { ResourceDef } from '../../model/types';
import { sendSmsViaAiNumber } from '../salesAgent';
import { ENTRY_KIND_OPTIONS } from '../task';

export const notification: ResourceDef = {
	value: 'notification',
	name: 'Notification',
	description: 'Push, SMS and email notifications to agents',
	errorHints: {
		MISSING_PARAMETER: 'A required field is missing.',
	},
	operations: [
		{
			value: 'sendTaskReminder',
			name: 'Send Task Reminder',
			action: 'Push a task reminder to its agent',
			description: 'Push a reminder to the Lofty app of the agent assigned to a task or appointment',
			method: 'POST',
			effect: 'sends',
			path: '/v2.0/sales-agent/notification/app-push/send-task-reminder',
			params: [
				{
					name: 'type',
					label: 'Reminder For',
					type: 'options',
					in: 'body',
					required: true,
					// The spec gives TASK; the OpenAPI enum adds APPOINTMENT. Both are offered.
					options: ENTRY_KIND_OPTIONS,
					default: 'TASK',
				},
				{
					name: 'taskId',
					label: 'Task or Appointment ID',
					type: 'id',
					in: 'body',
					required: true,
					requiredCode: 'MISSING_PARAMETER',
					placeholder: 'e.g. 123456',
					description: 'ID of the task or appointment to remind its agent of',
				},
			],
			errorHints: {
				'20012':
					'Lofty found no such task or appointment in your team. Check the ID, and that "Reminder For" matches it: appointments and tasks share IDs, so an appointment needs Appointment.',
			},
		},
		{
			value: 'sendSms',
			name: 'Send SMS',
			action: 'Text yourself from the system number',
			description: "Text the phone of the Lofty user behind this credential from Lofty's system number; to text from your Sales Agent's AI number use Send SMS From AI Number",
			method: 'POST',
			effect: 'sends',
			path: '/v2.0/sales-agent/message/sms/send-to-agent',
			params: [{ name: 'content', label: 'Message', type: 'string', in: 'body', required: true, requiredCode: 'MISSING_PARAMETER', description: 'Text of the SMS' }],
			errorHints: {
				'20012': 'The message was blank, or the Lofty user has no phone number on their profile.',
			},
		},
		{
			value: 'sendEmail',
			name: 'Send Email',
			action: 'Email yourself a notification',
			description: 'Email the Lofty user behind this credential (HTML allowed in the body)',
			method: 'POST',
			effect: 'sends',
			path: '/v2.0/sales-agent/message/email/send-to-agent',
			params: [
				{ name: 'subject', label: 'Subject', type: 'string', in: 'body', required: true, requiredCode: 'MISSING_PARAMETER' },
				{
					name: 'content',
					label: 'Body',
					type: 'string',
					in: 'body',
					required: true,
					requiredCode: 'MISSING_PARAMETER',
					description: 'Body of the email; HTML is supported, e.g. &lt;p&gt;You have a new lead.&lt;/p&gt;',
				},
			],
			errorHints: {
				'20012': 'The subject or the body was blank.',
			},
		},
		{
			...sendSmsViaAiNumber,
			action: 'Text yourself from the AI number',
			description: "Text the phone of the Lofty user behind this credential from their Sales Agent's AI number; the same request as Sales Agent > Send SMS From AI Number. Use Send SMS for Lofty's system number",
		},
	],
};
