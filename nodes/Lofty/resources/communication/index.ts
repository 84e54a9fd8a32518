import type { IDataObject } from 'n8n-workflow';

import { InvalidValue } from '../../model/params';
import type { OperationContext, OperationDef, ParamDef, ResourceDef } from '../../model/types';
import { valueAt } from '../../transport/pagination';
import { leadInPath } from '../lead';
import { itemRead } from '../../model/itemRead';

const DAY_MS = 86_400_000;

/** Fields a simplified call record keeps (IDs are always kept). */
export const CALL_SIMPLE_FIELDS = ['direction', 'status', 'startTime', 'duration', 'callingOutcome', 'leadPhoneNumber', 'note'];

const LEAD_IN_TEAM_HINT =
	'The lead does not exist, is in the trash, or is not in your Lofty team. Check the lead ID (pick the lead from the list to be sure).';

const leadInQuery = (what: string): ParamDef => ({
	...leadInPath,
	in: 'query',
	description: `The lead whose ${what} to return: pick it from the list, or give its ID or its Lofty URL`,
});

const communicationId = (what: string): ParamDef => ({
	name: 'communicationId',
	label: 'Communication ID',
	type: 'id',
	in: 'path',
	required: true,
	placeholder: 'e.g. 563172647619608',
	description: `ID of the ${what}: the "timelineId" of a Lofty ${what} webhook, or the "id" of an entry from the history or search operations`,
});

const lookupHint = (what: string, webhook: string): Record<string, string> => {
	const text = `Lofty gives this one answer, without saying which applies, when the ID is not ${what} (for example it belongs to another kind of communication), does not exist, or belongs to a lead your user cannot manage. Check that the ID is the "timelineId" of a ${webhook} webhook (not the older "${webhook.toLowerCase()}Id") or the "id" of a history entry, and that the lead is yours or shared with you.`;
	return { PERMISSION_DENIED: text, '20017': text };
};

/** Fails before sending when To is before From or the window is longer than the endpoint allows. */
function checkWindow(op: OperationContext, maxMs: number, maxText: string): void {
	const start = op.values.startTime as number;
	const end = op.values.endTime as number;
	if (end < start) throw new InvalidValue('To', 'must not be earlier than From');
	if (end - start > maxMs) {
		throw new InvalidValue('To', `must be at most ${maxText} after From (Lofty's limit for one search), got ${Math.round(((end - start) / DAY_MS) * 10) / 10} days; split the period into several runs`);
	}
}

const TEAM_HINT =
	'Searching the whole team (Whole Team on) needs the "Access All Team Leads" permission in Lofty. Switch Whole Team off to search only your own communications, or use a credential of a team owner or admin.';

const SEARCH_TYPES = [
	{ name: 'All', value: 'ALL', description: 'Calls, texts and emails together' },
	{ name: 'Call', value: 'CALL' },
	{ name: 'Email', value: 'EMAIL' },
	{ name: 'Text', value: 'TEXT' },
];

const searchWindow = (maxText: string): ParamDef[] => [
	{ name: 'startTime', label: 'From', type: 'dateTime', in: 'query', required: true, description: `Start of the period (inclusive); the period can be at most ${maxText}` },
	{ name: 'endTime', label: 'To', type: 'dateTime', in: 'query', required: true, description: 'End of the period (inclusive)' },
];

const teamView: ParamDef = {
	name: 'teamView',
	label: 'Whole Team',
	type: 'boolean',
	in: 'query',
	description: 'Whether to search the communications on all leads of the team instead of only yours; needs the "Access All Team Leads" permission',
};

/** Call history V1 and V2: the spec says they need `leadUserId`, the OpenAPI documents `leadId` (see withLeadUserId). */
const leadUserId: ParamDef = {
	name: 'leadUserId',
	label: 'Lead User ID',
	type: 'id',
	in: 'query',
	description:
		'The lead\'s user ID (the "leadUserId" field of Lead > Get). The node looks it up when empty; set it to save that lookup.',
};

/** Looked-up leadUserId per lead, for the execution (the context object is the execution's). */
const leadUserIds = new WeakMap<object, Map<string, Promise<string | undefined>>>();

/**
 * api-spec.md: the call-history endpoints "need `leadUserId`"; the OpenAPI: they take `leadId` (required). One
 * request satisfies both: `leadId` and `leadUserId` together, the latter looked up from the lead when not given
 * (once per lead and execution). docs/api-readings.md, row 3.
 */
async function withLeadUserId(op: OperationContext): Promise<void> {
	if (op.values.leadUserId !== undefined) return;
	const leadId = op.values.leadId as string;
	let byLead = leadUserIds.get(op.ctx);
	if (!byLead) leadUserIds.set(op.ctx, (byLead = new Map()));
	let found = byLead.get(leadId);
	if (!found) {
		found = itemRead(op.ctx, op.itemIndex, { method: 'GET', path: `/v1.0/leads/${leadId}`, hints: historyHints }).then((response) => {
			const value = leadRecord(response).leadUserId;
			return value === undefined || value === null || value === '' ? undefined : String(value);
		});
		byLead.set(leadId, found);
		// A failed lookup is not kept: the next item tries again.
		found.catch(() => byLead?.delete(leadId));
	}
	const value = await found;
	if (value !== undefined) op.values.leadUserId = value;
}

