import { DateTime, IANAZone } from 'luxon';

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

/** Shown with each date field: what a picked date without an offset means. */
export const DATE_HINT = "A date without a UTC offset (as the date picker gives) is in the workflow's time zone (Workflow Settings > Timezone)";

/** The hint of an operation's date fields: where an offset-less date's zone comes from. */
export function dateHint(op: OperationDef): string {
	const field = zoneField(op);
	if (!field) return DATE_HINT;
	const place = field.required || field.top ? field.label : `${collectionOf(op, field).title} > ${field.label}`;
	return `A date without a UTC offset (as the date picker gives) is in ${place}, or when that is empty in the workflow's time zone (Workflow Settings > Timezone)`;
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
