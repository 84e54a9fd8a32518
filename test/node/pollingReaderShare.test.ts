/**
 * The Lofty Polling Trigger's backlog reader keeps to its share of the credential's rate-limit window
 * (transport/backgroundShare.ts): while it reads a deep scroll-only lead backlog, a Lead > Get run of the same
 * credential is answered in the window where it starts, and the reader sends at most its share in every window.
 * Real clock, the sandbox's fixed windows (a window opens with the first request after the last one ended); every
 * wait is for a state (a request logged, a run ended), the windows are far longer than a loaded machine's stalls.
 */
import type { RequestLogEntry } from '../../sandbox/core/server';
import { leadScrolls } from '../../sandbox/resources/lead';
import { readerState } from '../../nodes/LoftyPollingTrigger/backlogReader';
import { triggerKey } from '../../nodes/LoftyPollingTrigger/pollTurn';
import { backgroundQuota } from '../../nodes/Lofty/transport/backgroundShare';
import * as pacing from '../../nodes/Lofty/transport/pacing';
import { STEP_BUDGET_MS, VERY_LONG_TEST_MS } from '../harness/budgets';
import { until } from '../harness/gates';
import { poll } from '../harness/poll';
import { addLeads } from '../harness/pollDriver';
import { byId, run, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
beforeEach(() => pacing.resetPacing());

/** Requests of the credential waiting for the pacer (for their turn, the window, or their share). */
let pacerWaits = 0;
beforeEach(() => {
	const acquire = pacing.acquire;
	jest.spyOn(pacing, 'acquire').mockImplementation(async (...args) => {
		pacerWaits++;
		try {
			return await acquire(...args);
		} finally {
			pacerWaits--;
		}
	});
});
afterEach(() => jest.restoreAllMocks());

const PER_WINDOW = 8;
/** Room for a poll's budget inside one window, and for a run of a few requests after the reader's share. */
const WINDOW_MS = 2 * STEP_BUDGET_MS;
/** The run's items: the rest of a window the reader used its share of. */
const OTHER_ITEMS = PER_WINDOW - backgroundQuota(PER_WINDOW);
const key = triggerKey('poll-workflow', 'poll-node', 'Lofty Polling Trigger');
const params = { events: ['lead'], options: { lookBackMinutes: 15 } };
const host = { budgetMs: STEP_BUDGET_MS };

/** The sandbox's window of each logged request from `from` on (its counters restarted there), replayed from the log. */
function windowsOf(log: RequestLogEntry[], from: number): number[] {
	let index = -1;
	let end = -Infinity;
	return log.map((entry, i) => {
		if (i < from) return -1;
		if (entry.time >= end) {
			index++;
			end = entry.time + WINDOW_MS;
		}
		return index;
	});
}

const isLeadPage = (entry: RequestLogEntry) => entry.method === 'GET' && entry.path === '/v1.0/leads';

describe('Lofty Polling Trigger, the backlog reader and the rate limit', () => {
	it("reads at most its share of each window; another run of the credential is answered in the window it starts in", async () => {
		sandbox().readings.set({ leadPaging: 'scrollOnly' });
		sandbox().setRateLimit({ perWindow: PER_WINDOW, windowMs: WINDOW_MS });
		const baseline = await poll(sandbox(), params, undefined, 'trigger', host);
		const from = Date.now();
		const backlog = addLeads(sandbox(), 600, from, 1, 'Backlog');
		const other = addLeads(sandbox(), OTHER_ITEMS, from - 3_600_000, 1, 'Other');
		await until(() => Date.now() > from + backlog.length + 1000);
		// The rate limit cuts the poll: it read what one window allows.
		const cut = await poll(sandbox(), params, baseline.stored, 'trigger', host);
		expect(readerState(key)).toBeUndefined();
		// Its scroll expires; the next poll, in a window of its own, reads down to its place from the top and is cut
		// again: it hands the rest to a reader.
		leadScrolls(sandbox().store).expireAll(Date.now());
		sandbox().setRateLimit({ perWindow: PER_WINDOW, windowMs: WINDOW_MS });
		pacing.resetPacing();
		const restarted = sandbox().requests.length;
		await poll(sandbox(), params, cut.stored, 'trigger', host);
		expect(readerState(key)).toBe('reading');
		const readFrom = sandbox().requests.length;
		/** The reader's requests in the window of the newest request. */
		const readerInLast = () => {
			const log = sandbox().requests;
			const windows = windowsOf(log, restarted);
			return log.filter((entry, i) => i >= readFrom && isLeadPage(entry) && windows[i] === windows[log.length - 1]).length;
		};
		// A window where the reader sent its share, and then waits for the pacer with nothing on its way (on main: once
		// it took the window's rest too).
		await until(() => readerInLast() >= backgroundQuota(PER_WINDOW) && pacerWaits > 0 && pacing.pacingState().inFlight === 0);
		const otherFrom = sandbox().requests.length;
		const out = await run(sandbox(), (i) => ({ resource: 'lead', operation: 'get', leadId: byId(other[i]) }), { items: Array.from({ length: OTHER_ITEMS }, () => ({})) });
		expect(out.map((o) => o.json.leadId)).toEqual(other);
		// The reader reads on in the next window.
		const otherEnd = sandbox().requests.length;
		await until(() => sandbox().requests.slice(otherEnd).some(isLeadPage));

		const log = sandbox().requests;
		const windows = windowsOf(log, restarted);
		const gets = log.map((entry, i) => ({ entry, window: windows[i], i })).filter(({ entry, i }) => i >= otherFrom && entry.path.startsWith('/v1.0/leads/'));
		const perWindow = new Map<number, number>();
		log.forEach((entry, i) => i >= readFrom && isLeadPage(entry) && perWindow.set(windows[i], (perWindow.get(windows[i]) ?? 0) + 1));
		if (process.env.LOFTY_FIGURES) process.stdout.write(`[figures] reader share: reader requests per window ${JSON.stringify([...perWindow])}, the run's in window ${JSON.stringify(gets.map((g) => g.window))} (started in ${windows[otherFrom - 1]})\n`);
		expect(log.filter((entry) => entry.status === 429)).toEqual([]);
		expect(gets.map((g) => g.entry.status)).toEqual(Array(OTHER_ITEMS).fill(200));
		expect(gets.map((g) => g.window)).toEqual(Array(OTHER_ITEMS).fill(windows[otherFrom - 1]));
		expect(Math.max(...perWindow.values())).toBeLessThanOrEqual(backgroundQuota(PER_WINDOW));
	}, VERY_LONG_TEST_MS);
});
