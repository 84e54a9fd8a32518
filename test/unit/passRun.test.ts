/**
 * One pass of New Lead's read (nodes/LoftyPollingTrigger/passRun.ts) over a scripted lead list (fakeLeadPages.ts):
 * where a pass begins and ends, what it emits (new ground, then a bounded re-check within Look Back), how it finds
 * its place again after a refused scroll, and when a read is hopeless or went down from the top. The node runs of
 * the same passes against the sandbox: test/node/pollingScrollBacklog.test.ts, pollingReaderShare.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Pass } from '../../nodes/LoftyPollingTrigger/cursor';
import { BROKEN_READS, FIND_PAGES, FRUITLESS_READS, PassRun, RECHECK_LEADS, idOf, leadTime, placeKey, take } from '../../nodes/LoftyPollingTrigger/passRun';
import { FakePages, lead, scopeOf } from './fakeLeadPages';

const NOW = 1_000_000;
const LOOK = 1000;
const ids = (run: PassRun) => run.scope.fresh.map((f) => f.id);

/** Leads `prefix0..` newest first, one ms apart from `top` down. */
const leadsDown = (prefix: string, count: number, top: number): IDataObject[] => Array.from({ length: count }, (_, i) => lead(`${prefix}${i}`, top - i));

describe('a new pass from the top', () => {
	it('emits every lead newer than the cursor, then re-checks those below it within Look Back, and ends below them', async () => {
		const list = [lead('a', 999_000), lead('b', 950_000), lead('c', 920_000), lead('d', 900_000), lead('e', 899_500), lead('f', 899_000), lead('g', 898_999), lead('h', 898_000)];
		const scope = scopeOf(NOW, { cursor: 900_000, seen: new Map([['d', 900_000]]), lookBackMs: LOOK });
		const pass: Pass = { offset: 0 };
		const pages = new FakePages(list);
		const run = new PassRun(scope, pass, pages.asPages, false, true);
		await expect(run.run()).resolves.toBe('done');
		expect(ids(run)).toEqual(['a', 'b', 'c', 'e', 'f']);
		expect(run.scope.fresh[0]).toEqual({ id: 'a', time: 999_000, record: list[0] });
		// The place of the last lead read: the re-check counts d (seen) too; g is the first below Look Back.
		expect(pass).toEqual({ offset: 6, scrollId: 'scroll@6', top: 999_000, floor: 900_000, recheckFrom: 899_000, listed: 8, at: 899_000, taken: 3, rechecked: 3 });
		expect(scope.seen.get('e')).toBe(899_500);
		expect(pages.asked).toEqual([0, 3, 6]);
		expect(run.metPass && run.reached).toBe(true);
	});

	it('re-checks at most RECHECK_LEADS leads below the cursor', async () => {
		const list = [lead('top', 999_000), ...leadsDown('r', RECHECK_LEADS + 5, 900_000)];
		const pass: Pass = { offset: 0 };
		const run = new PassRun(scopeOf(NOW, { cursor: 900_000, lookBackMs: 100_000 }), pass, new FakePages(list, { offset: 0 }, 25).asPages, false, true);
		await expect(run.run()).resolves.toBe('done');
		expect(ids(run)).toEqual(['top', ...leadsDown('r', RECHECK_LEADS, 900_000).map((l) => l.leadId)]);
		expect(pass.rechecked).toBe(RECHECK_LEADS);
		expect(pass.taken).toBe(1);
	});

	it('without a cursor: from the start date (no re-check below it), or a baseline of the last Look Back that emits nothing', async () => {
		const list = [lead('a', 999_500), lead('b', 999_000), lead('c', 998_900), lead('d', 998_000)];
		const fromStart = new PassRun(scopeOf(NOW, { startFrom: 999_000, lookBackMs: LOOK }), { offset: 0 }, new FakePages(list).asPages, false, true);
		await expect(fromStart.run()).resolves.toBe('done');
		expect(ids(fromStart)).toEqual(['a', 'b']);
		expect(fromStart.pass).toEqual(expect.objectContaining({ top: 999_500, floor: 999_000, recheckFrom: 999_000, rechecked: 1, taken: 1 }));

		const scope = scopeOf(NOW, { baseline: true, lookBackMs: LOOK });
		const baseline = new PassRun(scope, { offset: 0 }, new FakePages(list).asPages, false, true);
		await expect(baseline.run()).resolves.toBe('done');
		expect(ids(baseline)).toEqual([]);
		expect([...scope.seen.keys()]).toEqual(['a', 'b']);
		expect(baseline.pass).toEqual(expect.objectContaining({ top: NOW, floor: NOW, recheckFrom: NOW - LOOK, rechecked: 2 }));
	});

	it("a cursor or lead past Lofty's now counts as now; an empty list is a pass that ends at its floor", async () => {
		const ahead = new PassRun(scopeOf(NOW, { cursor: NOW + 5000 }), { offset: 0 }, new FakePages([lead('future', NOW + 9000), lead('x', NOW - 10)]).asPages, false, true);
		await ahead.run();
		expect(ahead.pass).toEqual(expect.objectContaining({ top: NOW, floor: NOW, recheckFrom: NOW - 1000 }));
		expect(ids(ahead)).toEqual(['future', 'x']);

		const newer = new PassRun(scopeOf(NOW, { cursor: 500 }), { offset: 0 }, new FakePages([lead('y', 700)]).asPages, false, true);
		await newer.run();
		expect(newer.pass).toEqual(expect.objectContaining({ top: 700, floor: 500 }));
		// Nothing newer than the cursor: the pass's top is the cursor.
		const older = new PassRun(scopeOf(NOW, { cursor: 500 }), { offset: 0 }, new FakePages([lead('z', 400)]).asPages, false, true);
		await older.run();
		expect(older.pass).toEqual(expect.objectContaining({ top: 500, floor: 500, rechecked: 1 }));

		const empty = new PassRun(scopeOf(NOW, { cursor: 900_000 }), { offset: 0 }, new FakePages([]).asPages, false, true);
		await expect(empty.run()).resolves.toBe('done');
		expect(empty.pass).toEqual({ offset: 0, scrollId: 'scroll@0', top: 900_000, floor: 900_000, recheckFrom: 899_000, listed: 0 });
		expect(empty.metPass).toBe(false);
	});

	it('leads without an ID are passed over, one met twice is handled once, one without a time counts as created now', async () => {
		const list = [{ leadId: null, createTime: 999_000 }, { leadId: '', createTime: 999_000 }, { createTime: 999_000 }, lead('a', 999_000), lead('a', 998_000), { leadId: 7 }];
		const run = new PassRun(scopeOf(NOW, { cursor: 900_000 }), { offset: 0 }, new FakePages(list, { offset: 0 }, 10).asPages, false, true);
		await run.run();
		expect(run.scope.fresh.map((f) => [f.id, f.time])).toEqual([
			['a', 999_000],
			['7', NOW],
		]);
	});
});

