/**
 * What the polling e2e runs share (polling.e2e.ts, pollingScroll.ts): the workflow with a Lofty Polling Trigger
 * polling every minute, its executions as n8n's public API lists them, and the items the trigger emitted in them.
 */
import { randomBytes } from 'node:crypto';

import type { Sandbox } from '../../sandbox';
import { type N8nServer, PACKAGE_NAME } from './n8nServer';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const TRIGGER = 'Lofty Polling Trigger';

/**
 * n8n 2.41.1's database-backed poll scheduler (off by default there): it runs polls as leased tasks, gives up on one
 * after N8N_SCHEDULER_POLL_TIMEOUT (45 s) and offers the node getPollBudgetMs() (36 s); it needs the workflow
 * publication service (on by default in 2.41). Read from n8n's @n8n/config scheduler.config and durable-poller-chain.
 * Not N8N_POLLER_DURABLE_CURSORS_ENABLED: with it, 2.41.1 committed nothing of a poll that returned no items (each
 * poll started from empty static data until a restart) (docs/triggers.md, Lofty Polling Trigger).
 */
export const DURABLE_SCHEDULER = { N8N_SCHEDULER_ENABLED: 'true', N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true' };

/** A workflow of the trigger (Every Minute, API key credential of `sandbox`) and a No Op after it; its ID. */
export async function createPollingWorkflow(n8n: N8nServer, sandbox: Sandbox, name: string, events: string[]): Promise<string> {
	const credential = await n8n.createCredential('Lofty API (polling e2e)', 'loftyApi', { apiKey: sandbox.apiKey, baseUrl: sandbox.url });
	return await n8n.createWorkflow({
		name,
		nodes: [
			{
				id: randomBytes(8).toString('hex'),
				name: TRIGGER,
				type: `${PACKAGE_NAME}.loftyPollingTrigger`,
				typeVersion: 1,
				position: [0, 0],
				parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] }, authentication: 'apiKey', events, options: {} },
				credentials: { loftyApi: { id: credential, name: 'Lofty API (polling e2e)' } },
			},
			{ id: randomBytes(8).toString('hex'), name: 'Next', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [220, 0], parameters: {} },
		],
		connections: { [TRIGGER]: { main: [[{ node: 'Next', type: 'main', index: 0 }]] } },
	});
}

/** Finished executions with their data, by n8n's address and ID: they do not change. */
const stored = new Map<string, Json>();

/**
 * The workflow's executions (at most the newest 250), oldest first, each finished one with its data. The list comes
 * without data, and each finished execution's data is fetched once: a test that waits for items asks every second
 * or two, and parsing every execution's items each time (thousands of leads) held up this process's event loop,
 * where the sandbox's answers wait for their latency.
 */
export async function executionsOf(n8n: N8nServer, workflowId: string): Promise<Json[]> {
	const r = await n8n.api('GET', `/executions?workflowId=${workflowId}&limit=250`);
	if (r.status !== 200) throw new Error(`listing executions answered ${r.status}: ${r.text.slice(0, 300)}`);
	const out: Json[] = [];
	for (const ex of (r.json.data ?? []) as Json[]) {
		const key = `${n8n.base} ${ex.id}`;
		let full = stored.get(key);
		if (!full && finished(ex)) {
			const one = await n8n.api('GET', `/executions/${ex.id}?includeData=true`);
			if (one.status !== 200) throw new Error(`reading execution ${ex.id} answered ${one.status}: ${one.text.slice(0, 300)}`);
			full = one.json as Json;
			// n8n 1.x marks an execution finished a moment before its data is stored: kept once the data is there.
			if (full.status !== 'success' || full.data?.resultData !== undefined) stored.set(key, full);
		}
		out.push(full ?? ex);
	}
	return out.sort((a, b) => Number(a.id) - Number(b.id));
}

/** The items the trigger emitted in an execution. */
export const itemsOf = (ex: Json): Json[] => (ex.data?.resultData?.runData?.[TRIGGER]?.[0]?.data?.main?.[0] ?? []).map((i: Json) => i.json);

export const finished = (ex: Json): boolean => !['new', 'running', 'waiting'].includes(ex.status) && Boolean(ex.finished || ex.stoppedAt);

/** An item's event and record: the same record emitted twice has the same key. */
export const keyOf = (item: Json): string => `${item.event}:${item.leadId}:${item.timelineId ?? ''}`;

/** Activates the workflow (its first poll runs during the call) and waits until that poll read `paths` of Lofty. */
export async function activate(n8n: N8nServer, sandbox: Sandbox, workflowId: string, paths: string[]): Promise<number> {
	const before = sandbox.requests.length;
	const r = await n8n.api('POST', `/workflows/${workflowId}/activate`);
	if (r.status !== 200) throw new Error(`activate answered ${r.status}: ${r.text.slice(0, 600)}\n${n8n.logTail(20)}`);
	const activatedAt = Date.now();
	// the first poll runs during activation (the answer comes after it): the wait is for a slow sandbox log
	const deadline = Date.now() + 300_000;
	const polled = () => paths.every((path) => sandbox.requests.slice(before).some((q) => q.path === path && q.method === 'GET'));
	while (!polled() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
	if (!polled()) throw new Error(`the first poll did not read ${paths.join(', ')}`);
	return activatedAt;
}
