/** Where the polling trigger stops: windows, dedupe and the bounded memory (nodes/LoftyPollingTrigger/cursor.ts). */
import { MAX_LEAD_SEEN, MAX_SEEN, advance, keepSeen, placeOf, windowOf } from '../../nodes/LoftyPollingTrigger/cursor';
import { timeOf } from '../../nodes/LoftyPollingTrigger/sources';

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

	it('a record dated past Lofty\'s now is emitted and remembered, but the cursor stays at Lofty\'s now', () => {
		const state = { cursor: NOW - 60_000, seen: {} };
		const { fresh, next } = advance(state, [f('future', NOW + 8 * 3_600_000), f('now', NOW - 1000)], { baseline: false, now: NOW, lookBackMs: LOOK });
		expect(fresh.map((x) => x.id)).toEqual(['now', 'future']);
		expect(next.cursor).toBe(NOW);
		expect(Object.keys(next.seen).sort()).toEqual(['future', 'now']);
		// the next window still starts a Look Back before Lofty's now, not 8 hours on
		expect(windowOf(next, NOW + 60_000, LOOK).from).toBe(NOW - LOOK);
	});

	it('a time with a zone offset is the same moment; a local time without zone is read as UTC (so 8 hours ahead for +08:00)', () => {
		const utc = Date.UTC(2026, 0, 5, 9);
		expect(timeOf('2026-01-05T17:00:00+08:00')).toBe(utc);
		expect(timeOf('2026-01-05T09:00:00Z')).toBe(utc);
		expect(timeOf(utc)).toBe(utc);
		const shifted = timeOf('2026-01-05 17:00:00')!;
		expect(shifted - utc).toBe(8 * 3_600_000);
		// such a record is emitted, and does not move the cursor past Lofty's now
		const { fresh, next } = advance({ cursor: utc - 1000, seen: {} }, [f('local', shifted)], { baseline: false, now: utc, lookBackMs: LOOK });
		expect(fresh.map((x) => x.id)).toEqual(['local']);
		expect(next.cursor).toBe(utc);
	});

	it('a read cut short in time order keeps the cursor at the last record read', () => {
		const state = { cursor: NOW, seen: { old: NOW - 10 } };
		const cut = advance(state, [f('a', NOW + 1000), f('b', NOW + 2000)], { baseline: false, now: NOW + 60_000, lookBackMs: LOOK, readUpTo: NOW + 1000 });
		expect(cut.next.cursor).toBe(NOW + 1000);
		expect(Object.keys(cut.next.seen).sort()).toEqual(['a', 'b', 'old']);
	});

	it('leads: a backlog an earlier version saved goes on as a pass from its place; the newest IDs and those at the place are kept', () => {
		const backlog = { from: NOW - 5 * LOOK, to: NOW - 2 * LOOK, offset: 300, scrollId: 's' };
		expect(placeOf({ cursor: NOW, seen: { a: NOW }, backlog })).toEqual({
			cursor: NOW,
			seen: { a: NOW },
			pass: { top: NOW, floor: backlog.from, recheckFrom: backlog.from, at: backlog.to, offset: 300, scrollId: 's' },
		});
		expect(placeOf(undefined)).toBeUndefined();
		const seen = new Map<string, number>();
		for (let i = 0; i < MAX_LEAD_SEEN + 5; i++) seen.set(`n${i}`, NOW - i);
		seen.set('edge', NOW - 10 * LOOK);
		seen.set('ahead', NOW + 1000);
		const kept = keepSeen(seen, NOW, NOW - 10 * LOOK);
		expect(Object.keys(kept)).toHaveLength(MAX_LEAD_SEEN + 2);
		expect(kept.edge).toBe(NOW - 10 * LOOK);
		expect(kept.ahead).toBe(NOW + 1000);
		expect(kept[`n${MAX_LEAD_SEEN + 4}`]).toBeUndefined();
	});
});

