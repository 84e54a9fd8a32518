/**
 * The pacer on its own, on jest's fake clock: what waits for what, never how long a run took. Its bounded memory over
 * 200,000 requests: pacingMemory.test.ts (kept apart: this file is the fast set mutation testing runs).
 */
import {
	PROBE_WAIT_MS,
	acquire,
	block,
	pacingKey,
	rateLimitWaitMs,
	requestsPerMinute,
	resetPacing,
	resetTime,
} from '../../nodes/Lofty/transport/pacing';

beforeEach(() => {
	resetPacing();
	jest.useFakeTimers({ now: 1_800_000_000_000 });
});
afterEach(() => jest.useRealTimers());

/** Starts an acquisition and reports whether it has been granted so far. */
function pending(key: string, cap?: number) {
	const state = { granted: false, ticket: undefined as undefined | Awaited<ReturnType<typeof acquire>> };
	void acquire(key, cap).then((ticket) => {
		state.granted = true;
		state.ticket = ticket;
	});
	return state;
}

async function flush(ms = 0) {
	await jest.advanceTimersByTimeAsync(ms);
}

describe('pacing key', () => {
	it('tells credentials apart without containing the secret', () => {
		const a = pacingKey('loftyApi', 'https://api.lofty.com', 'secret-key-aaaa');
		const b = pacingKey('loftyApi', 'https://api.lofty.com', 'secret-key-bbbb');
		expect(a).not.toBe(b);
		expect(a).not.toContain('secret');
		expect(pacingKey('loftyApi', 'https://api.lofty.com', 'secret-key-aaaa')).toBe(a);
	});
});

describe('announced window', () => {
	it('waits for the reset once Remaining reaches 0, then goes on', async () => {
		const now = Date.now();
		const first = await acquire('k');
		first.observe({ 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.ceil(now / 1000) + 2) });
		const next = pending('k');
		await flush(1000);
		expect(next.granted).toBe(false);
		await flush(2000);
		expect(next.granted).toBe(true);
	});

	it('counts requests sent since the last answer against Remaining', async () => {
		const now = Date.now();
		const t = await acquire('k');
		t.observe({ 'X-RateLimit-Remaining': '2', 'X-RateLimit-Reset': String(Math.ceil(now / 1000) + 5) });
		const a = await acquire('k');
		const b = await acquire('k');
		const third = pending('k');
		await flush(100);
		expect(third.granted).toBe(false);
		a.done();
		b.done();
		await flush(6000);
		expect(third.granted).toBe(true);
	});

	it('reads the reset as epoch seconds, epoch ms or seconds from now', () => {
		const now = 1_800_000_000_000;
		expect(resetTime(1_800_000_010, now)).toBe(1_800_000_010_250);
		expect(resetTime(1_800_000_010_000, now)).toBe(1_800_000_010_250);
		expect(resetTime(10, now)).toBe(now + 10_250);
	});

	it('a 429 blocks every request of the credential until its wait is over', async () => {
		block('k', 3000);
		const a = pending('k');
		const other = pending('other');
		await flush(10);
		expect(other.granted).toBe(true);
		expect(a.granted).toBe(false);
		await flush(3000);
		expect(a.granted).toBe(true);
	});

	it('does not trust a reset more than the maximum wait away', async () => {
		const t = await acquire('k');
		t.observe({ 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + 3600) });
		const next = pending('k');
		await flush(66_000);
		expect(next.granted).toBe(true);
	});
});

