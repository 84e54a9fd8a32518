/**
 * The Lofty Polling Trigger's lead reading cannot stall (issue 27), under both lead-paging readings, as n8n 2.41.1
 * with its durable poll scheduler runs it (a poll that emits nothing keeps nothing: `keepsOnlyEmitting`), with
 * Lofty's 100 requests a minute and the 36 s poll budget:
 *
 * - an import larger than several budgets, all within Look Back, with leads arriving during and after it;
 * - scroll IDs that expire between polls (where Lofty pages only by scroll, a reader in the process reads on);
 * - leads deleted between polls (the list shifts under the saved place).
 *
 * Each answer takes long enough that one poll reads about 1,800 leads (18 pages of 100, or 72 of 25).
 */
import { readerBusy } from '../../nodes/LoftyPollingTrigger/backlogReader';
import { READING_VALUES } from '../../sandbox';
import { leadScrolls } from '../../sandbox/resources/lead';
import { BUDGET_MS, MIN, PollDriver, addLeads, later, useDateOnlyClock } from '../harness/pollDriver';
import { until } from '../harness/gates';
import { useSandbox } from '../harness/sandbox';
import { VERY_LONG_TEST_MS } from '../harness/budgets';

const sandbox = useSandbox();
useDateOnlyClock();

const BACKLOG = 6000;
const ANSWER_MS: Record<string, number> = { spec: 2000, scrollOnly: 500 };

function setUp(reading: string): PollDriver {
	sandbox().readings.set({ leadPaging: reading as never });
	sandbox().setRateLimit({ perWindow: 100, windowMs: MIN });
	return new PollDriver(sandbox, ANSWER_MS[reading], { keepsOnlyEmitting: true });
}

function expectOnce(emitted: string[], expected: string[]): void {
	expect(emitted.length - new Set(emitted).size).toBe(0);
	expect([...emitted].sort()).toEqual([...expected].sort());
}

function expectWithinBudget(driver: PollDriver): void {
	for (const p of driver.polls) expect(p.ms).toBeLessThanOrEqual(BUDGET_MS);
	expect(sandbox().requests.filter((r) => r.status === 429)).toEqual([]);
}

