/** The pacer with a deadline, on jest's fake clock: a wait that would end past it is not started, one that fits is. */
import { acquire, block, isPacingDeadline, pacingState, resetPacing } from '../../nodes/Lofty/transport/pacing';

beforeEach(() => {
	resetPacing();
	jest.useFakeTimers({ now: 1_800_000_000_000 });
});
afterEach(() => jest.useRealTimers());

/** The window used up, its reset 30 s away. */
async function usedUp(key: string): Promise<void> {
	const first = await acquire(key);
	first.observe({ 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + 30) });
}

describe('pacing with a deadline', () => {
	it('a wait for the next window that would end past the deadline fails at once and counts nothing', async () => {
		await usedUp('k');
		const error = await acquire('k', undefined, Date.now() + 10_000).catch((e: unknown) => e);
		expect(isPacingDeadline(error)).toBe(true);
		expect(pacingState().inFlight).toBe(0);
	});

	it('the same wait with a deadline after the reset is waited out and granted', async () => {
		await usedUp('k');
		let granted = false;
		void acquire('k', undefined, Date.now() + 40_000).then(() => (granted = true));
		await jest.advanceTimersByTimeAsync(29_000);
		expect(granted).toBe(false);
		await jest.advanceTimersByTimeAsync(2_000);
		expect(granted).toBe(true);
	});

	it('after a 429 the credential\'s hold counts against the deadline too', async () => {
		block('k', 5000);
		expect(isPacingDeadline(await acquire('k', undefined, Date.now() + 1000).catch((e: unknown) => e))).toBe(true);
		let granted = false;
		void acquire('k', undefined, Date.now() + 6000).then(() => (granted = true));
		await jest.advanceTimersByTimeAsync(5100);
		expect(granted).toBe(true);
	});
});
