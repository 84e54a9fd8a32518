/**
 * The pacer (transport/pacing.ts) at its edges, on jest's fake clock: a caller's deadline (a wait that would end past
 * it is not started; a queue that does not move in time is left), and which credentials it forgets (only idle ones).
 * The rest of its rules: test/resilience/pacing.test.ts, pacingLatency.test.ts, pacingBackground.test.ts.
 */
import { MAX_IDLE_CREDENTIALS, acquire, block, isPacingDeadline, pacingKeys, pacingState, resetPacing } from '../../nodes/Lofty/transport/pacing';

const START = 1_800_000_000_000;
beforeEach(() => {
	resetPacing();
	jest.useFakeTimers({ now: START });
});
afterEach(() => jest.useRealTimers());

/** An answer's headers: `remaining` left in a window ending `inSeconds` after the start of the test. */
const window = (remaining: number, inSeconds: number) => ({ 'X-RateLimit-Remaining': String(remaining), 'X-RateLimit-Reset': String(START / 1000 + inSeconds) });
const flush = async (ms = 0) => await jest.advanceTimersByTimeAsync(ms);

/** An acquisition's outcome so far: granted, failed (with the error), or still waiting. */
function watch(promise: Promise<unknown>) {
	const state: { granted: boolean; error?: unknown } = { granted: false };
	promise.then(
		(ticket) => ((state.granted = true), (ticket as { done(): void }).done()),
		(error: unknown) => (state.error = error),
	);
	return state;
}

