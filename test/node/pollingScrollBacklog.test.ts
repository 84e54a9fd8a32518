/**
 * A lead backlog where Lofty pages leads only by scroll and its scrolls expire between polls (issue 36): the place
 * of a pass the budget cut must then be read down to from the top. Where n8n sets no poll budget (before 2.38:
 * its in-process scheduler abandons no poll, and a tick during a poll gets no turn), that pass is read to its end,
 * however long it takes: nothing is skipped, nothing is emitted twice. Where n8n sets a budget (2.38+), one poll
 * reads only so deep from the top: the pass is read on past the poll by a reader in the process
 * (backlogReader.ts), and the next polls emit what it read, every lead once, none skipped, also across a restart.
 * Time is jest's (Date only): each answer takes `ANSWER_MS`, polls start at the minute ticks; the budgets are on
 * that clock. Between polls the test waits for the reader to be done or to wait for a poll (a state, not a time).
 */
import { leadScrolls } from '../../sandbox/resources/lead';
import { backlogReaderCounts, notePoll, readerBusy, readerLimits, readerState } from '../../nodes/LoftyPollingTrigger/backlogReader';
import { triggerKey } from '../../nodes/LoftyPollingTrigger/pollTurn';
import { DEFAULT_POLL_BUDGET_MS } from '../../nodes/LoftyPollingTrigger/LoftyPollingTrigger.node';
import { gate, until } from '../harness/gates';
import { MIN, PollDriver, addLeads, later, useDateOnlyClock } from '../harness/pollDriver';
import { forgetProcessMemory } from '../harness/processMemory';
import { useSandbox } from '../harness/sandbox';
import { VERY_LONG_TEST_MS } from '../harness/budgets';

const sandbox = useSandbox();
useDateOnlyClock();

const ANSWER_MS = 1000;
/** 80 pages of 25: more than two polls' budgets of reading. */
const BACKLOG = 2000;

function setUp(budgetMs: number | undefined, keepsOnlyEmitting = false): PollDriver {
	sandbox().readings.set({ leadPaging: 'scrollOnly' });
	sandbox().setRateLimit({ perWindow: 1_000_000, windowMs: MIN });
	// A scroll lives 10 s after the answer that handed it out: through one poll.
	leadScrolls(sandbox().store).ttlMs = 10_000;
	return new PollDriver(sandbox, ANSWER_MS, budgetMs === undefined ? { budgetMs, shared: {} } : { budgetMs, keepsOnlyEmitting });
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
	}, VERY_LONG_TEST_MS);
});

/**
 * Budgets on the test's clock, and backlogs of pages of 25: one and a half answers (a poll reads 2 pages) and 120
 * leads (the version before the reader never got past the place again and emitted none of the 70 leads below it);
 * three and a half answers (4 pages) and 170 leads (it skipped those 70 with a warning).
 */
const SMALL = 120;
const SMALL_BUDGET_MS = 1500;

/** Between polls: every scroll handed out so far expires, then the test waits until no reader is reading. */
async function betweenPolls(): Promise<void> {
	expireScrolls();
	await until(() => !readerBusy());
}

/** The first poll (the baseline), then `size` leads a second apart, the newest a minute before the next poll. */
async function backlogAfterBaseline(driver: PollDriver, size: number): Promise<string[]> {
	await driver.poll();
	const backlog = addLeads(sandbox(), size, Date.now(), 1000, 'Backlog');
	later(size * 1000 + MIN);
	return backlog;
}

function expectOnce(emitted: string[], expected: string[]): void {
	expect(emitted.length - new Set(emitted).size).toBe(0);
	expect([...emitted].sort()).toEqual([...expected].sort());
}