describe('a saved pass read on', () => {
	const saved = (over: Partial<Pass> = {}): Pass => ({ top: 950_000, floor: 900_000, recheckFrom: 899_000, at: 940_000, offset: 2, scrollId: 's', taken: 2, ...over });

	it('skips what lies at or above its place (the leads come in since it began are emitted), and goes on below it', async () => {
		// n came in after the pass began; x and y (at the place, seen) were read; z on is below the place.
		const list = [lead('n', 990_000), lead('x', 950_000), lead('y', 940_000), lead('y2', 940_000), lead('z', 930_000), lead('w', 905_000)];
		const scope = scopeOf(NOW, { cursor: 900_000, seen: new Map([['x', 950_000], ['y', 940_000]]) });
		const pass = saved({ offset: 0 });
		const run = new PassRun(scope, pass, new FakePages(list, { offset: 0, scrollId: 's' }).asPages, false, false);
		await expect(run.run(() => false)).resolves.toBe('done');
		// y2 has the place's time but was not read there.
		expect(ids(run)).toEqual(['n', 'y2', 'z', 'w']);
		expect(pass).toEqual(expect.objectContaining({ at: 905_000, taken: 5, top: 950_000 }));
	});

	it('a cut keeps the place of the last page read; a stop asked before each page cuts before the next', async () => {
		const list = leadsDown('l', 12, 939_000);
		const pages = new FakePages(list, { offset: 0, scrollId: 's' });
		pages.script.push('page', 'cut');
		const pass = saved({ offset: 0 });
		const run = new PassRun(scopeOf(NOW, { cursor: 900_000 }), pass, pages.asPages, false, false);
		await expect(run.run()).resolves.toBe('cut');
		expect(pass).toEqual(expect.objectContaining({ offset: 3, scrollId: 'scroll@3', at: 938_998 }));
		let asked = 0;
		await expect(run.run(() => ++asked > 2)).resolves.toBe('cut');
		expect(pass.offset).toBe(9);
		expect(pages.asked).toEqual([0, 3, 3, 6]);
	});

	it('a refused scroll: the place is found again by offset from a few leads before it, proven by a page that starts above it', async () => {
		const list = leadsDown('l', 20, 949_999);
		const seen = new Map(list.slice(0, 8).map((l) => [String(l.leadId), l.createTime as number]));
		const pass = saved({ offset: 8, at: 949_992, scrollId: 'old' });
		const pages = new FakePages(list, { offset: 8, scrollId: 'old' });
		pages.script.push('refused');
		const run = new PassRun(scopeOf(NOW, { cursor: 900_000, seen }), pass, pages.asPages, false, false);
		await expect(run.run(() => run.scope.fresh.length >= 3)).resolves.toBe('cut');
		expect(pages.restarts).toEqual([3]);
		expect(run.finding).toBe(false);
		// The stop is asked before each page: the page that brought the third lead brought a fourth.
		expect(ids(run)).toEqual(['l8', 'l9', 'l10', 'l11']);
		expect(pages.asked).toEqual([8, 3, 6, 9]);
	});

	it('finding by offset: a page that starts below the place (leads above it deleted) makes the read step back', async () => {
		const list = leadsDown('l', 30, 949_999);
		const scope = scopeOf(NOW, { cursor: 900_000, seen: new Map([['l3', 949_996]]) });
		const pass = saved({ offset: 20, at: 949_996, scrollId: undefined });
		const pages = new FakePages(list, { offset: 12 });
		const run = new PassRun(scope, pass, pages.asPages, true, false);
		await run.run(() => scope.fresh.length > 0);
		// 12..14 is below the place: back to 15 - 3 - 2 * 3 = 6; 6..8 too: back to 9 - 3 - 6 = 0, the top, which joins.
		expect(pages.restarts).toEqual([6, 0]);
		expect(ids(run)).toEqual(['l4', 'l5']);
		expect(pass.at).toBe(949_994);
	});

	it('finding steps back by at least 25 leads while Lofty has not shown how many it serves; a page starting with a seen lead joins', async () => {
		const list = leadsDown('l', 60, 949_999);
		const scope = scopeOf(NOW, { cursor: 900_000, seen: new Map([['l50', 949_949]]) });
		const pages = new FakePages(list, { offset: 56 }, 3, false);
		const run = new PassRun(scope, saved({ at: 949_960, offset: 56, scrollId: undefined }), pages.asPages, true, false);
		await run.run(() => scope.fresh.length > 0);
		expect(pages.restarts).toEqual([56 + 3 - 3 - 50]);
		expect(pages.asked.slice(0, 2)).toEqual([56, 6]);
		expect(ids(run)).toEqual(['l39', 'l40', 'l41']);

		const joined = new FakePages(list, { offset: 50 });
		const at = new PassRun(scopeOf(NOW, { cursor: 900_000, seen: new Map([['l50', 949_949]]) }), saved({ at: 949_960, offset: 50 }), joined.asPages, true, false);
		await at.run(() => at.scope.fresh.length > 0);
		expect(joined.restarts).toEqual([]);
	});

	it('finding: a page starting at the place\'s time with a lead not read there may lie below the place: the read steps back', async () => {
		const list = leadsDown('l', 30, 949_999);
		const pages = new FakePages(list, { offset: 20 });
		const run = new PassRun(scopeOf(NOW, { cursor: 900_000 }), saved({ at: 949_979, offset: 20, scrollId: undefined }), pages.asPages, true, false);
		await run.run(() => run.scope.fresh.length > 0);
		expect(pages.restarts).toEqual([20 + 3 - 3 - 6]);
	});

	it('finding past the end of the list (leads deleted): the read steps back', async () => {
		const pages = new FakePages(leadsDown('l', 5, 949_999), { offset: 10 });
		const run = new PassRun(scopeOf(NOW, { cursor: 900_000 }), saved({ at: 949_997, offset: 10, scrollId: undefined }), pages.asPages, true, false);
		await expect(run.run()).resolves.toBe('done');
		expect(pages.restarts).toEqual([10 - 0 - 2 * 25]);
		expect(ids(run)).toEqual(['l2', 'l3', 'l4']);
	});

	it('leads at the place\'s time read there are passed over: a page of them is above the place', async () => {
		const list = [lead('s0', 949_000), lead('s1', 949_000), lead('s2', 949_000), lead('b', 948_000)];
		const seen = new Map(list.slice(0, 3).map((l) => [String(l.leadId), 949_000]));
		const run = new PassRun(scopeOf(NOW, { cursor: 900_000, seen }), saved({ at: 949_000, offset: 0 }), new FakePages(list).asPages, false, false);
		await run.run(() => run.abovePages === 1);
		expect([run.reached, run.fromTop, ids(run)]).toEqual([false, true, []]);
	});

	it('an empty page while finding joins only at the top of the list', async () => {
		const pages = new FakePages([lead('a', 949_000)], { offset: 0 });
		const run = new PassRun(scopeOf(NOW, { cursor: 900_000 }), saved({ at: 949_500, offset: 0 }), pages.asPages, true, false);
		await expect(run.run()).resolves.toBe('done');
		expect(pages.restarts).toEqual([]);
		expect(ids(run)).toEqual(['a']);
	});
});

