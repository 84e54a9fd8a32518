import type { IDataObject } from 'n8n-workflow';

import { InvalidValue } from '../../model/params';
import type { OperationContext, ParamDef, ResourceDef } from '../../model/types';
import { leadInPath } from '../lead';

const LOG_TYPES = [
	{ name: 'Call', value: 'logCall' },
	{ name: 'Email', value: 'logEmail' },
	{ name: 'Text', value: 'logText' },
];

const logTypeId: ParamDef = {
	name: 'logTypeId',
	label: 'Manual Log ID',
	type: 'id',
	in: 'path',
	required: true,
	placeholder: 'e.g. 563172647619608',
	description: 'ID of the manual log entry, as returned by Create or Get Many',
};

const LEAD_HINT =
	'The lead does not exist, is in the trash, or your user cannot use it (it must be yours, assigned to you, shared with you, or you are its lender). Check the lead.';
const NOT_FOUND_HINT =
	'No manual log with this ID: it was deleted, the ID belongs to another kind of timeline entry (only logged calls, emails and texts count), or it was created moments ago. Lofty saves new manual logs asynchronously: wait a few seconds (for example with a Wait node) and try again.';

const CALL_ONLY = ['leadPhoneNumber', 'callingOutcome'];
const EMAIL_ONLY = ['emailSubject', 'toEmail', 'fromEmail'];
const LABELS: Record<string, string> = {
	leadPhoneNumber: 'Lead Phone Number',
	callingOutcome: 'Call Outcome',
	emailSubject: 'Email Subject',
	toEmail: 'To Email',
	fromEmail: 'From Email',
};

/** Largest page of GET /v1.0/logType. */
const PAGE = 1000;

const returnAll = (op: OperationContext): boolean => op.ctx.getNodeParameter('returnAll', op.itemIndex, false) as boolean;

/**
 * Whether the list is read over several pages while the user sorts by logged time. Lofty ignores `sort` once
 * currentId is given (OpenAPI): page 1 by time, then by ID, would skip or repeat entries; so such a read asks for
 * `sort=id` on every page and sorts the result itself.
 */
function pagesByTime(op: OperationContext): boolean {
	const several = returnAll(op) || Number(op.ctx.getNodeParameter('limit', op.itemIndex, 50)) > PAGE;
	return several && op.values.sort !== 'id';
}

/** Marks (in the item's values, not sent) a read whose entries the node sorts by logged time itself. */
const SORT_HERE = 'sortByLoggedTimeHere';

function compareIds(a: unknown, b: unknown): number {
	const x = BigInt(String(a ?? 0));
	const y = BigInt(String(b ?? 0));
	return x < y ? -1 : x > y ? 1 : 0;
}

