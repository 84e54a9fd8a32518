/**
 * Row 12 of `npm run bench`: speed to lead in a real n8n 2.41.1. The example examples/speed-to-lead.json as shipped
 * (Lofty Trigger on new leads -> Lofty Send SMS -> Lofty Task > Create; only its credential swapped for the bench's),
 * against its floor: the same flow with n8n's own nodes only, as a person would build it without this package
 * (Webhook, responding at once -> Split Out of `createdLead` -> HTTP Request POST /v1.0/message/sms/send -> HTTP
 * Request POST /v2.0/tasks, Header Auth). Both are active in one n8n, each subscribed in the sandbox to Lead Info
 * (list 2); the sandbox delivers on real timers, to one of them at a time.
 *
 * Measured per lead: from its creation in the sandbox (the event is queued then and delivered at once) to the arrival
 * of its text at the sandbox (both on the sandbox's clock). Two loads: steady (one new lead a second) and a burst
 * (30 leads at once). Each flow runs each load twice, in the order Lofty, floor, floor, Lofty, so that a machine
 * getting busier or quieter weighs on both alike; a warm-up of each comes first and is not measured. The ratio is the
 * Lofty flow's p95 over the floor's p95 (and p50 likewise), from this one run. Every lead must get exactly one text and
 * one task from the flow under test; a flow that misses one fails the row.
 *
 * The sandbox answers at once (0 ms latency: the flows' own cost) and then after about 300 ms (Lofty's round trip), without
 * a rate limit. New
 * leads get IDs below 2^53 here: n8n's Webhook node parses JSON into plain numbers and would change larger IDs (Lofty's
 * are larger; the Lofty Trigger keeps them exact), which would make the floor text the wrong lead.
 */
import './scriptsLink';

import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { type Sandbox, parseJson, stringifyJson } from '../sandbox';
import { webhookState } from '../sandbox/resources/webhook';
import { configureDelivery } from '../sandbox/resources/webhook/delivery';
import { N8nServer, ROOT, httpRequest, n8nInstalled } from '../test/e2e/n8nServer';
import { type Row, fmt, latency } from './common';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const VERSION = '2.41.1';
const HTTP_REQUEST_VERSION = 4.5;
/** LOFTY_BENCH_STL_QUICK=1: a quick look (0 ms only, 10 steady leads a round), not the figures of docs/performance.md. */
const QUICK = process.env.LOFTY_BENCH_STL_QUICK === '1';
const STEADY = QUICK ? 10 : 20;
const BURST = 30;
/** The sandbox's round trip: none (the flows' own cost), and about Lofty's (±10 %). */
const LATENCIES = QUICK ? [0] : [0, 300];

/**
 * n8n settings for this row, the same for all three flows: none by default (n8n's defaults, as recorded in
 * docs/performance.md). LOFTY_BENCH_STL_N8N_ENV=NAME=value,NAME=value sets some, e.g.
 * `N8N_EXPRESSION_ENGINE_POOL_SIZE=2`: n8n 2.41 runs expressions in V8 isolates and keeps that many ready (1 by default);
 * while it handles a request to any trigger but its own Webhook node it holds one, so the execution that request starts
 * finds none ready and builds its own first (docs/performance.md, "Speed to lead").
 */
export function n8nSettings(spec = process.env.LOFTY_BENCH_STL_N8N_ENV): Record<string, string> {
	if (spec === undefined || spec === '' || spec === 'none') return {};
	return Object.fromEntries(spec.split(',').map((pair) => pair.split('=', 2).map((part) => part.trim())).filter(([name, value]) => name && value !== undefined));
}
const settingsText = (settings: Record<string, string>) => Object.entries(settings).map(([k, v]) => `${k}=${v}`).join(', ') || "n8n's defaults";
const TEXT_PATH = '/v1.0/message/sms/send';
const TASK_PATH = '/v2.0/tasks';
const TEXT = 'Hi, thanks for reaching out! An agent from our team will call you in the next few minutes. Reply STOP to opt out.';
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** the example; n8n's nodes only; n8n's Webhook and Split Out with the example's Lofty nodes (the trigger's share apart) */
type Flow = 'lofty' | 'floor' | 'mixed';
interface Load {
	samples: number[];
	/** per lead: lead created -> the delivery carrying it answered by n8n */
	answered: number[];
	/** per lead: text -> task at the sandbox */
	textToTask: number[];
	/** requests the flow made other than the texts and tasks, by method and path */
	other: Record<string, number>;
	/** leads that got other than exactly one text and one task */
	missed: number;
}

