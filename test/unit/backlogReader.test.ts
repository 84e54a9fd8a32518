/**
 * The backlog reader (nodes/LoftyPollingTrigger/backlogReader.ts) over a scripted lead list (fakeLeadPages.ts): it
 * reads a pass on past the poll, holds at most its share of leads, hands them only to a poll whose saved place it
 * knows, gives up where no read gets past the place, and stops when no poll comes. Its idle timer is recorded, not
 * slept. The node runs against the sandbox: test/node/pollingScrollBacklog.test.ts, pollingReaderShare.test.ts.
 */
import type { IPollFunctions } from 'n8n-workflow';

import {
	backlogReaderCounts,
	collect,
	forgetBacklogReaders,
	noteUnreachable,
	notePoll,
	readerBusy,
	readerLimits,
	readerState,
	startReader,
	waitsToRetry,
} from '../../nodes/LoftyPollingTrigger/backlogReader';
import type { Pass } from '../../nodes/LoftyPollingTrigger/cursor';
import { LEAD_PAGE } from '../../nodes/LoftyPollingTrigger/leadPages';
import { BROKEN_READS, FRUITLESS_READS, PassRun, placeKey } from '../../nodes/LoftyPollingTrigger/passRun';
import { FakePages, lead, scopeOf, type Step } from './fakeLeadPages';

const mockSleeps: Array<{ ms: number; resolve: () => void; signal?: AbortSignal }> = [];
/** n8n before 2.34: sleep ignores its signal (the timer just runs out). */
const mockOldSleep = { ignoresSignal: false };
jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: async (ms: number, signal?: AbortSignal) =>
		await new Promise<void>((resolve, reject) => {
			mockSleeps.push({ ms, resolve, signal });
			if (!mockOldSleep.ignoresSignal) signal?.addEventListener('abort', () => reject(new Error('aborted')));
		}),
}));

const NOW = 1_000_000;
let now = NOW;
const limits = { ...readerLimits };
const pollCtx = { name: 'poll' } as unknown as IPollFunctions;
const readerCtx = { name: 'reader' } as unknown as IPollFunctions;
/** The idle timers still running. */
const idleTimers = () => mockSleeps.filter((s) => !s.signal?.aborted);

/** Lets the reader run until `check` holds (it reads in the background). */
async function until(check: () => boolean): Promise<void> {
	for (let i = 0; i < 1000 && !check(); i++) await new Promise((resolve) => setImmediate(resolve));
	expect(check()).toBe(true);
}

/** A poll's pass cut at its place (offset 3 of a list of `count` leads below it), as leads.ts hands it to a reader. */
function cutPoll(count = 12, steps: Step[] = []) {
	const list = [lead('p0', 950_000), lead('p1', 949_000), lead('p2', 948_000), ...Array.from({ length: count }, (_, i) => lead(`l${i}`, 940_000 - i))];
	const pass: Pass = { top: 950_000, floor: 900_000, recheckFrom: 899_000, at: 948_000, offset: 3, scrollId: 'live' };
	const pages = new FakePages(list, { offset: 3, scrollId: 'live' });
	pages.script.push(...steps);
	pages.deadline = NOW + 5000;
	const scope = scopeOf(NOW, { cursor: 900_000, seen: new Map([['p2', 948_000]]), served: 3 });
	const run = new PassRun(scope, pass, pages.asPages, false, true);
	run.mostInRow = 2;
	return { list, pass, pages, scope, run };
}
const ids = (fresh: Array<{ id: string }>) => fresh.map((f) => f.id);

beforeEach(() => {
	mockOldSleep.ignoresSignal = false;
	now = NOW;
	jest.spyOn(Date, 'now').mockImplementation(() => now);
	forgetBacklogReaders();
	mockSleeps.length = 0;
	Object.assign(readerLimits, limits);
});
afterEach(() => {
	forgetBacklogReaders();
	jest.restoreAllMocks();
});

