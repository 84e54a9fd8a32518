/**
 * The Lofty Trigger part of the end-to-end suite (registered by suite.ts, in its n8n and sandbox): a workflow
 * "Lofty Trigger (Lead Info, Pipeline Change) -> No Op" activated through the public API (subscriptions in the
 * sandbox), sandbox writes delivered on real timers become executions, re-sent deliveries, pings and requests
 * without the token start none, deactivation deletes the subscriptions.
 */
import { randomUUID } from 'node:crypto';

import { type Sandbox, SEED_IDS, parseJson, stringifyJson } from '../../sandbox';
import { configureDelivery } from '../../sandbox/resources/webhook/delivery';
import { type N8nServer, PACKAGE_NAME, httpRequest } from './n8nServer';
import type { Json } from './plan';

const TRIGGER_TYPE = `${PACKAGE_NAME}.loftyTrigger`;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface TriggerLifecycleSetup {
	n8n: N8nServer;
	/** The suite's sandbox, started in its beforeAll. */
	sandbox: () => Sandbox;
	creds: { api: Json };
	/** A unique node id. */
	uid: () => string;
	/** What passed, for the suite's summary. */
	report: (text: string) => void;
}

export function defineTriggerLifecycleTests(setup: TriggerLifecycleSetup): void {
	const { n8n, sandbox, creds, uid } = setup;
	// The sandbox delivers on real timers (as `npm run sandbox` does) and accepts this n8n's http:// loopback
	// callback. A workflow "Lofty Trigger (Lead Info, Pipeline Change) -> No Op" is activated through the public API,
	// sandbox writes over HTTP become executions, and deactivation removes the subscriptions.
	const TRIGGER_NODE = 'Lofty Trigger';
	const NEXT_NODE = 'After Trigger';
	const LISTS = [2, 12];
	const webhookId = randomUUID();
	let workflowId = '';
	let active = false;
	let hookUrl = '';
	let leadId = '';
	let t1 = 0;
	const done: string[] = [];

	/** A sandbox request with the demo key; the answer parsed with 64-bit ids as bigint. */
	async function sb(method: string, p: string, body?: unknown): Promise<Json> {
		const r = await httpRequest(method, `${sandbox().url}${p}`, body === undefined ? undefined : stringifyJson(body), {
			Authorization: `token ${sandbox().apiKey}`,
			'content-type': 'application/json',
		});
		if (r.status >= 300) throw new Error(`sandbox ${method} ${p} answered ${r.status}: ${r.text.slice(0, 300)}`);
		return (r.text ? parseJson(r.text) : {}) as Json;
	}

	/** The sandbox's active subscriptions whose callback is this workflow's webhook. */
	async function ours(): Promise<Array<{ subscribeId: string; listId: number; callbackUrl: string }>> {
		const list = (await sb('GET', '/v1.0/webhooks')) as unknown as Json[];
		return list
			.filter((s) => String(s.callbackUrl).split('?')[0] === hookUrl)
			.map((s) => ({ subscribeId: String(s.subscribeId), listId: Number(s.listId), callbackUrl: String(s.callbackUrl) }))
			.sort((a, b) => a.listId - b.listId);
	}

	async function executions(): Promise<Json[]> {
		const r = await n8n.api('GET', `/executions?workflowId=${workflowId}&includeData=true&limit=100`);
		if (r.status !== 200) throw new Error(`listing executions answered ${r.status}: ${r.text.slice(0, 300)}`);
		return r.json.data ?? [];
	}

	const itemsOf = (ex: Json, node = TRIGGER_NODE): Json[] => (ex.data?.resultData?.runData?.[node]?.[0]?.data?.main?.[0] ?? []).map((i: Json) => i.json);
	const finished = (ex: Json): boolean => !['new', 'running', 'waiting'].includes(ex.status) && Boolean(ex.finished || ex.stoppedAt);

	/** Polls (bounded) until every execution of the workflow has finished and `ready` holds. */
	async function waitExecutions(ready: (exs: Json[]) => boolean, what: string, timeoutMs = 30_000): Promise<Json[]> {
		const deadline = Date.now() + timeoutMs;
		let exs: Json[] = [];
		while (Date.now() < deadline) {
			exs = await executions();
			if (exs.every(finished) && ready(exs)) return exs;
			await sleep(250);
		}
		const seen = exs.map((e) => `${e.id} ${e.status}: ${itemsOf(e).map((i) => i.event).join(', ')}`).join('; ');
		const log = sandbox().webhooks.log.filter((e) => e.callbackUrl.startsWith(hookUrl)).map((e) => `${e.kind} ${e.outcome} ${e.status ?? ''} ${e.error ?? ''}`);
		throw new Error(`no ${what} within ${timeoutMs / 1000}s; executions: ${seen || 'none'}; sandbox deliveries: ${log.join('; ') || 'none'}\nn8n log tail:\n${n8n.logTail(20)}`);
	}

	/** Polls `read` (bounded) until `ready` holds; returns the last value read. */
	async function waitFor<T>(read: () => Promise<T>, ready: (value: T) => boolean, what: string, timeoutMs = 30_000): Promise<T> {
		const t = Date.now();
		const deadline = t + timeoutMs;
		for (;;) {
			const value = await read();
			if (ready(value)) {
				n8n.log(`${what}: after ${((Date.now() - t) / 1000).toFixed(1)}s`);
				return value;
			}
			if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000}s (last: ${JSON.stringify(value).slice(0, 500)})\nn8n log tail:\n${n8n.logTail(20)}`);
			await sleep(200);
		}
	}

	const post = (url: string, body: string, headers: Record<string, string> = {}) => httpRequest('POST', url, body, { 'content-type': 'application/json', ...headers });

	beforeAll(() => {
		configureDelivery(sandbox().store, { autoDeliver: true, allowHttpCallbacks: true, timeoutMs: 5000 });
		t1 = Date.now();
	});

	afterAll(async () => {
		if (active && workflowId) await n8n.api('POST', `/workflows/${workflowId}/deactivate`).catch(() => undefined);
		configureDelivery(sandbox().store, { autoDeliver: false });
		setup.report(`${done.join('; ') || 'nothing passed'} (${((Date.now() - t1) / 1000).toFixed(1)}s)`);
	});

	test('activation through the public API subscribes once per chosen event, at this n8n with a secret token', async () => {
		const trigger: Json = {
			id: uid(),
			name: TRIGGER_NODE,
			type: TRIGGER_TYPE,
			typeVersion: 1,
			position: [0, 0],
			webhookId,
			parameters: { authentication: 'apiKey', events: LISTS, fetchFullRecord: false, options: {} },
			credentials: { loftyApi: creds.api },
		};
		const next: Json = { id: uid(), name: NEXT_NODE, type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [220, 0], parameters: {} };
		workflowId = await n8n.createWorkflow({
			name: 'Lofty e2e: trigger',
			nodes: [trigger, next],
			connections: { [TRIGGER_NODE]: { main: [[{ node: NEXT_NODE, type: 'main', index: 0 }]] } },
		});
		hookUrl = `${n8n.base}/webhook/${webhookId}/webhook`;
		const created = sandbox().count('POST', '/v1.0/webhook');
		const r = await n8n.api('POST', `/workflows/${workflowId}/activate`);
		if (r.status !== 200) throw new Error(`activate answered ${r.status}: ${r.text.slice(0, 800)}\nn8n log tail:\n${n8n.logTail(20)}`);
		active = true;

		// 2.41.x publishes through an outbox: create() runs shortly after the answer, not before it.
		const subs = await waitFor(ours, (x) => x.length >= LISTS.length, 'the subscriptions of the activated workflow');
		expect(subs.map((s) => s.listId)).toEqual(LISTS);
		expect(sandbox().count('POST', '/v1.0/webhook')).toBe(created + LISTS.length);
		const tokens = subs.map((s) => new URL(s.callbackUrl).searchParams.get('token'));
		for (const s of subs) expect(s.callbackUrl).toMatch(new RegExp(`^${n8n.base.replace(/[.]/g, '\\.')}/webhook/${webhookId}/webhook\\?token=[0-9a-f]{64}$`));
		expect(new Set(tokens).size).toBe(1);
		done.push(`activated: lists ${subs.map((s) => s.listId).join(', ')} subscribed`);
	});

	test('sandbox writes over HTTP (create a lead, change its stage) start executions, one item per event', async () => {
		if (!active) throw new Error('the workflow is not active (see the activation test)');
		leadId = String((await sb('POST', '/v1.0/leads', { firstName: 'Trigger', lastName: 'E2E', stage: 'New' })).leadId);
		await sb('PUT', `/v1.0/leads/${leadId}`, { stage: 'Hot' });
		const expected = ['lead.created', 'lead.updated', 'pipeline.updated'];
		const exs = await waitExecutions((x) => x.flatMap((e) => itemsOf(e)).length >= expected.length, 'executions with the three events');

		const items = exs.flatMap((e) => itemsOf(e));
		expect(items.map((i) => i.event).sort()).toEqual(expected);
		for (const ex of exs) {
			expect(ex.status).toBe('success');
			expect(ex.mode).toBe('webhook');
			expect(itemsOf(ex, NEXT_NODE)).toHaveLength(itemsOf(ex).length);
		}
		for (const item of items) {
			expect(item).toMatchObject({ leadId, teamId: SEED_IDS.teamId, listId: item.event === 'pipeline.updated' ? 12 : 2 });
			expect(typeof item.updateTime).toBe('number');
			expect(item.updateTimeIso).toBe(new Date(item.updateTime).toISOString());
			expect(item.deliveryId).toMatch(/^[0-9a-f-]{36}$/);
		}
		expect(items.find((i) => i.event === 'pipeline.updated')).toMatchObject({ action: 'updated', oldStage: 'New', newStage: 'Hot' });
		const delivered = sandbox().webhooks.log.filter((e) => e.callbackUrl.startsWith(hookUrl) && e.kind === 'events');
		expect(delivered.map((e) => e.outcome)).toEqual(delivered.map(() => 'delivered'));
		expect(delivered).toHaveLength(exs.length);
		done.push(`${items.length} events in ${exs.length} executions`);
	});

	test('a re-sent delivery (same Service-Webhook-Id), a ping and requests without the token start no execution', async () => {
		const delivered = sandbox().webhooks.log.filter((e) => e.callbackUrl.startsWith(hookUrl) && e.kind === 'events' && e.outcome === 'delivered');
		if (!delivered.length) throw new Error('nothing was delivered (see the previous test)');
		const { callbackUrl, body, deliveryId } = delivered[0];
		const before = await executions();

		// every delivery again, as Lofty retries one whose answer it did not get
		for (const d of delivered) expect((await post(d.callbackUrl, d.body!, { 'Service-Webhook-Id': d.deliveryId! })).status).toBe(200);
		// the same Service-Webhook-Id with an event not seen before: known by the header alone
		const other = stringifyJson({ listId: 2, teamId: BigInt(SEED_IDS.teamId), updatedLead: [{ leadId: BigInt(leadId), updateTime: Date.now() - 60_000 }] });
		expect((await post(callbackUrl, other, { 'Service-Webhook-Id': deliveryId! })).status).toBe(200);
		// the delivered body under a new Service-Webhook-Id: known by its events
		expect((await post(callbackUrl, body!, { 'Service-Webhook-Id': randomUUID() })).status).toBe(200);
		// a ping gets a 2xx and starts nothing
		expect((await post(callbackUrl, '{"eventType":"ping","webhookId":1}')).status).toBe(200);
		// without the token, or with a wrong one: 401
		const fresh = stringifyJson({ listId: 2, teamId: BigInt(SEED_IDS.teamId), createdLead: [{ leadId: 1, updateTime: Date.now() }] });
		expect((await post(hookUrl, fresh, { 'Service-Webhook-Id': randomUUID() })).status).toBe(401);
		expect((await post(`${hookUrl}?token=${'0'.repeat(64)}`, fresh, { 'Service-Webhook-Id': randomUUID() })).status).toBe(401);

		// control: one more sandbox write gives exactly one new execution, with its one event
		await sb('PUT', `/v1.0/leads/${leadId}`, { lastName: 'Control' });
		await waitExecutions((x) => x.length > before.length, 'execution of the control write');
		await sleep(750);
		const after = await waitExecutions(() => true, 'finished executions');
		const added = after.filter((e) => !before.some((b) => b.id === e.id));
		expect(added.map((e) => itemsOf(e).map((i) => i.event))).toEqual([['lead.updated']]);
		expect(itemsOf(added[0])[0]).toMatchObject({ leadId, deliveryId: expect.not.stringMatching(deliveryId!) });
		done.push('duplicates, ping, no token: no execution');
	});

	test('deactivation through the public API deletes its subscriptions in the sandbox, and only those', async () => {
		if (!workflowId) throw new Error('no workflow (see the activation test)');
		const othersBefore = (await sb('GET', '/v1.0/webhooks')).length - (await ours()).length;
		const r = await n8n.api('POST', `/workflows/${workflowId}/deactivate`);
		if (r.status !== 200) throw new Error(`deactivate answered ${r.status}: ${r.text.slice(0, 800)}`);
		active = false;
		expect(await waitFor(ours, (x) => x.length === 0, 'the subscriptions to be deleted')).toEqual([]);
		expect((await sb('GET', '/v1.0/webhooks')).length).toBe(othersBefore);
		// n8n no longer serves the address
		expect((await post(hookUrl, '{"eventType":"ping","webhookId":1}')).status).toBe(404);
		done.push('deactivated: subscriptions deleted');
	});
}