describe('refusals, hopeless reads and reads from the top', () => {
	const deep = (): Pass => ({ top: 950_000, floor: 900_000, recheckFrom: 899_000, at: 920_000, offset: 10, scrollId: 's' });

	it(`after ${FRUITLESS_READS} refusals in a row that waited for the rate limit, or ${BROKEN_READS} that did not, the read is hopeless`, async () => {
		const held = new FakePages(leadsDown('l', 30, 949_000), { offset: 10, scrollId: 's' });
		held.script.push(...Array<'refusedHeld'>(FRUITLESS_READS).fill('refusedHeld'));
		const a = new PassRun(scopeOf(NOW), deep(), held.asPages, false, false);
		await expect(a.run(() => a.hopeless)).resolves.toBe('cut');
		expect([a.fruitless, a.broken, a.hopeless]).toEqual([FRUITLESS_READS, 0, true]);
		expect(held.restarts).toEqual([5, 5, 5]);
		expect(a.finding).toBe(true);

		const quick = new FakePages(leadsDown('l', 30, 949_000), { offset: 10, scrollId: 's' });
		quick.script.push(...Array<'refused'>(BROKEN_READS).fill('refused'));
		const b = new PassRun(scopeOf(NOW), deep(), quick.asPages, false, false);
		let stopped = 0;
		await b.run(() => (b.broken === BROKEN_READS - 1 ? ((stopped = b.broken), true) : false));
		expect([stopped, b.hopeless]).toEqual([BROKEN_READS - 1, false]);
		await b.run(() => b.hopeless);
		expect([b.fruitless, b.broken, b.hopeless]).toEqual([0, BROKEN_READS, true]);
	});

	it('a refusal after the place moved starts the count again; pages in a row are counted', async () => {
		const list = leadsDown('l', 30, 929_999);
		const pages = new FakePages(list, { offset: 0, scrollId: 's' });
		pages.script.push('refusedHeld', 'refused', 'page', 'page', 'refusedHeld', 'page');
		const run = new PassRun(scopeOf(NOW, { cursor: 900_000 }), { ...deep(), at: 930_000, offset: 0 }, pages.asPages, false, false);
		const states: number[][] = [];
		await run.run(() => (states.push([run.fruitless, run.broken, run.inRow, run.mostInRow]), states.length > 6));
		expect(states).toEqual([
			[0, 0, 0, 0],
			[1, 0, 0, 0],
			[1, 1, 0, 0],
			[1, 1, 1, 1],
			[1, 1, 2, 2],
			[1, 0, 0, 2],
			[1, 0, 1, 2],
		]);
	});

	it('pages above the place: after FIND_PAGES the deadline moves to findDeadline (never earlier); the read went down from the top', async () => {
		const list = [...leadsDown('a', 3 * FIND_PAGES, 949_999), ...leadsDown('below', 3, 910_000)];
		const seen = new Map(list.slice(0, -3).map((l) => [String(l.leadId), l.createTime as number]));
		const pages = new FakePages(list, { offset: 0 });
		pages.deadline = 5000;
		const deadlines: Array<number | undefined> = [];
		const run = new PassRun(scopeOf(NOW, { cursor: 900_000, seen, findDeadline: 9000 }), { ...deep(), at: 920_000, offset: 0 }, pages.asPages, false, false);
		await run.run(() => (deadlines.push(pages.deadline), run.reached));
		expect(deadlines).toEqual([5000, 5000, 5000, 9000, 9000]);
		// The page that reached the place counts as a page of the find too.
		expect([run.findPages, run.abovePages, run.fromTop]).toEqual([FIND_PAGES + 1, FIND_PAGES, true]);

		const later = new FakePages(list, { offset: 0 });
		later.deadline = 20_000;
		const r2 = new PassRun(scopeOf(NOW, { cursor: 900_000, seen, findDeadline: 9000 }), { ...deep(), at: 920_000, offset: 0 }, later.asPages, false, false);
		await r2.run(() => r2.reached);
		expect(later.deadline).toBe(20_000);

		const none = new FakePages(list, { offset: 0 });
		const r3 = new PassRun(scopeOf(NOW, { cursor: 900_000, seen }), { ...deep(), at: 920_000, offset: 0 }, none.asPages, false, false);
		await r3.run(() => r3.reached);
		expect(none.deadline).toBeUndefined();
	});

	it('fromTop: one page above the place without reaching it, or FIND_PAGES - 1 above it before reaching it; not a read that started at its place', async () => {
		const list = [...leadsDown('a', 6, 949_999), lead('below', 910_000)];
		const seen = new Map(list.slice(0, -1).map((l) => [String(l.leadId), l.createTime as number]));
		const one = new PassRun(scopeOf(NOW, { cursor: 900_000, seen }), { ...deep(), offset: 0 }, new FakePages(list).asPages, false, false);
		await one.run(() => one.abovePages === 1);
		expect([one.reached, one.fromTop]).toEqual([false, true]);
		await one.run(() => one.reached);
		expect([one.abovePages, one.fromTop]).toEqual([FIND_PAGES - 1, true]);

		const short = [...leadsDown('a', 3, 949_999), lead('below', 910_000)];
		const r = new PassRun(scopeOf(NOW, { cursor: 900_000, seen }), { ...deep(), offset: 0 }, new FakePages(short).asPages, false, false);
		await r.run(() => r.reached);
		expect([r.abovePages, r.reached, r.fromTop]).toEqual([1, true, false]);

		// Cut before any page: it did not go down from the top.
		const cut = new PassRun(scopeOf(NOW, { cursor: 900_000, seen }), { ...deep(), offset: 0 }, new FakePages(list).asPages, false, false);
		await expect(cut.run(() => true)).resolves.toBe('cut');
		expect([cut.reached, cut.abovePages, cut.fromTop]).toEqual([false, 0, false]);

		const atPlace = new PassRun(scopeOf(NOW, { cursor: 900_000 }), deep(), new FakePages(leadsDown('b', 30, 919_999), { offset: 10, scrollId: 's' }).asPages, false, false);
		await atPlace.run(() => atPlace.scope.fresh.length > 0);
		expect([atPlace.abovePages, atPlace.fromTop]).toEqual([0, false]);
	});

	it("a pass's pages tell the scope how many leads Lofty serves", async () => {
		const scope = scopeOf(NOW, { cursor: 900_000, served: 25 });
		const run = new PassRun(scope, { offset: 0 }, new FakePages(leadsDown('l', 7, 990_000), { offset: 0 }, 3).asPages, false, true);
		await run.run(() => scope.served === 3);
		expect(scope.served).toBe(3);
		const quiet = scopeOf(NOW, { cursor: 900_000, served: 25 });
		await new PassRun(quiet, { offset: 0 }, new FakePages(leadsDown('l', 7, 990_000), { offset: 0 }, 3, false).asPages, false, true).run();
		expect(quiet.served).toBe(25);
	});
});