describe('requests in flight', () => {
	// A window's reset is one fixed time (the fake clock starts at 1_800_000_000_000 in every test).
	const window = (remaining: number, inSeconds = 30) => ({
		'X-RateLimit-Remaining': String(remaining),
		'X-RateLimit-Reset': String(1_800_000_000 + inSeconds),
	});

	it('while the window is unknown, one request goes first and the others wait for its answer (within the bound)', async () => {
		const first = await acquire('k');
		const others = [pending('k'), pending('k'), pending('k')];
		await flush(PROBE_WAIT_MS - 100);
		expect(others.map((o) => o.granted)).toEqual([false, false, false]);
		first.observe(window(2));
		await flush();
		// The answer said 2 more: those go at once, in flight together; the third waits for the window.
		expect(others.map((o) => o.granted)).toEqual([true, true, false]);
	});

	it('does not wait for answers that never carry the headers', async () => {
		const first = await acquire('k');
		const second = pending('k');
		await flush();
		expect(second.granted).toBe(false);
		first.observe({ 'content-type': 'application/json' });
		const more = [pending('k'), pending('k'), pending('k')];
		await flush();
		expect([second, ...more].every((o) => o.granted)).toBe(true);
	});

	it('holds back room for older requests in flight, and gives it back when their answers show they were counted', async () => {
		const probe = await acquire('k');
		probe.observe(window(10));
		const b = await acquire('k');
		const c = await acquire('k');
		// c answers first: 8 left after it; b, sent earlier, is still on its way and may not have been counted.
		c.observe(window(8));
		const next = Array.from({ length: 9 }, () => pending('k'));
		await flush();
		expect(next.filter((o) => o.granted)).toHaveLength(7);
		// b's answer said 9: the server counted it before c, so it was in c's 8 already.
		b.observe(window(9));
		await flush();
		expect(next.filter((o) => o.granted)).toHaveLength(8);
	});

	it('an older answer counted after the newer one gives nothing back', async () => {
		const probe = await acquire('k');
		probe.observe(window(10));
		const b = await acquire('k');
		const c = await acquire('k');
		// c reached the server first (9 left after it), b after it (8).
		c.observe(window(9));
		b.observe(window(8));
		const next = Array.from({ length: 9 }, () => pending('k'));
		await flush();
		expect(next.filter((o) => o.granted)).toHaveLength(8);
	});

	it('when the window looks used up, waits for the answers still due rather than the reset', async () => {
		const probe = await acquire('k');
		probe.observe(window(4));
		const [a, b, c] = [await acquire('k'), await acquire('k'), await acquire('k')];
		// The server counted a, b, c in that order; c answers first (1 left), a and b are held back: nothing left by this count.
		c.observe(window(1));
		const next = pending('k');
		await flush(1000);
		expect(next.granted).toBe(false);
		a.observe(window(3));
		await flush();
		expect(next.granted).toBe(false);
		b.observe(window(2)); // both were counted before c: one request may still go
		await flush();
		expect(next.granted).toBe(true);
		const last = pending('k');
		await flush(1000);
		expect(last.granted).toBe(false); // now used up, nothing due: waits for the reset (30 s)
		next.ticket!.done();
		await flush(30_000);
		expect(last.granted).toBe(true);
	});

	it('another window is learnt from a later request only, whatever its reset says', async () => {
		const probe = await acquire('k');
		probe.observe(window(5, 30));
		const older = await acquire('k');
		const newer = await acquire('k');
		// The server started a new, shorter window: the newer answer says so, the older one still names the old window.
		newer.observe(window(2, 2));
		older.observe(window(4, 30));
		const next = [pending('k'), pending('k')];
		await flush();
		expect(next.map((o) => o.granted)).toEqual([true, false]);
		await flush(1000);
		expect(next[1].granted).toBe(false);
		// At the shorter window's reset the next one opens; next[0] is still unanswered, and is not waited for.
		await flush(2000);
		expect(next[1].granted).toBe(true);
	});

	it('a request that ended without an answer lets the next one probe', async () => {
		const first = await acquire('k');
		const second = pending('k');
		await flush();
		first.done();
		await flush();
		expect(second.granted).toBe(true);
	});
});

