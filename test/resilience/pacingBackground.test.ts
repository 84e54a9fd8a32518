/**
 * Background requests (the polling trigger's backlog reader) keep to their share of each rate-limit window
 * (transport/backgroundShare.ts), and one waiting for its share holds no other request of the credential up.
 * The pacer alone, on jest's clock.
 */
import { BACKGROUND_SHARE, backgroundQuota } from '../../nodes/Lofty/transport/backgroundShare';
import { MAX_PACING_WAIT_MS, type PacingTicket, acquire, resetPacing } from '../../nodes/Lofty/transport/pacing';

const LIMIT = 10;
let reset = '';

/** Answers `ticket` as Lofty does: the window's limit, what is left of it and its reset. */
const answer = (ticket: PacingTicket, remaining: number) => ticket.observe({ 'X-RateLimit-Limit': String(LIMIT), 'X-RateLimit-Remaining': String(remaining), 'X-RateLimit-Reset': reset });

/** Whether a promise has settled, after the pending callbacks ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
	let done = false;
	void promise.then(() => (done = true));
	await jest.advanceTimersByTimeAsync(0);
	return done;
}

describe('background requests and their share of the window (jest clock)', () => {
	beforeEach(() => {
		resetPacing();
		jest.useFakeTimers({ now: 1_800_000_000_000 });
		reset = String(Math.ceil((Date.now() + 30_000) / 1000));
	});
	afterEach(() => jest.useRealTimers());

	it('half of a window at most; one waiting for the next window holds no other request up, and goes at the reset', async () => {
		expect(BACKGROUND_SHARE).toBe(0.5);
		let remaining = LIMIT;
		answer(await acquire('k'), --remaining);
		let background = 0;
		for (;;) {
			const next = acquire('k', undefined, undefined, true);
			if (!(await settled(next))) {
				// Its share is used: the rest of the window is left to the others.
				expect(LIMIT - remaining).toBe(backgroundQuota(LIMIT));
				expect(background).toBe(backgroundQuota(LIMIT) - 1);
				const others = [acquire('k'), acquire('k')];
				expect(await settled(Promise.all(others))).toBe(true);
				for (const other of await Promise.all(others)) answer(other, --remaining);
				expect(await settled(next)).toBe(false);
				await jest.advanceTimersByTimeAsync(31_000);
				expect(await settled(next)).toBe(true);
				(await next).done();
				return;
			}
			background++;
			answer(await next, --remaining);
		}
	});

	it("with the user's cap: half of the cap a minute, and the other requests go meanwhile", async () => {
		const cap = 4;
		for (let i = 0; i < cap / 2; i++) (await acquire('k', cap, undefined, true)).done();
		const third = acquire('k', cap, undefined, true);
		expect(await settled(third)).toBe(false);
		const other = acquire('k', cap);
		expect(await settled(other)).toBe(true);
		(await other).done();
		await jest.advanceTimersByTimeAsync(61_000);
		expect(await settled(third)).toBe(true);
		(await third).done();
	});
	it('one whose share was used while it waited in the queue does not go: it waits for its share again', async () => {
		answer(await acquire('k'), LIMIT - 4);
		// 6 left: above the rest of the limit (5), so the background request may go; two others are ahead of it.
		const others = [acquire('k'), acquire('k')];
		const background = acquire('k', undefined, undefined, true);
		expect(await settled(Promise.all(others))).toBe(true);
		expect(await settled(background)).toBe(false);
		for (const other of await Promise.all(others)) other.done();
	});

	it("a window a 429's Retry-After overruled does not hold background requests either", async () => {
		answer(await acquire('k'), LIMIT - 1);
		const refused = await acquire('k');
		const late = await acquire('k');
		refused.refused({ 'Retry-After': '1', 'X-RateLimit-Limit': String(LIMIT), 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': reset }, 0);
		// A late answer of the same window: nothing left in it, as the server's Retry-After already overruled.
		answer(late, 0);
		const background = acquire('k', undefined, undefined, true);
		await jest.advanceTimersByTimeAsync(1000);
		expect(await settled(background)).toBe(true);
		(await background).done();
	});
	it('a share announced an hour away is not waited for beyond the longest wait: then it goes', async () => {
		(await acquire('k')).observe({ 'X-RateLimit-Limit': String(LIMIT), 'X-RateLimit-Remaining': '4', 'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + 3600) });
		const background = acquire('k', undefined, undefined, true);
		// Another request's answer meanwhile does not cut that wait short.
		await jest.advanceTimersByTimeAsync(30_000);
		answer(await acquire('k'), 3);
		await jest.advanceTimersByTimeAsync(MAX_PACING_WAIT_MS - 30_001);
		expect(await settled(background)).toBe(false);
		await jest.advanceTimersByTimeAsync(1);
		expect(await settled(background)).toBe(true);
		(await background).done();
	});

	it('after waiting for the cap, it waits again when the others used the minute meanwhile', async () => {
		const cap = 4;
		for (let i = 0; i < cap / 2; i++) (await acquire('k', cap, undefined, true)).done();
		const third = acquire('k', cap, undefined, true);
		await jest.advanceTimersByTimeAsync(30_000);
		for (let i = 0; i < cap / 2; i++) (await acquire('k', cap)).done();
		// At a minute its share's oldest requests have left it, but the two others sent at 30 s fill the share.
		await jest.advanceTimersByTimeAsync(30_000);
		expect(await settled(third)).toBe(false);
		await jest.advanceTimersByTimeAsync(30_000);
		expect(await settled(third)).toBe(true);
		(await third).done();
	});

	it('a share announced an hour away, with nothing else sent: it goes after the longest wait, not at the reset', async () => {
		(await acquire('k')).observe({ 'X-RateLimit-Limit': String(LIMIT), 'X-RateLimit-Remaining': '4', 'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + 3600) });
		const background = acquire('k', undefined, undefined, true);
		await jest.advanceTimersByTimeAsync(MAX_PACING_WAIT_MS - 1);
		expect(await settled(background)).toBe(false);
		await jest.advanceTimersByTimeAsync(1);
		expect(await settled(background)).toBe(true);
		(await background).done();
	});

	it('a share wait of exactly the longest wait is believed: at its end the share is asked again', async () => {
		// The window ends exactly MAX_PACING_WAIT_MS away (a reset in ms, plus the margin); 2 of 4 left: the share is used.
		(await acquire('k')).observe({ 'X-RateLimit-Limit': '4', 'X-RateLimit-Remaining': '2', 'X-RateLimit-Reset': String(Date.now() + MAX_PACING_WAIT_MS - 250) });
		const background = acquire('k', undefined, undefined, true);
		expect(await settled(background)).toBe(false);
		const others = [await acquire('k'), await acquire('k')];
		// At the reset the next window opens with the two others still on their way: the share is used in it too.
		await jest.advanceTimersByTimeAsync(MAX_PACING_WAIT_MS);
		expect(await settled(background)).toBe(false);
		for (const other of others) other.done();
	});
});
