/**
 * The rows about speed at the rate limit against a remote API (the sandbox answering after a set
 * latency), each from a fresh sandbox and a fresh pacer:
 *
 *   2. 1000 lead updates under 500 a minute at 0, 100 and 300 ms: wall time / the limit's bound.
 *   3. A 10,000-lead Return All at 100 and 300 ms: wall time / the limit's bound for its ceil(N / 100) requests.
 *   8. Parallel Requests: the pace one run reaches without a limit at 300 and 1000 ms, per setting
 *      (what the default is chosen from).
 *
 * "The limit's bound" is the time the announced pace takes for the requests (n / 500 minutes). The
 * sandbox counts fixed windows that open with the first request, so a fresh window lets 500 through at
 * once and a run can beat that bound; the floor (full windows plus one round trip) is shown beside it.
 */
import { performance } from 'node:perf_hooks';

import { resetPacing } from '../nodes/Lofty/transport/pacing';
import type { Sandbox } from '../sandbox';
import {
	LIMIT,
	type Row,
	WINDOW_MS,
	addLeads,
	busiest,
	fmt,
	latency,
	limitBound,
	runLofty,
	scaleNote,
	scaled,
	seconds,
	updateJob,
	windowFloor,
} from './common';

const LEAD_PATH = '/v1.0/leads/{leadId}';
const UNLIMITED = { perWindow: 1_000_000_000, windowMs: 60_000 };

function fresh(sandbox: Sandbox, nominalLatencyMs: number, limited = true): void {
	sandbox.reset();
	resetPacing();
	sandbox.setRateLimit(limited ? { perWindow: LIMIT, windowMs: WINDOW_MS } : UNLIMITED);
	sandbox.setLatency(latency(nominalLatencyMs));
}

export async function bulkUpdateRow(sandbox: Sandbox, nominalLatencyMs: number, n = 1000): Promise<Row> {
	fresh(sandbox, nominalLatencyMs);
	const ids = addLeads(sandbox, n, 'Bulk');
	const start = performance.now();
	const items = await runLofty(sandbox, updateJob(ids), n);
	const wallMs = performance.now() - start;
	const puts = sandbox.requests.filter((r) => r.method === 'PUT');
	const failed = items.filter((i) => i.json.error !== undefined).length;
	const refused = puts.filter((r) => r.status === 429).length;
	const applied = sandbox.faults.writes('PUT', LEAD_PATH);
	const updated = ids.filter((leadId, i) => sandbox.store.getLead(leadId)?.firstName === `Updated${i}`).length;
	const inOrder = items.every((item, i) => item.pairedItem && (item.pairedItem as { item: number }).item === i);
	const bound = limitBound(n);
	const floor = windowFloor(n, scaled(nominalLatencyMs));
	const mostInFlight = sandbox.concurrency().most;
	return {
		id: `bulk-update-${nominalLatencyMs}ms`,
		name: `2. ${n} lead updates, ${LIMIT}/min, ${nominalLatencyMs} ms latency: wall time / the limit's bound${scaleNote}`,
		ratio: wallMs / bound,
		result: `${fmt(wallMs / bound)} (${seconds(wallMs)} vs ${seconds(bound)})`,
		details:
			`${failed} failed items, ${refused} answers 429, ${applied} writes applied for ${n} items (${updated} leads updated, output ${inOrder ? 'in item order' : 'OUT OF ORDER'}); ` +
			`at most ${mostInFlight} requests in flight; busiest window ${busiest(puts.map((r) => r.time).sort((a, b) => a - b))}; ` +
			`vs the fixed window's floor (${seconds(floor)}): ${fmt(wallMs / floor)}`,
		figures: { n, latencyMs: nominalLatencyMs, wallMs, boundMs: bound, floorMs: floor, ratioToFloor: wallMs / floor, failed, refused, applied, updated, mostInFlight },
	};
}