describe('a reader reads the pass on past the poll', () => {
	it('with its own copy of the pass and the scope, its share of the rate limit, no deadline, the newest poll\'s context; to the end', async () => {
		const poll = cutPoll();
		startReader('t', poll.run, undefined, readerCtx);
		expect([poll.pages.deadline, poll.pages.background, poll.pages.ctx]).toEqual([undefined, true, readerCtx]);
		await until(() => readerState('t') === 'done');
		// The poll's own pass and scope are as it left them.
		expect(poll.pass).toEqual({ top: 950_000, floor: 900_000, recheckFrom: 899_000, at: 948_000, offset: 3, scrollId: 'live' });
		expect(poll.scope.fresh).toEqual([]);
		expect([...poll.scope.seen.keys()]).toEqual(['p2']);

		const next = { name: 'next poll' } as unknown as IPollFunctions;
		const handed = collect('t', poll.pass, next)!;
		expect(ids(handed.fresh)).toEqual(Array.from({ length: 12 }, (_, i) => `l${i}`));
		expect(handed).toEqual(expect.objectContaining({ done: true, served: 3, error: undefined }));
		expect(handed.pass).toEqual(expect.objectContaining({ at: 939_989, taken: 12, top: 950_000 }));
		expect(handed.stuck).toBeUndefined();
		expect(poll.pages.ctx).toBe(next);
		expect(readerBusy()).toBe(false);
		// A done reader stays for the poll that saved its last place, with nothing more.
		expect(collect('t', handed.pass, next)).toEqual(expect.objectContaining({ fresh: [], done: true }));
	});

	it('holds at most maxGathered leads (and the page in hand), waits for a poll to take them, then reads on', async () => {
		readerLimits.maxGathered = 6;
		const poll = cutPoll();
		const busy: boolean[] = [];
		poll.pages.onRequest = () => void busy.push(readerBusy());
		startReader('t', poll.run, undefined, readerCtx);
		await until(() => readerState('t') === 'full');
		expect(readerBusy()).toBe(false);
		const first = collect('t', poll.pass, pollCtx)!;
		expect(ids(first.fresh)).toEqual(['l0', 'l1', 'l2', 'l3', 'l4', 'l5']);
		expect(first.done).toBe(false);
		await until(() => busy.length === 4 && readerState('t') === 'full');
		const second = collect('t', first.pass, pollCtx)!;
		expect(ids(second.fresh)).toEqual(['l6', 'l7', 'l8', 'l9', 'l10', 'l11']);
		await until(() => readerState('t') === 'done');
		expect(collect('t', second.pass, pollCtx)!.done).toBe(true);
		// Busy while it reads, not while it waits for a poll.
		expect(busy).toEqual([true, true, true, true, true]);
	});

	it("a poll's find deadline does not go with the pass to the reader", async () => {
		const poll = cutPoll(12);
		// Its place lies three pages down: a poll would read on to its find deadline from there.
		const run = new PassRun({ ...poll.scope, findDeadline: NOW + 1 }, { ...poll.pass, at: 939_991 }, poll.pages.asPages, false, false);
		startReader('t', run, undefined, readerCtx);
		await until(() => readerState('t') === 'done');
		expect(poll.pages.deadline).toBeUndefined();
	});

	it("the reader's memory of IDs shrinks to what the saved place keeps", async () => {
		const poll = cutPoll();
		poll.scope.seen.set('ahead', 990_000);
		startReader('t', poll.run, undefined, readerCtx);
		await until(() => readerState('t') === 'done');
		const run = poll.pages as unknown as { ctx: unknown };
		collect('t', poll.pass, pollCtx);
		expect(run.ctx).toBe(pollCtx);
		// A fresh reader of the same pass after the first was taken from: the leads read are known to it.
		const again = cutPoll();
		again.scope.seen = new Map([['l0', 940_000]]);
		startReader('t', again.run, undefined, readerCtx);
		await until(() => readerState('t') === 'done');
		expect(ids(collect('t', again.pass, pollCtx)!.fresh)).not.toContain('l0');
	});
});

describe('which poll a reader hands over to', () => {
	it('only one whose saved place it handed over (or started from); another place drops it', async () => {
		readerLimits.maxGathered = 4;
		const poll = cutPoll();
		startReader('t', poll.run, undefined, readerCtx);
		await until(() => readerState('t') === 'full');
		expect(collect('t', { ...poll.pass, at: 1 }, pollCtx)).toBeUndefined();
		expect(readerState('t')).toBeUndefined();
		expect(backlogReaderCounts().readers).toBe(0);
		expect(collect('t', poll.pass, pollCtx)).toBeUndefined();
	});

	it('a handover with leads replaces the places it accepts; one without leads adds its own', async () => {
		readerLimits.maxGathered = 4;
		const poll = cutPoll();
		startReader('t', poll.run, undefined, readerCtx);
		await until(() => readerState('t') === 'full');
		const first = collect('t', poll.pass, pollCtx)!;
		await until(() => readerState('t') === 'full');
		// The poll that took the first leads was not saved: its place is still the first one.
		expect(collect('t', poll.pass, pollCtx)).toBeUndefined();

		const quiet = cutPoll();
		readerLimits.maxGathered = 100;
		quiet.pages.script.push('cut');
		startReader('q', quiet.run, undefined, readerCtx);
		await until(() => readerState('q') === 'full');
		const empty = collect('q', quiet.pass, pollCtx)!;
		expect(empty.fresh).toEqual([]);
		expect(placeKey(empty.pass)).toBe(placeKey(quiet.pass));
		await until(() => readerState('q') === 'done');
		const lost = collect('q', quiet.pass, pollCtx)!;
		expect(lost.fresh).toHaveLength(12);
		expect(first.fresh).toHaveLength(6);
	});
});

