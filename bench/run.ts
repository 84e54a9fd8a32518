/**
 * `npm run bench`: measures the node against the sandbox on loopback and prints a table of ratios; writes the
 * same rows to bench/results.json (one object per row, with its ratio). Not part of `jest` (no timing
 * assertions there). Each figure comes from this one run. About 12 minutes on a 2-core machine (the rows at the
 * rate limit run in real time: 500 a minute); LOFTY_BENCH_N8N=0 skips rows 4 and 12 (real n8n, about 5 and 9 minutes),
 * LOFTY_BENCH_SCALE=10 runs the limit rows time-scaled for a quick look (not the figures of docs/performance.md).
 *
 *   1. Return All: requests made vs ceil(N / the endpoint's largest page), every paginated list.
 *   2. 1000 lead updates under 500/min at 0, 100 and 300 ms latency: wall time / the limit's bound (limitRows.ts).
 *   3. A 10,000-lead Return All at 100 and 300 ms latency: wall time / bound, requests / ceil(N / 100).
 *   4. The 1000 updates at 300 ms in a real n8n: the Lofty node vs n8n's HTTP Request node (n8nBulk.ts).
 *   5. Node overhead: a 10k-lead Return All through the node (one request at a time) vs a plain HTTP paging loop.
 *   6. Trigger: split and dedupe of a 5000-event delivery (time, memory).
 *   7. Peak memory of a 50k-record Return All.
 *   8. Parallel Requests: the pace per setting at 300 and 1000 ms (what the default is chosen from).
 *   9. The 1000 updates in n8n's queue mode, by 1 worker and by 2 workers at once (queueBulk.ts; LOFTY_BENCH_QUEUE=0 skips it).
 *  10. Two executions sharing one credential at 100 a minute, Remaining as of the request and as of the answer (sharedCredential.ts).
 *  11. Requests in flight at once / Parallel Requests (inFlightRow.ts: what jest asserts only as an upper bound).
 *  12. Speed to lead in a real n8n: examples/speed-to-lead.json vs the same flow with n8n's nodes only, lead created ->
 *      text, p50 and p95, steady and in a burst (speedToLead.ts; LOFTY_BENCH_N8N=0 skips it with row 4).
 *
 * `npm run bench -- --rows 2,3,4,9` runs only those rows, prints each ratio beside bench/results.json's and leaves
 * that file as it is (add `--write` to put the rows run into it, the others kept).
 */
import './scriptsLink';

import axios from 'axios';
import * as fs from 'node:fs';
import { Agent } from 'node:http';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';

import { claim } from '../nodes/LoftyTrigger/dedupe';
import { parsePayload } from '../nodes/LoftyTrigger/parse';
import { RESOURCES } from '../nodes/Lofty/resources';
import { resetPacing } from '../nodes/Lofty/transport/pacing';
import { SEED_IDS, type Sandbox, startSandbox } from '../sandbox';
import type { Credential, Params } from '../test/harness/context';
import { valid } from '../test/fuzz/inputs';
import { type Row, SCALE, addLeads, fmt, runLofty } from './common';
import { bulkUpdateRow, parallelSweepRow, returnAllRow } from './limitRows';
import { n8nBulkRow, n8nBenchEnabled } from './n8nBulk';
import { queueBenchSkipped, queueBulkRow } from './queueBulk';
import { inFlightRow } from './inFlightRow';
import { sharedCredentialRow } from './sharedCredential';
import { speedToLeadRow } from './speedToLead';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const MB = 1024 * 1024;
const rows: Row[] = [];

/** `--rows 2,3,9`: the rows to run (all when left out); `--write` puts a selection's rows into results.json. */
function option(name: string): string | undefined {
	const at = process.argv.indexOf(name);
	return at >= 0 ? (process.argv[at + 1] ?? '') : undefined;
}
const selected = option('--rows')
	?.split(',')
	.map((row) => Number(row.trim()))
	.filter((row) => Number.isInteger(row) && row > 0);
const want = (row: number) => !selected || selected.includes(row);
const RESULTS = path.resolve(__dirname, '..', '..', '..', 'bench', 'results.json');