export async function returnAllRow(sandbox: Sandbox, nominalLatencyMs: number, n = 10_000): Promise<Row> {
	fresh(sandbox, 0, false);
	const seeded = (await runLofty(sandbox, { resource: 'lead', operation: 'getAll', returnAll: true, simplify: false }, 1, false)).length;
	fresh(sandbox, nominalLatencyMs);
	addLeads(sandbox, n - seeded, 'Big');
	const start = performance.now();
	const items = await runLofty(sandbox, { resource: 'lead', operation: 'getAll', returnAll: true, simplify: false }, 1, false);
	const wallMs = performance.now() - start;
	const requests = sandbox.requests.filter((r) => r.method === 'GET' && r.path === '/v1.0/leads');
	const ideal = Math.ceil(items.length / 100);
	const bound = limitBound(ideal);
	const distinct = new Set(items.map((i) => String(i.json.leadId))).size;
	const mostInFlight = sandbox.concurrency().most;
	return {
		id: `return-all-${nominalLatencyMs}ms`,
		name: `3. ${n}-lead Return All, ${LIMIT}/min, ${nominalLatencyMs} ms latency: wall time / the limit's bound for ceil(N / 100) requests${scaleNote}`,
		ratio: wallMs / bound,
		result: `${fmt(wallMs / bound)} (${seconds(wallMs)} vs ${seconds(bound)}); requests / ceil(N / 100): ${fmt(requests.length / ideal)}`,
		details: `${items.length} records (${distinct} distinct), ${requests.length} requests for a minimum of ${ideal}, ${requests.filter((r) => r.status === 429).length} answers 429, at most ${mostInFlight} requests in flight`,
		figures: { n: items.length, distinct, latencyMs: nominalLatencyMs, wallMs, boundMs: bound, requests: requests.length, ideal, requestRatio: requests.length / ideal, mostInFlight },
	};
}

/** The pace one run reaches with each Parallel Requests setting when nothing but the round trip holds it back. */
export async function parallelSweepRow(sandbox: Sandbox): Promise<Row> {
	// 120 lead updates per run; at 1000 ms, 1 and 2 are left out (at most 60 and 120 a minute: 2 and 1 minutes a run).
	const plan: Array<[number, number[]]> = [
		[300, [1, 2, 4, 8, 16, 32]],
		[1000, [4, 8, 16, 32]],
	];
	const n = 120;
	const figures: Record<string, number> = {};
	const lines: string[] = [];
	for (const [nominalLatencyMs, settings] of plan) {
		const paces: string[] = [];
		for (const parallel of settings) {
			fresh(sandbox, 0, false);
			const ids = addLeads(sandbox, n, 'Sweep');
			sandbox.setLatency(latency(nominalLatencyMs));
			const start = performance.now();
			const items = await runLofty(sandbox, updateJob(ids, { requestOptions: { parallelRequests: parallel } }), n);
			const wallMs = performance.now() - start;
			if (items.some((i) => i.json.error !== undefined)) throw new Error(`bench: the sweep at ${parallel} had failed items`);
			// Time-scaled runs report the pace in real-time terms.
			const perMinute = (n / wallMs) * 60_000 * (WINDOW_MS / 60_000);
			figures[`${nominalLatencyMs}ms_parallel${parallel}_perMinute`] = perMinute;
			paces.push(`${parallel}: ${fmt(perMinute, 0)}`);
		}
		lines.push(`${nominalLatencyMs} ms: ${paces.join(', ')}`);
	}
	const enough = (ms: number) => plan.find(([at]) => at === ms)![1].find((p) => figures[`${ms}ms_parallel${p}_perMinute`] >= LIMIT * 1.05);
	return {
		id: 'parallel-requests-sweep',
		name: `8. Parallel Requests: requests per minute one run reaches without a limit, by setting${scaleNote}`,
		result: `${LIMIT}/min (+5 %) reached from ${enough(300) ?? '-'} at 300 ms, from ${enough(1000) ?? '-'} at 1000 ms`,
		details: `${lines.join('; ')} (setting: requests per minute; one run of ${n} lead updates each, the first answer awaited alone)`,
		figures,
	};
}
