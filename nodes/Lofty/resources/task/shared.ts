import { DateTime, IANAZone } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { zoneReadIn } from '../../model/agentZone';
import { zoneForTimes } from '../../model/dates';
import { InvalidValue, show } from '../../model/params';
import type { LocatorDef, OperationContext, OperationDef, ParamDef } from '../../model/types';
import { valueAt } from '../../transport/pagination';
import { mergedBodyJson } from '../../model/collections';

/*
 * Tasks and appointments share one ID namespace in Lofty, and the V2 endpoints (/v2.0/tasks/...) find an entry by
 * its ID whatever its kind (api-spec.md, General rule 4). The Task resource offers the V2 endpoints as its main
 * operations and the V1 ones as "(V1)" operations; the Appointment resource (appointment.ts) reuses the V2 endpoints
 * and the helpers below.
 */

export const TASK_LOCATOR: LocatorDef = { searchMethod: 'searchTasks', idPlaceholder: '563172647619608' };

/** The task chosen with a resource locator, placed in the path. */
export const taskInPath: ParamDef = {
	name: 'taskId',
	label: 'Task',
	type: 'locator',
	locator: TASK_LOCATOR,
	in: 'path',
	required: true,
	description: 'The task to act on: pick it from your tasks, or give its ID',
};

/** Lofty accepts these values of `assignedRole`. */
export const assignedRole: ParamDef = {
	name: 'assignedRole',
	label: 'Assigned Role',
	type: 'options',
	in: 'body',
	required: true,
	options: [
		{ name: 'Agent', value: 'Agent', description: "The lead's agent" },
		{ name: 'Assistant', value: 'Assistant', description: "The lead's assistant" },
	],
	default: 'Agent',
	description: "Who on the lead's team the entry is assigned to. A time without a UTC offset is read in that person's time zone in Lofty.",
	assignsTo: 'leadRole',
};

