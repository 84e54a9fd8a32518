/**
 * Row 4 of `npm run bench`: row 2's job at 300 ms latency (1000 lead updates while the sandbox allows 500 a
 * minute and answers each request after about 300 ms) in a real n8n 2.41.1, through the Lofty node and through
 * n8n's own HTTP Request node set up as a user would:
 *
 *   a. Lofty node, Lead > Update, default settings
 *   b. HTTP Request, default settings
 *   c. HTTP Request, On Error: Continue (regular output)
 *   d. HTTP Request, Retry On Fail: 5 tries, 5 s apart (the editor's maximum)
 *   e. HTTP Request, Batching: 40 items every 5 s (480 a minute, just under the limit)
 *
 * Each is one workflow run (Manual Trigger -> Code node emitting 1000 items {leadId, i} -> the node) on fresh
 * leads, with the sandbox reset first (fresh rate window, request log and write counts). Two short warm-up runs
 * without latency or limit come first and are not measured. This row runs in real time (n8n's own time per item
 * does not scale), about 5 minutes.
 *
 * Times: "node" is the tested node's executionTime in the saved execution (n8n's own figure, all tries of a
 * retry included), "wall" is measured here around runWorkflow (also starting the execution, the Code node,
 * saving the execution, and up to 150 ms of polling). The bound is the limit's: 1000 requests at 500 a minute.
 *
 * n8n is test/e2e/n8nServer.ts: this package packed and installed as a community node into .e2e/bench-2.41.1, n8n
 * from the cache (installed first when missing, which takes several minutes). The sandbox stays in this process
 * and n8n reaches it on loopback. Skip it with LOFTY_BENCH_N8N=0.
 */
import './scriptsLink';

import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';

import type { Sandbox } from '../sandbox';
import { N8nServer, NODE_TYPE, n8nInstalled } from '../test/e2e/n8nServer';
import { type Row, addLeads, busiest, fmt, seconds as s } from './common';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const VERSION = '2.41.1';
/** The newest HTTP Request version in 2.41.1 (defaultVersion in n8n-nodes-base's HttpRequest.node.js). */
const HTTP_REQUEST_VERSION = 4.5;
const N = 1000;
const LIMIT = 500;
const WINDOW_MS = 60_000;
const LATENCY_MS = 300;
const TRIGGER = 'Manual Trigger';
const TESTED = 'Update Leads';

export const n8nBenchEnabled = (): boolean => process.env.LOFTY_BENCH_N8N !== '0';

interface Outcome {
	label: string;
	/** the execution's status: success or error */
	status: string;
	error?: string;
	/** output items of the tested node, and how many of them carry an error */
	items: number;
	failed: number;
	/** PUTs the sandbox applied (a lead written twice counts twice) and leads that end up with the right name */
	applied: number;
	updated: number;
	/** PUTs that reached the sandbox, and how many were answered 429 */
	sent: number;
	refused: number;
	/** most PUTs sent within any minute: whether the job came up against the limit at all */
	busiest: number;
	nodeMs: number;
	wallMs: number;
}