describe.each(READING_VALUES.leadPaging)('Lofty Polling Trigger, leads (leadPaging %s, n8n 2.41: a poll that emits nothing keeps nothing)', (reading) => {
	it('an import of 6,000 leads in one minute (several budgets, all within Look Back), leads arriving during and after it: each once, those after it at the next poll', async () => {
		const driver = setUp(reading);
		await driver.poll();
		expect(driver.emitted).toEqual([]);
		// Leads emitted just before the import, within Look Back of it: a re-check must not emit them again.
		const before = addLeads(sandbox(), 3, Date.now() - 1000, 1, 'Before');
		await driver.poll();
		const backlog = addLeads(sandbox(), BACKLOG, Date.now(), 10, 'Import');
		later(2 * MIN);
		const during: string[] = [];
		await driver.pollUntil(() => driver.drainedAt([...backlog, ...during]) >= 0, 12, (i) => {
			if (i < 2) during.push(...addLeads(sandbox(), 2, Date.now() - 1000, 1, `During ${i}`));
		});
		const drained = driver.polls.length;
		expect(driver.drainedAt([...backlog, ...during])).toBeGreaterThan(1);
		const after = addLeads(sandbox(), 3, Date.now() - 1000, 1, 'After');
		await driver.poll();
		expect(driver.polls.at(-1)!.emitted.sort()).toEqual([...after].sort());
		// and nothing more: a quiet poll emits nothing
		await driver.poll();
		await driver.poll();
		expectOnce(driver.emitted, [...before, ...backlog, ...during, ...after]);
		expectWithinBudget(driver);
		driver.figures(`import of ${BACKLOG} (${reading}), drained in ${drained - 2} polls`, BACKLOG + during.length + after.length);
	}, VERY_LONG_TEST_MS);

	it('scroll IDs that expire between polls: the place is found again by offset, or by reading from the top; no poll fails, nothing twice', async () => {
		const driver = setUp(reading);
		// A scroll lives 10 s after its last use: through one poll, not until the next.
		leadScrolls(sandbox().store).ttlMs = 10_000;
		// The reader reads on between polls, where this test's clock stands still (it moves with answers only): a wait
		// for the rate limit's next window would never end. pollingScrollBacklog.test.ts tests the reader.
		if (reading === 'scrollOnly') sandbox().setRateLimit({ perWindow: 1_000_000, windowMs: MIN });
		await driver.poll();
		const backlog = addLeads(sandbox(), BACKLOG, Date.now(), 1000, 'Backlog');
		later(BACKLOG * 1000 + MIN);
		const during: string[] = [];
		await driver.pollUntil(() => driver.drainedAt([...backlog, ...during]) >= 0 || driver.warnings.length > 0, 12, async (i) => {
			if (i < 2) during.push(...addLeads(sandbox(), 2, Date.now() - 1000, 1, `During ${i}`));
			// A backlog reader (scrollOnly) reads on between polls: until it is done or waits for a poll.
			await until(() => !readerBusy());
		});
		const after = addLeads(sandbox(), 3, Date.now() - 1000, 1, 'After');
		await driver.pollUntil(() => after.every((id) => driver.emitted.includes(id)), 6, () => until(() => !readerBusy()));
		expect(leadScrolls(sandbox().store).refused).toBeGreaterThan(0);
		expect(driver.emitted.length - new Set(driver.emitted).size).toBe(0);
		for (const id of after) expect(driver.emitted).toContain(id);
		expectWithinBudget(driver);
		// Lofty pages by offset too (spec): the saved place is found again. Only by scroll: a poll reads down to it from
		// the top, and a reader in the process reads on past the poll (backlogReader.ts). Either way every lead once.
		expectOnce(driver.emitted, [...backlog, ...during, ...after]);
		expect(driver.warnings).toEqual([]);
		driver.figures(`scrolls expiring (${reading}), ${backlog.filter((id) => !driver.emitted.includes(id)).length} of ${BACKLOG} backlog leads skipped`, driver.emitted.length);
	}, VERY_LONG_TEST_MS);

	// Expiring scrolls where Lofty pages only by scroll: pollingScrollBacklog.test.ts.
	describe.each(reading === 'spec' ? [false, true] : [false])('with scroll IDs expiring between polls: %s', (expiring) => {
		it('leads deleted between polls, above and below the saved place: every lead still there is emitted once', async () => {
			const driver = setUp(reading);
			if (expiring) leadScrolls(sandbox().store).ttlMs = 10_000;
			await driver.poll();
			const backlog = addLeads(sandbox(), BACKLOG, Date.now(), 1000, 'Backlog');
			later(BACKLOG * 1000 + MIN);
			const deleted = new Set<string>();
			const remove = (ids: string[]) => {
				for (const id of ids) {
					sandbox().store.getLead(id)!.deletedAt = Date.now();
					deleted.add(id);
				}
			};
			await driver.pollUntil(() => driver.drainedAt(backlog.filter((id) => !deleted.has(id))) >= 0, 12, () => {
				const read = new Set(driver.emitted);
				// 40 leads already emitted (above the place) and 10 not read yet (below it) go.
				remove(backlog.filter((id) => read.has(id) && !deleted.has(id)).slice(0, 40));
				remove(backlog.filter((id) => !read.has(id) && !deleted.has(id)).slice(-10));
			});
			const emitted = driver.emitted;
			expect(emitted.length - new Set(emitted).size).toBe(0);
			const expected = backlog.filter((id) => !deleted.has(id) || emitted.includes(id));
			expectOnce(emitted, expected);
			expectWithinBudget(driver);
		}, VERY_LONG_TEST_MS);
	});
});