export const timeZoneParam: ParamDef = {
	name: 'timeZoneCode',
	label: 'Time Zone',
	type: 'options',
	in: 'body',
	loadOptions: 'getTimeZones',
	description:
		'IANA time zone of the entry, e.g. America/Los_Angeles. Times typed without a UTC offset are read in this zone; an offset inside a time wins. Choose from the list, or specify a zone using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

export const addressParam: ParamDef = {
	name: 'address',
	label: 'Address',
	type: 'string',
	in: 'body',
	placeholder: 'e.g. 123 Main St, Los Angeles, CA',
	description: 'Where it takes place (used mainly by appointments)',
};

/** A V2 time for the agent: sent as ISO 8601 with its UTC offset (hint and zone: model/agentZone.ts). */
/** The entry's Description (`content`), with the placeholder and description of its kind. */
export function contentParam(required: boolean, placeholder: string, description: string): ParamDef {
	return { name: 'content', label: 'Description', type: 'string', in: 'body', required, placeholder, description };
}

export function v2Time(name: 'startAt' | 'endAt', label: string, required = false): ParamDef {
	return { name, label, type: 'dateTime', in: 'body', format: 'iso', required, agentTime: true };
}

/** Raw JSON merged into the body, for fields Lofty accepts beyond those listed. */
export const extraFields: ParamDef = mergedBodyJson(
	'extraFields',
	'Further body fields sent as they are, for fields Lofty accepts that are not listed here',
);

// ---- checks before sending ----

const HAS_OFFSET = /T\d{2}:\d{2}(:\d{2}(\.\d+)?)?\s*(Z|[+-]\d{2}(:?\d{2})?)$/i;

/** The value the user gave for a parameter, before conversion (a required field, or one inside a collection). */
export function rawValue(op: OperationContext, name: string, collection?: string): unknown {
	if (!collection) return op.ctx.getNodeParameter(name, op.itemIndex, undefined);
	return (op.ctx.getNodeParameter(collection, op.itemIndex, {}) as IDataObject)[name];
}

export function checkTimeZone(op: OperationContext): string | undefined {
	const zone = op.values.timeZoneCode as string | undefined;
	if (zone !== undefined && !IANAZone.isValidZone(zone)) {
		throw new InvalidValue('Time Zone', `must be an IANA time zone such as America/Los_Angeles, got "${zone}"`);
	}
	return zone;
}

/**
 * Lofty V2 reads `startAt` / `endAt` as ISO 8601; an offset inside the string wins over `timeZoneCode`, and a time
 * with neither is refused. So: a time with an offset (or an instant: epoch ms, a Date, a Luxon DateTime) is sent with
 * its offset; a time without one is read in Time Zone, or refused here when Time Zone is not set.
 */
function toV2Time(label: string, raw: unknown, zone: string | undefined, zoneAt: string): DateTime {
	const help = `a time without a UTC offset is read in ${zoneAt} > Time Zone, or when that is empty in the zone of "Times Without Offset Are In"`;
	let time: DateTime;
	if (DateTime.isDateTime(raw)) time = raw;
	else if (raw instanceof Date) time = DateTime.fromJSDate(raw);
	else if (typeof raw === 'number' || /^\d{10,}$/.test(String(raw).trim())) time = DateTime.fromMillis(Number(raw), { zone: 'utc' });
	else {
		const text = String(raw).trim().replace(/^(\d{4}-\d{2}-\d{2}) (?=\d)/, '$1T');
		if (HAS_OFFSET.test(text)) return DateTime.fromISO(text, { setZone: true });
		if (!zone) throw new InvalidValue(label, `has no UTC offset ("${text}"): add one, e.g. 2026-03-01T15:00:00-08:00 or 2026-03-01T23:00:00Z, or set ${zoneAt} > Time Zone`);
		time = DateTime.fromISO(text, { zone });
	}
	if (!time.isValid) throw new InvalidValue(label, `must be a date and time (ISO 8601 such as 2026-03-01T15:00:00-08:00), got ${show(raw)}; ${help}`);
	return zone ? time.setZone(zone) : time;
}

/** Checks Time Zone and converts Start / End (named by label) to ISO with offset; End must not precede Start. */
export function resolveTimes(op: OperationContext, fields: Array<{ name: 'startAt' | 'endAt'; label: string; collection?: string }>, zoneAt = 'Additional Fields'): void {
	const zone = checkTimeZone(op) ?? zoneForTimes(op.ctx, op.values);
	const times: Partial<Record<'startAt' | 'endAt', DateTime>> = {};
	for (const field of fields) {
		if (op.values[field.name] === undefined) continue;
		const time = toV2Time(field.label, rawValue(op, field.name, field.collection) ?? op.values[field.name], zone, zoneAt);
		times[field.name] = time;
		op.values[field.name] = time.toISO({ suppressMilliseconds: true }) as string;
	}
	if (times.startAt && times.endAt && times.endAt.toMillis() < times.startAt.toMillis()) {
		const end = fields.find((f) => f.name === 'endAt')?.label ?? 'End';
		const start = fields.find((f) => f.name === 'startAt')?.label ?? 'Start';
		throw new InvalidValue(end, `must not be earlier than ${start}`);
	}
	// The entry is held in the zone its times were read in (without it, Lofty holds the Lofty user's zone).
	const readIn = zoneReadIn(op.values);
	if (op.values.timeZoneCode === undefined && readIn && (times.startAt || times.endAt)) op.values.timeZoneCode = readIn;
}

/** Update (V2): Lofty answers MISSING_PARAMETER unless one of these is set; Time Zone alone changes nothing. */
export function requireV2Change(op: OperationContext, labels: string): void {
	if (!['content', 'startAt', 'endAt', 'address'].some((name) => op.values[name] !== undefined)) {
		throw new InvalidValue('Update Fields', `set at least one of ${labels}`);
	}
}

/**
 * PUT /v2.0/tasks/{taskId}, which Task > Update and Appointment > Update both send: the entry chosen by `inPath`, its
 * description, Start, the end time (named `endLabel`), time zone and address, at least one of them set.
 */
export function v2Update(inPath: ParamDef, description: ParamDef, endLabel: string): Pick<OperationDef, 'method' | 'path' | 'optionalTitle' | 'params' | 'validate'> {
	return {
		method: 'PUT',
		path: '/v2.0/tasks/{taskId}',
		optionalTitle: 'Update Fields',
		params: [{ ...inPath, assignsTo: 'entry' }, description, v2Time('startAt', 'Start'), v2Time('endAt', endLabel), timeZoneParam, addressParam],
		validate(op) {
			requireV2Change(op, `Description, Start, ${endLabel} or Address`);
			resolveTimes(op, [
				{ name: 'startAt', label: 'Start', collection: 'updateFields' },
				{ name: 'endAt', label: endLabel, collection: 'updateFields' },
			], 'Update Fields');
		},
	};
}

// ---- shaping answers ----

/** Keeps the fields of a Simplify output; identifiers are always kept (as the node does for other operations). */
export function simplifyRecord(record: IDataObject, fields: string[]): IDataObject {
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(record)) {
		if (fields.includes(key) || /^(id|ids)$|[a-z](Id|Ids)$/.test(key)) out[key] = value;
	}
	return out;
}