/** Manual Trigger -> Code (1000 items {leadId, i}) -> the tested node. */
function workflow(name: string, ids: string[], tested: Json) {
	// Lofty IDs exceed 2^53: they stay strings all the way into the URL.
	const jsCode = `const ids = ${JSON.stringify(ids)};\nreturn ids.map((leadId, i) => ({ json: { leadId, i } }));`;
	const nodes = [
		{ id: randomUUID(), name: TRIGGER, type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		{ id: randomUUID(), name: 'Leads', type: 'n8n-nodes-base.code', typeVersion: 2, position: [220, 0], parameters: { jsCode } },
		{ id: randomUUID(), name: TESTED, position: [440, 0], ...tested },
	];
	const to = (node: string) => ({ main: [[{ node, type: 'main', index: 0 }]] });
	return { name, nodes, connections: { [TRIGGER]: to('Leads'), Leads: to(TESTED) } };
}

async function measure(n8n: N8nServer, sandbox: Sandbox, label: string, tested: Json, { limited = true, count = N } = {}): Promise<Outcome> {
	sandbox.reset();
	const ids = addLeads(sandbox, count, 'N8n');
	sandbox.setRateLimit(limited ? { perWindow: LIMIT, windowMs: WINDOW_MS } : { perWindow: 1_000_000_000, windowMs: 60_000 });
	// Always real time (n8n's own time per item does not scale): ±10 % jitter around 300 ms.
	sandbox.setLatency(limited ? { fixedMs: LATENCY_MS * 0.9, jitterMs: LATENCY_MS * 0.2 } : { fixedMs: 0, jitterMs: 0 });
	const workflowId = await n8n.createWorkflow(workflow(`bench: ${label}`, ids, tested));
	const start = performance.now();
	const ex = await n8n.runWorkflow(workflowId, TRIGGER, 600_000);
	const wallMs = performance.now() - start;
	const run = ex.runData[TESTED]?.at(-1);
	if (!run) throw new Error(`bench: "${TESTED}" did not run in "${label}" (execution ${ex.status}: ${ex.error?.message ?? 'no error'})`);
	const out: Json[] = (run.data?.main?.[0] ?? []).map((item: Json) => item.json);
	const puts = sandbox.requests.filter((r) => r.method === 'PUT');
	return {
		label,
		status: ex.status,
		error: run.error?.message,
		items: out.length,
		failed: out.filter((json) => json.error !== undefined).length,
		applied: sandbox.faults.writes('PUT', '/v1.0/leads/{leadId}'),
		updated: ids.filter((leadId, i) => sandbox.store.getLead(leadId)?.firstName === `Updated${i}`).length,
		sent: puts.length,
		refused: puts.filter((r) => r.status === 429).length,
		busiest: busiest(
			puts.map((r) => r.time).sort((x, y) => x - y),
			WINDOW_MS,
		),
		nodeMs: run.executionTime,
		wallMs,
	};
}

export async function n8nBulkRow(sandbox: Sandbox): Promise<Row> {
	if (!n8nInstalled(VERSION)) console.log(`n8n ${VERSION} is not in the cache: installing it first (several minutes)`);
	const n8n = new N8nServer(VERSION, `bench-${VERSION}`);
	try {
		await n8n.start();
		const loftyCred = { id: await n8n.createCredential('Lofty (bench)', 'loftyApi', { apiKey: sandbox.apiKey, baseUrl: sandbox.url }), name: 'Lofty (bench)' };
		const headerCred = {
			id: await n8n.createCredential('Lofty header (bench)', 'httpHeaderAuth', { name: 'Authorization', value: `token ${sandbox.apiKey}` }),
			name: 'Lofty header (bench)',
		};
		const lofty: Json = {
			type: NODE_TYPE,
			typeVersion: 1,
			parameters: {
				authentication: 'apiKey',
				resource: 'lead',
				operation: 'update',
				leadId: { __rl: true, mode: 'id', value: '={{ $json.leadId }}' },
				updateFields: { firstName: '=Updated{{ $json.i }}' },
			},
			credentials: { loftyApi: loftyCred },
		};
		const http = (options: Json = {}, settings: Json = {}): Json => ({
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: HTTP_REQUEST_VERSION,
			parameters: {
				method: 'PUT',
				url: `=${sandbox.url}/v1.0/leads/{{ $json.leadId }}`,
				authentication: 'genericCredentialType',
				genericAuthType: 'httpHeaderAuth',
				sendBody: true,
				specifyBody: 'json',
				jsonBody: '={"firstName": "Updated{{ $json.i }}"}',
				options,
			},
			credentials: { httpHeaderAuth: headerCred },
			...settings,
		});

		// Not measured: a fresh n8n's first executions are slower (task runner, expression isolate, JIT).
		await measure(n8n, sandbox, 'warm-up', lofty, { limited: false, count: 100 });
		await measure(n8n, sandbox, 'warm-up', http(), { limited: false, count: 100 });
		const a = await measure(n8n, sandbox, 'a. Lofty node, default settings', lofty);
		const b = await measure(n8n, sandbox, 'b. HTTP Request, default settings', http());
		const c = await measure(n8n, sandbox, 'c. HTTP Request, On Error: Continue', http({}, { onError: 'continueRegularOutput' }));
		const d = await measure(n8n, sandbox, 'd. HTTP Request, Retry On Fail 5 x 5 s', http({}, { retryOnFail: true, maxTries: 5, waitBetweenTries: 5000 }));
		const e = await measure(n8n, sandbox, 'e. HTTP Request, Batching 40 per 5 s', http({ batching: { batch: { batchSize: 40, batchInterval: 5000 } } }));

		// The limit's pace for N requests, and the fixed window's floor (as common.ts, in real time).
		const bound = (N / LIMIT) * WINDOW_MS;
		const floor = (Math.ceil(N / LIMIT) - 1) * WINDOW_MS + LATENCY_MS;
		// Only a run that did the whole job, as n8n reports it, has a time to compare.
		const done = (o: Outcome) => o.status === 'success' && o.failed === 0 && o.updated === N;
		const ratio = (o: Outcome) => (done(o) ? fmt(o.nodeMs / bound) : '- (job not done)');
		console.log(`\n${N} lead updates in n8n ${VERSION} at 500 a minute, ${LATENCY_MS} ms latency (node: the node's executionTime in the saved execution; wall: around runWorkflow; bound ${s(bound)}):\n`);
		console.log('| Run | Execution | Items out (with error) | Writes applied | Leads updated | PUTs sent (429) | Busiest minute | Node | Wall | Node / bound |');
		console.log('|---|---|---|---|---|---|---|---|---|---|');
		for (const o of [a, b, c, d, e]) {
			const status = o.error ? `${o.status}: ${o.error.slice(0, 80)}` : o.status;
			console.log(`| ${o.label} | ${status} | ${o.items} (${o.failed}) | ${o.applied} | ${o.updated} | ${o.sent} (${o.refused}) | ${o.busiest} | ${s(o.nodeMs)} | ${s(o.wallMs)} | ${ratio(o)} |`);
		}
		const figures: Record<string, number | string | boolean> = { boundMs: bound, floorMs: floor, latencyMs: LATENCY_MS };
		for (const [key, o] of Object.entries({ lofty: a, httpDefault: b, httpContinue: c, httpRetry: d, httpBatching: e })) {
			Object.assign(figures, {
				[`${key}Status`]: o.status,
				[`${key}NodeMs`]: o.nodeMs,
				[`${key}WallMs`]: o.wallMs,
				[`${key}Failed`]: o.failed,
				[`${key}Applied`]: o.applied,
				[`${key}Updated`]: o.updated,
				[`${key}Refused`]: o.refused,
				[`${key}Done`]: done(o),
			});
		}
		return {
			id: 'n8n-bulk-update-300ms',
			name: `4. The 1000 updates at ${LATENCY_MS} ms in n8n ${VERSION}: Lofty node vs HTTP Request node, node time / the limit's bound`,
			ratio: done(a) ? a.nodeMs / bound : undefined,
			result: `Lofty ${ratio(a)} (${s(a.nodeMs)}), ${a.updated}/${N} updated; HTTP Request default: ${b.updated}/${N} then ${b.status}; batched 40 per 5 s: ${ratio(e)} (${s(e.nodeMs)}), ${e.updated}/${N}`,
			details:
				`Bound ${s(bound)} (1000 at 500/min); the fixed window's floor ${s(floor)}. Lofty node: ${a.failed} failed items, ${a.refused} answers 429, ${a.applied} writes, ${s(a.wallMs)} wall. ` +
				`HTTP Request: default fails after ${b.applied} writes (${b.refused} × 429); On Error Continue: ${c.failed} failed items, ${c.applied} writes; ` +
				`Retry On Fail (5 × 5 s): execution ${d.status}, ${d.applied} writes applied to ${d.updated} leads with ${d.sent} PUTs in ${s(d.nodeMs)}; ` +
				`Batching: ${e.failed} failed items, ${e.applied} writes, ${e.refused} × 429`,
			figures,
		};
	} finally {
		await n8n.stop();
	}
}
