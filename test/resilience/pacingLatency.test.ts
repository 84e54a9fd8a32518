/**
 * The pacer on its own, on jest's fake clock: no request waits on another request's answer longer than
 * PROBE_WAIT_MS, a request that waits for a window goes when it opens, and answers only ever let requests go
 * sooner. What is granted before and after each event, never how long a run took.
 */
import { PROBE_WAIT_MS, SMALLEST_LIMIT, acquire, resetPacing } from '../../nodes/Lofty/transport/pacing';

import { START, flush, granted, pending, window } from './pacingClock';

beforeEach(() => {
	resetPacing();
	jest.useFakeTimers({ now: START });
});
afterEach(() => jest.useRealTimers());

describe('the first answer of an unknown window is waited for PROBE_WAIT_MS at most', () => {
	it('a probe that does not answer holds the others until the bound, then they go within the smallest limit', async () => {
		const probe = await acquire('k');
		const others = Array.from({ length: SMALLEST_LIMIT + 50 }, () => pending());
		await flush(PROBE_WAIT_MS - 1);
		expect(granted(others)).toBe(0);
		await flush(1);
		// Still no answer: the smallest limit Lofty grants an application, less the probe on its way.
		expect(granted(others)).toBe(SMALLEST_LIMIT - 1);
		// The probe's answer (sent first, so it counts none of the others) tells a window of 400 more: room for all.
		probe.observe(window(400, 30, 500));
		await flush();
		expect(granted(others)).toBe(others.length);
	});

	it('the bound is counted from the probe, not from each waiter: a later waiter waits less', async () => {
		await acquire('k'); // the probe, never answered
		await flush(PROBE_WAIT_MS - 200);
		const late = pending();
		await flush(199);
		expect(late.granted).toBe(false);
		await flush(1);
		expect(late.granted).toBe(true);
	});

	it('an answer within the bound decides at once (the usual case: the probe answers first)', async () => {
		const probe = await acquire('k');
		const others = Array.from({ length: 5 }, () => pending());
		await flush(PROBE_WAIT_MS / 2);
		probe.observe(window(3, 30, 100));
		await flush();
		expect(granted(others)).toBe(3);
		// The rest wait for the window, not for the probe bound: nothing more until the reset.
		await flush(PROBE_WAIT_MS * 2);
		expect(granted(others)).toBe(3);
	});

	it('after a 429, the others wait for the next probe PROBE_WAIT_MS at most', async () => {
		const first = await acquire('k');
		first.observe(window(50, 30, 100));
		const slow = await acquire('k'); // on its way, never answered
		const refused = await acquire('k');
		refused.refused({ 'Retry-After': '1', ...window(0, 30, 100) }, 0);
		const probe = pending();
		const next = pending();
		await flush(1000);
		expect(probe.granted).toBe(true);
		expect(next.granted).toBe(false);
		await flush(PROBE_WAIT_MS);
		expect(next.granted).toBe(true);
		slow.done();
	});
});

describe('a request that waits for a window goes when it opens', () => {
	it('at the reset, with an older request still unanswered; room held for it comes back when it names the old window', async () => {
		const probe = await acquire('k');
		probe.observe(window(2, 5, 3));
		const [a, b] = [await acquire('k'), await acquire('k')]; // slow: still on their way at the reset
		const next = pending();
		const after = pending();
		await flush(5000);
		expect(next.granted).toBe(false);
		// The reset (5 s + the margin): the new window opens with the announced limit 3, less a and b, which the server
		// may count in it.
		await flush(250);
		expect(next.granted).toBe(true);
		expect(after.granted).toBe(false);
		// a's answer names the old window: it was counted there, so its room in the new one comes back.
		a.observe(window(1, 5, 3));
		await flush();
		expect(after.granted).toBe(true);
		b.done();
	});

	it('room held back from the next window comes back too when that window was told by an answer', async () => {
		const probe = await acquire('k');
		probe.observe(window(2, 5, 3));
		const [a, b] = [await acquire('k'), await acquire('k')];
		await flush(5250);
		const next = await acquire('k'); // the new window opened at the reset, a and b held back
		const after = pending();
		// next's answer tells the new window (a and b were counted in the old, so 2 are left): as far as the pacer can
		// tell, a and b may still be counted in it, so nothing is left.
		next.observe(window(2, 10, 3));
		await flush();
		expect(after.granted).toBe(false);
		a.observe(window(0, 5, 3));
		await flush();
		expect(after.granted).toBe(true);
		b.done();
	});

	it('a request waiting for room wakes at an answer when Remaining is as of the answer (counts the requests in flight)', async () => {
		const probe = await acquire('k');
		probe.observe(window(10, 30, 100));
		const inFlight = [];
		for (let i = 0; i < 9; i++) inFlight.push(await acquire('k'));
		const next = pending();
		const last = pending();
		// The server counted all nine before the first answer left: each says 1 left.
		for (const ticket of inFlight.slice(0, 8)) ticket.observe(window(1, 30, 100));
		await flush();
		// Requests 3 to 10 were sent after request 2's answer was taken, as far as the pacer can tell: no room yet.
		expect(next.granted).toBe(false);
		inFlight[8].observe(window(1, 30, 100));
		await flush();
		// The newest answer with nothing sent after it: exactly 1 left, long before the reset (30 s).
		expect(next.granted).toBe(true);
		expect(last.granted).toBe(false);
	});
});