export const manualLog: ResourceDef = {
	value: 'manualLog',
	name: 'Manual Log',
	description: 'Calls, emails and texts logged by hand on a lead',
	operations: [
		{
			value: 'create',
			name: 'Create',
			action: 'Log a call, email or text made outside Lofty on a lead',
			description: 'Record a call, email or text that happened outside Lofty on the lead\'s timeline',
			notice:
				'Lofty saves manual logs asynchronously: the new ID comes back at once, but the entry can be read (Get, Get Many) only after a short delay. Put a Wait node of a few seconds before reading it back.',
			method: 'POST',
			effect: 'write',
			path: '/v1.0/logType',
			params: [
				{ ...leadInPath, in: 'body', description: 'The lead to log on: pick it from the list, or give its ID or its Lofty URL' },
				{ name: 'logType', label: 'Log Type', type: 'options', in: 'body', required: true, options: LOG_TYPES, default: 'logCall', description: 'What kind of communication to log' },
				{ name: 'content', label: 'Content', type: 'string', in: 'body', required: true, maxLength: 5000, description: 'Call notes, email body or text message (at most 5000 characters)' },
				{
					name: 'outboundOrInbound',
					label: 'Direction',
					type: 'options',
					in: 'body',
					options: [
						{ name: 'Inbound (Lead to Agent)', value: 'inbound', description: 'The lead called, emailed or texted you' },
						{ name: 'Outbound (Agent to Lead)', value: 'outbound', description: 'You called, emailed or texted the lead' },
					],
					default: 'outbound',
					description: 'Seen from the agent\'s side: outbound is agent to lead, inbound is lead to agent. Lofty assumes outbound when not set.',
				},
				{ name: 'isPin', label: 'Pin', type: 'boolean', in: 'body', description: 'Whether to pin the entry to the top of the lead\'s timeline' },
				{ name: 'leadPhoneNumber', label: 'Lead Phone Number', type: 'string', in: 'body', maxLength: 20, contact: 'phone', placeholder: 'e.g. 5865865860', description: 'Calls only, and required for them: the number that was called' },
				{
					name: 'callingOutcome',
					label: 'Call Outcome',
					type: 'options',
					in: 'body',
					options: [
						{ name: 'Bad Number', value: 'BadNumber' },
						{ name: 'DNC Contact', value: 'DNCContact', description: 'The contact asked not to be called' },
						{ name: 'DNC Number', value: 'DNCNumber', description: 'The number is on a do-not-call list' },
						{ name: 'No Answer', value: 'NoAnswer' },
						{ name: 'Talked', value: 'Talked' },
						{ name: 'Voice Message', value: 'VoiceMessage', description: 'You left a voicemail' },
					],
					default: 'Talked',
					description: 'Calls only: how the call went',
				},
				{ name: 'emailSubject', label: 'Email Subject', type: 'string', in: 'body', description: 'Emails only' },
				{ name: 'toEmail', label: 'To Email', type: 'string', in: 'body', contact: 'email', placeholder: 'name@email.com', description: 'Emails only: the recipient address' },
				{ name: 'fromEmail', label: 'From Email', type: 'string', in: 'body', contact: 'email', placeholder: 'name@email.com', description: 'Emails only: the sender address' },
			],
			validate(op) {
				const type = op.values.logType;
				if (type === 'logCall' && op.values.leadPhoneNumber === undefined) {
					throw new InvalidValue('Lead Phone Number', 'is required when Log Type is Call (add it under Additional Fields)');
				}
				// Lofty ignores these fields for the other log types; refusing them keeps nothing from being dropped silently.
				for (const name of type === 'logCall' ? EMAIL_ONLY : type === 'logEmail' ? CALL_ONLY : [...CALL_ONLY, ...EMAIL_ONLY]) {
					if (op.values[name] !== undefined) {
						const needed = CALL_ONLY.includes(name) ? 'Call' : 'Email';
						throw new InvalidValue(LABELS[name], `is used only when Log Type is ${needed}; remove it or change Log Type`);
					}
				}
			},
			output(response, op) {
				const inner = (response as IDataObject | undefined)?.logType;
				const record = (inner && typeof inner === 'object' ? inner : response ?? {}) as IDataObject;
				return { ...record, leadId: op.values.leadId as string, logType: op.values.logType as string };
			},
			errorHints: {
				LEAD_NOT_EXIST: LEAD_HINT,
				'20006': LEAD_HINT,
				'20012': 'Lofty rejected a field: Content must not be blank, and a call needs Lead Phone Number. The message names the field.',
				INVALID_PARAMETER: 'Lofty rejected a field: Content must not be blank, and a call needs Lead Phone Number. The message names the field.',
				'20043': 'A field is too long: Lead Phone Number and Call Outcome take at most 20 characters.',
				PARAMETER_TOO_LONG: 'A field is too long: Lead Phone Number and Call Outcome take at most 20 characters.',
			},
		},
		{
			value: 'get',
			name: 'Get',
			action: 'Get a logged call, email or text by ID',
			description: 'One logged call, email or text by ID',
			method: 'GET',
			effect: 'read',
			path: '/v1.0/logType/{logTypeId}',
			params: [logTypeId],
			unwrap: 'logType',
			errorHints: { RESOURCE_NOT_EXIST: NOT_FOUND_HINT, '20007': NOT_FOUND_HINT },
		},
		{
			value: 'getAll',
			name: 'Get Many',
			action: 'Get the logged calls, emails or texts of a lead',
			description: 'Logged calls, emails or texts of a lead (one kind at a time); automatic communications are not included',
			method: 'GET',
			effect: 'read',
			path: '/v1.0/logType',
			pagination: { style: 'keyset', itemsKey: 'logType', idField: 'id', maxPageSize: 1000 },
			params: [
				{ ...leadInPath, in: 'query', description: 'The lead whose manual logs to return: pick it from the list, or give its ID or its Lofty URL' },
				{ name: 'logType', label: 'Log Type', type: 'options', in: 'query', required: true, options: LOG_TYPES, default: 'logCall', description: 'Which kind of manual log to return' },
				{
					name: 'sort',
					label: 'Sort By',
					type: 'options',
					in: 'query',
					options: [
						{ name: 'ID', value: 'id' },
						{ name: 'Logged Time', value: 'createTime', description: 'The time the agent logged (usually when the entry was created)' },
					],
					default: 'createTime',
					description:
						'With Return All the node reads the pages by ID (Lofty orders later pages by ID) and sorts the entries itself; a Limit above 1000 needs Sort By ID',
				},
				{
					name: 'order',
					label: 'Order',
					type: 'options',
					in: 'query',
					options: [
						{ name: 'Newest First', value: 'desc' },
						{ name: 'Oldest First', value: 'asc' },
					],
					default: 'asc',
				},
			],
			validate(op) {
				if (pagesByTime(op) && !returnAll(op)) {
					throw new InvalidValue('Limit', `above ${PAGE} needs Sort By ID (Lofty orders every page after the first by ID); use Return All to get the entries sorted by logged time, or a Limit of at most ${PAGE}`);
				}
			},
			// Reading several pages: by ID on each (docs/api-readings.md, row 9), then in the order asked for.
			toWire(op) {
				if (!pagesByTime(op)) return;
				op.values.sort = 'id';
				op.values[SORT_HERE] = true;
			},
			output(records, op) {
				const list = records as IDataObject[];
				if (op.values[SORT_HERE] !== true) return list;
				const sign = op.values.order === 'desc' ? -1 : 1;
				const key = (r: IDataObject) => String(r.createTime ?? '');
				return [...list].sort((a, b) => sign * (key(a).localeCompare(key(b)) || compareIds(a.id, b.id)));
			},
			errorHints: {
				LEAD_NOT_EXIST: LEAD_HINT,
				'20006': LEAD_HINT,
				'200104': 'Lofty returns at most the first 20,000 entries by position; the node pages by ID, so this points to a changed Lofty rule. Report it to the node\'s maintainers.',
				OFFSET_EXCEED_LIMIT: 'Lofty returns at most the first 20,000 entries by position; the node pages by ID, so this points to a changed Lofty rule. Report it to the node\'s maintainers.',
			},
		},
		{
			value: 'delete',
			name: 'Delete',
			action: 'Delete a logged call, email or text',
			description: 'Remove a logged call, email or text from the lead\'s timeline',
			method: 'DELETE',
			effect: 'destructive',
			path: '/v1.0/logType/{logTypeId}',
			params: [logTypeId],
			output: (response, op) => ({
				deleted: true,
				logTypeId: op.values.logTypeId as string,
				...(response !== null && typeof response === 'object' && !Array.isArray(response) ? (response as IDataObject) : {}),
			}),
			errorHints: {
				RESOURCE_NOT_EXIST: NOT_FOUND_HINT,
				'20007': NOT_FOUND_HINT,
				LEAD_NOT_EXIST: 'Your user cannot manage the lead this entry belongs to: it must be yours, assigned to you or shared with you.',
				'20006': 'Your user cannot manage the lead this entry belongs to: it must be yours, assigned to you or shared with you.',
			},
		},
	],
};
