/** The sandbox's latency setting: answers held back as by a remote API's round trip, and the count of requests in flight. */
import { DEMO_API_KEY, type Sandbox, parseLatency, startSandbox } from '../../sandbox';
import { call } from './helpers';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox({ port: 0, latency: { fixedMs: 20 } });
});
afterAll(() => sb.stop());
beforeEach(() => sb.reset());

const me = () => call(sb.url, 'GET', '/v1.0/me', { auth: { token: DEMO_API_KEY } });

describe('latency', () => {
	it('holds answers back and answers every request; the count of requests in flight ends at 0 and never passes those sent', async () => {
		sb.setLatency({ fixedMs: 150, jitterMs: 50 });
		const answers = await Promise.all(Array.from({ length: 6 }, me));
		expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
		// How many were in flight at once depends on the machine's speed: `npm run bench` (row 11) measures it.
		expect(sb.concurrency().now).toBe(0);
		expect(sb.concurrency().most).toBeGreaterThanOrEqual(1);
		expect(sb.concurrency().most).toBeLessThanOrEqual(6);
	});

	it('requests sent one after another are in flight one at a time', async () => {
		for (let i = 0; i < 4; i++) expect((await me()).status).toBe(200);
		expect(sb.concurrency().most).toBe(1);
	});

	it('counts the request against the rate limit and logs it on arrival, whatever the delay', async () => {
		sb.setRateLimit({ perWindow: 2, windowMs: 60_000 });
		sb.setLatency({ fixedMs: 100 });
		const statuses = (await Promise.all([me(), me(), me()])).map((a) => a.status).sort();
		expect(statuses).toEqual([200, 200, 429]);
		expect(sb.requests).toHaveLength(3);
	});

	it('reset restores the latency given at start and restarts the count', async () => {
		sb.setLatency({ fixedMs: 0 });
		await Promise.all([me(), me()]);
		sb.reset();
		expect(sb.concurrency()).toEqual({ now: 0, most: 0 });
		sb.setLatency({ fixedMs: 100 });
		await Promise.all([me(), me(), me()]);
		sb.resetConcurrency();
		expect(sb.concurrency().most).toBe(0);
	});

	it('reads "fixed" and "fixed+jitter" and refuses anything else', () => {
		expect(parseLatency('300')).toEqual({ fixedMs: 300, jitterMs: 0 });
		expect(parseLatency(' 300 + 60 ')).toEqual({ fixedMs: 300, jitterMs: 60 });
		expect(() => parseLatency('300ms')).toThrow(/300\+60/);
		expect(() => parseLatency('-5')).toThrow();
		expect(() => sb.setLatency({ fixedMs: -1 })).toThrow(/fixedMs >= 0/);
	});
});
