import { DateTime, IANAZone } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { InvalidValue, show } from './invalid';
import { collectionOf } from './collections';
import type { OperationDef, ParamDef } from './types';

/**
 * Dates as a person gives them: n8n's date picker hands over a local time without a UTC offset
 * ("2026-03-08T10:00:00"), which means the workflow's time zone (n8n's `getTimezone()`, Workflow Settings >
 * Timezone); a Time Zone field of the operation, when set, wins; an offset inside the text wins over both.
 */

/** A date and time with a UTC offset at its end (Z, +01, -08:00). */
export const HAS_OFFSET = /\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?\s*(?:Z|[+-]\d{2}(?::?\d{2})?)$/i;

/** Whether a value is a time given as text without a UTC offset (not empty, not epoch milliseconds). */
export function isTimeWithoutOffset(raw: unknown): boolean {
	if (typeof raw !== 'string') return false;
	const text = raw.trim();
	return text !== '' && !HAS_OFFSET.test(text) && !/^\d{10,}$/.test(text);
}

/** Shown with each date field (at most 120 characters): what a picked date without an offset means. */
export const DATE_HINT = "A date without a UTC offset (as the picker gives) is in the workflow's time zone (Workflow Settings > Timezone)";

/** The hint of an operation's date fields: where an offset-less date's zone comes from. */
export function dateHint(op: OperationDef): string {
	const field = zoneField(op);
	if (!field) return DATE_HINT;
	const place = field.required || field.top ? field.label : `${collectionOf(op, field).title} > ${field.label}`;
	return `A date without a UTC offset is in ${place}, or when that is empty in the workflow's time zone`;
}

/** The workflow's time zone, when n8n provides one (every execution context of n8n does). */
export function workflowZone(ctx: object): string | undefined {
	const getTimezone = (ctx as { getTimezone?: () => string }).getTimezone;
	if (typeof getTimezone !== 'function') return undefined;
	const zone = getTimezone.call(ctx);
	return typeof zone === 'string' && IANAZone.isValidZone(zone) ? zone : undefined;
}

/** The operation's own Time Zone field, which wins over the workflow's zone. */
export function zoneField(op: OperationDef): ParamDef | undefined {
	return op.params.find((p) => p.name === 'timeZoneCode');
}

/** Where a person changes the zone an offset-less date is read in, for an error message. */
export function zoneHelp(op?: OperationDef): string {
	const field = op && zoneField(op);
	const workflow = "the workflow's time zone (Workflow Settings > Timezone)";
	if (!field) return `a date without a UTC offset is read in ${workflow}`;
	const place = field.required || field.top ? `the field "${field.label}"` : `${collectionOf(op as OperationDef, field).title} > ${field.label}`;
	return `a date without a UTC offset is read in ${place}, or when that is empty in ${workflow}`;
}

/**
 * Reads a date: ISO 8601 (a space instead of T is accepted), epoch milliseconds, a JS Date or a luxon DateTime (what
 * the date picker and expressions give). Text without an offset is read in `zone`, else in the server's zone.
 */
export function readDate(field: string, value: unknown, zone?: string, help = zoneHelp()): DateTime {
	let date: DateTime;
	if (typeof value === 'number' || (typeof value === 'string' && /^\d{10,}$/.test(value.trim()))) {
		date = DateTime.fromMillis(Number(value), { zone: zone ?? 'utc' });
	} else if (value instanceof Date) {
		date = DateTime.fromJSDate(value, zone ? { zone } : {});
	} else if (DateTime.isDateTime(value)) {
		date = value;
	} else {
		const text = String(value).trim().replace(/^(\d{4}-\d{2}-\d{2}) (?=\d)/, '$1T');
		date = HAS_OFFSET.test(text) || !zone ? DateTime.fromISO(text, { setZone: true }) : DateTime.fromISO(text, { zone });
	}
	if (!date.isValid) {
		throw new InvalidValue(field, `must be a date and time (ISO 8601 such as 2026-01-31T09:00:00, or epoch milliseconds), got ${show(value)}; ${help}`);
	}
	return date;
}

/** Where the zone of an item's times without offset came from. */
export type ZoneSource = 'timeZoneField' | 'loftyUser' | 'workflow' | 'workflowNoUserZone' | 'assignee' | 'loftyUserAssigneeUnknown';

const SOURCE_WORDS: Record<ZoneSource, string> = {
	timeZoneField: 'the Time Zone field',
	loftyUser: "the Lofty user's time zone (Lofty's GET /v1.0/me)",
	workflow: "the workflow's time zone (Times Without Offset Are In)",
	workflowNoUserZone: "the workflow's time zone: Lofty gave no time zone for the user",
	assignee: "the assignee's time zone (Lofty's GET /v1.0/users/{userId})",
	loftyUserAssigneeUnknown: "the Lofty user's time zone (Lofty's GET /v1.0/me): the assignee's could not be read",
};

/** What reading an item's agent times decided: the zone, where it came from, and what it saw (for the output). */
interface TimeFacts {
	zone?: string;
	from: ZoneSource;
	/** Some time was given without a UTC offset, so the zone mattered. */
	offsetLess: boolean;
	/** Agent times already past when read, by field label. */
	past: IDataObject;
	/** said beside the zone (the assignee, the Lofty user's zone) */
	about?: IDataObject;
}

const facts = new WeakMap<IDataObject, TimeFacts>();

/** Records how an item's times are read (readValues); `values` is the item's values object. */
export function noteTimeReading(values: IDataObject, zone: string | undefined, from: ZoneSource, about?: IDataObject): void {
	facts.set(values, { zone, from, offsetLess: false, past: {}, about });
}

/** The zone an item's times without offset are read in: the one readValues chose, else the workflow's. */
export function zoneForTimes(ctx: object, values: IDataObject): string | undefined {
	return facts.get(values)?.zone ?? workflowZone(ctx);
}

/** Notes one agent time as read: whether it had no offset, and whether it is already past. */
export function noteAgentTime(values: IDataObject, label: string, raw: unknown, date: DateTime, now = Date.now()): void {
	const noted = facts.get(values);
	if (!noted) return;
	if (isTimeWithoutOffset(raw)) noted.offsetLess = true;
	if (date.toMillis() < now) noted.past[label] = date.toISO({ suppressMilliseconds: true });
}

/**
 * What the output says of an item's agent times: `timesReadIn` (the zone a time without offset was read in, and why)
 * and `alreadyPast` (the times before now, by field: a task created overdue, an appointment in the past).
 */
export function timeFactsOf(values: IDataObject): IDataObject {
	const noted = facts.get(values);
	if (!noted) return {};
	const out: IDataObject = {};
	if (noted.offsetLess && noted.zone) out.timesReadIn = { zone: noted.zone, from: SOURCE_WORDS[noted.from], ...noted.about };
	if (Object.keys(noted.past).length) out.alreadyPast = noted.past;
	return out;
}