const empty = (): Load => ({ samples: [], answered: [], textToTask: [], other: {}, missed: 0 });

/** The nearest-rank percentile of sorted samples. */
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];

interface Workflow {
	name: string;
	nodes: Json[];
	connections: Json;
	settings: Json;
}

/** examples/speed-to-lead.json with the bench's credential and a fresh webhook ID. */
function exampleFlow(credential: Json): Workflow {
	const wf = JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', 'speed-to-lead.json'), 'utf8')) as Json;
	for (const node of wf.nodes as Json[]) {
		if (node.credentials?.loftyApi) node.credentials = { loftyApi: credential };
		if (node.webhookId) node.webhookId = randomUUID();
	}
	return { name: 'bench: speed to lead (Lofty nodes)', nodes: wf.nodes, connections: wf.connections, settings: wf.settings };
}

/** The same flow with n8n's own nodes: Webhook -> Split Out -> HTTP Request (text) -> HTTP Request (task). */
function floorFlow(sandbox: Sandbox, credential: Json, hookPath: string): Workflow {
	const http = (name: string, x: number, url: string, jsonBody: string, extra: Json = {}) => ({
		id: randomUUID(),
		name,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: HTTP_REQUEST_VERSION,
		position: [x, 0],
		parameters: { method: 'POST', url, authentication: 'genericCredentialType', genericAuthType: 'httpHeaderAuth', sendBody: true, specifyBody: 'json', jsonBody, options: {} },
		credentials: { httpHeaderAuth: credential },
		...extra,
	});
	const nodes = [
		{ id: randomUUID(), name: 'Webhook', type: 'n8n-nodes-base.webhook', typeVersion: 2, position: [0, 0], webhookId: randomUUID(), parameters: { httpMethod: 'POST', path: hookPath, options: {} } },
		{ id: randomUUID(), name: 'Split Out', type: 'n8n-nodes-base.splitOut', typeVersion: 1, position: [220, 0], parameters: { fieldToSplitOut: 'body.createdLead', options: {} } },
		http('First Text', 440, `${sandbox.url}${TEXT_PATH}`, `={"leadId": {{ $json.leadId }}, "content": ${JSON.stringify(TEXT)}}`, { onError: 'continueRegularOutput' }),
		http(
			'Call Task',
			660,
			`${sandbox.url}${TASK_PATH}`,
			`={"leadId": {{ $('Split Out').item.json.leadId }}, "type": "Call", "content": "Speed to lead: call this new lead now", "endAt": "{{ $now.plus({ minutes: 15 }).toISO() }}", "assignedRole": "Agent"}`,
		),
	];
	const to = (node: string) => ({ main: [[{ node, type: 'main', index: 0 }]] });
	return { name: 'bench: speed to lead (n8n nodes only)', nodes, connections: { Webhook: to('Split Out'), 'Split Out': to('First Text'), 'First Text': to('Call Task') }, settings: { executionOrder: 'v1' } };
}

