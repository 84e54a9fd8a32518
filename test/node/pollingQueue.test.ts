/**
 * The deadline covers the pacer's queue (issue 27): a request queued behind another execution that waits for the
 * rate-limit window does not wait for that window when it would end past the request's deadline. First the pacer
 * alone on jest's clock, then a poll of the Lofty Polling Trigger (its team-ID lookup and its lead read) behind a bulk
 * run of the same credential, against the sandbox.
 */
import { acquire, isPacingDeadline, pacingKey, resetPacing } from '../../nodes/Lofty/transport/pacing';
import { READING_VALUES } from '../../sandbox';
import { poll } from '../harness/poll';
import { useSandbox } from '../harness/sandbox';
import { LONG_TEST_MS, STEP_BUDGET_MS } from '../harness/budgets';
import { BUDGET_MS } from '../harness/pollDriver';

/** Another execution used up the window: Lofty said 0 remaining, the reset `inMs` away. */
async function usedUp(key: string, inMs: number): Promise<void> {
	const other = await acquire(key);
	other.observe({ 'X-RateLimit-Limit': '100', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(Math.ceil((Date.now() + inMs) / 1000)) });
}

describe('the pacer\'s queue and a deadline (jest clock)', () => {
	beforeEach(() => {
		resetPacing();
		jest.useFakeTimers({ now: 1_800_000_000_000 });
	});
	afterEach(() => jest.useRealTimers());

	it('behind a request waiting for a window that ends after the deadline: fails at once, and the queue keeps its order', async () => {
		await usedUp('k', 30_000);
		const order: string[] = [];
		const bulk = acquire('k').then((t) => (order.push('bulk'), t.done()));
		let late: unknown = 'waiting';
		void acquire('k', undefined, Date.now() + 2000).then(
			(t) => ((late = 'granted'), t.done()),
			(e: unknown) => (late = e),
		);
		await jest.advanceTimersByTimeAsync(1);
		expect(isPacingDeadline(late)).toBe(true);
		const after = acquire('k').then((t) => (order.push('after'), t.done()));
		await jest.advanceTimersByTimeAsync(31_000);
		await Promise.all([bulk, after]);
		expect(order).toEqual(['bulk', 'after']);
	});

	it('behind a request whose wait cannot be told in advance: gives up when the deadline comes, not later', async () => {
		// The window is unknown and its probe is still on its way: the next request waits for its answer.
		const probe = await acquire('k');
		const queued = acquire('k').then((t) => t.done());
		let failedAt = 0;
		const start = Date.now();
		const late = acquire('k', undefined, start + 500).catch((e: unknown) => ((failedAt = Date.now()), e));
		await jest.advanceTimersByTimeAsync(600);
		expect(isPacingDeadline(await late)).toBe(true);
		expect(failedAt - start).toBeLessThanOrEqual(500);
		probe.done();
		await jest.advanceTimersByTimeAsync(2000);
		await queued;
	});

	it('with nothing queued ahead, a request with a deadline goes at once', async () => {
		const ticket = await acquire('k', undefined, Date.now() + 100);
		ticket.done();
	});
});

const sandbox = useSandbox();

/** The budget of the polls that must not wait: they decide at once, so it need not cover any request. */
const REFUSED_POLL_BUDGET_MS = 1000;
/** The window ends a step's budget after that poll's budget would: a loaded machine's delays never reach it. */
const WINDOW_MS = REFUSED_POLL_BUDGET_MS + STEP_BUDGET_MS;

describe.each(READING_VALUES.leadPaging)('a poll behind a bulk run of the same credential waiting for the rate-limit window (leadPaging %s)', (reading) => {
	beforeEach(() => resetPacing());

	it('does not wait for the window (1 s budget, the window 5 s away): nothing sent, nothing remembered, the bulk run goes first', async () => {
		sandbox().readings.set({ leadPaging: reading });
		sandbox().setRateLimit({ perWindow: 1_000_000, windowMs: 60_000 });
		const params = { events: ['lead', 'call'] };
		const host = { budgetMs: REFUSED_POLL_BUDGET_MS };
		const key = pacingKey('loftyApi', sandbox().url, sandbox().apiKey);
		let granted = 0;
		const bulkRequest = () =>
			acquire(key).then((t) => {
				granted++;
				t.done();
			});

		// The activation's poll (its team-ID lookup comes first) behind the queue.
		await usedUp(key, WINDOW_MS);
		let bulk = bulkRequest();
		const sent = sandbox().requests.length;
		const first = await poll(sandbox(), params, undefined, 'trigger', host);
		expect(granted).toBe(0);
		expect(first.items).toBeNull();
		expect(sandbox().requests.length).toBe(sent);
		expect(JSON.parse(first.stored).pollState).toBeUndefined();
		await bulk;

		// A later poll: its lead read and call read behind the queue.
		// (it reads, within n8n's budget)
		const baseline = await poll(sandbox(), params, undefined, 'trigger', { budgetMs: BUDGET_MS });
		expect(JSON.parse(baseline.stored).pollState.teamId).toBeDefined();
		await usedUp(key, WINDOW_MS);
		bulk = bulkRequest();
		const before = sandbox().requests.length;
		const later = await poll(sandbox(), params, baseline.stored, 'trigger', host);
		expect(granted).toBe(1);
		expect(later.items).toBeNull();
		expect(sandbox().requests.length).toBe(before);
		await bulk;
	}, LONG_TEST_MS);
});
