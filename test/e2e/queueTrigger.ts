/**
 * The Lofty Trigger in queue mode (part of queue.e2e.ts): main activates it (the subscription's callback is n8n's
 * WEBHOOK_URL, the round-robin proxy), the two `n8n webhook` processes receive deliveries, the workers run them.
 *
 *   - sandbox writes delivered on real timers reach both webhook processes and run on workers
 *   - a retried delivery (same Service-Webhook-Id) sent to the other process right after the first was answered
 *     runs once
 *   - the same delivery sent to both processes at the same moment: how often it runs twice is measured (the
 *     node's memory is n8n's static data, read and written whole by each process, with no lock)
 *   - the guard docs/queue-mode.md gives for that case holds: downstream of it, each delivery runs once
 */
import { randomUUID } from 'node:crypto';

import { type Sandbox, SEED_IDS, parseJson, stringifyJson } from '../../sandbox';
import { configureDelivery } from '../../sandbox/resources/webhook/delivery';
import { PACKAGE_NAME, httpRequest } from './n8nServer';
import type { Json } from './plan';
import type { QueueN8nServer } from './queueServer';

const TRIGGER_TYPE = `${PACKAGE_NAME}.loftyTrigger`;
const TRIGGER_NODE = 'Lofty Trigger';
const NEXT_NODE = 'After Trigger';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface TriggerContext {
	n8n: () => QueueN8nServer;
	sandbox: () => Sandbox;
	creds: () => { api: Json };
	summary: string[];
}

/** A workflow Lofty Trigger (Lead Info) -> `after` nodes, activated; resolves its id and the registered callback URL. */
export async function activateTrigger(ctx: TriggerContext, name: string, after: Json[], connections: Json): Promise<{ workflowId: string; callbackUrl: string }> {
	const n8n = ctx.n8n();
	const webhookId = randomUUID();
	const trigger = {
		id: randomUUID(),
		name: TRIGGER_NODE,
		type: TRIGGER_TYPE,
		typeVersion: 1,
		position: [0, 0],
		webhookId,
		parameters: { authentication: 'apiKey', events: [2], fetchFullRecord: false, options: {} },
		credentials: { loftyApi: ctx.creds().api },
	};
	const workflowId = await n8n.createWorkflow({ name, nodes: [trigger, ...after], connections });
	const r = await n8n.api('POST', `/workflows/${workflowId}/activate`);
	if (r.status !== 200) throw new Error(`activate answered ${r.status}: ${r.text.slice(0, 500)}\n${n8n.logTail(20)}`);
	const prefix = `${n8n.webhookBase}/webhook/${webhookId}/webhook?token=`;
	for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(200)) {
		const subs = (await sandboxApi(ctx.sandbox(), 'GET', '/v1.0/webhooks')) as unknown as Json[];
		const ours = subs.find((s) => String(s.callbackUrl).startsWith(prefix));
		if (ours) return { workflowId, callbackUrl: String(ours.callbackUrl) };
	}
	throw new Error(`no subscription with a callback at ${prefix}... within 30 s\n${n8n.logTail(20)}`);
}

/** A sandbox request with the demo key; the answer parsed with 64-bit ids as bigint. */
async function sandboxApi(sandbox: Sandbox, method: string, p: string, body?: unknown): Promise<Json> {
	const r = await httpRequest(method, `${sandbox.url}${p}`, body === undefined ? undefined : stringifyJson(body), {
		Authorization: `token ${sandbox.apiKey}`,
		'content-type': 'application/json',
	});
	if (r.status >= 300) throw new Error(`sandbox ${method} ${p} answered ${r.status}: ${r.text.slice(0, 300)}`);
	return (r.text ? parseJson(r.text) : {}) as Json;
}

/** Every finished execution of the workflow, newest first, with the items of `node`. */
export async function executionsOf(n8n: QueueN8nServer, workflowId: string, node = TRIGGER_NODE): Promise<Array<{ id: string; status: string; items: Json[] }>> {
	const r = await n8n.api('GET', `/executions?workflowId=${workflowId}&includeData=true&limit=250`);
	if (r.status !== 200) throw new Error(`listing executions answered ${r.status}: ${r.text.slice(0, 300)}`);
	return (r.json.data as Json[])
		.filter((ex) => !['new', 'running', 'waiting'].includes(ex.status) && (ex.finished || ex.stoppedAt))
		.map((ex) => ({ id: String(ex.id), status: ex.status, items: (ex.data?.resultData?.runData?.[node]?.[0]?.data?.main?.[0] ?? []).map((i: Json) => i.json) }));
}