/** n8n's Webhook and Split Out (as the floor) feeding the example's two Lofty nodes. */
function mixedFlow(floor: Workflow, example: Workflow, hookPath: string): Workflow {
	const [webhook, split] = floor.nodes.map((node): Json => ({ ...node, id: randomUUID() }));
	webhook.webhookId = randomUUID();
	webhook.parameters = { ...webhook.parameters, path: hookPath };
	const lofty = example.nodes.filter((node) => !node.webhookId).map((node) => JSON.parse(JSON.stringify(node).replace(/\$\('New Lead'\)/g, "$('Split Out')")) as Json);
	const to = (node: string) => ({ main: [[{ node, type: 'main', index: 0 }]] });
	const [text, task] = lofty;
	return { name: 'bench: speed to lead (n8n Webhook, Lofty nodes)', nodes: [webhook, split, text, task], connections: { Webhook: to('Split Out'), 'Split Out': to(text.name), [text.name]: to(task.name) }, settings: { executionOrder: 'v1' } };
}

async function sandboxCall(sandbox: Sandbox, method: string, p: string, body?: unknown): Promise<Json> {
	const r = await httpRequest(method, `${sandbox.url}${p}`, body === undefined ? undefined : stringifyJson(body), { Authorization: `token ${sandbox.apiKey}`, 'content-type': 'application/json' });
	if (r.status >= 300) throw new Error(`bench: sandbox ${method} ${p} answered ${r.status}: ${r.text.slice(0, 300)}`);
	return (r.text ? parseJson(r.text) : {}) as Json;
}

async function activate(n8n: N8nServer, workflowId: string): Promise<void> {
	const r = await n8n.api('POST', `/workflows/${workflowId}/activate`);
	if (r.status !== 200) throw new Error(`bench: activating ${workflowId} answered ${r.status}: ${r.text.slice(0, 500)}`);
}

/** The sandbox subscription whose callback starts with `url`, once it exists (2.41 publishes shortly after activation). */
async function subscriptionOf(sandbox: Sandbox, url: string): Promise<string> {
	for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(200)) {
		const found = [...webhookState(sandbox.store).subscriptions.values()].find((s) => s.callbackUrl.startsWith(url));
		if (found) return found.subscribeId.toString();
	}
	throw new Error(`bench: no subscription for ${url} within 60 s`);
}

/** Creates `count` leads (all at once, or one a second) while only `flow`'s subscription is on; times each to its text. */
async function measure(sandbox: Sandbox, subs: Record<Flow, string>, flow: Flow, count: number, steady: boolean): Promise<Load> {
	const state = webhookState(sandbox.store);
	// The other flow's subscription is parked on Listing Alert (list 4, which nothing here emits): it gets no event and
	// keeps none queued for later (the engine queues events for a switched-off subscription).
	for (const f of Object.keys(subs) as Flow[]) state.subscriptions.get(subs[f])!.listId = f === flow ? 2 : 4;
	const create = async (i: number) =>
		String((await sandboxCall(sandbox, 'POST', '/v1.0/leads', { firstName: `Speed${i}`, lastName: flow, phones: [`51255${String(10000 + (i % 90000)).padStart(5, '0')}`] })).leadId);
	const ids: string[] = [];
	if (steady) {
		const start = Date.now();
		for (let i = 0; i < count; i++) {
			ids.push(await create(i));
			await sleep(Math.max(0, start + (i + 1) * 1000 - Date.now()));
		}
	} else ids.push(...(await Promise.all(Array.from({ length: count }, (_, i) => create(i)))));
	const sent = (p: string, leadId: string) => sandbox.requests.filter((r) => r.method === 'POST' && r.path === p && new RegExp(`"leadId":\\s*"?${leadId}\\b`).test(r.body));
	const done = () => ids.every((id) => sent(TEXT_PATH, id).length > 0 && sent(TASK_PATH, id).length > 0);
	for (const deadline = Date.now() + 120_000; !done() && Date.now() < deadline; ) await sleep(100);
	await sleep(500); // a second text or task would come now
	const samples = ids
		.map((id) => {
			const text = sent(TEXT_PATH, id)[0];
			return text ? text.time - sandbox.store.getLead(id)!.createTime : Number.NaN;
		})
		.filter((ms) => !Number.isNaN(ms));
	const missed = ids.filter((id) => sent(TEXT_PATH, id).length !== 1 || sent(TASK_PATH, id).length !== 1).length;
	// Where the time goes: the answer to the delivery, text -> task, and any other request the flow made.
	const from = Math.min(...ids.map((id) => sandbox.store.getLead(id)!.createTime));
	const carrying = (id: string) => sandbox.webhooks.log.find((e) => e.kind === 'events' && e.outcome === 'delivered' && new RegExp(`"leadId":"?${id}\\b`).test(e.body ?? ''));
	const answered = ids.map((id) => (carrying(id)?.time ?? Number.NaN) - sandbox.store.getLead(id)!.createTime).filter((ms) => !Number.isNaN(ms));
	const textToTask = ids.map((id) => (sent(TASK_PATH, id)[0]?.time ?? Number.NaN) - (sent(TEXT_PATH, id)[0]?.time ?? Number.NaN)).filter((ms) => !Number.isNaN(ms));
	const other: Record<string, number> = {};
	for (const r of sandbox.requests) {
		if (r.time < from || r.path === TEXT_PATH || r.path === TASK_PATH || (r.method === 'POST' && r.path === '/v1.0/leads')) continue;
		other[`${r.method} ${r.path}`] = (other[`${r.method} ${r.path}`] ?? 0) + 1;
	}
	return { samples, missed, answered, textToTask, other };
}

