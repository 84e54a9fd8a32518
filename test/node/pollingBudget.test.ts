/**
 * The Lofty Polling Trigger under n8n's poll budget (n8n 2.38+: getPollBudgetMs, about 36 s of a 45 s poll
 * timeout): a backlog of 5,000 new leads at Lofty's 100 requests a minute is emitted over successive polls, every
 * lead once, none twice, each poll within its budget. Time is the test's: jest's clock (Date only, both n8n's and
 * the sandbox's) moves by one Lofty round trip per answer and by the poll interval between polls; nothing sleeps.
 */
import { READING_VALUES, SEED_IDS } from '../../sandbox';
import { poll } from '../harness/poll';
import { useSandbox } from '../harness/sandbox';
import { VERY_LONG_TEST_MS } from '../harness/budgets';

const sandbox = useSandbox();
const MIN = 60_000;
const BUDGET_MS = 36_000;
const BACKLOG = 5000;
const ALL_BUT_DATE = ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] as const;

beforeEach(() => jest.useFakeTimers({ doNotFake: [...ALL_BUT_DATE], now: Date.UTC(2026, 0, 5, 9) }));
afterEach(() => jest.useRealTimers());

const later = (ms: number) => jest.setSystemTime(Date.now() + ms);

/** `count` leads of the demo user created one second apart from `from` on (Lofty's clock), their IDs oldest first. */
function leads(count: number, from: number, name: string): string[] {
	const ids: string[] = [];
	for (let i = 0; i < count; i++) {
		const lead = sandbox().store.addLead({ firstName: `${name} ${i}`, ownerUserId: BigInt(SEED_IDS.demoUserId), teamId: BigInt(SEED_IDS.teamId), createTime: from + i * 1000 });
		ids.push(lead.leadId.toString());
	}
	return ids;
}

describe.each([
	// 100 leads a page: Lofty answering in 1 s, the budget ends each poll (36 pages).
	['spec', 1000],
	// 25 leads a page: answering in 250 ms, the 100 requests of Lofty's minute end each poll (the wait for the next
	// minute would pass the budget, so it is not started).
	['scrollOnly', 250],
] as const)('a backlog of 5,000 new leads at 100 requests a minute, 36 s budget (leadPaging %s, %i ms an answer)', (reading, answerMs) => {
	it('every lead is emitted once over successive polls, none twice, each poll within its budget, new leads too', async () => {
		expect(READING_VALUES.leadPaging).toContain(reading);
		sandbox().readings.set({ leadPaging: reading });
		sandbox().setRateLimit({ perWindow: 100, windowMs: MIN });
		// getPollBudgetMs comes with the durable scheduler, which keeps nothing of a poll that emits nothing.
		const host = { budgetMs: BUDGET_MS, afterAnswer: () => later(answerMs), keepsOnlyEmitting: true };
		const params = { events: ['lead'], options: { lookBackMinutes: 15 } };

		let run = await poll(sandbox(), params, undefined, 'trigger', host);
		expect(run.items).toBeNull();
		// n8n was off for a day and a half: 5,000 leads came in meanwhile.
		later(MIN);
		const backlog = leads(BACKLOG, Date.now(), 'Backlog');
		later(BACKLOG * 1000 + MIN);

		const emitted: string[] = [];
		const durations: number[] = [];
		const requests: number[] = [];
		let arriving: string[] = [];
		for (let polls = 0; polls < 60 && emitted.length < BACKLOG + arriving.length; polls++) {
			const start = Date.now();
			const sent = sandbox().requests.length;
			run = await poll(sandbox(), params, run.stored, 'trigger', host);
			durations.push(Date.now() - start);
			requests.push(sandbox().requests.length - sent);
			emitted.push(...(run.items ?? []).map((i) => String(i.leadId)));
			// Leads keep coming while the backlog is read.
			if (polls === 1) arriving = leads(3, Date.now(), 'Arriving');
			// The next poll, a minute after this one began.
			jest.setSystemTime(start + MIN + 1000);
		}

		expect(durations.length).toBeGreaterThan(1);
		expect(new Set(emitted).size).toBe(emitted.length);
		expect([...emitted].sort()).toEqual([...backlog, ...arriving].sort());
		for (const ms of durations) expect(ms).toBeLessThanOrEqual(BUDGET_MS);
		for (const n of requests) expect(n).toBeLessThanOrEqual(100);
		expect(sandbox().requests.filter((r) => r.status === 429)).toEqual([]);
		// nothing left over: one more poll finds nothing
		expect((await poll(sandbox(), params, run.stored, 'trigger', host)).items).toBeNull();
	}, VERY_LONG_TEST_MS);
});
