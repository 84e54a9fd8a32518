import { DEMO_API_KEY, OTHER_AGENT_API_KEY, startSandbox } from '../../sandbox';
import { call, useSandbox } from './helpers';

const sb = useSandbox();

const me = (key = DEMO_API_KEY) => call(sb.url, 'GET', '/v1.0/me', { auth: { token: key } });

function expectRateHeaders(h: Record<string, string>, limit: number, remaining: number): void {
	expect(h['x-ratelimit-limit']).toBe(String(limit));
	expect(h['x-ratelimit-remaining']).toBe(String(remaining));
	const reset = Number(h['x-ratelimit-reset']);
	expect(Number.isInteger(reset)).toBe(true);
	// epoch SECONDS: ten digits, not milliseconds
	expect(String(reset)).toMatch(/^\d{10}$/);
	expect(reset).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) - 1);
}

describe('rate limit', () => {
	it('default is 100 per window and every answer carries the headers', async () => {
		expectRateHeaders((await me()).headers, 100, 99);
		expectRateHeaders((await me()).headers, 100, 98);
	});

	it('error answers carry the headers too (401, 404)', async () => {
		const unauth = await call(sb.url, 'GET', '/v1.0/me');
		expect(unauth.status).toBe(401);
		expect(unauth.headers['x-ratelimit-limit']).toBe('100');
		const notFound = await call(sb.url, 'GET', '/v1.0/unknown', { auth: { token: DEMO_API_KEY } });
		expect(notFound.status).toBe(404);
		expectRateHeaders(notFound.headers, 100, 99);
	});

	it('429 {"message":"Too Many Requests"} past the limit, with the same headers', async () => {
		sb.setRateLimit({ perWindow: 3, windowMs: 60_000 });
		for (let i = 0; i < 3; i++) expect((await me()).status).toBe(200);
		const r = await me();
		expect(r.status).toBe(429);
		expect(r.text).toBe('{"message":"Too Many Requests"}');
		expectRateHeaders(r.headers, 3, 0);
	});

	it('limits per application: another API key has its own bucket', async () => {
		sb.setRateLimit({ perWindow: 2, windowMs: 60_000 });
		await me();
		await me();
		expect((await me()).status).toBe(429);
		const other = await me(OTHER_AGENT_API_KEY);
		expect(other.status).toBe(200);
		expectRateHeaders(other.headers, 2, 1);
	});

	it('OAuth tokens of one client share a bucket', async () => {
		sb.setRateLimit({ perWindow: 2, windowMs: 60_000 });
		const a = sb.issueToken();
		const b = sb.issueToken({ userId: '302656410082719' });
		expect((await call(sb.url, 'GET', '/v1.0/me', { auth: { bearer: a } })).status).toBe(200);
		expect((await call(sb.url, 'GET', '/v1.0/me', { auth: { bearer: b } })).status).toBe(200);
		expect((await call(sb.url, 'GET', '/v1.0/me', { auth: { bearer: a } })).status).toBe(429);
		expect((await me()).status).toBe(200);
	});

	it('a new window opens after windowMs', async () => {
		let t = 1_800_000_000_000;
		const realNow = sb.store.now;
		sb.store.now = () => t;
		try {
			sb.setRateLimit({ perWindow: 1, windowMs: 1000 });
			expect((await me()).status).toBe(200);
			expect((await me()).status).toBe(429);
			t += 1000;
			const r = await me();
			expect(r.status).toBe(200);
			expect(r.headers['x-ratelimit-reset']).toBe(String((t + 1000) / 1000));
		} finally {
			sb.store.now = realNow;
		}
	});

	it("Remaining as of the request (default) or as of the answer (remainingAt: 'answer')", async () => {
		// Three requests at once, each answered 200 ms later: counted on arrival, so all three are counted by then.
		sb.setLatency({ fixedMs: 200 });
		const remaining = async () => (await Promise.all([me(), me(), me()])).map((r) => Number(r.headers['x-ratelimit-remaining'])).sort();
		expect(await remaining()).toEqual([97, 98, 99]);
		sb.setRateLimit({ perWindow: 100, windowMs: 60_000, remainingAt: 'answer' });
		expect(await remaining()).toEqual([97, 97, 97]);
		expect(() => sb.setRateLimit({ perWindow: 1, windowMs: 1, remainingAt: 'later' as 'answer' })).toThrow(/remainingAt/);
		sb.reset();
		expect(await remaining()).toEqual([97, 98, 99]);
	});

	it('reset() clears counters and restores the configured limit', async () => {
		sb.setRateLimit({ perWindow: 1, windowMs: 60_000 });
		await me();
		expect((await me()).status).toBe(429);
		sb.reset();
		expectRateHeaders((await me()).headers, 100, 99);
	});

	it('startSandbox({rateLimit}) sets the limit', async () => {
		const small = await startSandbox({ port: 0, rateLimit: { perWindow: 1, windowMs: 60_000 }, seed: true });
		try {
			expect((await call(small.url, 'GET', '/v1.0/me', { auth: { token: DEMO_API_KEY } })).status).toBe(200);
			expect((await call(small.url, 'GET', '/v1.0/me', { auth: { token: DEMO_API_KEY } })).status).toBe(429);
		} finally {
			await small.stop();
		}
	});
});