/** Waits until `ready(executions)` holds, then `settleMs` more, and reads them again. */
export async function settled(n8n: QueueN8nServer, workflowId: string, ready: (n: number) => boolean, what: string, settleMs = 2000, node = TRIGGER_NODE) {
	const deadline = Date.now() + 60_000;
	let exs = await executionsOf(n8n, workflowId, node);
	while (!ready(exs.length)) {
		if (Date.now() > deadline) throw new Error(`${what}: only ${exs.length} executions within 60 s\n${n8n.logTail(20)}`);
		await sleep(250);
		exs = await executionsOf(n8n, workflowId, node);
	}
	await sleep(settleMs);
	return executionsOf(n8n, workflowId, node);
}

/** A Lead Info delivery nobody sent before: one lead.created event. */
export function freshDelivery(leadId: bigint): { body: string; deliveryId: string } {
	return { body: stringifyJson({ listId: 2, teamId: BigInt(SEED_IDS.teamId), createdLead: [{ leadId, updateTime: Date.now() }] }), deliveryId: randomUUID() };
}

/** The callback URL on one webhook process (bypassing the proxy). */
export const onProcess = (callbackUrl: string, base: string): string => {
	const u = new URL(callbackUrl);
	return `${base}${u.pathname}${u.search}`;
};

export const post = (url: string, body: string, deliveryId: string) => httpRequest('POST', url, body, { 'content-type': 'application/json', 'Service-Webhook-Id': deliveryId });

/** Runs per delivery id, from the items of `node` in each execution. */
export function runsPerDelivery(exs: Array<{ items: Json[] }>): Map<string, number> {
	const runs = new Map<string, number>();
	for (const ex of exs) for (const id of new Set(ex.items.map((i) => String(i.deliveryId)))) runs.set(id, (runs.get(id) ?? 0) + 1);
	return runs;
}