/** The ratios of the rows run beside those in results.json, by row id. */
function compare(previous: { rows: Row[] }): void {
	console.log('\n| Row | Ratio now | In results.json | Now / then |');
	console.log('|---|---|---|---|');
	for (const row of rows) {
		const then = previous.rows.find((other) => other.id === row.id)?.ratio;
		const change = row.ratio !== undefined && then !== undefined ? fmt(row.ratio / then, 3) : '-';
		console.log(`| ${row.id} | ${row.ratio === undefined ? '-' : fmt(row.ratio, 3)} | ${then === undefined ? '-' : fmt(then, 3)} | ${change} |`);
	}
}

/** Inputs that make a list return records in the seeded sandbox. */
const LIST_INPUTS: Record<string, Params> = {
	'calendar:getAll': { filters: { startTime: '2000-01-01T00:00:00Z', endTime: '2100-01-01T00:00:00Z' } },
};

async function paginationRow(sandbox: Sandbox): Promise<void> {
	sandbox.reset();
	sandbox.setRateLimit({ perWindow: 1_000_000_000, windowMs: 60_000 });
	addLeads(sandbox, 2300, 'Page');
	const detail: string[] = [];
	let measured = 0;
	let exact = 0;
	let worst = 0;
	let totalRequests = 0;
	let totalIdeal = 0;
	let lookups = 0;
	for (const resource of RESOURCES) {
		for (const op of resource.operations.filter((o) => o.pagination)) {
			const params: Params = { resource: resource.value, operation: op.value, returnAll: true };
			for (const p of op.params.filter((q) => q.required)) params[p.name] = p.name === 'leadId' ? { __rl: true, mode: 'id', value: SEED_IDS.bigLeadId } : valid(p);
			Object.assign(params, LIST_INPUTS[`${resource.value}:${op.value}`]);
			// Personal API keys cannot read listing data; OAuth tokens can.
			const credential: Credential | undefined =
				resource.value === 'listing' ? { type: 'loftyOAuth2Api', data: { baseUrl: sandbox.url, oauthTokenData: { access_token: sandbox.issueToken() } } } : undefined;
			const before = sandbox.requests.length;
			const items = await runLofty(sandbox, params, 1, true, credential);
			// The list's pages all go to one path; a lookup the operation makes first (call history reads the lead's
			// user ID, docs/api-readings.md row 3) goes elsewhere and is counted apart.
			const sent = sandbox.requests.slice(before);
			const perPath = new Map<string, number>();
			for (const r of sent) perPath.set(r.path, (perPath.get(r.path) ?? 0) + 1);
			const requests = Math.max(0, ...perPath.values());
			lookups += sent.length - requests;
			const failed = items.some((i) => i.json.error !== undefined);
			const page = (op.pagination as { fixedPageSize?: number }).fixedPageSize ?? op.pagination!.maxPageSize;
			const n = failed ? 0 : items.length;
			const ideal = Math.max(1, Math.ceil(n / page));
			if (failed) {
				detail.push(`| ${resource.value}: ${op.value} | ${op.pagination!.style} | ${page} | - | ${requests} | - | not measured: ${String(items[0].json.error).slice(0, 60)} |`);
				continue;
			}
			measured++;
			totalRequests += requests;
			totalIdeal += ideal;
			if (requests === ideal) exact++;
			worst = Math.max(worst, requests / ideal);
			detail.push(`| ${resource.value}: ${op.value} | ${op.pagination!.style} | ${page} | ${n} | ${requests} | ${ideal} | ${fmt(requests / ideal)} |`);
		}
	}
	rows.push({
		id: 'return-all-requests',
		name: '1. Return All: requests / ceil(N / largest page)',
		ratio: totalRequests / totalIdeal,
		result: `${fmt(totalRequests / totalIdeal)} overall (worst ${fmt(worst)})`,
		details: `${measured} paginated lists measured, ${exact} exactly at the minimum; ${totalRequests} page requests for a minimum of ${totalIdeal}; besides the pages, ${lookups} lookup requests (call history: the lead's user ID)`,
		figures: { measured, exact, requests: totalRequests, ideal: totalIdeal, worst, lookups },
	});
	console.log('\nReturn All, per list (N records, R requests, ideal = max(1, ceil(N / page))):\n');
	console.log('| Operation | Style | Page | N | R | Ideal | R / Ideal |');
	console.log('|---|---|---|---|---|---|---|');
	for (const line of detail) console.log(line);
}

