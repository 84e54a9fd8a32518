/** Where the polling trigger stops: windows, dedupe and the bounded memory (nodes/LoftyPollingTrigger/cursor.ts). */
import { MAX_SEEN, advance, windowOf } from '../../nodes/LoftyPollingTrigger/cursor';

const LOOK = 15 * 60_000;
const NOW = 1_800_000_000_000;
const f = (id: string, time: number) => ({ id, time, record: { id } });

describe('polling cursor', () => {
	it('the first poll without a start date is a baseline over the last Look Back: nothing emitted, all remembered', () => {
		const { from, baseline } = windowOf(undefined, NOW, LOOK);
		expect({ from, baseline }).toEqual({ from: NOW - LOOK, baseline: true });
		const { fresh, next } = advance(undefined, [f('a', NOW - 1000)], { baseline, now: NOW, lookBackMs: LOOK });
		expect(fresh).toEqual([]);
		expect(next).toEqual({ cursor: NOW, seen: { a: NOW - 1000 } });
	});

	it('with a start date the first poll reads from it and emits, oldest first, each id once', () => {
		const start = NOW - 3_600_000;
		expect(windowOf(undefined, NOW, LOOK, start)).toEqual({ from: start, baseline: false });
		const { fresh, next } = advance(undefined, [f('b', start + 20), f('a', start + 10), f('b', start + 20)], { baseline: false, now: NOW, lookBackMs: LOOK, startFrom: start });
		expect(fresh.map((x) => x.id)).toEqual(['a', 'b']);
		expect(next.cursor).toBe(start + 20);
	});

	it('later polls read from the newest time seen minus Look Back; seen ids are skipped, equal times handled by id', () => {
		const state = { cursor: NOW, seen: { a: NOW, old: NOW - LOOK - 1 } };
		expect(windowOf(state, NOW + 60_000, LOOK)).toEqual({ from: NOW - LOOK, baseline: false });
		const { fresh, next } = advance(state, [f('a', NOW), f('b', NOW), f('c', NOW - 5)], { baseline: false, now: NOW + 60_000, lookBackMs: LOOK });
		expect(fresh.map((x) => x.id)).toEqual(['c', 'b']);
		// the cursor follows Lofty's times, not the poll's clock; "old" is outside the overlap now
		expect(next).toEqual({ cursor: NOW, seen: { a: NOW, b: NOW, c: NOW - 5 } });
	});

	it('remembers at most MAX_SEEN ids, the newest', () => {
		const found = Array.from({ length: MAX_SEEN + 5 }, (_, i) => f(`id${i}`, NOW + i));
		const { next } = advance(undefined, found, { baseline: true, now: NOW, lookBackMs: 10 * LOOK });
		expect(Object.keys(next.seen)).toHaveLength(MAX_SEEN);
		expect(next.seen).not.toHaveProperty('id0');
		expect(next.seen).toHaveProperty(`id${MAX_SEEN + 4}`);
	});
});
