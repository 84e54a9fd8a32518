/**
 * Routing > Update Rule, Active Days. Lofty says only that the days are "between 1 and 7", not which day is 1
 * (docs/api-readings.md, row 22). The node keeps the days as ISO 8601 numbers (1 = Monday ... 7 = Sunday: Java's
 * DayOfWeek, and Lofty's API is a Java service) and sends them so unless Active Day Numbering says Lofty counts from
 * Sunday (1 = Sunday ... 7 = Saturday). Lofty's Sales Agent days (0 = Sunday ... 6 = Saturday) are another scheme,
 * 0 to 6, which "between 1 and 7" is not.
 */

/** ISO order: the name of day n is WEEKDAYS[n - 1]. */
export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

export type DayNumbering = 'iso' | 'fromSunday';

/** The number Lofty gets for an ISO day under a numbering. */
export function dayNumber(isoDay: number, numbering: DayNumbering): number {
	return numbering === 'fromSunday' ? (isoDay % 7) + 1 : isoDay;
}

export const ACTIVE_DAYS_DESCRIPTION =
	'Days the rule is active. Lofty numbers them 1 to 7 without saying which day is 1: the node sends Monday as 1 and Sunday as 7 (ISO 8601) unless Active Day Numbering says Sunday is 1.';