async function overheadRow(sandbox: Sandbox): Promise<void> {
	sandbox.reset();
	resetPacing();
	sandbox.setRateLimit({ perWindow: 1_000_000_000, windowMs: 60_000 });
	addLeads(sandbox, 10_000 - 250, 'Big');
	const agent = new Agent({ keepAlive: true });
	const plain = async () => {
		let count = 0;
		for (let offset = 0; ; offset += 100) {
			const response = await axios.get(`${sandbox.url}/v1.0/leads`, {
				params: { limit: 100, offset },
				headers: { Authorization: `token ${sandbox.apiKey}`, 'Content-Type': 'application/json' },
				httpAgent: agent,
				responseType: 'text',
				transformResponse: (data: unknown) => data,
			});
			const page = JSON.parse(response.data as string) as { leads: unknown[]; _metadata: { total: number } };
			count += page.leads.length;
			if (page.leads.length < 100 || count >= page._metadata.total) break;
		}
		return count;
	};
	const viaNode = async (parallelRequests = 1) =>
		(await runLofty(sandbox, { resource: 'lead', operation: 'getAll', returnAll: true, simplify: false, requestOptions: { parallelRequests } }, 1, false)).length;
	const time = async (fn: () => Promise<number>) => {
		const samples: number[] = [];
		let n = 0;
		for (let i = 0; i < 3; i++) {
			const start = performance.now();
			n = await fn();
			samples.push(performance.now() - start);
		}
		samples.sort((a, b) => a - b);
		return { ms: samples[1], n };
	};
	await plain();
	await viaNode();
	const p = await time(plain);
	const v = await time(viaNode);
	const d = await time(async () => await viaNode(8));
	agent.destroy();
	rows.push({
		id: 'node-overhead',
		name: '5. Node overhead: 10k-lead Return All, node (one request at a time) / plain HTTP paging loop',
		ratio: v.ms / p.ms,
		result: `${fmt(v.ms / p.ms)} (${fmt(v.ms, 0)} ms vs ${fmt(p.ms, 0)} ms)`,
		details: `median of 3, on loopback; node: ${v.n} records (lossless 64-bit IDs, pacing, retries), Parallel Requests 1; loop: ${p.n} records, JSON.parse; with the default Parallel Requests the node took ${fmt(d.ms, 0)} ms`,
		figures: { nodeMs: v.ms, loopMs: p.ms, nodeParallelMs: d.ms },
	});
}

function triggerRow(): void {
	const events = Array.from({ length: 5000 }, (_, i) => ({ leadId: 651095960136641 + (i % 4000), updateTime: 1_760_000_000_000 + (i % 4000) }));
	const body = { teamId: 88001, listId: 1, updatedLead: events };
	const run = () => {
		const parsed = parsePayload(body, `delivery-${Math.random()}`);
		if (parsed.kind !== 'events') throw new Error('bench: the delivery did not parse');
		const decision = claim(`bench-${Math.random()}`, {}, `delivery-${Math.random()}`, parsed.events.map((e) => ({ key: e.dedupeKey, timed: e.timed })), Date.now());
		if (decision.kind !== 'new') throw new Error('bench: a fresh delivery was not new');
		decision.settle(true);
		return decision.fresh.length;
	};
	run();
	gc();
	const heapBefore = process.memoryUsage().heapUsed;
	const samples: number[] = [];
	let fresh = 0;
	let heapPeak = 0;
	for (let i = 0; i < 5; i++) {
		const start = performance.now();
		fresh = run();
		samples.push(performance.now() - start);
		heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed - heapBefore);
	}
	samples.sort((a, b) => a - b);
	rows.push({
		id: 'trigger-split-dedupe',
		name: '6. Trigger: split + dedupe of a 5000-event delivery',
		result: `${fmt(samples[2], 1)} ms, ${fmt(heapPeak / MB, 1)} MB heap`,
		details: `median of 5; ${fresh} distinct events kept of 5000 (1000 duplicates dropped); per event ${fmt((samples[2] * 1000) / 5000, 1)} µs`,
		figures: { ms: samples[2], heapMB: heapPeak / MB, fresh },
	});
}