const historyHints = { LEAD_NOT_EXIST: LEAD_IN_TEAM_HINT, '20006': LEAD_IN_TEAM_HINT };

function history(over: Partial<OperationDef> & Pick<OperationDef, 'value' | 'name' | 'action' | 'description' | 'path'>, itemsKey: string, what: string): OperationDef {
	return {
		method: 'GET',
		effect: 'read',
		pagination: { style: 'keyset', itemsKey, idField: 'id', maxPageSize: 1000 },
		params: [leadInQuery(what)],
		errorHints: historyHints,
		...over,
	};
}

const SEND_LEAD_HINT =
	'Your user may not message this lead: it must exist, not be in the trash, and be yours, assigned to you or shared with you. Check the lead, or use a credential of its agent.';

export const communication: ResourceDef = {
	value: 'communication',
	name: 'Communication',
	description: 'Call, email and text history; sending SMS and email',
	operations: [
		history(
			{
				value: 'getCallHistory',
				name: 'Get Call History',
				action: 'Get the call history of a lead',
				description: 'Calls with a lead, dialer and logged, oldest first (V2, recommended: more event types and details than V1)',
				path: '/v1.0/communication/call/v2',
				optionalTitle: 'Options',
				params: [leadInQuery('calls'), leadUserId],
				prepare: withLeadUserId,
			},
			'calls',
			'calls',
		),
		history(
			{
				value: 'getCallHistoryV1',
				name: 'Get Call History (V1)',
				action: 'Get the dialer call history of a lead (older V1 endpoint)',
				description: 'Dialer calls with a lead as full call records, oldest first (V1; prefer Get Call History for new workflows)',
				path: '/v1.0/communication/call',
				optionalTitle: 'Options',
				params: [leadInQuery('calls'), leadUserId],
				simplify: CALL_SIMPLE_FIELDS,
				prepare: withLeadUserId,
			},
			'calls',
			'calls',
		),
		history(
			{
				value: 'getEmailHistory',
				name: 'Get Email History',
				action: 'Get the email history of a lead',
				description: 'Emails with a lead (sent, opened, bounced; automatic and manual), oldest first',
				path: '/v1.0/communication/email',
			},
			'emails',
			'emails',
		),
		history(
			{
				value: 'getTextHistory',
				name: 'Get Text History',
				action: 'Get the text message history of a lead',
				description: 'Text messages with a lead, automatic and manual, oldest first',
				path: '/v1.0/communication/text',
			},
			'texts',
			'text messages',
		),
		{
			value: 'getCall',
			name: 'Get Call',
			action: 'Get a call from the communication history',
			description: 'One call by its communication ID (V2); a logged call has no dialer details; the same request as Call > Get By Communication ID, use either',
			method: 'GET',
			effect: 'read',
			path: '/v2.0/communication/call/{communicationId}',
			params: [communicationId('Call')],
			simplify: CALL_SIMPLE_FIELDS,
			errorHints: lookupHint('a call', 'Call'),
		},
		{
			value: 'getEmail',
			name: 'Get Email',
			action: 'Get an email by communication ID',
			description: 'One email by its communication ID (V2): direction, event (sent, opened, bounced), subject',
			method: 'GET',
			effect: 'read',
			path: '/v2.0/communication/email/{communicationId}',
			params: [communicationId('Email')],
			errorHints: lookupHint('an email', 'Email'),
		},
		{
			value: 'getText',
			name: 'Get Text',
			action: 'Get a text message by communication ID',
			description: 'One text message by its communication ID (V2): direction, delivery outcome, content',
			method: 'GET',
			effect: 'read',
			path: '/v2.0/communication/text/{communicationId}',
			params: [communicationId('Text')],
			errorHints: lookupHint('a text message', 'Text'),
		},
		{
			value: 'searchByAgent',
			name: 'Search Agent Communications',
			action: 'Search your calls, texts and emails over up to 90 days',
			description: 'Your communications (or the whole team\'s) in a period of up to 90 days, oldest first (V2, cursor-paged: best for syncing)',
			method: 'GET',
			effect: 'read',
			path: '/v2.0/communication/agent',
			pagination: { style: 'cursor', itemsKey: 'data', maxPageSize: 1000 },
			params: [
				...searchWindow('90 days'),
				// Sent even when left out: Lofty's default is undocumented, the spec describes type=ALL (docs/api-readings.md, row 8).
				{ name: 'type', label: 'Type', type: 'options', in: 'query', options: SEARCH_TYPES, default: 'ALL', sendDefault: true, description: 'Which communications to return' },
				teamView,
			],
			validate: (op) => checkWindow(op, 90 * DAY_MS, '90 days'),
			errorHints: {
				ACCESS_ALL_TEAM_LEADS: TEAM_HINT,
				'20012': 'Lofty rejected a parameter: the period must be at most 90 days with To not before From, and a paging cursor must come from the same search. The message names the value.',
				INVALID_PARAMETER: 'Lofty rejected a parameter: the period must be at most 90 days with To not before From. The message names the value.',
			},
		},
		{
			value: 'searchByAgentV1',
			name: 'Search Agent Communications (V1)',
			action: "Search your day's communications (older V1 endpoint)",
			description: 'Your communications (or the whole team\'s) in a period of up to 24 hours (V1, offset-paged); prefer Search Agent Communications for longer periods',
			method: 'POST',
			effect: 'read',
			path: '/v1.0/agent/communication',
			pagination: { style: 'offset', in: 'body', itemsKey: 'pageData', hasMoreKey: 'hasMore', maxPageSize: 1000 },
			params: [
				{ name: 'type', label: 'Type', type: 'options', in: 'body', required: true, options: SEARCH_TYPES, default: 'ALL', description: 'Which communications to return' },
				...searchWindow('24 hours').map((p) => ({ ...p, in: 'body' as const })),
				{ ...teamView, in: 'body' },
			],
			validate: (op) => checkWindow(op, DAY_MS, '24 hours'),
			errorHints: {
				ACCESS_ALL_TEAM_LEADS: TEAM_HINT,
				'20012': 'Lofty rejected a parameter: the period must be at most 24 hours with To not before From. The message names the value.',
				INVALID_PARAMETER: 'Lofty rejected a parameter: the period must be at most 24 hours with To not before From. The message names the value.',
			},
		},
		{
			value: 'sendSms',
			name: 'Send SMS',
			action: 'Send a text message (SMS) to a lead',
			description: 'Text a lead from your Lofty virtual number; Lofty records it in the lead\'s text history',
			method: 'POST',
			effect: 'sends',
			path: '/v1.0/message/sms/send',
			params: [
				{ ...leadInPath, in: 'body', description: 'The lead to text: pick it from the list, or give its ID or its Lofty URL' },
				{ name: 'content', label: 'Message', type: 'string', in: 'body', required: true, description: 'Text of the SMS' },
				{
					name: 'phoneNumber',
					label: 'Phone Number',
					type: 'string',
					in: 'body',
					contact: 'phone',
					placeholder: 'e.g. 5865865860',
					description: 'One of the lead\'s numbers, without the country code. When empty or not one of the lead\'s numbers, Lofty uses the lead\'s primary phone.',
				},
				{ name: 'phoneCode', label: 'Country Code', type: 'string', in: 'body', placeholder: 'e.g. 1', description: 'Country calling code of Phone Number, without "+"' },
			],
			validate(op) {
				if (op.values.phoneCode !== undefined && op.values.phoneNumber === undefined) {
					throw new InvalidValue('Country Code', 'is used only together with Phone Number; set Phone Number too, or remove Country Code');
				}
				if (op.values.phoneCode !== undefined && !/^\+?\d{1,4}$/.test(op.values.phoneCode as string)) {
					throw new InvalidValue('Country Code', `must be 1 to 4 digits such as 1, got ${op.values.phoneCode as string}`);
				}
			},
			errorHints: {
				PERMISSION_DENIED: SEND_LEAD_HINT,
				'20017': SEND_LEAD_HINT,
				'20012':
					'Lofty refused to send: the message names the reason, for example the lead has no phone number, or your user has no active virtual number (set one up in Lofty\'s phone settings).',
			},
		},
		{
			value: 'sendEmail',
			name: 'Send Email',
			action: 'Send an email to a lead',
			description: 'Email a lead through your Lofty email settings; Lofty records it in the lead\'s email history',
			method: 'POST',
			effect: 'sends',
			path: '/v1.0/message/email/send',
			params: [
				{ ...leadInPath, in: 'body', description: 'The lead to email: pick it from the list, or give its ID or its Lofty URL' },
				{ name: 'subject', label: 'Subject', type: 'string', in: 'body', required: true },
				{ name: 'content', label: 'Body', type: 'string', in: 'body', required: true, description: 'Content of the email' },
				{
					name: 'toEmail',
					label: 'Recipient Email Name or ID',
					type: 'string',
					in: 'body',
					loadOptions: 'getLeadEmails',
					loadOptionsDependsOn: ['leadId.value'],
					description:
						'Which of the lead\'s email addresses to use; the primary one when empty or not one of the lead\'s. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				},
			],
			errorHints: {
				PERMISSION_DENIED: SEND_LEAD_HINT,
				'20017': SEND_LEAD_HINT,
				'20012': 'Lofty refused to send: the message names the reason, for example the lead has no email address.',
			},
		},
	],
};

/** The lead's record from GET /v1.0/leads/{leadId} (bare or wrapped in `lead`). */
export function leadRecord(response: unknown): IDataObject {
	const inner = valueAt(response, 'lead');
	return ((inner && typeof inner === 'object' ? inner : response) ?? {}) as IDataObject;
}