describe.each([
	[SMALL_BUDGET_MS, SMALL, false],
	[SMALL_BUDGET_MS, SMALL, true],
	[3500, 170, false],
])('... with a poll budget of %i ms, a backlog of %i (n8n 2.38+; a poll that emits nothing keeps nothing: %s)', (budgetMs, size, keepsOnlyEmitting) => {
	it('every backlog lead once over the next polls, none skipped, then the leads created meanwhile and after', async () => {
		const driver = setUp(budgetMs, keepsOnlyEmitting);
		const backlog = await backlogAfterBaseline(driver, size);
		const during: string[] = [];
		await driver.pollUntil(() => driver.drainedAt([...backlog, ...during]) >= 0, 10, async (i) => {
			if (i < 2) during.push(...addLeads(sandbox(), 2, Date.now() - 1000, 1, `During ${i}`));
			await betweenPolls();
		});
		const skipped = backlog.filter((id) => !driver.emitted.includes(id));
		if (process.env.LOFTY_FIGURES) process.stdout.write(`[figures] budgeted scroll-only backlog: ${skipped.length} of ${size} not emitted, ${driver.warnings.length} warnings; polls ${JSON.stringify(driver.polls.map((p) => [p.emitted.length, p.ms, p.requests]))}\n`);
		expect(driver.warnings).toEqual([]);
		expect(skipped).toEqual([]);
		const after = addLeads(sandbox(), 3, Date.now() - 1000, 1, 'After');
		await driver.pollUntil(() => after.every((id) => driver.emitted.includes(id)), 3, betweenPolls);
		expectOnce(driver.emitted, [...backlog, ...during, ...after]);
		expect(leadScrolls(sandbox().store).refused).toBeGreaterThan(0);
		// A poll reads within its budget (the request it started before the deadline ends after it).
		for (const p of driver.polls) expect(p.ms).toBeLessThanOrEqual(budgetMs + ANSWER_MS);
	}, VERY_LONG_TEST_MS);

});

/**
 * Holds a backlog reader's request: `during(n, act)` lets `n` more requests through, holds the next until `act` has
 * run (and the reader it came from is gone), then lets it be answered; whether a request was held.
 */
function holdReader(driver: PollDriver) {
	const hold = { after: -1, gate: gate(), waiting: false, answers: 0 };
	const afterAnswer = driver.host.afterAnswer!;
	driver.host.afterAnswer = () => {
		hold.answers++;
		afterAnswer();
	};
	driver.host.beforeRequest = async () => {
		if (hold.after < 0 || hold.after-- > 0) return;
		hold.waiting = true;
		await hold.gate.promise;
	};
	return {
		async during(n: number, act: () => void | Promise<void>): Promise<boolean> {
			hold.after = n;
			await until(() => hold.waiting || !readerBusy());
			await act();
			hold.after = -1;
			const held = hold.waiting;
			// The stopped reader's request is answered before the next poll (a new process would not have sent it).
			const answered = hold.answers;
			hold.gate.open();
			if (held) await until(() => hold.answers > answered);
			return held;
		},
	};
}

describe.each([false, true])('... with a poll budget, restarted (a poll that emits nothing keeps nothing: %s)', (keepsOnlyEmitting) => {
	it('a restart while the reader holds leads no poll took: the saved place stands, every lead once', async () => {
		const driver = setUp(SMALL_BUDGET_MS, keepsOnlyEmitting);
		const hold = holdReader(driver);
		const backlog = await backlogAfterBaseline(driver, SMALL);
		let restarted = false;
		await driver.pollUntil(() => driver.drainedAt(backlog) >= 0, 10, async () => {
			expireScrolls();
			if (!restarted && readerBusy()) {
				// The reader reads on after the poll: two more pages, and its third request waits while the process restarts.
				restarted = await hold.during(2, forgetProcessMemory);
			}
			await until(() => !readerBusy());
		});
		if (process.env.LOFTY_FIGURES) process.stdout.write(`[figures] restart: ${JSON.stringify(driver.polls.map((p) => [p.emitted.length, p.ms, p.requests]))}\n`);
		expect(restarted).toBe(true);
		expect(driver.warnings).toEqual([]);
		expectOnce(driver.emitted, backlog);
	}, VERY_LONG_TEST_MS);
});

