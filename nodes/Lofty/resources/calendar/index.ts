import { DateTime, IANAZone } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { zoneReadIn } from '../../model/agentZone';
import { HAS_OFFSET, workflowZone as zoneOfWorkflow, zoneForTimes } from '../../model/dates';
import { InvalidValue } from '../../model/params';
import type { OperationContext, OperationDef, ParamDef, ResourceDef } from '../../model/types';
import { CALENDAR_TIME_READING, windowOnWire } from './time';

export { CALENDAR_TIME_READING, windowQuery } from './time';
import { leadInPath } from '../lead';
import { ENTRY_KIND_OPTIONS, TASK_WAYS, assignedRole, rawValue } from '../task';

/**
 * Calendar V2: tasks and appointments together. Entries are addressed by composite IDs such as
 * `12345-task` or `12345-appointment` (spec rule 4), sent back exactly as Lofty returned them.
 */
const CALENDAR_ID = /^[1-9]\d*-(task|appointment)$/;

/** The calendar entry picked from a list or given by its composite ID, placed in the path. */
const calendarEntryInPath: ParamDef = {
	name: 'calendarId',
	label: 'Calendar Entry',
	type: 'locator',
	locator: { searchMethod: 'searchCalendarEntries', idPlaceholder: '12345-task', idKind: 'text' },
	in: 'path',
	required: true,
	description: 'The task or appointment: pick it from the list, or give its calendar ID exactly as Lofty returned it (e.g. 12345-task or 12345-appointment)',
};

const EXPRESSION_LINK = 'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.';

function timeZoneParam(description: string, required = false): ParamDef {
	return {
		name: 'timeZoneCode',
		label: 'Time Zone Name or ID',
		type: 'options',
		in: 'body',
		loadOptions: 'getCalendarTimeZones',
		required: required || undefined,
		description: `${description} ${EXPRESSION_LINK}`,
	};
}

const INVALID_HINT =
	'Lofty rejected a value. Check that the calendar ID is exactly as Lofty returned it (such as 12345-task), that the entry still exists, and that start and end times lie in the future; the message names the value.';
const CREATE_INVALID_HINT =
	'Lofty rejected a value: Start and End must lie in the future, the time zone must be an IANA name, Task Way is needed for tasks, and the lead must exist. The message names the value.';
const LIST_INVALID_HINT =
	'Lofty rejected a value of the search (for example a Sort By field it does not know, or a time it could not read). The message names the value; fix it and run again.';
const SLOTS_INVALID_HINT =
	'Lofty rejected the time range: From must lie in the future, To must be later than From and at most 90 days after it. The message names the value.';
const NOT_MANAGER_HINT =
	"The Lofty user behind this credential does not manage this lead: only the lead's owner, its assigned agent or an agent it is shared with may add or change its tasks and appointments. Use that agent's credential, or share the lead with this user in Lofty.";
const SMART_PLAN_HINT =
	'This task belongs to a Smart Plan, and Lofty does not let the API change or delete Smart Plan tasks. Edit the Smart Plan in Lofty instead; the task can still be marked finished.';

/** The time zone of the workflow, when n8n provides it. */
const workflowZone = (op: OperationContext): string | undefined => zoneOfWorkflow(op.ctx);

function checkZone(op: OperationContext): string | undefined {
	const zone = op.values.timeZoneCode as string | undefined;
	if (zone !== undefined && !IANAZone.isValidZone(zone)) {
		throw new InvalidValue('Time Zone Name or ID', `must be an IANA time zone such as America/Los_Angeles, got "${zone}"`);
	}
	return zone;
}

/**
 * Calendar V2 takes ISO 8601 times; an offset inside the string wins over timeZoneCode (spec).
 * So a time the user typed with an offset keeps it, and a time without one is read in `zone`
 * (the entry's time zone), not in the server's zone. Sent with seconds precision and an offset.
 */