export function defineTriggerTests(ctx: TriggerContext): void {
	describe('Lofty Trigger across two webhook processes', () => {
		let workflowId = '';
		let callbackUrl = '';
		let nextLead = 7_700_000_000_000_000n;
		/** `count` deliveries nobody sent before, one after the other, each handed to `send`; resolves their ids. */
		async function deliverEach(count: number, send: (d: { body: string; deliveryId: string }, i: number) => Promise<void>): Promise<string[]> {
			const ids: string[] = [];
			for (let i = 0; i < count; i++) {
				const d = freshDelivery(nextLead++);
				ids.push(d.deliveryId);
				await send(d, i);
			}
			return ids;
		}

		beforeAll(() => configureDelivery(ctx.sandbox().store, { autoDeliver: true, allowHttpCallbacks: true, timeoutMs: 5000 }));
		afterAll(() => configureDelivery(ctx.sandbox().store, { autoDeliver: false }));

		test('activated on main with the load balancer address; sandbox deliveries reach both webhook processes and run on workers', async () => {
			const n8n = ctx.n8n();
			const next = { id: randomUUID(), name: NEXT_NODE, type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [220, 0], parameters: {} };
			({ workflowId, callbackUrl } = await activateTrigger(ctx, 'Lofty queue e2e: trigger', [next], { [TRIGGER_NODE]: { main: [[{ node: NEXT_NODE, type: 'main', index: 0 }]] } }));
			const sent = n8n.stack.proxy.log.length;
			// One write at a time, each delivered before the next: four deliveries, round robin over the two processes.
			for (let i = 1; i <= 4; i++) {
				await sandboxApi(ctx.sandbox(), 'POST', '/v1.0/leads', { firstName: `Queue${i}`, lastName: 'Trigger', stage: 'New' });
				await settled(n8n, workflowId, (n) => n >= i, `the delivery of lead ${i}`, 0);
			}
			const exs = await settled(n8n, workflowId, (n) => n >= 4, 'four executions');
			expect(exs.map((e) => e.items.map((i) => i.event))).toEqual([['lead.created'], ['lead.created'], ['lead.created'], ['lead.created']]);
			expect(exs.map((e) => e.status)).toEqual(['success', 'success', 'success', 'success']);
			const targets = n8n.stack.proxy.log.slice(sent).map((x: Json) => x.target);
			expect(new Set(targets)).toEqual(new Set(n8n.stack.webhooks.map((w: Json) => w.base)));
			const ran = n8n.executionsByWorker();
			for (const ex of exs) expect(ran[ex.id]).toHaveLength(1);
			ctx.summary.push(`trigger: 4 sandbox deliveries via ${targets.length} proxied requests to both webhook processes, 4 executions on ${[...new Set(exs.map((e) => ran[e.id][0]))].join(' and ')}`);
		});

		test('a retried delivery (same Service-Webhook-Id) sent to the other webhook process right after the first was answered runs once', async () => {
			const n8n = ctx.n8n();
			const [a, b] = n8n.stack.webhooks.map((w: Json) => w.base);
			const before = (await executionsOf(n8n, workflowId)).length;
			const K = 10;
			const ids = await deliverEach(K, async (d, i) => {
				const [first, second] = i % 2 ? [b, a] : [a, b];
				expect((await post(onProcess(callbackUrl, first), d.body, d.deliveryId)).status).toBe(200);
				expect((await post(onProcess(callbackUrl, second), d.body, d.deliveryId)).status).toBeLessThan(300);
			});
			const exs = await settled(n8n, workflowId, (n) => n >= before + K, `${K} executions`);
			const runs = runsPerDelivery(exs);
			expect(ids.map((id) => runs.get(id) ?? 0)).toEqual(ids.map(() => 1));
			ctx.summary.push(`trigger: ${K} deliveries each re-sent to the other webhook process after the answer: ${K} runs, none twice`);
		});

		test('the same delivery sent to both webhook processes at the same moment: measured, never lost', async () => {
			const n8n = ctx.n8n();
			const [a, b] = n8n.stack.webhooks.map((w: Json) => w.base);
			const before = (await executionsOf(n8n, workflowId)).length;
			const K = 20;
			const ids = await deliverEach(K, async (d) => {
				const answers = await Promise.all([post(onProcess(callbackUrl, a), d.body, d.deliveryId), post(onProcess(callbackUrl, b), d.body, d.deliveryId)]);
				// at least one process took it (2xx); the other either took it too or asked for it again later
				expect(answers.some((x) => x.status === 200)).toBe(true);
			});
			const exs = await settled(n8n, workflowId, (n) => n >= before + K, `${K} executions`);
			const runs = ids.map((id) => runsPerDelivery(exs).get(id) ?? 0);
			// never lost, at most once per webhook process
			expect(runs.filter((r) => r < 1 || r > 2)).toEqual([]);
			const twice = runs.filter((r) => r === 2).length;
			ctx.summary.push(`trigger: ${K} deliveries each sent to both webhook processes at once: ${twice} of ${K} ran twice`);
		});
		test('guard 1, at the load balancer: routed by URL path, both copies reach one webhook process, which runs the delivery once', async () => {
			const n8n = ctx.n8n();
			const before = (await executionsOf(n8n, workflowId)).length;
			const viaProxy = onProcess(callbackUrl, n8n.webhookBase);
			const sent = n8n.stack.proxy.log.length;
			n8n.stack.proxy.setRouting('by-path');
			const K = 20;
			let ids: string[];
			try {
				ids = await deliverEach(K, async (d) => {
					await Promise.all([post(viaProxy, d.body, d.deliveryId), post(viaProxy, d.body, d.deliveryId)]);
				});
			} finally {
				n8n.stack.proxy.setRouting('round-robin');
			}
			const exs = await settled(n8n, workflowId, (n) => n >= before + K, `${K} executions`, 3000);
			const runs = runsPerDelivery(exs);
			expect(new Set(n8n.stack.proxy.log.slice(sent).map((x: Json) => x.target)).size).toBe(1);
			expect(ids.map((id) => runs.get(id) ?? 0)).toEqual(ids.map(() => 1));
			ctx.summary.push(`trigger guard 1 (routing by path): ${K} deliveries each sent twice at once: all ${K} ran once`);
		});

		test('guard 2, in the workflow: Redis Increment keyed on deliveryId, then If = 1, lets each delivery through once (Remove Duplicates does not: measured)', async () => {
			const n8n = ctx.n8n();
			const [a, b] = n8n.stack.webhooks.map((w: Json) => w.base);
			const redis = { id: await n8n.createCredential('Redis (queue e2e)', 'redis', { host: '127.0.0.1', port: n8n.stack.redis.port, password: '', database: 0 }), name: 'Redis (queue e2e)' };
			const node = (name: string, type: string, typeVersion: number, x: number, parameters: Json, extra: Json = {}) => ({ id: randomUUID(), name, type, typeVersion, position: [x, 0], parameters, ...extra });
			// The guard as a user builds it: Lofty Trigger -> Redis Increment -> If (= 1) -> the rest of the workflow.
			// Beside it, on a second branch, what Remove Duplicates (n8n's own dedupe, kept in its database) lets through.
			const nodes = [
				node('Claim Delivery', 'n8n-nodes-base.redis', 1, 220, { operation: 'incr', key: '=lofty-delivery:{{ $json.deliveryId }}:{{ $itemIndex }}', expire: true, ttl: 172800 }, { credentials: { redis } }),
				node('First Time', 'n8n-nodes-base.if', 2.2, 440, {
					conditions: {
						options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
						conditions: [{ id: randomUUID(), leftValue: '={{ Object.values($json)[0] }}', rightValue: 1, operator: { type: 'number', operation: 'equals' } }],
						combinator: 'and',
					},
					options: {},
				}),
				node('Once Per Delivery', 'n8n-nodes-base.set', 3.4, 660, {
					mode: 'manual',
					assignments: { assignments: [{ id: randomUUID(), name: 'deliveryId', value: "={{ $('Lofty Trigger').item.json.deliveryId }}", type: 'string' }] },
					options: {},
				}),
				node(
					'Remove Duplicates',
					'n8n-nodes-base.removeDuplicates',
					2,
					220,
					{ operation: 'removeItemsSeenInPreviousExecutions', logic: 'removeItemsWithAlreadySeenKeyValues', dedupeValue: '={{ $json.deliveryId }}', options: {} },
					{ onError: 'continueRegularOutput' },
				),
			];
			const link = (...to: string[]) => ({ main: [to.map((n) => ({ node: n, type: 'main', index: 0 }))] });
			const guarded = await activateTrigger(ctx, 'Lofty queue e2e: trigger with guards', nodes, {
				[TRIGGER_NODE]: link('Claim Delivery', 'Remove Duplicates'),
				'Claim Delivery': link('First Time'),
				'First Time': link('Once Per Delivery'),
			});
			const K = 20;
			const ids = await deliverEach(K, async (d) => {
				await Promise.all([post(onProcess(guarded.callbackUrl, a), d.body, d.deliveryId), post(onProcess(guarded.callbackUrl, b), d.body, d.deliveryId)]);
			});
			const exs = await settled(n8n, guarded.workflowId, (n) => n >= K, `${K} executions`, 3000);
			const count = async (name: string) => runsPerDelivery(await executionsOf(n8n, guarded.workflowId, name));
			const [triggered, deduped, once] = [runsPerDelivery(exs), await count('Remove Duplicates'), await count('Once Per Delivery')];
			const twice = (m: Map<string, number>) => ids.filter((id) => (m.get(id) ?? 0) > 1).length;
			ctx.summary.push(
				`trigger guard 2 (Redis Increment + If): ${K} deliveries each sent to both processes at once: ${twice(triggered)} ran twice at the trigger, ` +
					`${twice(deduped)} still twice after Remove Duplicates, ${twice(once)} after the Redis guard (${exs.filter((e) => e.status !== 'success').length} executions not successful)`,
			);
			expect(ids.map((id) => once.get(id) ?? 0)).toEqual(ids.map(() => 1));
		});
	});
}