describe('a reader that cannot go on', () => {
	it('a failure: the next poll is told why and reads on from its place; the reader is dropped', async () => {
		const poll = cutPoll(12, ['page', 'fail']);
		startReader('t', poll.run, undefined, readerCtx);
		await until(() => readerState('t') === 'failed');
		const handed = collect('t', poll.pass, pollCtx)!;
		expect(handed).toEqual(expect.objectContaining({ error: 'Lofty is down', done: false }));
		expect(ids(handed.fresh)).toEqual(['l0', 'l1', 'l2']);
		expect(readerState('t')).toBeUndefined();
	});

	it(`${FRUITLESS_READS} scrolls refused after waits for the rate limit: stuck, rate-limited; after the first the read takes the whole window`, async () => {
		const poll = cutPoll(12, Array<Step>(FRUITLESS_READS).fill('refusedHeld'));
		const background: boolean[] = [];
		poll.pages.onRequest = () => void background.push(poll.pages.background);
		startReader('t', poll.run, undefined, readerCtx);
		await until(() => readerState('t') === 'stuck');
		expect(background).toEqual([true, false, false]);
		const handed = collect('t', poll.pass, pollCtx)!;
		expect(handed.stuck).toEqual({ mostInRow: 2, pageSize: 3, rateLimited: true });
		expect(handed.done).toBe(false);
		expect(readerState('t')).toBeUndefined();
	});

	it(`${BROKEN_READS} refused without a wait: stuck, not for the rate limit; the page size Lofty serves, else the one asked for`, async () => {
		const poll = cutPoll(12, Array<Step>(BROKEN_READS).fill('refused'));
		poll.scope.served = undefined;
		poll.pages.served = undefined;
		startReader('t', poll.run, undefined, readerCtx);
		await until(() => readerState('t') === 'stuck');
		expect(collect('t', poll.pass, pollCtx)!.stuck).toEqual({ mostInRow: 2, pageSize: LEAD_PAGE, rateLimited: false });
	});
});

describe('readers stop', () => {
	it('when no poll came for idleMs, or for pollGaps times the gap between polls if longer; a handover restarts the wait', async () => {
		readerLimits.maxGathered = 4;
		const poll = cutPoll();
		startReader('t', poll.run, undefined, readerCtx);
		expect(idleTimers().map((s) => s.ms)).toEqual([readerLimits.idleMs]);
		await until(() => readerState('t') === 'full');
		collect('t', poll.pass, pollCtx);
		expect(idleTimers()).toHaveLength(1);
		expect(mockSleeps).toHaveLength(2);
		idleTimers()[0].resolve();
		await until(() => readerState('t') === undefined);

		mockSleeps.length = 0;
		startReader('slow', cutPoll().run, 20 * 60_000, readerCtx);
		expect(idleTimers().map((s) => s.ms)).toEqual([40 * 60_000]);
		startReader('fast', cutPoll().run, 60_000, readerCtx);
		expect(idleTimers().map((s) => s.ms)).toEqual([40 * 60_000, readerLimits.idleMs]);
	});

	it('a new reader for the trigger stops the one before; forgetting stops them all', async () => {
		readerLimits.maxGathered = 4;
		const first = cutPoll();
		startReader('t', first.run, undefined, readerCtx);
		await until(() => readerState('t') === 'full');
		const second = cutPoll();
		startReader('t', second.run, undefined, readerCtx);
		expect(idleTimers()).toHaveLength(1);
		await until(() => readerState('t') === 'full');
		expect(backlogReaderCounts().readers).toBe(1);
		expect(collect('t', second.pass, pollCtx)!.fresh).toHaveLength(6);
		// The first reader was woken to stop, and reads no more.
		expect(first.pages.asked).toEqual([3, 6]);
		notePoll('t');
		forgetBacklogReaders();
		expect(backlogReaderCounts()).toEqual({ polled: 0, readers: 0 });
		expect(idleTimers()).toHaveLength(0);
	});
});