export function calendarTime(label: string, raw: unknown, zone: string | undefined): DateTime {
	let date: DateTime;
	if (DateTime.isDateTime(raw)) date = raw;
	else if (raw instanceof Date) date = DateTime.fromJSDate(raw, zone ? { zone } : {});
	else if (typeof raw === 'number' || /^\d{10,}$/.test(String(raw).trim())) date = DateTime.fromMillis(Number(raw), { zone: zone ?? 'utc' });
	else {
		const text = String(raw).trim().replace(/^(\d{4}-\d{2}-\d{2}) (?=\d)/, '$1T');
		if (HAS_OFFSET.test(text)) date = DateTime.fromISO(text, { setZone: true });
		else if (zone) date = DateTime.fromISO(text, { zone });
		else {
			throw new InvalidValue(
				label,
				`has no UTC offset; add one (e.g. 2026-03-01T14:00:00-08:00) or set the Time Zone field, got "${String(raw)}"`,
			);
		}
	}
	if (!date.isValid) {
		throw new InvalidValue(
			label,
			`must be a date and time (ISO 8601 such as 2026-03-01T14:00:00-08:00), got "${String(raw)}"; a time without a UTC offset is read in the Time Zone field, or when that is empty in the workflow's time zone (Workflow Settings > Timezone)`,
		);
	}
	return date;
}

const isoWithOffset = (date: DateTime): string => date.toFormat("yyyy-MM-dd'T'HH:mm:ssZZ");

/** Re-reads Start and End with the time-zone rule above, checks they lie in the future and in order. */
function checkStartEnd(op: OperationContext, zone: string | undefined, collection?: string): void {
	const labels: Record<string, string> = { startAt: 'Start', endAt: 'End' };
	const dates: Record<string, DateTime> = {};
	for (const name of ['startAt', 'endAt']) {
		if (op.values[name] === undefined) continue;
		const date = calendarTime(labels[name], rawValue(op, name, collection), zone);
		if (date.toMillis() <= Date.now()) throw new InvalidValue(labels[name], `must be in the future (Lofty refuses past times), got ${isoWithOffset(date)}`);
		dates[name] = date;
		op.values[name] = isoWithOffset(date);
	}
	if (dates.startAt && dates.endAt && dates.endAt < dates.startAt) throw new InvalidValue('End', 'must not be before Start');
}

/**
 * From / To go out as epoch ms, so their zone matters only for a time typed without an offset:
 * read it in the chosen time zone, else the workflow's (the model would use the server's).
 */
function rezoneWindow(op: OperationContext, names: Record<string, string>, collection?: string): void {
	const zone = (op.values.timeZoneCode as string | undefined) ?? workflowZone(op);
	if (!zone) return;
	for (const [name, label] of Object.entries(names)) {
		if (op.values[name] === undefined) continue;
		op.values[name] = calendarTime(label, rawValue(op, name, collection), zone).toMillis();
	}
}

function checkCalendarId(op: OperationContext): string {
	const id = String(op.values.calendarId);
	if (!CALENDAR_ID.test(id)) {
		throw new InvalidValue(
			'Calendar Entry',
			`must be a calendar ID like 12345-task or 12345-appointment, exactly as Lofty returned it, got "${id}"`,
		);
	}
	return id;
}

/** What a per-entry write returns: the entry's ID, what happened, and Lofty's message. */
function entryResult(flag: IDataObject) {
	return (response: unknown, op: OperationContext): IDataObject => ({
		calendarId: op.values.calendarId as string,
		...flag,
		...(response !== null && typeof response === 'object' && !Array.isArray(response) ? (response as IDataObject) : {}),
	});
}

const DAY_MS = 86_400_000;

/** Both list endpoints take From/To as epoch milliseconds (spec: "Further endpoints"), or ISO 8601 (OpenAPI): time.ts. */
const timeWindow = (required: boolean, what: string): ParamDef[] => [
	{ name: 'startTime', label: 'From', type: 'dateTime', in: 'query', required: required || undefined, description: `${what} at or after this time` },
	{ name: 'endTime', label: 'To', type: 'dateTime', in: 'query', required: required || undefined, description: `${what} at or before this time` },
];