/** Median executionTime of each node over the workflow's last saved executions (n8n's own figures). */
async function nodeTimes(n8n: N8nServer, workflowId: string): Promise<string> {
	const r = await n8n.api('GET', `/executions?workflowId=${workflowId}&includeData=true&limit=100`);
	const times: Record<string, number[]> = {};
	for (const ex of (r.json?.data ?? []) as Json[]) {
		for (const [node, runs] of Object.entries((ex.data?.resultData?.runData ?? {}) as Record<string, Json[]>)) (times[node] ??= []).push(Number(runs[0]?.executionTime ?? 0));
	}
	const gaps: number[] = [];
	for (const ex of (r.json?.data ?? []) as Json[]) {
		const runData = (ex.data?.resultData?.runData ?? {}) as Record<string, Json[]>;
		const text = runData['First Text']?.[0]?.startTime;
		if (text) gaps.push(Number(text) - Date.parse(String(ex.startedAt)));
	}
	const mid = (v: number[]) => fmt(percentile(v.sort((x, y) => x - y), 50), 0);
	return `${Object.entries(times).map(([node, v]) => `${node} ${mid(v)} ms`).join(', ')}; execution start -> First Text starts ${mid(gaps)} ms`;
}

export async function speedToLeadRow(sandbox: Sandbox): Promise<Row> {
	if (!n8nInstalled(VERSION)) console.log(`n8n ${VERSION} is not in the cache: installing it first (several minutes)`);
	sandbox.reset();
	sandbox.setRateLimit({ perWindow: 1_000_000_000, windowMs: 60_000 });
	sandbox.setLatency({ fixedMs: 0, jitterMs: 0 });
	sandbox.store.nextLeadId = 700_000_000_001n;
	configureDelivery(sandbox.store, { autoDeliver: true, allowHttpCallbacks: true, timeoutMs: 10_000 });
	const settings = n8nSettings();
	console.log(`speed to lead: n8n ${VERSION} with ${settingsText(settings)}`);
	const n8n = new N8nServer(VERSION, `bench-stl-${VERSION}`, settings);
	try {
		await n8n.start();
		const lofty = { id: await n8n.createCredential('Lofty (bench)', 'loftyApi', { apiKey: sandbox.apiKey, baseUrl: sandbox.url }), name: 'Lofty (bench)' };
		const header = { id: await n8n.createCredential('Lofty header (bench)', 'httpHeaderAuth', { name: 'Authorization', value: `token ${sandbox.apiKey}` }), name: 'Lofty header (bench)' };
		const example = exampleFlow(lofty);
		const exampleId = await n8n.createWorkflow(example);
		await activate(n8n, exampleId);
		const triggerHook = example.nodes.find((node) => node.webhookId)!.webhookId as string;
		const hookPath = `speed-to-lead-floor-${randomUUID()}`;
		const floorId = await n8n.createWorkflow(floorFlow(sandbox, header, hookPath));
		await activate(n8n, floorId);
		await sandboxCall(sandbox, 'POST', '/v1.0/webhook', { listId: 2, callbackUrl: `${n8n.base}/webhook/${hookPath}` });
		const mixedPath = `speed-to-lead-mixed-${randomUUID()}`;
		const mixedId = await n8n.createWorkflow(mixedFlow(floorFlow(sandbox, header, hookPath), example, mixedPath));
		await activate(n8n, mixedId);
		await sandboxCall(sandbox, 'POST', '/v1.0/webhook', { listId: 2, callbackUrl: `${n8n.base}/webhook/${mixedPath}` });
		const subs: Record<Flow, string> = {
			lofty: await subscriptionOf(sandbox, `${n8n.base}/webhook/${triggerHook}/`),
			floor: await subscriptionOf(sandbox, `${n8n.base}/webhook/${hookPath}`),
			mixed: await subscriptionOf(sandbox, `${n8n.base}/webhook/${mixedPath}`),
		};

		// Not measured: a fresh n8n's first executions are slower (task runner, expression isolate, JIT).
		for (const flow of ['lofty', 'floor', 'mixed'] as Flow[]) await measure(sandbox, subs, flow, 3, true);
		const figures: Record<string, number> = {};
		const lines: string[] = [];
		let worst = 0;
		for (const latencyMs of LATENCIES) {
			sandbox.setLatency(latencyMs ? latency(latencyMs) : { fixedMs: 0, jitterMs: 0 });
			const loads: Record<'steady' | 'burst', Record<Flow, Load>> = { steady: { lofty: empty(), floor: empty(), mixed: empty() }, burst: { lofty: empty(), floor: empty(), mixed: empty() } };
			for (const load of ['steady', 'burst'] as const) {
				for (const flow of ['lofty', 'floor', 'mixed', 'mixed', 'floor', 'lofty'] as Flow[]) {
					const got = await measure(sandbox, subs, flow, load === 'steady' ? STEADY : BURST, load === 'steady');
					const into = loads[load][flow];
					into.samples.push(...got.samples);
					into.answered.push(...got.answered);
					into.textToTask.push(...got.textToTask);
					into.missed += got.missed;
					for (const [k, n] of Object.entries(got.other)) into.other[k] = (into.other[k] ?? 0) + n;
				}
			}
			for (const load of ['steady', 'burst'] as const) {
				const stat = (flow: Flow) => {
					const sorted = [...loads[load][flow].samples].sort((a, b) => a - b);
					return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), n: sorted.length, missed: loads[load][flow].missed };
				};
				for (const flow of ['lofty', 'floor', 'mixed'] as Flow[]) {
					const x = loads[load][flow];
					const mid = (v: number[]) => fmt(percentile([...v].sort((p, q) => p - q), 50), 0);
					const other = Object.entries(x.other).map(([k, n]) => `${k} × ${n}`).join(', ') || 'none';
					console.log(`${latencyMs} ms, ${load}, ${flow}: p50 lead -> delivery answered ${mid(x.answered)} ms, text -> task ${mid(x.textToTask)} ms; other requests: ${other}`);
				}
				const l = stat('lofty');
				const f = stat('floor');
				const m = stat('mixed');
				if (l.missed || f.missed || m.missed) throw new Error(`bench: speed to lead, ${load}: ${l.missed} leads of the Lofty flow, ${f.missed} of the floor's and ${m.missed} of Webhook + Lofty nodes did not get exactly one text and one task`);
				const at = `${load}${latencyMs}ms`;
				Object.assign(figures, {
					[`${at}LoftyP50Ms`]: l.p50,
					[`${at}LoftyP95Ms`]: l.p95,
					[`${at}FloorP50Ms`]: f.p50,
					[`${at}FloorP95Ms`]: f.p95,
					[`${at}RatioP50`]: l.p50 / f.p50,
					[`${at}RatioP95`]: l.p95 / f.p95,
					[`${at}Leads`]: l.n,
					[`${at}MixedP50Ms`]: m.p50,
					[`${at}MixedP95Ms`]: m.p95,
					[`${at}MixedRatioP95`]: m.p95 / f.p95,
				});
				worst = Math.max(worst, l.p95 / f.p95);
				const what = load === 'steady' ? 'steady, 1 lead a second' : `burst, ${BURST} leads at once`;
				lines.push(`| ${latencyMs} ms, ${what} | ${l.n} + ${f.n} | ${fmt(l.p50, 0)} / ${fmt(l.p95, 0)} ms | ${fmt(f.p50, 0)} / ${fmt(f.p95, 0)} ms | ${fmt(l.p50 / f.p50)} | **${fmt(l.p95 / f.p95)}** | ${fmt(m.p50, 0)} / ${fmt(m.p95, 0)} ms, ${fmt(m.p95 / f.p95)} |`);
			}
		}
		const perNode = { lofty: await nodeTimes(n8n, exampleId), floor: await nodeTimes(n8n, floorId), mixed: await nodeTimes(n8n, mixedId) };
		console.log(`n8n's figures (median of the last 100 executions): Lofty flow: ${perNode.lofty}; floor: ${perNode.floor}; Webhook + Lofty nodes: ${perNode.mixed}`);
		console.log(`\nSpeed to lead in n8n ${VERSION}: lead created -> its text at the sandbox (examples/speed-to-lead.json vs the same flow with n8n's nodes only):\n`);
		console.log('| Sandbox latency, load | Leads (Lofty + floor) | Lofty p50 / p95 | Floor p50 / p95 | Ratio p50 | Ratio p95 | Webhook + Lofty nodes p50 / p95, p95 ratio |');
		console.log('|---|---|---|---|---|---|---|');
		for (const line of lines) console.log(line);
		const p95 = (at: string) => `${fmt(figures[`${at}RatioP95`])} (${fmt(figures[`${at}LoftyP95Ms`], 0)} vs ${fmt(figures[`${at}FloorP95Ms`], 0)} ms)`;
		const p50 = (at: string) => `${fmt(figures[`${at}RatioP50`])} (${fmt(figures[`${at}LoftyP50Ms`], 0)} vs ${fmt(figures[`${at}FloorP50Ms`], 0)} ms)`;
		const result = LATENCIES.map((ms) => `${ms} ms: steady ${p95(`steady${ms}ms`)}, burst ${p95(`burst${ms}ms`)}`).join('; ');
		return {
			id: 'speed-to-lead',
			name: `12. Speed to lead in n8n ${VERSION}: lead created -> first text, the example / the same flow with n8n's nodes only, p95`,
			ratio: worst,
			result,
			details: `n8n with ${settingsText(settings)}${QUICK ? ' (quick look)' : ''}; p50: ${LATENCIES.map((ms) => `${ms} ms steady ${p50(`steady${ms}ms`)}, burst ${p50(`burst${ms}ms`)}`).join('; ')}; ${STEADY * 2} steady and ${BURST * 2} burst leads per flow and latency, each one text and one task; no rate limit; n8n: ${perNode.lofty} / ${perNode.floor} / ${perNode.mixed}`,
			figures: { ...figures, n8nSettings: settingsText(settings) },
		};
	} finally {
		configureDelivery(sandbox.store, { autoDeliver: false });
		await n8n.stop();
	}
}
