/**
 * A lead backlog where Lofty pages leads only by scroll and its scrolls expire between polls (issue 36): the place
 * of a pass the budget cut must then be read down to from the top. Where n8n sets no poll budget (before 2.38:
 * its in-process scheduler abandons no poll, and a tick during a poll gets no turn), that pass is read to its end,
 * however long it takes: nothing is skipped, nothing is emitted twice. Where n8n sets a budget (2.38+), one poll
 * reads only so deep, and the leads below are skipped with a warning naming their times.
 * Time is jest's (Date only): each answer takes `ANSWER_MS`, polls start at the minute ticks.
 */
import { leadScrolls } from '../../sandbox/resources/lead';
import { DEFAULT_POLL_BUDGET_MS } from '../../nodes/LoftyPollingTrigger/LoftyPollingTrigger.node';
import { MIN, PollDriver, addLeads, later, useDateOnlyClock } from '../harness/pollDriver';
import { useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
useDateOnlyClock();

const ANSWER_MS = 1000;
/** 80 pages of 25: more than two polls' budgets of reading. */
const BACKLOG = 2000;

function setUp(budgetMs: number | undefined): PollDriver {
	sandbox().readings.set({ leadPaging: 'scrollOnly' });
	sandbox().setRateLimit({ perWindow: 1_000_000, windowMs: MIN });
	// A scroll lives 10 s after the answer that handed it out: through one poll.
	leadScrolls(sandbox().store).ttlMs = 10_000;
	return new PollDriver(sandbox, ANSWER_MS, { budgetMs, shared: {} });
}

/** Every scroll handed out so far expires: none lives until the next poll. */
function expireScrolls(): void {
	leadScrolls(sandbox().store).expireAll(Date.now());
}

describe('Lofty Polling Trigger, a lead backlog under scroll-only paging with scrolls expiring between polls', () => {
	it('n8n without a poll budget (1.x, 2.8; one static-data object): every backlog lead once, then the new ones, no warning', async () => {
		const driver = setUp(undefined);
		await driver.poll();
		const backlog = addLeads(sandbox(), BACKLOG, Date.now(), 1000, 'Backlog');
		later(BACKLOG * 1000 + MIN);
		await driver.pollUntil(() => driver.drainedAt(backlog) >= 0 || driver.warnings.length > 0, 6, expireScrolls);
		expect(leadScrolls(sandbox().store).refused).toBeGreaterThan(0);
		expect(driver.warnings).toEqual([]);
		expect(driver.emitted.length - new Set(driver.emitted).size).toBe(0);
		expect([...driver.emitted].sort()).toEqual([...backlog].sort());
		// The first poll of the backlog kept to the default budget; the one that read down from the top read on.
		expect(driver.polls[1].ms).toBeLessThanOrEqual(DEFAULT_POLL_BUDGET_MS);
		expect(Math.max(...driver.polls.map((p) => p.ms))).toBeLessThanOrEqual(5 * MIN);
		const after = addLeads(sandbox(), 3, Date.now() - 1000, 1, 'After');
		await driver.poll();
		expect(driver.polls.at(-1)!.emitted.sort()).toEqual([...after].sort());
		await driver.poll();
		expect(driver.polls.at(-1)!.emitted).toEqual([]);
		driver.figures(`scroll-only backlog of ${BACKLOG}, scrolls expiring, no n8n budget`, BACKLOG + 3);
	}, 240_000);
});
