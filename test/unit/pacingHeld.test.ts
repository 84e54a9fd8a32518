/**
 * A ticket's `heldMs` (transport/pacing.ts): how long the pacer held the request for the rate limit, which the
 * Polling Trigger's backlog reader uses to tell a scroll that expired while the rate limit held the next page from
 * one that expired without a wait (test/node/pollingReaderUnreachable.test.ts). Its own pauses and those of the
 * requests ahead of it in the queue count; a pause counts at most as long as it was planned, and a stall of the
 * process outside the pacer's pauses does not count. On jest's clock: a stall is the clock jumping with no timer run.
 */
import { BACKGROUND_SHARE } from '../../nodes/Lofty/transport/backgroundShare';
import { PROBE_WAIT_MS, RESET_MARGIN_MS, acquire, resetPacing } from '../../nodes/Lofty/transport/pacing';

import { START, flush, pending, window } from '../resilience/pacingClock';

beforeEach(() => {
	resetPacing();
	jest.useFakeTimers({ now: START });
});
afterEach(() => jest.useRealTimers());

/** The clock jumps `ms` as when the process was not scheduled: no timer runs meanwhile, each still fires on time. */
const stall = (ms: number) => jest.setSystemTime(Date.now() + ms);

it('nothing to wait for: 0, however long the process stalls while it asks', async () => {
	const first = acquire('k');
	stall(5000);
	const ticket = await first;
	expect(ticket.heldMs).toBe(0);
	ticket.observe(window(50, 30));
	const next = acquire('k');
	stall(800);
	expect((await next).heldMs).toBe(0);
});

it('a window used up: the wait for its reset', async () => {
	(await acquire('k')).observe(window(0, 10));
	const next = pending();
	await flush(10_000 + RESET_MARGIN_MS - 1);
	expect(next.granted).toBe(false);
	await flush(1);
	expect(next.ticket?.heldMs).toBe(10_000 + RESET_MARGIN_MS);
});

it('a stall during a pause: at most the pause planned', async () => {
	(await acquire('k')).observe(window(0, 10));
	const next = pending();
	await flush(2000);
	stall(7000);
	await flush(10_000);
	expect(next.granted).toBe(true);
	expect(next.ticket?.heldMs).toBe(10_000 + RESET_MARGIN_MS);
});

it('a pause an answer ends early: the time it lasted', async () => {
	const probe = await acquire('k');
	const next = pending();
	await flush(300);
	expect(next.granted).toBe(false);
	probe.observe(window(20, 30));
	await flush();
	expect(next.granted).toBe(true);
	expect(next.ticket?.heldMs).toBe(300);
	expect(PROBE_WAIT_MS).toBeGreaterThan(300);
});

describe('requests behind one that pauses', () => {
	it('are held by its pause too, each for the time it waited', async () => {
		(await acquire('k')).observe(window(0, 10, 100));
		const head = pending();
		await flush(4000);
		const behind = pending();
		await flush(10_000);
		expect(head.ticket?.heldMs).toBe(10_000 + RESET_MARGIN_MS);
		// Queued 4 s after the head paused: 6.25 s of its pause held this one.
		expect(behind.ticket?.heldMs).toBe(6000 + RESET_MARGIN_MS);
	});

	it('a pause that ended before one came counts nothing for it', async () => {
		(await acquire('k')).observe(window(0, 10));
		const head = pending();
		await flush(11_000);
		expect(head.ticket?.heldMs).toBe(10_000 + RESET_MARGIN_MS);
		head.ticket?.observe(window(20, 70));
		const later = acquire('k');
		stall(500);
		expect((await later).heldMs).toBe(0);
	});
});

it('a background request: the wait for its share of the window', async () => {
	const limit = 10;
	(await acquire('k')).observe(window(limit - 1, 20, limit));
	for (let i = 1; i < limit * BACKGROUND_SHARE; i++) {
		const ticket = await acquire('k', undefined, undefined, true);
		expect(ticket.heldMs).toBe(0);
		ticket.observe(window(limit - 1 - i, 20, limit));
	}
	// Its share of this window is used: it waits for the next (the others could still go now).
	let ticket: Awaited<ReturnType<typeof acquire>> | undefined;
	void acquire('k', undefined, undefined, true).then((t) => (ticket = t));
	await flush(20_000 + RESET_MARGIN_MS + 1000);
	expect(ticket).toBeDefined();
	expect(ticket!.heldMs).toBeGreaterThanOrEqual(20_000);
	expect(ticket!.heldMs).toBeLessThanOrEqual(20_000 + RESET_MARGIN_MS + 1000);
});

it('a background request whose wait for its share an answer ends early: the time it lasted', async () => {
	const limit = 10;
	(await acquire('k')).observe(window(limit - 1, 20, limit));
	for (let i = 1; i < limit * BACKGROUND_SHARE; i++) (await acquire('k', undefined, undefined, true)).observe(window(limit - 1 - i, 20, limit));
	const other = await acquire('k');
	let ticket: Awaited<ReturnType<typeof acquire>> | undefined;
	void acquire('k', undefined, undefined, true).then((t) => (ticket = t));
	await flush(300);
	expect(ticket).toBeUndefined();
	// The server had counted fewer: the share has room again.
	other.observe(window(limit - 3, 20, limit));
	await flush();
	expect(ticket?.heldMs).toBe(300);
});

it('a background request that gave its turn up (the share was used while it queued): both of its waits', async () => {
	const limit = 10;
	// A cap of 1 a minute for the others: the next of them waits a minute at the head of the queue.
	(await acquire('k', 1)).observe(window(6, 90, limit));
	const capped = { granted: false };
	void acquire('k', 1).then(() => (capped.granted = true));
	let ticket: Awaited<ReturnType<typeof acquire>> | undefined;
	void acquire('k', undefined, undefined, true).then((t) => (ticket = t));
	await flush(60_000);
	// The capped one went and used the room the background one queued for: it waits for the next window.
	expect(capped.granted).toBe(true);
	expect(ticket).toBeUndefined();
	await flush(31_000);
	expect(ticket).toBeDefined();
	expect(ticket!.heldMs).toBeGreaterThanOrEqual(90_000);
});