describe("a caller's deadline", () => {
	it('a wait for the reset that would end past the deadline is not started, and nothing is counted; one that ends before it is waited', async () => {
		const probe = await acquire('k');
		probe.observe(window(0, 10));
		const late = watch(acquire('k', undefined, Date.now() + 5000));
		await flush();
		expect(isPacingDeadline(late.error)).toBe(true);
		expect((late.error as Error).message).toBe('the pacing wait would end past the deadline');
		expect(pacingState().inFlight).toBe(0);
		const inTime = watch(acquire('k', undefined, Date.now() + 12_000));
		await flush(9000);
		expect(inTime).toEqual({ granted: false });
		await flush(2000);
		expect(inTime.granted).toBe(true);
	});

	it('a deadline the wait would end exactly at is past it', async () => {
		(await acquire('k')).observe(window(0, 10));
		const atReset = watch(acquire('k', undefined, START + 10_250));
		await flush();
		expect(isPacingDeadline(atReset.error)).toBe(true);
		const after = watch(acquire('k', undefined, START + 10_251));
		await flush(10_250);
		expect(after.granted).toBe(true);
	});

	it('behind a queue that waits for a window ending after the deadline: left at once; behind one that does not move in time: left at the deadline', async () => {
		(await acquire('k')).observe(window(0, 10));
		const first = watch(acquire('k'));
		await flush();
		// The window is used up and nothing is in flight to give room back: the queue goes at the reset.
		const hopeless = watch(acquire('k', undefined, Date.now() + 5000));
		await flush();
		expect((hopeless.error as Error).message).toBe('the requests queued before this one wait past the deadline');
		// A request in flight may give room back: the queue may move sooner, so it is waited for, until the deadline.
		(await acquire('other')).observe(window(1, 10));
		const open = await acquire('other');
		const otherFirst = watch(acquire('other'));
		const waiting = watch(acquire('other', undefined, Date.now() + 3000));
		await flush(2999);
		expect(waiting).toEqual({ granted: false });
		await flush(1);
		expect((waiting.error as Error).message).toBe('the requests queued before this one did not go in time');
		expect(otherFirst.granted).toBe(false);
		await flush(7250);
		expect([first.granted, otherFirst.granted]).toEqual([true, true]);
		open.done();
	});

	it("a background request's wait for its share that would end past the deadline is not started", async () => {
		(await acquire('k')).observe({ ...window(1, 30), 'X-RateLimit-Limit': '10' });
		const background = watch(acquire('k', undefined, Date.now() + 5000, true));
		await flush();
		expect(isPacingDeadline(background.error)).toBe(true);
		expect((background.error as Error).message).toBe('the pacing wait would end past the deadline');
		// Its share comes back at the reset (30 s and the margin): a deadline exactly then is past it too.
		const atReset = watch(acquire('k', undefined, START + 30_250, true));
		await flush();
		expect(isPacingDeadline(atReset.error)).toBe(true);
		const patient = watch(acquire('k', undefined, Date.now() + 40_000, true));
		await flush(31_000);
		expect(patient.granted).toBe(true);
	});

	it('a 429 holds the credential: a request whose deadline comes first is not sent', async () => {
		block('k', 3000);
		const late = watch(acquire('k', undefined, Date.now() + 1000));
		await flush();
		expect(isPacingDeadline(late.error)).toBe(true);
		block('k', 1000);
		const held = watch(acquire('k'));
		await flush(2999);
		expect(held.granted).toBe(false);
		await flush(1);
		expect(held.granted).toBe(true);
	});

	it('behind a queue held by a 429, by the cap, or by a window ending exactly at the deadline: left at once', async () => {
		const leftAtOnce = async (key: string, cap: number | undefined, deadline: number) => {
			const queued = watch(acquire(key, cap));
			const behind = watch(acquire(key, cap, deadline));
			await flush();
			return [queued.granted, (behind.error as Error | undefined)?.message];
		};
		const atOnce = [false, 'the requests queued before this one wait past the deadline'];
		block('held', 5000);
		expect(await leftAtOnce('held', undefined, Date.now() + 3000)).toEqual(atOnce);
		for (let i = 0; i < 2; i++) (await acquire('capped', 2)).done();
		expect(await leftAtOnce('capped', 2, Date.now() + 30_000)).toEqual(atOnce);
		(await acquire('window')).observe(window(0, 10));
		expect(await leftAtOnce('window', undefined, START + 10_250)).toEqual(atOnce);
		// With a cap not reached yet, the window alone decides.
		(await acquire('below cap', 5)).observe(window(0, 10));
		expect(await leftAtOnce('below cap', 5, Date.now() + 5000)).toEqual(atOnce);
	});

	it("behind a queue, only the queue's own waits count: not a window with room left, not a window a 429 overruled", async () => {
		(await acquire('room', 2)).observe(window(5, 90));
		await flush(50_000);
		(await acquire('room', 2)).done();
		// The cap holds the queue until 60 s; the window (90 s) has room: the request behind waits for its turn.
		const head = watch(acquire('room', 2));
		const behind = watch(acquire('room', 2, Date.now() + 20_000));
		await flush();
		expect(behind.error).toBeUndefined();
		await flush(10_000);
		expect(head.granted).toBe(true);
		// Its own turn then needs the cap's next minute, past its deadline.
		expect((behind.error as Error).message).toBe('the pacing wait would end past the deadline');

		(await acquire('overruled')).observe(window(5, 200));
		const late = await acquire('overruled');
		(await acquire('overruled')).refused({ 'Retry-After': '1', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(START / 1000 + 200) }, 0);
		late.observe(window(0, 200));
		const first = watch(acquire('overruled'));
		const second = watch(acquire('overruled', undefined, Date.now() + 5000));
		await flush(1000);
		expect([first.granted, second.granted]).toEqual([true, true]);
	});

	it('only its own errors are deadline errors', () => {
		expect([new Error('the pacing wait would end past the deadline'), null, undefined, { pacingDeadline: 'yes' }].map(isPacingDeadline)).toEqual([false, false, false, false]);
	});

	it('one that left the queue at its deadline lets nobody behind it go before the ones ahead of it', async () => {
		(await acquire('k')).observe(window(1, 10));
		const open = await acquire('k');
		// Used up, one request on its way: the queue waits for its answer.
		const first = watch(acquire('k'));
		const second = watch(acquire('k'));
		const leaver = watch(acquire('k', undefined, Date.now() + 3000));
		const behind = watch(acquire('k'));
		await flush(3000);
		expect((leaver.error as Error).message).toBe('the requests queued before this one did not go in time');
		// Its answer leaves room for two: the first two in line go.
		open.observe(window(2, 10));
		await flush();
		expect([first.granted, second.granted, behind.granted]).toEqual([true, true, false]);
	});
});

