/**
 * `npm run bench`: measures the node against the sandbox on loopback and prints a table of ratios.
 * Not part of `jest` (no timing assertions there). Each figure comes from this one run.
 *
 *   1. Return All: requests made vs ceil(N / the endpoint's largest page), every paginated list.
 *   2. 1000 lead updates under a time-scaled 500/min limit (500 per 6 s): wall time vs the bound.
 *   2b. The same job in a real n8n: the Lofty node vs n8n's HTTP Request node (n8nBulk.ts; LOFTY_BENCH_N8N=0 skips it).
 *   2c. The same job in n8n's queue mode, by 1 worker and by 2 workers at once (queueBulk.ts; LOFTY_BENCH_QUEUE=0 skips it).
 *   3. Node overhead: a 10k-lead Return All through the node vs a plain HTTP paging loop.
 *   4. Trigger: split and dedupe of a 5000-event delivery (time, memory).
 *   5. Peak memory of a 50k-record Return All.
 */
import './scriptsLink';

import axios from 'axios';
import { Agent } from 'node:http';
import { performance } from 'node:perf_hooks';

import { claim } from '../nodes/LoftyTrigger/dedupe';
import { parsePayload } from '../nodes/LoftyTrigger/parse';
import { Lofty } from '../nodes/Lofty/Lofty.node';
import { RESOURCES } from '../nodes/Lofty/resources';
import { resetPacing } from '../nodes/Lofty/transport/pacing';
import { SEED_IDS, type Sandbox, startSandbox } from '../sandbox';
import { type Credential, type Params, createContext } from '../test/harness/context';
import { valid } from '../test/fuzz/inputs';
import { type Row, addLeads, fmt, windowBound } from './common';
import { type InProcessFigure, n8nBulkRow, n8nBenchEnabled } from './n8nBulk';
import { queueBulkRow, queueBenchSkipped } from './queueBulk';

const node = new Lofty();
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const MB = 1024 * 1024;
const rows: Row[] = [];

function credentialOf(sandbox: Sandbox): Credential {
	return { type: 'loftyApi', data: { apiKey: sandbox.apiKey, baseUrl: sandbox.url } };
}

async function runLofty(sandbox: Sandbox, params: Params | ((i: number) => Params), items = 1, continueOnFail = true, credential = credentialOf(sandbox)) {
	const authentication = credential.type === 'loftyOAuth2Api' ? 'oAuth2' : 'apiKey';
	const withAuth = typeof params === 'function' ? (i: number) => ({ authentication, ...params(i) }) : { authentication, ...params };
	// createContext, not runNode: runNode also hands the whole output to the tests' secret watch (util.inspect and a
	// scan), which would be measured with the node.
	const context = createContext(node, { params: withAuth, credential, items: Array.from({ length: items }, () => ({})), continueOnFail });
	return (await node.execute.call(context))[0];
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
			const requests = sandbox.requests.length - before;
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
	rows.push([
		'1. Return All: requests / ceil(N / largest page)',
		`${fmt(totalRequests / totalIdeal)} overall (worst ${fmt(worst)})`,
		`${measured} paginated lists measured, ${exact} exactly at the minimum; ${totalRequests} requests for a minimum of ${totalIdeal}`,
	]);
	console.log('\nReturn All, per list (N records, R requests, ideal = max(1, ceil(N / page))):\n');
	console.log('| Operation | Style | Page | N | R | Ideal | R / Ideal |');
	console.log('|---|---|---|---|---|---|---|');
	for (const line of detail) console.log(line);
}

