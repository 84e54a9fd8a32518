/** The pacer on its own, on jest's fake clock: what waits for what, never how long a run took. */
import { acquire, block, pacingKey, requestsPerMinute, resetPacing, resetTime } from '../../nodes/Lofty/transport/pacing';

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
		first.done();
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
		t.done();
		t.observe({ 'X-RateLimit-Remaining': '2', 'X-RateLimit-Reset': String(Math.ceil(now / 1000) + 5) });
		await acquire('k');
		await acquire('k');
		const third = pending('k');
		await flush(100);
		expect(third.granted).toBe(false);
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
		t.done();
		t.observe({ 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + 3600) });
		const next = pending('k');
		await flush(66_000);
		expect(next.granted).toBe(true);
	});
});

describe('the credential cap (requests per minute)', () => {
	it('allows the cap within any minute, then waits for the oldest to leave the minute', async () => {
		for (let i = 0; i < 3; i++) await acquire('k', 3);
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
	])('%s', (_name, error, kind) => {
		expect(transportFault(error)).toBe(kind);
	});
});
