/** Helpers shared by the benchmark rows (run.ts, limitRows.ts) and the real-n8n comparison (n8nBulk.ts). */
import { Lofty } from '../nodes/Lofty/Lofty.node';
import { SEED_IDS, type Sandbox } from '../sandbox';
import { type Credential, type Params, createContext } from '../test/harness/context';

/** One row of the table, also one object of bench/results.json. */
export interface Row {
	id: string;
	name: string;
	/** The row's ratio (what the row is about), when it has one. */
	ratio?: number;
	/** The result as shown in the table. */
	result: string;
	details: string;
	/** The measured figures behind it. */
	figures?: Record<string, number | string | boolean>;
}

export const fmt = (n: number, digits = 2) => n.toFixed(digits);
export const seconds = (ms: number) => `${fmt(ms / 1000, 1)} s`;

/**
 * Time scale: LOFTY_BENCH_SCALE=10 divides the rate-limit window and the latencies by 10 (500 per 6 s,
 * 300 ms becomes 30 ms) for a quick look. The figures in docs/performance.md come from real time (scale 1): the reset
 * header has whole seconds and n8n spends its own time per item, neither of which scales.
 */
export const SCALE = Math.max(1, Number(process.env.LOFTY_BENCH_SCALE ?? 1) || 1);
/** Lofty's Production limit: 500 requests a minute (time-scaled by SCALE). */
export const LIMIT = 500;
export const WINDOW_MS = 60_000 / SCALE;
export const scaled = (ms: number) => ms / SCALE;
export const scaleNote = SCALE === 1 ? '' : ` (time-scaled by ${SCALE}: window ${seconds(WINDOW_MS)}, latencies / ${SCALE})`;

/** The sandbox's latency for a nominal round trip: ±10 % jitter around it (a fixed 90 % plus 0 to 20 %). */
export function latency(nominalMs: number): { fixedMs: number; jitterMs: number } {
	const ms = scaled(nominalMs);
	return { fixedMs: ms * 0.9, jitterMs: ms * 0.2 };
}

/** What the limit allows: n requests at LIMIT per WINDOW_MS take n / LIMIT windows at its pace. */
export const limitBound = (n: number) => (n / LIMIT) * WINDOW_MS;
/**
 * The least a fixed window allows: the sandbox (like the window Lofty's headers describe) lets LIMIT
 * requests through as soon as a window opens, so the last window opens after ceil(n / LIMIT) - 1 full
 * windows, and its requests need at least one round trip.
 */
export const windowFloor = (n: number, roundTripMs: number) => (Math.ceil(n / LIMIT) - 1) * WINDOW_MS + roundTripMs;

/** A fixed window's bound for n requests when one run without a limit takes unthrottledMs: full windows, then the rest at that pace. */
export function windowBound(n: number, limit: number, windowMs: number, unthrottledMs: number): number {
	const fullWindows = Math.ceil(n / limit) - 1;
	const lastShare = (n - fullWindows * limit) / n;
	return Math.max(unthrottledMs, fullWindows * windowMs + unthrottledMs * lastShare);
}

/** Adds `count` leads; returns their IDs as strings (Lofty IDs exceed 2^53). */
export function addLeads(sandbox: Sandbox, count: number, prefix: string): string[] {
	const ids: string[] = [];
	for (let i = 0; i < count; i++) {
		const lead = sandbox.store.addLead({
			firstName: `${prefix}${i}`,
			lastName: 'Bench',
			ownerUserId: SEED_IDS.demoUserId,
			emails: [`${prefix.toLowerCase()}${i}@example.com`],
			phones: ['+15125550000'],
			source: 'Bench',
			city: 'Austin',
			state: 'TX',
		});
		ids.push(lead.leadId.toString());
	}
	return ids;
}

const node = new Lofty();

export function credentialOf(sandbox: Sandbox): Credential {
	return { type: 'loftyApi', data: { apiKey: sandbox.apiKey, baseUrl: sandbox.url } };
}

/** Runs the Lofty node in-process (the tests' harness, real HTTP over loopback) and returns its output. */
export async function runLofty(sandbox: Sandbox, params: Params | ((i: number) => Params), items = 1, continueOnFail = true, credential = credentialOf(sandbox)) {
	const authentication = credential.type === 'loftyOAuth2Api' ? 'oAuth2' : 'apiKey';
	const withAuth = typeof params === 'function' ? (i: number) => ({ authentication, ...params(i) }) : { authentication, ...params };
	// createContext, not runNode: runNode also hands the whole output to the tests' secret watch (util.inspect and a
	// scan), which would be measured with the node.
	const context = createContext(node, { params: withAuth, credential, items: Array.from({ length: items }, () => ({})), continueOnFail });
	return (await node.execute.call(context))[0];
}

/** Lead > Update of lead `ids[i]` to the name Updated<i>. */
export const updateJob = (ids: string[], extra: Params = {}) => (i: number) => ({
	resource: 'lead',
	operation: 'update',
	leadId: { __rl: true, mode: 'id', value: ids[i] },
	updateFields: { firstName: `Updated${i}` },
	...extra,
});

/** The most of these times (ascending) within any `windowMs`. */
export function busiest(times: number[], windowMs = WINDOW_MS): number {
	let most = 0;
	for (let first = 0, last = 0; last < times.length; last++) {
		while (times[last] - times[first] >= windowMs) first++;
		most = Math.max(most, last - first + 1);
	}
	return most;
}