async function bulkUpdateRow(sandbox: Sandbox): Promise<InProcessFigure> {
	sandbox.reset();
	resetPacing();
	const ids = addLeads(sandbox, 1000, 'Bulk');
	const limit = 500;
	const windowMs = 6000; // 500 a minute, time-scaled by 10
	const job = (i: number) => ({ resource: 'lead', operation: 'update', leadId: { __rl: true, mode: 'id', value: ids[i] }, updateFields: { firstName: `Updated${i}` } });
	// The same job without a limit: how long the work itself takes on this machine.
	sandbox.setRateLimit({ perWindow: 1_000_000_000, windowMs: 60_000 });
	let start = performance.now();
	await runLofty(sandbox, job, ids.length);
	const unthrottled = performance.now() - start;
	sandbox.reset();
	resetPacing();
	ids.splice(0, ids.length, ...addLeads(sandbox, 1000, 'Bulk'));
	sandbox.setRateLimit({ perWindow: limit, windowMs });
	start = performance.now();
	const items = await runLofty(sandbox, job, ids.length);
	const wall = performance.now() - start;
	const failed = items.filter((i) => i.json.error !== undefined).length;
	const refused = sandbox.requests.filter((r) => r.status === 429).length;
	const applied = sandbox.faults.writes('PUT', '/v1.0/leads/{leadId}');
	const fullWindows = Math.ceil(ids.length / limit) - 1;
	const bound = windowBound(ids.length, limit, windowMs, unthrottled);
	const sustained = (ids.length / limit) * windowMs;
	rows.push([
		'2. 1000 lead updates, 500/min limit scaled to 500 per 6 s: wall time / bound',
		`${fmt(wall / bound)} (${fmt(wall / 1000, 1)} s vs ${fmt(bound / 1000, 1)} s)`,
		`${failed} failed items, ${refused} answers 429, ${applied} writes applied for ${ids.length} items. Bound = ${fullWindows} full window(s) + the last window's share of the unthrottled run (${fmt(unthrottled / 1000, 1)} s for all 1000). vs the sustained rate (N / limit windows = ${fmt(sustained / 1000, 1)} s): ${fmt(wall / sustained)}`,
	]);
	return { wallMs: wall, boundMs: bound, unthrottledMs: unthrottled, failed, applied, refused };
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
	const viaNode = async () => (await runLofty(sandbox, { resource: 'lead', operation: 'getAll', returnAll: true, simplify: false }, 1, false)).length;
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
	agent.destroy();
	rows.push([
		'3. Node overhead: 10k-lead Return All, node / plain HTTP paging loop',
		`${fmt(v.ms / p.ms)} (${fmt(v.ms, 0)} ms vs ${fmt(p.ms, 0)} ms)`,
		`median of 3; node: ${v.n} records (lossless 64-bit IDs, pacing, retries); loop: ${p.n} records, JSON.parse`,
	]);
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
	rows.push([
		'4. Trigger: split + dedupe of a 5000-event delivery',
		`${fmt(samples[2], 1)} ms, ${fmt(heapPeak / MB, 1)} MB heap`,
		`median of 5; ${fresh} distinct events kept of 5000 (1000 duplicates dropped); per event ${fmt((samples[2] * 1000) / 5000, 1)} µs`,
	]);
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
	rows.push([
		'5. Peak memory of a 50k-record Return All (full records)',
		`${fmt(heap / MB, 0)} MB heap above baseline (${fmt(heap / items.length / 1024, 1)} KB per record)`,
		`${items.length} records in ${fmt(ms / 1000, 1)} s; RSS peak ${fmt(peakRss / MB, 0)} MB (process, including the in-process sandbox holding 50k leads)`,
	]);
}

async function main(): Promise<void> {
	const sandbox = await startSandbox({ port: 0 });
	try {
		console.log(`n8n-nodes-lofty benchmark: node ${process.version}, sandbox ${sandbox.url} (loopback, in-process)`);
		triggerRow();
		await paginationRow(sandbox);
		const inProcess = await bulkUpdateRow(sandbox);
		await overheadRow(sandbox);
		await memoryRow(sandbox);
		// Last, so that n8n's CPU use does not disturb the in-process rows (2 cores).
		if (n8nBenchEnabled()) rows.push(await n8nBulkRow(sandbox, inProcess));
		else console.log('\nRow 2b (real n8n) skipped: LOFTY_BENCH_N8N=0');
		const queueSkipped = queueBenchSkipped();
		if (queueSkipped) console.log(`\nRow 2c (queue mode) skipped: ${queueSkipped}`);
		else rows.push(await queueBulkRow(sandbox));
	} finally {
		await sandbox.stop();
	}
	console.log('\n| Benchmark | Ratio / figure | Details |');
	console.log('|---|---|---|');
	rows.sort((a, b) => a[0].localeCompare(b[0]));
	for (const [name, value, details] of rows) console.log(`| ${name} | ${value} | ${details} |`);
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
