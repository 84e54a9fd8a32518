/**
 * The Lofty Polling Trigger's backlog reader (backlogReader.ts) in an n8n that is done with a poll once it returned
 * (issue 44), and where Lofty's paging leaves no way down to a backlog's older leads.
 *
 * - n8n 2.41 gives a poll its expression isolate only while the poll runs: the reader, which reads on after the
 *   poll returned, sent its requests with the poll's context, whose API-key signing is an expression: every one
 *   failed before it was sent ("Could not reach Lofty" in n8n's log), and in a real n8n no lead below what one poll
 *   reads from the top was ever emitted. Its requests now go out signed, between the polls.
 * - Where every scroll expires before the rate limit allows the request that would read past the place, the next
 *   poll says so as a failed execution (how many, why, what to change), the place stays, the leads that come in
 *   meanwhile still arrive (from the top of the list, a page or two), and once Lofty allows it the rest comes, every
 *   lead once.
 *
 * Real clock: the sandbox's rate-limit windows last WINDOW_MS, its scrolls SCROLL_TTL_MS (far longer than a loaded
 * machine's stalls between two pages, far shorter than a wait for the next window); every wait is for a state.
 */
import { leadScrolls } from '../../sandbox/resources/lead';
import { readerLimits, readerState } from '../../nodes/LoftyPollingTrigger/backlogReader';
import { triggerKey } from '../../nodes/LoftyPollingTrigger/pollTurn';
import * as pacing from '../../nodes/Lofty/transport/pacing';
import { STEP_BUDGET_MS } from '../harness/budgets';
import { type PollHost, poll } from '../harness/poll';
import { addLeads } from '../harness/pollDriver';
import { useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
beforeEach(() => pacing.resetPacing());
const limits = { ...readerLimits };
afterEach(() => Object.assign(readerLimits, limits));
afterEach(() => jest.restoreAllMocks());

const key = triggerKey('poll-workflow', 'poll-node', 'Lofty Polling Trigger');
const params = { events: ['lead'], options: { lookBackMinutes: 15 } };
const PER_WINDOW = 6;
const WINDOW_MS = 2 * STEP_BUDGET_MS;
const SCROLL_TTL_MS = 2000;
const RETRY_MS = 2 * WINDOW_MS;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits (in steps of 50 ms, a reader may wait for a window) until `seen()` holds. */
async function waitFor(seen: () => boolean): Promise<void> {
	while (!seen()) await sleep(50);
}

/** Polls of one trigger, on the real clock: what each emitted, what the polls handed to n8n as failed executions. */
function polls(host: PollHost = {}) {
	const state = { stored: undefined as string | undefined, emitted: [] as string[], failures: [] as Array<{ message: string; description: string }>, warnings: [] as string[] };
	const fullHost: PollHost = {
		budgetMs: STEP_BUDGET_MS,
		onWarn: (m) => state.warnings.push(m),
		onFailedExecution: (e) => state.failures.push({ message: e.message, description: String((e as { description?: unknown }).description ?? '') }),
		...host,
	};
	return {
		state,
		host: fullHost,
		async next(): Promise<string[]> {
			const run = await poll(sandbox(), params, state.stored, 'trigger', fullHost);
			state.stored = run.stored;
			const ids = (run.items ?? []).map((i) => String(i.leadId));
			state.emitted.push(...ids);
			return ids;
		},
	};
}

/** Waits until the sandbox's rate-limit window of the last request is over: the next request opens a new one. */
async function freshWindow(): Promise<void> {
	const last = sandbox().requests.at(-1)?.time ?? 0;
	await sleep(Math.max(0, last + WINDOW_MS + 50 - Date.now()));
}

function expectOnce(emitted: string[], expected: string[]): void {
	expect(emitted.length - new Set(emitted).size).toBe(0);
	expect([...emitted].sort()).toEqual([...expected].sort());
}

describe('Lofty Polling Trigger, the backlog reader after n8n is done with the poll', () => {
	it.each([false, true])('reads on between the polls with its requests signed (n8n keeps expressions after the poll: %s)', async (expressionsAfterPoll) => {
		sandbox().readings.set({ leadPaging: 'scrollOnly' });
		leadScrolls(sandbox().store).ttlMs = SCROLL_TTL_MS;
		// Lofty answers in 100 ms: a poll of 600 ms reads a few pages from the top, the reader the rest.
		sandbox().setLatency({ fixedMs: 100 });
		const driver = polls({ budgetMs: 600, expressionsAfterPoll });
		await driver.next();
		const backlog = addLeads(sandbox(), 400, Date.now(), 1, 'Backlog');
		await sleep(500);
		const between: number[] = [];
		for (let i = 0; i < 12 && !backlog.every((id) => driver.state.emitted.includes(id)); i++) {
			// The scroll a poll saved is gone by the next: it reads down from the top and hands the rest to a reader.
			leadScrolls(sandbox().store).expireAll(Date.now());
			await driver.next();
			const after = sandbox().requests.length;
			await waitFor(() => readerState(key) !== 'reading');
			between.push(...sandbox().requests.slice(after).map((q) => q.status));
		}
		// Pages read after a poll returned: answered, so signed (on main none was sent: "Could not reach Lofty").
		expect(between.length).toBeGreaterThan(0);
		expect(between.filter((status) => status !== 200 && status !== 400)).toEqual([]);
		expect(driver.state.warnings).toEqual([]);
		expect(driver.state.failures).toEqual([]);
		expectOnce(driver.state.emitted, backlog);
	}, 120_000);
});

describe('Lofty Polling Trigger, a backlog no read can get down to (every scroll expires before the rate limit allows the next page)', () => {
	it('says so in a failed execution, keeps its place, still emits new leads, and emits the rest once Lofty allows it', async () => {
		sandbox().readings.set({ leadPaging: 'scrollOnly' });
		leadScrolls(sandbox().store).ttlMs = SCROLL_TTL_MS;
		sandbox().setRateLimit({ perWindow: PER_WINDOW, windowMs: WINDOW_MS });
		// The next try after the report comes after one poll that reads only the top (a window later).
		Object.assign(readerLimits, { retryMs: RETRY_MS });
		const driver = polls();
		await driver.next();
		// Ten pages: more than the 6 requests of a window can read in a row from the top.
		const backlog = addLeads(sandbox(), 250, Date.now(), 1, 'Backlog');
		await sleep(300);
		// Polls come once the reader waits for one (or there is none) and a window is new, as a minute apart in n8n.
		for (let i = 0; i < 12 && driver.state.failures.length === 0; i++) {
			await driver.next();
			await waitFor(() => readerState(key) !== 'reading');
			await freshWindow();
		}
		expect(driver.state.failures).toHaveLength(1);
		const [said] = driver.state.failures;
		const unread = backlog.filter((id) => !driver.state.emitted.includes(id));
		expect(unread.length).toBeGreaterThan(0);
		// How many, why, what to change.
		expect(said.message).toBe(`About ${unread.length} new leads were not emitted yet: the trigger cannot read down to them in Lofty's lead list`);
		expect(said.description).toMatch(/pages its lead list by scroll only, and each scroll expired before the rate limit allowed the next request: the trigger read at most [1-6] pages of 25 in a row/);
		expect(said.description).toMatch(/It keeps its place \(none of these leads is skipped\), new leads still arrive, and it tries again in (a minute|\d+ minutes)/);
		expect(said.description).toMatch(/raise the requests a minute Lofty allows this app/);
		expect(driver.state.warnings.join('\n')).toContain(said.message);
		const place = JSON.parse(driver.state.stored!).pollState.sources.lead.pass;

		// Meanwhile: new leads arrive from the top of the list; the place stays.
		const meanwhile = addLeads(sandbox(), 3, Date.now(), 1, 'Meanwhile');
		await freshWindow();
		const sent = sandbox().requests.length;
		expect((await driver.next()).sort()).toEqual([...meanwhile].sort());
		expect(sandbox().requests.length - sent).toBeLessThanOrEqual(2);
		expect(JSON.parse(driver.state.stored!).pollState.sources.lead.pass).toMatchObject({ at: place.at, top: place.top, floor: place.floor });

		// Lofty allows more: the next try reads down to the place and on, every lead once.
		sandbox().setRateLimit({ perWindow: 1000, windowMs: WINDOW_MS });
		pacing.resetPacing();
		await sleep(RETRY_MS);
		for (let i = 0; i < 6 && !backlog.every((id) => driver.state.emitted.includes(id)); i++) {
			await driver.next();
			await waitFor(() => readerState(key) !== 'reading');
		}
		expect(driver.state.failures).toHaveLength(1);
		expectOnce(driver.state.emitted, [...backlog, ...meanwhile]);
	}, 240_000);
});

/**
 * Why the scrolls expired decides what the trigger asks the user to change, and how soon it gives up: after waits
 * for the rate limit (three refusals), or without one (ten). The wait is what the refused request itself waited for
 * before it went out (the credential's pace, the reader's share, a 429's hold), not what the page before announced:
 * a 429 from Lofty (another client of the app used the window) holds a request the last answer said had room.
 */
describe('Lofty Polling Trigger, what a backlog no read can get down to is put down to', () => {
	/** Polls until one hands n8n a failed execution; what it said, and the place the trigger kept. */
	async function pollUntilFailed(driver: ReturnType<typeof polls>): Promise<{ message: string; description: string; place: { at: number; top: number } }> {
		for (let i = 0; i < 12 && driver.state.failures.length === 0; i++) {
			await driver.next();
			await waitFor(() => readerState(key) !== 'reading');
		}
		expect(driver.state.failures).toHaveLength(1);
		return { ...driver.state.failures[0], place: JSON.parse(driver.state.stored!).pollState.sources.lead.pass };
	}

	it("scrolls Lofty's 429s outlived (Retry-After 3 s, scrolls of 2 s, the page before announced room): the rate limit, after three", async () => {
		sandbox().readings.set({ leadPaging: 'scrollOnly' });
		leadScrolls(sandbox().store).ttlMs = SCROLL_TTL_MS;
		const driver = polls();
		await driver.next();
		// Each scroll Lofty hands out is first answered 429 with a wait longer than it lives.
		const held = new Set<string>();
		driver.host.beforeRequest = async (url) => {
			const scroll = new URL(url).searchParams.get('scrollId');
			if (scroll === null || held.has(scroll)) return;
			held.add(scroll);
			sandbox().faults.inject({ kind: '429', retryAfterSec: 3, match: { method: 'GET', path: '/v1.0/leads' } });
		};
		const from = Date.now();
		const backlog = addLeads(sandbox(), 250, from, 1, 'Backlog');
		await sleep(300);
		const said = await pollUntilFailed(driver);
		expect(said.description).toMatch(/each scroll expired before the rate limit allowed the next request/);
		expect(said.description).toMatch(/raise the requests a minute Lofty allows this app/);
		// Three after a wait, not the ten of scrolls that expire without one.
		expect(leadScrolls(sandbox().store).refused).toBeLessThan(10);
		const unread = backlog.filter((id) => !driver.state.emitted.includes(id));
		expect(said.message).toBe(`About ${unread.length} new leads were not emitted yet: the trigger cannot read down to them in Lofty's lead list`);
		// The place stays above every lead not emitted (created 1 ms apart from `from`, oldest first).
		expect(said.place.at).toBeGreaterThan(from + Math.max(...unread.map((id) => backlog.indexOf(id))));
		expectOnce(driver.state.emitted, backlog.filter((id) => !unread.includes(id)));
	}, 120_000);

	// A busy machine stalls the process between taking the rate limit's turn and sending (40 ms of blocked event loop
	// after every turn here): the stall is not a wait for the rate limit, and the advice stays the scroll's.
	it.each([0, 40])('scrolls that expire before the next page without any wait: the scroll, after ten (a stall of %i ms before each send)', async (stallMs) => {
		const acquire = pacing.acquire;
		jest.spyOn(pacing, 'acquire').mockImplementation(async (...args) => {
			const ticket = await acquire(...args);
			const until = Date.now() + stallMs;
			while (Date.now() < until);
			return ticket;
		});
		sandbox().readings.set({ leadPaging: 'scrollOnly' });
		// Room for every request: the reader's share of a window is never used up (no wait for the rate limit).
		sandbox().setRateLimit({ perWindow: 1000, windowMs: WINDOW_MS });
		leadScrolls(sandbox().store).ttlMs = 0;
		sandbox().setLatency({ fixedMs: 50 });
		const driver = polls();
		await driver.next();
		const backlog = addLeads(sandbox(), 100, Date.now(), 1, 'Backlog');
		await sleep(300);
		const said = await pollUntilFailed(driver);
		expect(said.description).toMatch(/each scroll expired before the next request, without a wait for the rate limit: the trigger read at most 1 page of 25 in a row/);
		expect(said.description).toMatch(/ask Lofty to keep a lead list's scroll longer/);
		const unread = backlog.filter((id) => !driver.state.emitted.includes(id));
		expect(unread).toHaveLength(75);
		expect(said.message).toBe(`About 75 new leads were not emitted yet: the trigger cannot read down to them in Lofty's lead list`);
		expectOnce(driver.state.emitted, backlog.filter((id) => !unread.includes(id)));
	}, 120_000);
});
