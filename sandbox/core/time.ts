/** Date formatting used in responses. */

/** ISO-8601 with an explicit UTC offset and milliseconds: 2026-06-10T05:51:02.165+00:00 */
export function isoUtc(ms: number): string {
	return new Date(ms).toISOString().replace('Z', '+00:00');
}

export function isValidTimeZone(tz: string): boolean {
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: tz });
		return true;
	} catch {
		return false;
	}
}

/** ISO-8601 local time in an IANA zone with its offset, seconds precision: 2026-03-19T10:30:00-07:00 */
export function isoInZone(ms: number, timeZone: string): string {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	}).formatToParts(new Date(ms));
	const get = (t: string): string => parts.find((p) => p.type === t)!.value;
	const local = `${get('year')}-${get('month')}-${get('day')}T${get('hour')}:${get('minute')}:${get('second')}`;
	const asUtc = Date.UTC(+get('year'), +get('month') - 1, +get('day'), +get('hour'), +get('minute'), +get('second'));
	const offsetMin = Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
	const sign = offsetMin < 0 ? '-' : '+';
	const abs = Math.abs(offsetMin);
	return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** ISO-8601 UTC at seconds precision: 2026-01-05T15:00:00Z (the v2 Sales Agent and AI endpoints). */
export const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
