import { DateTime } from 'luxon';

import { InvalidValue } from '../../model/params';
import type { BuiltRequest, OperationContext, OtherReading } from '../../model/types';

/**
 * The time window of the calendar lists (Get Many, Get Available Slots, the entry picker), read two ways
 * (docs/api-readings.md, row 1). api-spec.md: `startTime` / `endTime` "accept epoch milliseconds". The OpenAPI:
 * they are "ISO 8601 with offset", epoch ms goes in `startTimeMs` / `endTimeMs`, and "when both forms are
 * provided for a field, the string form takes precedence". No one value of startTime suits both, so the node
 * sends the spec's epoch ms there plus the same instant in startTimeMs / endTimeMs (harmless to the spec, and
 * enough for a server that skips a startTime it cannot read); a 400 that names the time format switches the
 * execution to ISO 8601 with offset in startTime / endTime.
 */
const FIELDS = [
	['startTime', 'startTimeMs'],
	['endTime', 'endTimeMs'],
] as const;

/** An epoch-ms window bound as ISO 8601 with an offset, in the request's time zone when it names one. */
function isoOf(ms: number, zone: unknown): string {
	const date = DateTime.fromMillis(ms, { zone: typeof zone === 'string' && zone ? zone : 'utc' });
	return (date.isValid ? date : DateTime.fromMillis(ms, { zone: 'utc' })).toFormat("yyyy-MM-dd'T'HH:mm:ssZZ");
}

export const CALENDAR_TIME_READING: OtherReading = {
	name: 'calendarTimeIso',
	detect: ({ httpCode, code, message }) =>
		httpCode === 400 &&
		(code === undefined || ['20012', 'INVALID_PARAMETER'].includes(String(code))) &&
		/\b(start|end)Time\b/.test(message) &&
		/ISO|format|timestamp|parse/i.test(message),
	base(request: BuiltRequest): BuiltRequest {
		const qs = { ...request.qs };
		for (const [name, msName] of FIELDS) if (qs[name] !== undefined && qs[msName] === undefined) qs[msName] = qs[name];
		return { ...request, qs };
	},
	rewrite(request: BuiltRequest): BuiltRequest {
		const qs = { ...request.qs };
		for (const [name, msName] of FIELDS) {
			const ms = qs[msName] ?? qs[name];
			if (ms === undefined || ms === '') continue;
			qs[msName] = ms;
			qs[name] = isoOf(Number(ms), qs.timeZoneCode);
		}
		return { ...request, qs };
	},
};

/** From (startTimeMs) / To (endTimeMs) of Get Many are the same bounds as From / To, sent in Lofty's other parameter. */
export function windowOnWire(op: OperationContext, labels: Record<string, string>): void {
	for (const [name, msName] of FIELDS) {
		if (op.values[name] === undefined) op.values[name] = op.values[msName];
		else if (op.values[msName] !== undefined && op.values[name] !== op.values[msName]) {
			throw new InvalidValue(labels[msName], `is the same bound as ${labels[name]}, sent in Lofty's ${msName} parameter; set one of them, or both to the same time`);
		}
	}
}

/** The picker's window, epoch ms (sendByReading adds what the readings need). */
export function windowQuery(from: number, to: number): Record<string, number> {
	return { startTime: from, endTime: to };
}
