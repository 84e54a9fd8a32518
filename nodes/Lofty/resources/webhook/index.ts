import type { IDataObject } from 'n8n-workflow';

import { InvalidValue } from '../../model/params';
import type { OperationContext, ResourceDef } from '../../model/types';
import { RECORD_PATHS, recordRoute, unwrapRecord } from './records';
import { redactSubscriptions } from './redact';

export { recordRoute, unwrapRecord } from './records';
export { redactCallbackUrl } from './redact';

/** Lofty's webhook event types by `listId` (api-spec.md, Payloads). */
export const WEBHOOK_EVENTS = [
	{ name: 'Agent Info', value: 1, description: 'An agent was created or updated' },
	{ name: 'Appointment', value: 11, description: 'An appointment was created, updated, finished or deleted' },
	{ name: 'Call', value: 6, description: 'A manual or logged call (automatic calls do not fire)' },
	{ name: 'Email', value: 7, description: 'A manual or logged email (automatic emails do not fire)' },
	{ name: 'Lead Activity', value: 3, description: 'A lead browsed, saved or searched on the website' },
	{ name: 'Lead Info', value: 2, description: 'A lead was created, updated or deleted' },
	{ name: 'Listing Alert', value: 4, description: 'A listing alert changed' },
	{ name: 'Note', value: 9, description: 'A note was created, updated or deleted' },
	{ name: 'Pipeline Change', value: 12, description: 'A lead moved to another pipeline stage' },
	{ name: 'Task', value: 10, description: 'A task was created, updated, finished or deleted' },
	{ name: 'Text', value: 8, description: 'A manual or logged text message (automatic texts do not fire)' },
	{ name: 'Transaction', value: 5, description: 'A transaction was created, updated or deleted' },
];

/** An absolute https:// URL with a host, as Lofty requires of a callback. */
export function isHttpsUrl(value: string): boolean {
	try {
		const url = new URL(value);
		return url.protocol === 'https:' && url.hostname !== '';
	} catch {
		return false;
	}
}

