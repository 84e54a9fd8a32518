/** The pacer's memory stays bounded over 200,000 requests (transport/pacing.ts), on jest's fake clock. */
import { MAX_IDLE_CREDENTIALS, acquire, pacingState, resetPacing } from '../../nodes/Lofty/transport/pacing';

beforeEach(() => {
	resetPacing();
	jest.useFakeTimers({ now: 1_800_000_000_000 });
});
afterEach(() => jest.useRealTimers());

describe('memory stays bounded', () => {
	const REQUESTS = 200_000;

	it('200,000 paced requests in Automatic mode keep no per-request state', async () => {
		for (let i = 0; i < REQUESTS; i++) {
			const ticket = await acquire('k');
			ticket.observe({ 'X-RateLimit-Remaining': '1000000000', 'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + 60) });
		}
		expect(pacingState()).toEqual({ credentials: 1, startTimes: 0, inFlight: 0 });
	});

	it('200,000 requests under a cap keep at most the cap of start times', async () => {
		const cap = 500;
		for (let i = 0; i < REQUESTS; i++) {
			// 120 ms apart: exactly the cap's pace, so nothing waits and every start time is within its minute for a while.
			jest.setSystemTime(Date.now() + 120);
			(await acquire('k', cap)).done();
		}
		expect(pacingState().credentials).toBe(1);
		expect(pacingState().startTimes).toBeLessThanOrEqual(cap);
	});

	it('200,000 requests over 20,000 credentials keep a bounded number of them', async () => {
		let most = 0;
		for (let i = 0; i < REQUESTS; i++) {
			(await acquire(`key-${i % 20_000}`, 100)).done();
			if (i % 1000 === 0) jest.setSystemTime(Date.now() + 61_000);
			most = Math.max(most, pacingState().credentials);
		}
		// Idle ones are forgotten: at most twice the credentials used within the last minute (1000 here), or the floor.
		expect(most).toBeLessThanOrEqual(Math.max(MAX_IDLE_CREDENTIALS, 2 * 1000) + 1);
		expect(pacingState().startTimes).toBeLessThanOrEqual(pacingState().credentials * 100);
	});
});
