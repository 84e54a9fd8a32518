/** V2 task times: ISO-8601 with an offset (which wins), or without one when `timeZoneCode` is given. */
import { invalidParam } from '../../core/errors';
import { isValidTimeZone, isoInZone } from '../../core/time';

const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** Offset of an IANA zone at an instant, in minutes east of UTC. */
function zoneOffsetMinutes(ms: number, timeZone: string): number {
	const iso = isoInZone(ms, timeZone);
	const m = /([+-])(\d{2}):(\d{2})$/.exec(iso)!;
	return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

/** Wall-clock time in a zone to epoch ms (two passes settle DST edges). */
export function zonedToEpoch(wallAsUtc: number, timeZone: string): number {
	let t = wallAsUtc - zoneOffsetMinutes(wallAsUtc, timeZone) * 60_000;
	t = wallAsUtc - zoneOffsetMinutes(t, timeZone) * 60_000;
	return t;
}

/**
 * A V2 `startAt` / `endAt`: ISO-8601 with an offset (which wins), or without one when `timeZoneCode` is given.
 * Anything else is 400 20012 naming the value and the expected format.
 */
export function parseV2Time(value: unknown, field: string, timeZoneCode: string | undefined): number {
	const format = "ISO-8601 such as '2026-03-01T15:00:00-08:00' (or without the offset when timeZoneCode is given)";
	if (typeof value !== 'string') throw invalidParam(`Unparsable time for '${field}': expected a string, ${format}`);
	const m = ISO_RE.exec(value.trim());
	if (!m) throw invalidParam(`Unparsable time '${value}' for '${field}': expected ${format}`);
	const [, y, mo, d, h, mi, s, frac, offset] = m;
	const wall = Date.UTC(+y, +mo - 1, +d, +h, +mi, +(s ?? 0), Math.floor(Number(`0.${frac ?? 0}`) * 1000));
	const check = new Date(wall);
	if (check.getUTCMonth() !== +mo - 1 || check.getUTCDate() !== +d || +h > 23 || +mi > 59 || +(s ?? 0) > 59) {
		throw invalidParam(`Unparsable time '${value}' for '${field}': no such date or time`);
	}
	if (offset) {
		if (offset.toUpperCase() === 'Z') return wall;
		const digits = offset.replace(':', '');
		const minutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5) || 0);
		return wall - (digits[0] === '-' ? -1 : 1) * minutes * 60_000;
	}
	if (!timeZoneCode) {
		throw invalidParam(`Time '${value}' for '${field}' has no UTC offset and no timeZoneCode was given: add an offset (e.g. -08:00 or Z) or pass timeZoneCode`);
	}
	return zonedToEpoch(wall, timeZoneCode);
}

/** Optional `timeZoneCode` (body or query): a valid IANA zone. */
export function readTimeZone(value: unknown): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	if (typeof value !== 'string' || !isValidTimeZone(value.trim())) {
		throw invalidParam(`'timeZoneCode' must be an IANA time zone such as 'America/Los_Angeles', got '${String(value)}'`);
	}
	return value.trim();
}
