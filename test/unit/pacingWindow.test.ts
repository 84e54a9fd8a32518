/**
 * The pacer (transport/pacing.ts) reading answers at their boundaries, on jest's fake clock: the window assumed after
 * an unanswered probe, answers naming a window already over, an older answer with the newer one's Remaining, a probe
 * that ended without an answer, and a reset exactly the longest wait away. The rest of its rules:
 * test/resilience/pacing.test.ts, pacingLatency.test.ts, pacingBackground.test.ts, test/unit/pacingEdges.test.ts.
 */
import { MAX_PACING_WAIT_MS, PROBE_WAIT_MS, SMALLEST_LIMIT, acquire, resetPacing } from '../../nodes/Lofty/transport/pacing';

import { START, flush, granted, pending, window } from '../resilience/pacingClock';

beforeEach(() => {
	resetPacing();
	jest.useFakeTimers({ now: START });
});
afterEach(() => jest.useRealTimers());

it('after a 429, an unanswered probe opens the smallest limit, however large the limit Lofty announced', async () => {
	(await acquire('k')).observe(window(400, 30, 500));
	(await acquire('k')).refused({ 'Retry-After': '1' }, 0);
	await flush(1000);
	await acquire('k'); // the probe, never answered
	const others = Array.from({ length: 150 }, () => pending());
	await flush(PROBE_WAIT_MS);
	expect(granted(others)).toBe(SMALLEST_LIMIT - 1);
});

describe('an answer naming a window already over', () => {
	it('tells nothing when no window is known: the next request probes again', async () => {
		const first = await acquire('k');
		expect(() => first.observe(window(5, -10))).not.toThrow();
		const probe = pending();
		const next = pending();
		await flush();
		expect([probe.granted, next.granted]).toEqual([true, false]);
		await flush(PROBE_WAIT_MS);
		expect(next.granted).toBe(true);
	});

	it('gives no room back for a request sent after the window now known was told', async () => {
		(await acquire('k')).observe(window(3, 10));
		const late = await acquire('k');
		late.observe(window(5, -10));
		const next = Array.from({ length: 4 }, () => pending());
		await flush();
		// 3 left after the first request; the late one took 1.
		expect(granted(next)).toBe(2);
	});
});

it('an older answer with the same Remaining as the newer one was counted before it: its room comes back', async () => {
	(await acquire('k')).observe(window(10, 30));
	const b = await acquire('k');
	const c = await acquire('k');
	c.observe(window(8, 30));
	// Remaining as of the answer: b was counted before c's answer left, so it says 8 too.
	b.observe(window(8, 30));
	const next = Array.from({ length: 9 }, () => pending());
	await flush();
	expect(granted(next)).toBe(8);
});

it('the request after a probe that ended without an answer is the next probe: the others wait for it from its own start', async () => {
	const probe = await acquire('k');
	const second = pending();
	await flush(800);
	probe.done();
	await flush();
	expect(second.granted).toBe(true);
	const third = pending();
	await flush(PROBE_WAIT_MS - 1);
	expect(third.granted).toBe(false);
	await flush(1);
	expect(third.granted).toBe(true);
});

it('a reset exactly the longest wait away is waited for, and the next window opens with the announced limit', async () => {
	const reset = START + MAX_PACING_WAIT_MS - 250; // in ms; the margin makes it exactly MAX_PACING_WAIT_MS away
	(await acquire('k')).observe({ 'X-RateLimit-Limit': '3', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(reset) });
	const next = Array.from({ length: 4 }, () => pending());
	await flush(MAX_PACING_WAIT_MS - 1);
	expect(granted(next)).toBe(0);
	await flush(1);
	// Opened with the limit 3, not probed: three at once.
	expect(granted(next)).toBe(3);
});

describe('when a window ends', () => {
	it('an older request answering after the reset tells the window the server opened', async () => {
		(await acquire('k')).observe(window(5, 5, 10));
		const a = await acquire('k');
		(await acquire('k')).observe(window(3, 5, 10));
		await flush(5250);
		// The next request finds the window over: the next one is assumed, with the announced limit.
		(await acquire('k')).done();
		// a's answer, naming the new window with nothing left, is believed.
		a.observe(window(0, 65, 10));
		const next = pending();
		await flush();
		expect(next.granted).toBe(false);
	});

	it('a window assumed after an unanswered probe ends unknown: the next request probes again', async () => {
		await acquire('k'); // the probe, never answered
		const first = Array.from({ length: SMALLEST_LIMIT - 1 }, () => pending());
		await flush(PROBE_WAIT_MS);
		expect(granted(first)).toBe(SMALLEST_LIMIT - 1);
		for (const o of first) o.ticket!.done();
		await flush(60_000);
		const probe = pending();
		const next = pending();
		await flush();
		expect([probe.granted, next.granted]).toEqual([true, false]);
	});

	it('once answers come without the headers, nothing is held after the window they told ends', async () => {
		(await acquire('k')).observe(window(5, 5, 10));
		(await acquire('k')).observe({});
		await flush(5250);
		const next = Array.from({ length: 20 }, () => pending());
		await flush();
		expect(granted(next)).toBe(20);
	});
});

it('an answer wakes every request waiting for one: the queue and a background request waiting for its share', async () => {
	(await acquire('k')).observe(window(2, 30, 10));
	const inFlight = [await acquire('k'), await acquire('k')];
	// Used up as far as the pacer can tell; the answers still due may show room.
	const next = pending();
	await flush();
	let background = false;
	void acquire('k', undefined, undefined, true).then(() => (background = true));
	await flush();
	expect([next.granted, background]).toEqual([false, false]);
	inFlight[0].observe(window(5, 30, 10));
	await flush();
	expect(next.granted).toBe(true);
	inFlight[1].done();
});

it('an answer to a request already ended tells nothing', async () => {
	(await acquire('k')).observe(window(5, 30));
	const ended = await acquire('k');
	ended.done();
	ended.observe(window(0, 30));
	const next = pending();
	await flush();
	expect(next.granted).toBe(true);
});

it("after a 429 that waits for the window's reset, a later answer placing that reset later on our clock is waited for", async () => {
	(await acquire('k')).observe(window(5, 30));
	const late = await acquire('k');
	const refusedAt = START / 1000 + 20;
	(await acquire('k')).refused({ 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(refusedAt) }, 0);
	// The same window, from a server whose clock is 10 s behind ours: it ends 10 s later here.
	late.observe({ Date: new Date(START - 10_000).toUTCString(), 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(refusedAt) });
	const next = pending();
	await flush(21_000);
	expect(next.granted).toBe(false);
	await flush(9000);
	expect(next.granted).toBe(true);
});

it('answers with only one of Remaining and Reset are answers without the headers: nothing waits for them', async () => {
	for (const headers of [{ 'X-RateLimit-Remaining': '5' }, { 'X-RateLimit-Reset': String(START / 1000 + 30) }]) {
		resetPacing();
		const first = await acquire('k');
		first.observe(headers);
		const more = [pending(), pending(), pending()];
		await flush();
		expect(granted(more)).toBe(3);
	}
});

it("the probe's bound runs from the first request sent into an unknown window, not from the latest", async () => {
	(await acquire('k')).observe({});
	// Answers without the headers: nothing waits for a probe; the first request sent is the probe all the same.
	const a = await acquire('k');
	await flush(800);
	await acquire('k');
	// An answer with the headers, naming a window already over: the window is still unknown, and probes are waited for again.
	a.observe(window(5, -10));
	const next = pending();
	await flush(199);
	expect(next.granted).toBe(false);
	await flush(1);
	expect(next.granted).toBe(true);
});