describe('the helpers', () => {
	it('idOf, leadTime, take, placeKey', () => {
		expect([idOf({ leadId: 5 }), idOf({ leadId: '' }), idOf({ leadId: null }), idOf({}), idOf({ leadId: 0 })]).toEqual(['5', undefined, undefined, undefined, '0']);
		const scope = scopeOf(NOW);
		expect(leadTime(scope, { createTime: '2026-01-05T09:00:00Z' })).toBe(Date.UTC(2026, 0, 5, 9));
		expect(leadTime(scope, {})).toBe(NOW);
		expect(take(scope, 'a', 5, { leadId: 'a' })).toBe(true);
		expect(take(scope, 'a', 6, { leadId: 'a' })).toBe(false);
		expect(scope.fresh).toEqual([{ id: 'a', time: 5, record: { leadId: 'a' } }]);
		expect(scope.seen.get('a')).toBe(5);
		const quiet = scopeOf(NOW, { baseline: true });
		expect(take(quiet, 'b', 1, {})).toBe(true);
		expect([quiet.fresh, quiet.seen.get('b')]).toEqual([[], 1]);
		expect(placeKey({ top: 3, floor: 1, offset: 9, scrollId: 'x' })).toBe('[3,1,null,0]');
		expect(placeKey({ top: 3, floor: 1, at: 2, rechecked: 4, offset: 0 })).toBe('[3,1,2,4]');
	});
});