describe("after a 429: the server's word", () => {
	const now = () => Date.now();

	it('Retry-After wins over a far reset, now and for the later answers of that window', async () => {
		const t = await acquire('k');
		const reset = String(Math.ceil(now() / 1000) + 50);
		expect(t.refused({ 'Retry-After': '1', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': reset }, 0)).toBe(1000);
		const next = pending('k');
		await flush(900);
		expect(next.granted).toBe(false);
		await flush(200);
		expect(next.granted).toBe(true);
		// A late answer of the same window says 0 left: the server's Retry-After already overruled that window.
		next.ticket!.observe({ 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': reset });
		const after = pending('k');
		await flush(10);
		expect(after.granted).toBe(true);
	});

	it('without Retry-After, waits for a plausible reset', () => {
		expect(rateLimitWaitMs({ 'X-RateLimit-Reset': String(Math.ceil(now() / 1000) + 20) }, 0, now())).toBe(20_250);
	});

	it('distrusts a reset implausibly far away and backs off instead, within the bounds', () => {
		const farOff = { 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(Math.ceil(now() / 1000) + 3600) };
		expect([0, 1, 2, 3, 7].map((attempt) => rateLimitWaitMs(farOff, attempt, now()))).toEqual([1000, 2000, 4000, 8000, 65_000]);
		expect(rateLimitWaitMs({ 'Retry-After': '0' }, 0, now())).toBe(250);
		expect(rateLimitWaitMs({ 'Retry-After': new Date(now() + 5000).toUTCString() }, 0, now())).toBe(5000);
	});

	it("reads the reset on the server's clock when the clocks differ (its Date header)", () => {
		const serverAhead = 30_000;
		const headers = {
			Date: new Date(now() + serverAhead).toUTCString(),
			'X-RateLimit-Reset': String(Math.ceil((now() + serverAhead) / 1000) + 10),
		};
		// 10 s on the server's clock (not 40 s on ours, which would be distrusted), within its Date's rounding.
		expect(rateLimitWaitMs(headers, 0, now())).toBeGreaterThanOrEqual(9000);
		expect(rateLimitWaitMs(headers, 0, now())).toBeLessThanOrEqual(11_250);
	});

	it("waits for the window by the server's clock when it is behind ours", async () => {
		const serverBehind = 30_000;
		const t = await acquire('k');
		t.observe({
			Date: new Date(now() - serverBehind).toUTCString(),
			'X-RateLimit-Remaining': '0',
			'X-RateLimit-Reset': String(Math.ceil((now() - serverBehind) / 1000) + 5),
		});
		const next = pending('k');
		await flush(3000);
		expect(next.granted).toBe(false);
		await flush(3500);
		expect(next.granted).toBe(true);
	});
});

describe('the credential cap (requests per minute)', () => {
	it('allows the cap within any minute, then waits for the oldest to leave the minute', async () => {
		for (let i = 0; i < 3; i++) (await acquire('k', 3)).done();
		const fourth = pending('k', 3);
		await flush(59_000);
		expect(fourth.granted).toBe(false);
		await flush(1_100);
		expect(fourth.granted).toBe(true);
	});

	it('maps the presets', () => {
		expect(requestsPerMinute(undefined, undefined)).toBeUndefined();
		expect(requestsPerMinute('auto', 5)).toBeUndefined();
		expect(requestsPerMinute('development', undefined)).toBe(100);
		expect(requestsPerMinute('production', undefined)).toBe(500);
		expect(requestsPerMinute('custom', 42)).toBe(42);
		expect(requestsPerMinute('custom', 'x')).toBeUndefined();
	});
});

describe('classifying requests that got no answer', () => {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { transportFault } = require('../../nodes/Lofty/transport/request') as typeof import('../../nodes/Lofty/transport/request');
	const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

	it.each([
		['axios timeout', withCode('ECONNABORTED', 'timeout of 300ms exceeded'), 'timeout'],
		['clarified timeout', withCode('ETIMEDOUT'), 'timeout'],
		['reset', withCode('ECONNRESET', 'socket hang up'), 'dropped'],
		['hang up without code', new Error('socket hang up'), 'dropped'],
		['refused', withCode('ECONNREFUSED'), 'unreachable'],
		['DNS', withCode('ENOTFOUND'), 'unreachable'],
		['canceled', withCode('ERR_CANCELED', 'canceled'), 'canceled'],
		['wrapped by n8n (cause chain)', Object.assign(new Error('The connection was aborted'), { cause: withCode('ECONNABORTED', 'timeout of 1ms exceeded') }), 'timeout'],
		['wrapped in errorResponse', Object.assign(new Error('wrapper'), { errorResponse: withCode('ECONNRESET') }), 'dropped'],
		['OAuth2 token refused (client-oauth2 AuthError)', withCode('EAUTH', 'Client authentication failed'), 'token'],
		['token refused, wrapped by n8n 2.41', Object.assign(new Error('Failed to acquire OAuth2 access token: invalid'), { cause: withCode('EAUTH') }), 'token'],
		['refresh revoked (n8n 2.41)', new Error('The credential "Lofty" needs to be reconnected.'), 'token'],
	])('%s', (_name, error, kind) => {
		expect(transportFault(error)).toBe(kind);
	});
});