async function memoryRow(sandbox: Sandbox): Promise<void> {
	sandbox.reset();
	resetPacing();
	sandbox.setRateLimit({ perWindow: 1_000_000_000, windowMs: 60_000 });
	addLeads(sandbox, 50_000 - 250, 'Mem');
	gc();
	const base = process.memoryUsage();
	let peakHeap = base.heapUsed;
	let peakRss = base.rss;
	const timer = setInterval(() => {
		const m = process.memoryUsage();
		peakHeap = Math.max(peakHeap, m.heapUsed);
		peakRss = Math.max(peakRss, m.rss);
	}, 10);
	const start = performance.now();
	const items = await runLofty(sandbox, { resource: 'lead', operation: 'getAll', returnAll: true, simplify: false }, 1, false);
	const ms = performance.now() - start;
	const end = process.memoryUsage();
	peakHeap = Math.max(peakHeap, end.heapUsed);
	peakRss = Math.max(peakRss, end.rss);
	clearInterval(timer);
	const heap = peakHeap - base.heapUsed;
	rows.push({
		id: 'return-all-memory',
		name: '7. Peak memory of a 50k-record Return All (full records)',
		result: `${fmt(heap / MB, 0)} MB heap above baseline (${fmt(heap / items.length / 1024, 1)} KB per record)`,
		details: `${items.length} records in ${fmt(ms / 1000, 1)} s; RSS peak ${fmt(peakRss / MB, 0)} MB (process, including the in-process sandbox holding 50k leads)`,
		figures: { records: items.length, heapMB: heap / MB, rssPeakMB: peakRss / MB, ms },
	});
}

async function main(): Promise<void> {
	const started = performance.now();
	const sandbox = await startSandbox({ port: 0 });
	try {
		console.log(`n8n-nodes-lofty benchmark: node ${process.version}, sandbox ${sandbox.url} (loopback, in-process), time scale ${SCALE}`);
		if (want(6)) triggerRow();
		if (want(1)) await paginationRow(sandbox);
		if (want(5)) await overheadRow(sandbox);
		if (want(7)) await memoryRow(sandbox);
		if (want(2)) for (const ms of [0, 100, 300]) rows.push(await bulkUpdateRow(sandbox, ms));
		if (want(3)) for (const ms of [100, 300]) rows.push(await returnAllRow(sandbox, ms));
		if (want(8)) rows.push(await parallelSweepRow(sandbox));
		if (want(10)) rows.push(await sharedCredentialRow(sandbox));
		if (want(11)) rows.push(await inFlightRow(sandbox));
		// Last, so that n8n's CPU use does not disturb the in-process rows (2 cores).
		if (want(4)) {
			if (n8nBenchEnabled()) rows.push(await n8nBulkRow(sandbox));
			else console.log('\nRow 4 (real n8n) skipped: LOFTY_BENCH_N8N=0');
		}
		if (want(12)) {
			if (n8nBenchEnabled()) rows.push(await speedToLeadRow(sandbox));
			else console.log('\nRow 12 (speed to lead, real n8n) skipped: LOFTY_BENCH_N8N=0');
		}
		if (want(9)) {
			const queueSkipped = queueBenchSkipped();
			if (queueSkipped) console.log(`\nRow 9 (queue mode) skipped: ${queueSkipped}`);
			else rows.push(await queueBulkRow(sandbox));
		}
	} finally {
		sandbox.setLatency({ fixedMs: 0, jitterMs: 0 });
		await sandbox.stop();
	}
	rows.sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
	console.log('\n| Benchmark | Ratio / figure | Details |');
	console.log('|---|---|---|');
	for (const row of rows) console.log(`| ${row.name} | ${row.result} | ${row.details} |`);
	const minutes = (performance.now() - started) / 60_000;
	const meta = { node: process.version, timeScale: SCALE, minutes, date: new Date().toISOString() };
	if (selected) {
		const previous = JSON.parse(fs.readFileSync(RESULTS, 'utf8')) as { meta: unknown; rows: Row[] };
		compare(previous);
		if (process.argv.includes('--write')) {
			const kept = previous.rows.filter((row) => !rows.some((other) => other.id === row.id));
			const merged = [...kept, ...rows].sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
			fs.writeFileSync(RESULTS, `${JSON.stringify({ meta: previous.meta, rows: merged }, null, '\t')}\n`);
			console.log(`\nRows ${selected.join(', ')} written to bench/results.json (the others kept).`);
		} else console.log(`\nbench/results.json left as it is (--write puts these rows into it); the run took ${fmt(minutes, 1)} minutes.`);
		return;
	}
	fs.writeFileSync(RESULTS, `${JSON.stringify({ meta, rows }, null, '\t')}\n`);
	console.log(`\nWritten to bench/results.json; the run took ${fmt(minutes, 1)} minutes.`);
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