describe('polling cursor: edges', () => {
	it('the overlap kept is exactly Look Back below the cursor', () => {
		const { next } = advance({ cursor: NOW, seen: { edge: NOW - LOOK, gone: NOW - LOOK - 1 } }, [], { baseline: false, now: NOW, lookBackMs: LOOK });
		expect(next).toEqual({ cursor: NOW, seen: { edge: NOW - LOOK } });
	});

	it('records of one time go in ID order; a first poll without a start date or records starts at Lofty\'s now', () => {
		const { fresh } = advance({ cursor: NOW, seen: {} }, [f('b', NOW), f('c', NOW), f('a', NOW)], { baseline: false, now: NOW, lookBackMs: LOOK });
		expect(fresh.map((x) => x.id)).toEqual(['a', 'b', 'c']);
		expect(advance(undefined, [], { baseline: false, now: NOW, lookBackMs: LOOK }).next.cursor).toBe(NOW);
		expect(advance(undefined, [f('old', NOW - 50)], { baseline: false, now: NOW, lookBackMs: LOOK, startFrom: NOW - 100 }).next.cursor).toBe(NOW - 50);
	});

	it('a baseline ignores a cut read; a saved cursor is where a baseline starts from too', () => {
		const { next } = advance({ cursor: NOW - 1000, seen: {} }, [f('a', NOW - 10)], { baseline: true, now: NOW, lookBackMs: LOOK, readUpTo: NOW - 100 });
		expect(next.cursor).toBe(NOW - 10);
		expect(advance({ cursor: NOW - 500, seen: {} }, [], { baseline: true, now: NOW, lookBackMs: LOOK }).next.cursor).toBe(NOW - 500);
		expect(windowOf({ cursor: NOW + 5000, seen: {} }, NOW, LOOK)).toEqual({ from: NOW - LOOK, baseline: false });
		expect(windowOf(undefined, NOW, LOOK, NOW + 5000)).toEqual({ from: NOW, baseline: false });
	});

	it('leads: a stored place needs a numeric cursor; a pass saved beside an old backlog wins', () => {
		expect(placeOf({ cursor: '5', seen: {} })).toBeUndefined();
		expect(placeOf(null)).toBeUndefined();
		expect(placeOf({ cursor: 5 })).toEqual({ cursor: 5, seen: {} });
		const pass = { offset: 25, at: 3 };
		expect(placeOf({ cursor: 5, seen: { a: 5 }, pass, served: 25, listed: 300, backlog: { from: 1, to: 2, offset: 0 } })).toEqual({ cursor: 5, seen: { a: 5 }, pass, served: 25, listed: 300 });
	});

	it('keepSeen: at most MAX_SEEN ahead of the cursor, the newest; without a place only the newest below', () => {
		const seen = new Map<string, number>();
		for (let i = 0; i < MAX_SEEN + 3; i++) seen.set(`a${i}`, NOW + 1 + i);
		for (let i = 0; i < MAX_LEAD_SEEN + 3; i++) seen.set(`b${i}`, NOW - i);
		const kept = keepSeen(seen, NOW, undefined);
		expect(Object.keys(kept)).toHaveLength(MAX_SEEN + MAX_LEAD_SEEN);
		expect(kept.a0).toBeUndefined();
		expect(kept[`a${MAX_SEEN + 2}`]).toBe(NOW + MAX_SEEN + 3);
		expect(kept.b0).toBe(NOW);
		expect(kept[`b${MAX_LEAD_SEEN}`]).toBeUndefined();
		expect(Object.keys(keepSeen(seen, NOW, NOW - MAX_LEAD_SEEN - 1))).toHaveLength(MAX_SEEN + MAX_LEAD_SEEN + 1);
	});
});

describe("polling cursor: the bound at the cursor's time", () => {
	it('keepSeen: the IDs at the cursor\'s own time are the newest below it (at most MAX_LEAD_SEEN), not ahead of it', () => {
		const seen = new Map<string, number>();
		for (let i = 0; i < MAX_LEAD_SEEN + 5; i++) seen.set(`c${i}`, NOW);
		expect(Object.keys(keepSeen(seen, NOW, undefined))).toHaveLength(MAX_LEAD_SEEN);
	});
});