describe('the credentials it keeps', () => {
	it(`beyond ${MAX_IDLE_CREDENTIALS} it forgets the idle ones, never one with work pending`, async () => {
		for (let i = 0; i < MAX_IDLE_CREDENTIALS - 5; i++) (await acquire(`idle-${i}`)).done();
		const inFlight = await acquire('in-flight');
		block('blocked', 5000);
		(await acquire('window')).observe(window(5, 30));
		(await acquire('capped', 10)).done();
		const queued = await acquire('queued');
		queued.observe(window(0, 30));
		const waiting = watch(acquire('queued'));
		expect(pacingState().credentials).toBe(MAX_IDLE_CREDENTIALS);
		(await acquire('new')).done();
		expect(pacingKeys().sort()).toEqual(['blocked', 'capped', 'in-flight', 'new', 'queued', 'window']);
		expect(waiting.granted).toBe(false);
		inFlight.done();
	});

	it('a credential whose request waits for a window that just ended is kept until that request has gone', async () => {
		(await acquire('queued')).observe(window(0, 30));
		const waiting = watch(acquire('queued'));
		await flush();
		// The reset has come, but the waiting request has not woken yet.
		jest.setSystemTime(START + 30_250);
		for (let i = 0; i < MAX_IDLE_CREDENTIALS; i++) (await acquire(`idle-${i}`)).done();
		expect(pacingKeys()).toContain('queued');
		// (Its timer was set on jest's clock, which setSystemTime does not move.)
		await flush(30_250);
		expect(waiting.granted).toBe(true);
	});

	it('a cap of 0 is no cap', async () => {
		(await acquire('k', 0)).observe(window(5, 30));
		const next = [watch(acquire('k', 0)), watch(acquire('k', 0)), watch(acquire('k', 0))];
		await flush();
		expect(next.map((o) => o.granted)).toEqual([true, true, true]);
		expect(pacingState().startTimes).toBe(0);
		// Behind a queue waiting for the window's reset, a deadline before it is left at once, as without a cap.
		(await acquire('w', 0)).observe(window(0, 10));
		const queued = watch(acquire('w', 0));
		const behind = watch(acquire('w', 0, Date.now() + 5000));
		await flush();
		expect([queued.granted, (behind.error as Error | undefined)?.message]).toEqual([false, 'the requests queued before this one wait past the deadline']);
	});

	it('a credential is idle once its 429 hold, its window and its last capped minute are over', async () => {
		// At 59.999 s the hold (5 s) and the window (30 s) are over, the capped request's minute is not.
		block('blocked', 5000);
		(await acquire('window')).observe(window(5, 30));
		(await acquire('capped', 10)).done();
		for (let i = 0; i < MAX_IDLE_CREDENTIALS - 3; i++) (await acquire(`idle-${i}`)).done();
		jest.setSystemTime(START + 59_999);
		(await acquire('new')).done();
		expect(pacingKeys().sort()).toEqual(['capped', 'new']);
		jest.setSystemTime(START + 60_000);
		for (let i = 0; i < MAX_IDLE_CREDENTIALS; i++) (await acquire(`more-${i}`)).done();
		expect(pacingKeys()).not.toContain('capped');
		expect(pacingState().credentials).toBeLessThan(MAX_IDLE_CREDENTIALS);
	});

	it('a credential is idle from the very end of its 429 hold and of its window', async () => {
		block('blocked', 5000);
		(await acquire('window')).observe(window(5, 30));
		/** The credentials kept (other than the idle ones added to reach the bound) by a sweep at `at`. */
		const keptAt = async (at: number) => {
			jest.setSystemTime(at);
			for (let i = pacingState().credentials; i < MAX_IDLE_CREDENTIALS; i++) (await acquire(`idle-${at}-${i}`)).done();
			(await acquire(`new-${at}`)).done();
			return pacingKeys().filter((k) => !k.startsWith('new-'));
		};
		expect(await keptAt(START + 4999)).toEqual(['blocked', 'window']);
		expect(await keptAt(START + 5000)).toEqual(['window']);
		// The window's reset: 30 s and the margin after the start.
		expect(await keptAt(START + 30_249)).toEqual(['window']);
		expect(await keptAt(START + 30_250)).toEqual([]);
	});

	it('what it holds: credentials, start times of capped requests, requests in flight', async () => {
		(await acquire('a', 5)).observe(window(10, 30));
		const a = [await acquire('a', 5), await acquire('a', 5), await acquire('a', 5)];
		const b = await acquire('b');
		(await acquire('c', 2)).done();
		expect(pacingState()).toEqual({ credentials: 3, startTimes: 5, inFlight: 4 });
		for (const ticket of [...a, b]) ticket.done();
		expect(pacingState()).toEqual({ credentials: 3, startTimes: 5, inFlight: 0 });
		// A request without the cap drops the credential's start times; one a minute old is dropped at the next.
		(await acquire('a')).done();
		expect(pacingState().startTimes).toBe(1);
		jest.setSystemTime(START + 60_000);
		(await acquire('c', 2)).done();
		expect(pacingState().startTimes).toBe(1);
		resetPacing();
		expect(pacingState()).toEqual({ credentials: 0, startTimes: 0, inFlight: 0 });
	});

	it('while many are busy, the next sweep waits until twice as many are tracked', async () => {
		const busy = [];
		for (let i = 0; i < MAX_IDLE_CREDENTIALS; i++) busy.push(await acquire(`busy-${i}`));
		for (let i = 0; i < MAX_IDLE_CREDENTIALS; i++) (await acquire(`idle-${i}`)).done();
		expect(pacingState().credentials).toBe(2 * MAX_IDLE_CREDENTIALS);
		(await acquire('next')).done();
		expect(pacingState().credentials).toBe(MAX_IDLE_CREDENTIALS + 1);
		for (const ticket of busy) ticket.done();
	});
});