const entryOp = (op: Omit<OperationDef, 'params' | 'method' | 'effect'> & { method?: OperationDef['method'] }): OperationDef => ({
	method: 'POST',
	effect: 'write',
	params: [calendarEntryInPath],
	validate: checkCalendarId,
	...op,
});

export const calendar: ResourceDef = {
	value: 'calendar',
	name: 'Calendar',
	description: 'Calendar V2: tasks and appointments together, meeting slots',
	errorHints: {
		'20012': INVALID_HINT,
		INVALID_PARAMETER: INVALID_HINT,
		'20017': NOT_MANAGER_HINT,
		PERMISSION_DENIED: NOT_MANAGER_HINT,
		TASK_IS_SMARTPLAN: SMART_PLAN_HINT,
		TASK_NOT_EXIST: 'The task or appointment does not exist any more (it may have been deleted). Get the calendar entries again to find its current ID.',
	},
	operations: [
		{
			value: 'create',
			name: 'Create',
			action: 'Add a task or appointment to a calendar',
			description: 'Add a task or an appointment for a lead to the calendar, the kind chosen in the node (or by an expression); Task > Create and Appointment > Create make one kind each',
			method: 'POST',
			effect: 'write',
			path: '/v2.0/calendar',
			params: [
				{
					name: 'type',
					label: 'Type',
					type: 'options',
					in: 'body',
					required: true,
					options: ENTRY_KIND_OPTIONS,
					default: 'TASK',
				},
				{ ...leadInPath, in: 'body', description: 'The lead the task or appointment is for: pick it from the list, or give its ID or its Lofty URL' },
				{ name: 'content', label: 'Content', type: 'string', in: 'body', required: true, description: 'What the task or appointment is about' },
				{
					name: 'startAt',
					label: 'Start',
					type: 'dateTime',
					format: 'iso',
					in: 'body',
					required: true,
					agentTime: true,
					description: 'When it starts; must be in the future. A time without a UTC offset is read in the chosen time zone.',
				},
				{
					name: 'endAt',
					label: 'End',
					type: 'dateTime',
					format: 'iso',
					in: 'body',
					required: true,
					agentTime: true,
					description: 'When it ends; must be in the future and not before Start. Start and End both at midnight make an all-day appointment.',
				},
				timeZoneParam('Time zone of the entry; times without a UTC offset are read in it.', true),
				{
					name: 'taskWay',
					label: 'Task Way',
					type: 'options',
					in: 'body',
					required: true,
					options: TASK_WAYS,
					default: 'Call',
					description: 'How the task is to be done. Used for tasks only; not sent for appointments.',
				},
				{ ...assignedRole, description: "Whether the task goes to the lead's agent or to the assistant" },
				{ name: 'address', label: 'Address', type: 'string', in: 'body', description: 'Where the appointment takes place (appointments only)' },
			],
			validate(op) {
				const zone = checkZone(op) ?? zoneForTimes(op.ctx, op.values);
				checkStartEnd(op, zone);
				if (op.values.type !== 'APPOINTMENT' && op.values.address !== undefined) {
					throw new InvalidValue('Address', 'applies to appointments only; remove it or set Type to Appointment');
				}
			},
			// An appointment has no task way; its default must not go out with it.
			toWire(op) {
				if (op.values.type === 'APPOINTMENT') delete op.values.taskWay;
			},
			errorHints: { '20012': CREATE_INVALID_HINT, INVALID_PARAMETER: CREATE_INVALID_HINT },
			// `{data: {id, type, message}}`: the composite id is what Update, Finish and Delete take.
			unwrap: 'data',
		},
		{
			value: 'delete',
			name: 'Delete',
			action: 'Delete a calendar entry by its ID',
			description: 'Remove a task or an appointment from the calendar',
			method: 'DELETE',
			effect: 'destructive',
			path: '/v2.0/calendar/{calendarId}',
			params: [calendarEntryInPath],
			validate: checkCalendarId,
			output: entryResult({ deleted: true }),
		},
		entryOp({
			value: 'finish',
			name: 'Finish',
			action: 'Mark a calendar task or appointment as finished',
			description: 'Mark a task or an appointment as done',
			path: '/v2.0/calendar/{calendarId}/finish',
			output: entryResult({ finished: true }),
		}),
		{
			value: 'getAvailableSlots',
			name: 'Get Available Slots',
			action: 'Get your free meeting slots in a period',
			description: 'Free meeting slots of the user between two times (at most 90 days apart), earliest first',
			method: 'GET',
			effect: 'read',
			path: '/v2.0/calendar/meetings/available',
			params: [
				...timeWindow(true, 'Slots starting'),
				{ name: 'limit', label: 'Limit', type: 'number', in: 'query', min: 1, integer: true, default: 10, description: 'Max number of slots to return (Lofty returns 10 when not set)' },
				{
					...timeZoneParam("Time zone of the returned slot times, also used to read From and To without a UTC offset; the user's own time zone in Lofty when empty."),
					in: 'query',
				},
			],
			validate(op) {
				checkZone(op);
				rezoneWindow(op, { startTime: 'From', endTime: 'To' });
				const from = op.values.startTime as number;
				const to = op.values.endTime as number;
				if (from <= Date.now()) throw new InvalidValue('From', 'must be in the future');
				if (to <= from) throw new InvalidValue('To', 'must be later than From');
				if (to - from > 90 * DAY_MS) throw new InvalidValue('To', 'must be at most 90 days after From');
			},
			errorHints: { '20012': SLOTS_INVALID_HINT, INVALID_PARAMETER: SLOTS_INVALID_HINT },
			otherReading: CALENDAR_TIME_READING,
			unwrap: 'data.slots',
		},
		{
			value: 'getAll',
			name: 'Get Many',
			action: 'Get your calendar: tasks and appointments in a period',
			description: "The user's tasks and appointments in a time window",
			method: 'GET',
			effect: 'read',
			path: '/v2.0/calendar',
			pagination: { style: 'page', itemsKey: 'data.items', totalKey: 'data.total', maxPageSize: 500, pageParam: 'page', sizeParam: 'pageSize', firstPage: 0 },
			params: [
				...timeWindow(false, 'Entries starting'),
				{ ...leadInPath, in: 'query', required: false, description: 'Only entries of this lead: pick it from the list, or give its ID or its Lofty URL' },
				{ name: 'includeFinished', label: 'Include Finished', type: 'boolean', in: 'query', description: 'Whether finished entries are returned too (otherwise only open ones)' },
				{
					name: 'sourceType',
					label: 'Source Types',
					type: 'stringList',
					in: 'query',
					placeholder: 'e.g. 1',
					description: "Only entries of these Lofty source type codes (whole numbers, as in the entries' sourceType)",
				},
				{ name: 'sort', label: 'Sort By', type: 'string', in: 'query', default: 'startTime', placeholder: 'startTime', description: 'Field to sort by; Lofty sorts by startTime when not set' },
				{ name: 'desc', label: 'Descending', type: 'boolean', in: 'query', default: true, description: 'Whether to sort latest first' },
				{ ...timeZoneParam("Time zone in which From and To without a UTC offset are read (the workflow's time zone when empty)."), in: 'query' },
				// The OpenAPI also names startTimeMs / endTimeMs; the node sends them itself (./time.ts). These
				// fields stay for workflows that set them: they are the same bounds as From and To.
				{ name: 'startTimeMs', label: 'From (startTimeMs)', type: 'dateTime', in: 'query', description: 'Same as From (the node sends From in both of Lofty\'s parameters); used when From is empty' },
				{ name: 'endTimeMs', label: 'To (endTimeMs)', type: 'dateTime', in: 'query', description: 'Same as To (the node sends To in both of Lofty\'s parameters); used when To is empty' },
			],
			validate(op) {
				checkZone(op);
				const labels = { startTime: 'From', endTime: 'To', startTimeMs: 'From (startTimeMs)', endTimeMs: 'To (endTimeMs)' };
				rezoneWindow(op, labels, 'filters');
				windowOnWire(op, labels);
				const from = op.values.startTime as number | undefined;
				const to = op.values.endTime as number | undefined;
				if (from === undefined && to === undefined) {
					throw new InvalidValue('From', 'set From or To (or both): Lofty lists calendar entries only within a time window');
				}
				if (from !== undefined && to !== undefined && to < from) throw new InvalidValue('To', 'must not be before From');
				for (const code of (op.values.sourceType as string[] | undefined) ?? []) {
					if (!/^\d+$/.test(code)) throw new InvalidValue('Source Types', `must be whole-number codes, got "${code}"`);
				}
			},
			errorHints: { '20012': LIST_INVALID_HINT, INVALID_PARAMETER: LIST_INVALID_HINT },
			otherReading: CALENDAR_TIME_READING,
		},
		entryOp({
			value: 'unfinish',
			name: 'Unfinish',
			action: 'Reopen a finished calendar task or appointment',
			description: 'Reopen a finished task or appointment',
			path: '/v2.0/calendar/{calendarId}/unfinish',
			output: entryResult({ finished: false }),
		}),
		{
			value: 'update',
			name: 'Update',
			action: 'Update a calendar task or appointment',
			description: 'Change the content, times, reminder, lead or address of a task or appointment; fields left out keep their values',
			method: 'PUT',
			effect: 'write',
			path: '/v2.0/calendar/{calendarId}',
			optionalTitle: 'Update Fields',
			params: [
				// Times without offset are read in the zone of the entry's assignee; the entry is read as the V2 task it is.
				{ ...calendarEntryInPath, assignsTo: 'entry', entryReadAt: '/v2.0/tasks/{id}' },
				{ name: 'content', label: 'Content', type: 'string', in: 'body', description: 'What the task or appointment is about' },
				{
					name: 'startAt',
					label: 'Start',
					type: 'dateTime',
					format: 'iso',
					in: 'body',
					agentTime: true,
					description: 'New start; must be in the future',
				},
				{ name: 'endAt', label: 'End', type: 'dateTime', format: 'iso', in: 'body', agentTime: true, description: 'New end; must be in the future and not before Start' },
				timeZoneParam('New time zone of the entry; times without a UTC offset are read in it.'),
				{ name: 'reminderType', label: 'Reminder Type', type: 'string', in: 'body', description: "How Lofty reminds of the entry, in Lofty's terms" },
				{ name: 'reminderTime', label: 'Reminder Time', type: 'string', in: 'body', description: "When Lofty reminds of the entry, in Lofty's terms" },
				{ ...leadInPath, in: 'body', required: false, description: 'Move the entry to this lead (the user must manage it): pick it from the list, or give its ID or its Lofty URL' },
				{ name: 'address', label: 'Address', type: 'string', in: 'body', description: 'Where the appointment takes place (appointments only)' },
			],
			validate(op) {
				const id = checkCalendarId(op);
				if (Object.keys(op.values).filter((name) => name !== 'calendarId').length === 0) {
					throw new InvalidValue('Update Fields', 'add at least one field to change');
				}
				const zone = checkZone(op) ?? zoneForTimes(op.ctx, op.values);
				checkStartEnd(op, zone, 'updateFields');
				// The entry is held in the zone its new times were read in (Lofty otherwise keeps the entry's).
				const readIn = zoneReadIn(op.values);
				if (op.values.timeZoneCode === undefined && readIn) op.values.timeZoneCode = readIn;
				if (op.values.address !== undefined && id.endsWith('-task')) {
					throw new InvalidValue('Address', 'applies to appointments only, and this entry is a task');
				}
			},
			output: entryResult({ updated: true }),
		},
	],
};