const subscriptionInPath = {
	name: 'subscribeId',
	label: 'Subscription Name or ID',
	type: 'id' as const,
	in: 'path' as const,
	required: true,
	loadOptions: 'getWebhookSubscriptions',
	description:
		'The webhook subscription to delete. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

/** Records of a subscription answer (a list is one item each), callback URLs redacted. */
function subscriptionRecords(response: unknown): IDataObject[] {
	const redacted = redactSubscriptions(response);
	if (Array.isArray(redacted)) return redacted.map((v) => (v !== null && typeof v === 'object' ? (v as IDataObject) : { value: v as string }));
	if (redacted !== null && typeof redacted === 'object') return [redacted as IDataObject];
	return [{ success: true }];
}

const eventOf = (op: OperationContext) => op.values.event as IDataObject;

export const webhook: ResourceDef = {
	value: 'webhook',
	name: 'Webhook',
	description: 'Webhook subscriptions',
	operations: [
		{
			value: 'create',
			name: 'Create',
			action: 'Create a webhook subscription',
			description: 'Ask Lofty to POST change notifications of one event type to a URL of yours',
			method: 'POST',
			effect: 'write',
			path: '/v1.0/webhook',
			params: [
				{ name: 'listId', label: 'Event', type: 'options', in: 'body', required: true, options: WEBHOOK_EVENTS, default: 2, description: 'What Lofty notifies about' },
				{
					name: 'callbackUrl',
					label: 'Callback URL',
					type: 'string',
					in: 'body',
					required: true,
					placeholder: 'https://example.com/webhooks/lofty',
					description: 'The HTTPS address Lofty sends the notifications to; it must answer 2xx quickly',
				},
				{
					// api-spec.md: "maximum events per batch"; the OpenAPI's response schema instead calls it a 30-minute cap.
					name: 'limit',
					label: 'Batch Size',
					type: 'number',
					in: 'body',
					min: 1,
					max: 5000,
					integer: true,
					default: 100,
					description: 'Most events Lofty puts in one notification, 1 to 5000 (Lofty uses 100 when not set)',
				},
				{
					name: 'permissionMode',
					label: 'Delivery Scope',
					type: 'options',
					in: 'body',
					options: [
						{
							name: 'Assignment-Based (Default)',
							value: 0,
							description:
								'Notify about leads assigned to this user; company owners and admins hear about all leads. Hidden leads only go to their assigned agent.',
						},
						{
							name: 'Ownership-Based',
							value: 1,
							description:
								'Also notify about every lead this user manages by ownership (their team, their office, or owned personally), even when it is assigned to someone else',
						},
					],
					default: 0,
					description: 'Which leads\' events reach this subscription',
				},
			],
			// Lofty's answer may echo the callback URL, with a secret the user put in it.
			output: (response) => subscriptionRecords(response),
			validate(op) {
				const url = op.values.callbackUrl as string;
				if (!isHttpsUrl(url)) {
					throw new InvalidValue('Callback URL', `must be a full HTTPS address such as https://example.com/hook (Lofty answers WEBHOOK_CALLBACK_URL_INVALID otherwise), got "${url}"`);
				}
			},
			errorHints: {
				WEBHOOK_CALLBACK_URL_INVALID: 'The Callback URL must be a valid HTTPS address (https://...) that Lofty can reach.',
				WEBHOOK_EXCEED_LIMIT:
					'The account already has the most webhook subscriptions Lofty allows. Delete subscriptions you no longer need (Webhook > Delete), then try again.',
				WEBHOOK_TYPE_ERROR: 'Lofty does not know this event type. Choose an Event from the list.',
				'20012': 'Lofty refused a value: Batch Size must be 1 to 5000 and Delivery Scope 0 or 1.',
			},
		},
		{
			value: 'delete',
			name: 'Delete',
			action: 'Delete a webhook subscription',
			description: 'Stop a webhook subscription; only the user who created it may delete it',
			method: 'DELETE',
			effect: 'destructive',
			path: '/v1.0/webhook/{subscribeId}',
			params: [subscriptionInPath],
			// Lofty answers with an empty body.
			output: (response, op) => ({
				deleted: true,
				subscribeId: op.values.subscribeId as string,
				...(response !== null && typeof response === 'object' && !Array.isArray(response) ? (response as IDataObject) : {}),
			}),
			errorHints: {
				WEBHOOK_DELETE_NOT_EXIST: 'No webhook subscription has this ID (it may already be deleted). Use Webhook > Get Many to see the current ones.',
				WEBHOOK_DELETE_NO_AUTHORITY:
					'This subscription was created by another user (or another team); only its creator may delete it. Use that user\'s credential.',
			},
		},
		{
			// The second node of the trigger's two-node pattern (Lofty Trigger -> this): the lookups run inside the
			// execution, after Lofty has had its answer, so a slow or failed lookup never holds up or loses an event.
			value: 'getEventRecord',
			name: 'Get Event Record',
			action: 'Get the full record a trigger event is about',
			description:
				'Read the full lead, transaction, note, task, appointment, agent, call, email or text a Lofty Trigger event is about, and add it to the event as "record"',
			method: 'GET',
			effect: 'read',
			path: '/{the record of the event}',
			params: [
				{
					name: 'event',
					label: 'Event',
					type: 'json',
					in: 'local',
					required: true,
					jsonShape: 'object',
					default: '={{ $json }}',
					description: 'An item of the Lofty Trigger. Keep {{ $json }} when this node follows the trigger.',
				},
			],
			validate(op) {
				const event = eventOf(op);
				const listId = Number(event.listId);
				if (!Number.isInteger(listId) || listId < 1 || listId > 12) {
					throw new InvalidValue('Event', `must be an item of the Lofty Trigger, with a listId from 1 to 12, got listId ${JSON.stringify(event.listId ?? null)}`);
				}
				const route = recordRoute(event);
				if ('missing' in route) throw new InvalidValue('Event', `has no ${route.missing.join(' and ')} to look the record up by`);
			},
			route: (op) => {
				const route = recordRoute(eventOf(op));
				return 'path' in route ? route.path : null;
			},
			routes: RECORD_PATHS,
			// A deletion's record is gone and listing alerts have none: `record` is null, nothing is requested.
			output: (response, op) => {
				const event = eventOf(op);
				const route = recordRoute(event);
				return { ...event, record: response === undefined ? null : unwrapRecord(response, 'path' in route ? route.unwrap : undefined) };
			},
		},
		{
			value: 'getAll',
			name: 'Get Many',
			action: 'Get the webhook subscriptions',
			description: 'The active webhook subscriptions of the team',
			method: 'GET',
			effect: 'read',
			path: '/v1.0/webhooks',
			params: [],
			// The Lofty Trigger's callback URLs carry its secret (?token=): never shown.
			output: (response) => subscriptionRecords(response),
		},
	],
};
