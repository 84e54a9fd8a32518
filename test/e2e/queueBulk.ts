/**
 * A bulk job in queue mode: `n` lead updates with one credential, split over `jobs` executions started together
 * (Manual Trigger -> Code node emitting {leadId, i} -> Lofty Lead > Update), each taken by a worker. Used by the
 * queue suite (pacing across workers: behaviour) and by `npm run bench` (bench/queueBulk.ts: times).
 *
 * What it reports comes from n8n's saved executions and the sandbox's request log, deltas over this job only:
 * items and failed items, PUTs sent and refused (429), leads written more than once, leads holding the new name,
 * which worker ran each execution, and the job's time: from the first Update node's start to the last one's end.
 */
import { randomUUID } from 'node:crypto';

import { SEED_IDS, type Sandbox } from '../../sandbox';
import { NODE_TYPE } from './n8nServer';
import type { Json } from './plan';
import type { QueueN8nServer } from './queueServer';

const TRIGGER = 'Manual Trigger';
export const UPDATE_NODE = 'Update Leads';

export interface BulkOutcome {
	jobs: number;
	n: number;
	statuses: string[];
	items: number;
	failed: number;
	/** PUTs that reached the sandbox, and how many were answered 429 */
	sent: number;
	refused: number;
	/** leads with more than one successful PUT (a write applied twice) */
	writtenTwice: number;
	/** leads that end up with the name their item set */
	updated: number;
	/** the worker of each execution */
	workers: string[];
	/** most PUTs that reached the sandbox within any `windowMs` (whether the job came up against the limit) */
	busiest: number;
	/** the limit's windows the job's requests fell into, opened as Lofty (the sandbox) opens them: at the first request after the last one ended */
	windows: number;
	jobMs: number;
	errors: string[];
}

function bulkWorkflow(name: string, ids: string[], offset: number, credential: Json) {
	// Lofty IDs exceed 2^53: they stay strings all the way into the URL.
	const jsCode = `const ids = ${JSON.stringify(ids)};\nreturn ids.map((leadId, i) => ({ json: { leadId, i: i + ${offset} } }));`;
	const update = {
		id: randomUUID(),
		name: UPDATE_NODE,
		type: NODE_TYPE,
		typeVersion: 1,
		position: [440, 0],
		parameters: {
			authentication: 'apiKey',
			resource: 'lead',
			operation: 'update',
			leadId: { __rl: true, mode: 'id', value: '={{ $json.leadId }}' },
			updateFields: { firstName: '=Bulk{{ $json.i }}' },
		},
		credentials: { loftyApi: credential },
	};
	const nodes = [
		{ id: randomUUID(), name: TRIGGER, type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		{ id: randomUUID(), name: 'Leads', type: 'n8n-nodes-base.code', typeVersion: 2, position: [220, 0], parameters: { jsCode } },
		update,
	];
	const to = (node: string) => ({ main: [[{ node, type: 'main', index: 0 }]] });
	return { name, nodes, connections: { [TRIGGER]: to('Leads'), Leads: to(UPDATE_NODE) } };
}

/** The most of these times (ascending) within any `windowMs`. */
function busiest(times: number[], windowMs: number): number {
	let most = 0;
	for (let first = 0, last = 0; last < times.length; last++) {
		while (times[last] - times[first] >= windowMs) first++;
		most = Math.max(most, last - first + 1);
	}
	return most;
}

/** How many fixed windows of `windowMs` these times (ascending) fall into, each opened by the first time after the last one ended. */
function windowsOf(times: number[], windowMs: number): number {
	let count = 0;
	let start = -Infinity;
	for (const time of times) {
		if (time < start + windowMs) continue;
		start = time;
		count++;
	}
	return count;
}

/** Adds `n` leads, then runs the job; `label` names the workflows; `windowMs`: the limit's window, for `busiest`. */
export async function runBulk(
	n8n: QueueN8nServer,
	sandbox: Sandbox,
	credential: Json,
	{ jobs, n, label, windowMs = 6000 }: { jobs: number; n: number; label: string; windowMs?: number },
): Promise<BulkOutcome> {
	const ids: string[] = [];
	for (let i = 0; i < n; i++)
		ids.push(sandbox.store.addLead({ firstName: `Before${i}`, lastName: 'Queue', ownerUserId: SEED_IDS.demoUserId, source: 'Bench' }).leadId.toString());
	const per = Math.ceil(n / jobs);
	const workflowIds: string[] = [];
	for (let j = 0; j < jobs; j++) workflowIds.push(await n8n.createWorkflow(bulkWorkflow(`bulk ${label} ${j + 1}/${jobs}`, ids.slice(j * per, (j + 1) * per), j * per, credential)));
	const before = sandbox.requests.length;
	// Started together: each execution goes to the queue at once, and a free worker takes it.
	const executions = await Promise.all(workflowIds.map((id) => n8n.runWorkflow(id, TRIGGER, 600_000)));
	const requests = sandbox.requests.slice(before);
	const puts = requests.filter((r) => r.method === 'PUT');
	const ran = n8n.executionsByWorker();
	const runs = executions.map((ex) => ex.runData[UPDATE_NODE]?.at(-1));
	const out: Json[] = runs.flatMap((run) => (run?.data?.main?.[0] ?? []).map((item: Json) => item.json));
	const perLead = new Map<string, number>();
	for (const r of puts.filter((p) => p.status < 300)) perLead.set(r.path, (perLead.get(r.path) ?? 0) + 1);
	const starts = runs.map((run) => run?.startTime ?? 0);
	const ends = runs.map((run) => (run?.startTime ?? 0) + (run?.executionTime ?? 0));
	return {
		jobs,
		n,
		statuses: executions.map((ex) => ex.status),
		items: out.length,
		failed: out.filter((json) => json.error !== undefined).length,
		sent: puts.length,
		refused: puts.filter((r) => r.status === 429).length,
		writtenTwice: [...perLead.values()].filter((c) => c > 1).length,
		updated: ids.filter((leadId, i) => sandbox.store.getLead(leadId)?.firstName === `Bulk${i}`).length,
		workers: executions.map((ex) => ran[ex.id]?.join('+') ?? 'none'),
		busiest: busiest(puts.map((r) => r.time).sort((x, y) => x - y), windowMs),
		windows: windowsOf(requests.map((r) => r.time).sort((x, y) => x - y), windowMs),
		jobMs: Math.max(...ends) - Math.min(...starts),
		errors: [...new Set(out.filter((json) => json.error !== undefined).map((json) => String(json.error).slice(0, 160)))],
	};
}