/** A list answer filtered to one kind of entry, simplified when Simplify is on. */
export function listOf(response: unknown, op: OperationContext, itemsKey: string | undefined, keep: (entry: IDataObject) => boolean, simple: string[]): IDataObject[] {
	const raw = itemsKey === undefined ? response : valueAt(response, itemsKey);
	const entries = (Array.isArray(raw) ? raw : []).filter((e): e is IDataObject => e !== null && typeof e === 'object').filter(keep);
	const wantSimple = op.ctx.getNodeParameter('simplify', op.itemIndex, true) as boolean;
	return wantSimple ? entries.map((e) => simplifyRecord(e, simple)) : entries;
}

export const isAppointment = (entry: IDataObject): boolean => String(entry.type ?? '').toLowerCase() === 'appointment';

function asObject(response: unknown): IDataObject {
	return response !== null && typeof response === 'object' && !Array.isArray(response) ? (response as IDataObject) : {};
}

/** The result of a write that answers only `{message}` (or nothing): which entry, what happened, Lofty's message. */
export function writeResult(idKey: string, idParam: string, outcome: IDataObject) {
	return (response: unknown, op: OperationContext): IDataObject => ({ [idKey]: op.values[idParam] as string, ...outcome, ...asObject(response) });
}

// ---- errors ----

const PERMISSION =
	"The entry belongs to a lead that the user behind this credential may not manage, for example another agent's lead, or the tasks of another agent. Use a credential of the lead's agent or of an admin, or have the lead shared with this user.";

export const TASK_ERROR_HINTS: Record<string, string> = {
	TASK_NOT_EXIST:
		'No task or appointment has this ID, or it was deleted. Tasks and appointments share one ID space: the V2 operations find both kinds, the V1 task operations only tasks. Check the ID.',
	TASK_IS_SMARTPLAN:
		"This task was created by a Smart Plan (an automated follow-up plan), and Lofty does not let it be changed, finished, reopened or deleted through the API. Handle it in Lofty, or stop the lead's Smart Plan.",
	PERMISSION_DENIED: PERMISSION,
	'20017': PERMISSION,
	LEAD_NOT_EXIST: 'The lead does not exist, is in the trash, or the user behind this credential cannot see it. Check the lead.',
	'20006': 'The lead does not exist, is in the trash, or the user behind this credential cannot see it. Check the lead.',
	'20012':
		'Lofty rejected a value; the message names it. For times, give a UTC offset (e.g. 2026-03-01T15:00:00-08:00) or set Time Zone.',
	INVALID_PARAMETER:
		'Lofty rejected a value; the message names it. For times, give a UTC offset (e.g. 2026-03-01T15:00:00-08:00) or set Time Zone.',
	MISSING_PARAMETER: 'A required field is missing or nothing was given to change. The message names what Lofty expected.',
};

// ---- the table ----

/** How a task is done; Tasks and Calendar V2 share the list. */
/** The two kinds of V2 task entries, as the calendar and reminder endpoints name them (default TASK). */
export const ENTRY_KIND_OPTIONS = [
	{ name: 'Appointment', value: 'APPOINTMENT' },
	{ name: 'Task', value: 'TASK' },
];

export const TASK_WAYS = ['Call', 'Email', 'Other', 'Text'].map((way) => ({ name: way, value: way }));
