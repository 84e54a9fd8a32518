/**
 * Routing rules' active days (reading 22, `activeDays`): a rule keeps its days as weekdays (ISO numbers, 1 = Monday
 * ... 7 = Sunday); the wire numbers them as the reading says: `iso` the same, `fromSunday` 1 = Sunday ... 7 = Saturday.
 */
import { readingsOf } from '../../core/readings';
import type { Store } from '../../core/store';

const NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

const fromSunday = (store: Store): boolean => readingsOf(store).get('activeDays') === 'fromSunday';

/** Wire day numbers (1 to 7) to the rule's weekdays. */
export function daysFromWire(store: Store, days: number[]): number[] {
	const iso = fromSunday(store) ? days.map((d) => (d === 1 ? 7 : d - 1)) : days;
	return [...new Set(iso)].sort((a, c) => a - c);
}

/** The rule's weekdays as wire numbers. */
export function daysToWire(store: Store, isoDays: number[]): number[] {
	return fromSunday(store) ? isoDays.map((d) => (d % 7) + 1).sort((a, c) => a - c) : isoDays;
}

/** The names of the days a rule is active on (tests: what a rule means, whatever the numbering). */
export function activeWeekdays(isoDays: number[]): string[] {
	return isoDays.map((d) => NAMES[d - 1]);
}