describe('a reader stopped while it reads', () => {
	/** A reader whose second request waits until the test opens it. */
	function gated(key: string) {
		const poll = cutPoll();
		let open!: () => void;
		const gate = new Promise<void>((resolve) => (open = resolve));
		const at = { gate: false };
		poll.pages.onRequest = async (n) => {
			if (n !== 1) return;
			at.gate = true;
			await gate;
		};
		startReader(key, poll.run, undefined, readerCtx);
		return { poll, open, at };
	}

	it('sends nothing more once dropped; a reader reading among others that wait makes the process busy', async () => {
		const other = cutPoll(3);
		startReader('w', other.run, undefined, readerCtx);
		await until(() => readerState('w') === 'done');
		const { poll, open, at } = gated('t');
		await until(() => at.gate);
		expect(readerBusy()).toBe(true);
		expect(collect('t', { ...poll.pass, at: 1 }, pollCtx)).toBeUndefined();
		open();
		for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
		expect(poll.pages.asked).toEqual([3, 6]);
		expect(readerBusy()).toBe(false);
	});

	it("on n8n before 2.34 a replaced reader's idle timer runs out anyway: it leaves the new reader alone", async () => {
		mockOldSleep.ignoresSignal = true;
		readerLimits.maxGathered = 3;
		startReader('t', cutPoll().run, undefined, readerCtx);
		const second = cutPoll();
		startReader('t', second.run, undefined, readerCtx);
		await until(() => readerState('t') === 'full');
		mockSleeps[0].resolve();
		await new Promise((resolve) => setImmediate(resolve));
		expect(readerState('t')).toBe('full');
		expect(collect('t', second.pass, pollCtx)!.fresh).toHaveLength(3);
	});

	it('a handover without leads that moved the place: the place before stays accepted', async () => {
		const poll = cutPoll(12, ['page', 'page', 'cut']);
		for (let i = 0; i < 6; i++) poll.scope.seen.set(`l${i}`, 940_000 - i);
		startReader('t', poll.run, undefined, readerCtx);
		await until(() => readerState('t') === 'full');
		const empty = collect('t', poll.pass, pollCtx)!;
		expect(empty.fresh).toEqual([]);
		expect(empty.pass.at).toBe(939_995);
		// The poll that took nothing saved nothing: the next one comes with the place before.
		await until(() => readerState('t') === 'done');
		expect(ids(collect('t', poll.pass, pollCtx)!.fresh)).toEqual(['l6', 'l7', 'l8', 'l9', 'l10', 'l11']);
	});
});

describe('polls and places no reader gets past', () => {
	it('notePoll: the time since the trigger\'s last poll; at most maxPolled triggers, the least recently polled forgotten', () => {
		readerLimits.maxPolled = 2;
		expect(notePoll('a')).toBeUndefined();
		now += 1000;
		expect(notePoll('b')).toBeUndefined();
		now += 500;
		expect(notePoll('a')).toBe(1500);
		notePoll('c');
		expect(backlogReaderCounts().polled).toBe(2);
		// b was polled least recently: forgotten; then a.
		expect(notePoll('b')).toBeUndefined();
		expect(notePoll('c')).toBe(0);
		expect(notePoll('a')).toBeUndefined();
	});

	it('a place no reader got past is read around for retryMs, doubling while it stays (at most maxRetryMs); another place starts afresh', () => {
		const pass: Pass = { top: 5, floor: 1, at: 3, offset: 0 };
		expect(waitsToRetry('t', pass)).toBe(false);
		expect(noteUnreachable('t', pass)).toBe(readerLimits.retryMs);
		expect(waitsToRetry('t', pass)).toBe(true);
		expect(waitsToRetry('t', { ...pass, offset: 9, scrollId: 'x' })).toBe(true);
		now += readerLimits.retryMs - 1;
		expect(waitsToRetry('t', pass)).toBe(true);
		now += 1;
		expect(waitsToRetry('t', pass)).toBe(false);
		expect(noteUnreachable('t', pass)).toBe(2 * readerLimits.retryMs);
		expect(noteUnreachable('t', pass)).toBe(readerLimits.maxRetryMs);
		expect(noteUnreachable('t', pass)).toBe(readerLimits.maxRetryMs);
		// The place moved: the old entry is dropped, and a new one starts from retryMs.
		const moved = { ...pass, at: 2 };
		expect(waitsToRetry('t', moved)).toBe(false);
		expect(waitsToRetry('t', pass)).toBe(false);
		expect(noteUnreachable('t', moved)).toBe(readerLimits.retryMs);
		// A restart forgets them.
		forgetBacklogReaders();
		expect(waitsToRetry('t', moved)).toBe(false);
	});

	it('places no reader got past are kept for maxPolled triggers', () => {
		readerLimits.maxPolled = 1;
		const pass: Pass = { top: 5, floor: 1, offset: 0 };
		noteUnreachable('a', pass);
		noteUnreachable('b', pass);
		expect(waitsToRetry('a', pass)).toBe(false);
		expect(waitsToRetry('b', pass)).toBe(true);
	});
});