describe('... the backlog reader\'s bounds', () => {
	const limits = { ...readerLimits };
	afterEach(() => Object.assign(readerLimits, limits));
	const key = triggerKey('poll-workflow', 'poll-node', 'Lofty Polling Trigger');

	it('it keeps the last poll time of the triggers polled most recently, at most its bound', () => {
		const keys = Array.from({ length: readerLimits.maxPolled + 100 }, (_, i) => triggerKey(`workflow ${i}`, 'node', 'Lofty Polling Trigger'));
		for (const k of keys) expect(notePoll(k)).toBeUndefined();
		expect(backlogReaderCounts().polled).toBe(readerLimits.maxPolled);
		// Polled again, a trigger is the most recent: the least recently polled one is forgotten, not it.
		later(1000);
		expect(notePoll(keys[150])).toBe(1000);
		expect(notePoll(keys[0])).toBeUndefined();
		expect(notePoll(keys[150])).toBe(0);
		expect(notePoll(keys[100])).toBeUndefined();
		expect(backlogReaderCounts().polled).toBe(readerLimits.maxPolled);
	});

	it('it holds at most its bound of leads; each poll takes them and it reads on (from the top when its scroll expired)', async () => {
		readerLimits.maxGathered = 30;
		const driver = setUp(SMALL_BUDGET_MS);
		const backlog = await backlogAfterBaseline(driver, SMALL);
		const held: Array<string | undefined> = [];
		await driver.pollUntil(() => driver.drainedAt(backlog) >= 0, 12, async () => {
			await betweenPolls();
			held.push(readerState(key));
		});
		expect(held).toContain('full');
		expect(driver.warnings).toEqual([]);
		expectOnce(driver.emitted, backlog);
		// Later polls emit what the reader held: its bound, and the page it had in hand when it got there.
		for (const p of driver.polls.slice(3)) expect(p.emitted.length).toBeLessThanOrEqual(30 + 25);
		if (process.env.LOFTY_FIGURES) process.stdout.write(`[figures] bound 30: ${JSON.stringify(driver.polls.map((p) => p.emitted.length))} ${JSON.stringify(held)}\n`);
	}, VERY_LONG_TEST_MS);

	it('a reader no poll comes to stops and forgets what it holds; the next polls start from the saved place again', async () => {
		// Long enough (real time) for the test to see the reader after the poll, also on a loaded machine.
		readerLimits.idleMs = 2000;
		readerLimits.pollGaps = 0;
		const driver = setUp(SMALL_BUDGET_MS);
		const hold = holdReader(driver);
		const backlog = await backlogAfterBaseline(driver, SMALL);
		let stopped = 0;
		await driver.pollUntil(() => driver.drainedAt(backlog) >= 0, 12, async () => {
			if (stopped === 0 && readerBusy()) {
				// Its next page waits; nobody polls for a while (a deactivated workflow): the reader stops.
				await hold.during(0, () => until(() => readerState(key) === undefined));
				stopped = driver.polls.length;
				readerLimits.idleMs = limits.idleMs;
			}
			await betweenPolls();
		});
		expect(stopped).toBeGreaterThan(0);
		expect(driver.polls.length).toBeGreaterThan(stopped + 1);
		expect(driver.warnings).toEqual([]);
		expectOnce(driver.emitted, backlog);
	}, VERY_LONG_TEST_MS);

	it("a reader whose requests fail stops; the next poll says so in n8n's log, and the polls after it read on from the saved place", async () => {
		const driver = setUp(SMALL_BUDGET_MS);
		const backlog = await backlogAfterBaseline(driver, SMALL);
		let failed = false;
		await driver.pollUntil(() => driver.drainedAt(backlog) >= 0, 12, async () => {
			if (!failed && readerBusy()) {
				sandbox().faults.inject({ kind: '500', times: 20, match: { method: 'GET', path: '/v1.0/leads' } });
				failed = true;
			}
			await betweenPolls();
			if (failed) sandbox().faults.clear();
		});
		expect(failed).toBe(true);
		expect(driver.warnings).toHaveLength(1);
		expect(driver.warnings[0]).toMatch(/reading the lead backlog on stopped/);
		expectOnce(driver.emitted, backlog);
	}, VERY_LONG_TEST_MS);
});
