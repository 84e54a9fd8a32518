/**
 * The trigger's stage filter in a real n8n (issue 22): a second workflow, "Lofty Trigger (Pipeline Change, Only
 * When Stage Changes To: under contract) -> No Op", on the n8n the outage suite already runs. A stage change that
 * does not match is answered 2xx and starts no execution; one that matches starts exactly one, with that item.
 */
import { randomUUID } from 'node:crypto';

import { type Sandbox, SEED_IDS } from '../../sandbox';
import { type DeliveryEngine, emitStageChange } from '../../sandbox/resources/webhook/delivery';
import { webhookState } from '../../sandbox/resources/webhook';
import { type N8nServer, loftyTriggerNode } from './n8nServer';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function checkStageFilter(n8n: N8nServer, sb: Sandbox, engine: DeliveryEngine, cred: Json): Promise<void> {
	const webhookId = randomUUID();
	const trigger = loftyTriggerNode('Filtered Trigger', webhookId, { events: [12], options: { stageTo: ['under contract'] } }, cred);
	const next = { id: randomUUID(), name: 'Next', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [220, 0], parameters: {} };
	const workflowId = await n8n.createWorkflow({ name: 'Lofty e2e: filtered trigger', nodes: [trigger, next], connections: { 'Filtered Trigger': { main: [[{ node: 'Next', type: 'main', index: 0 }]] } } });
	const hookUrl = `${n8n.base}/webhook/${webhookId}/webhook`;
	const r = await n8n.api('POST', `/workflows/${workflowId}/activate`);
	if (r.status !== 200) throw new Error(`activate answered ${r.status}: ${r.text.slice(0, 600)}\n${n8n.logTail(20)}`);
	const ours = () => [...webhookState(sb.store).subscriptions.values()].filter((s) => s.callbackUrl.split('?')[0] === hookUrl);
	const attempts = () => sb.webhooks.log.filter((e) => e.callbackUrl.startsWith(hookUrl));
	const executions = async (): Promise<Json[]> => {
		const list = await n8n.api('GET', `/executions?workflowId=${workflowId}&includeData=true&limit=50`);
		if (list.status !== 200) throw new Error(`listing executions answered ${list.status}: ${list.text.slice(0, 300)}`);
		return list.json.data ?? [];
	};
	const waitUntil = async (ready: () => Promise<boolean> | boolean, what: string) => {
		for (const deadline = Date.now() + 30_000; !(await ready()); await sleep(250)) {
			if (Date.now() > deadline) throw new Error(`${what}: not within 30s\nn8n log tail:\n${n8n.logTail(25)}`);
		}
	};
	await waitUntil(() => ours().some((s) => s.active), 'the Pipeline Change subscription');

	const demo = BigInt(SEED_IDS.demoUserId);
	const lead = sb.store.addLead({ firstName: 'Filter', lastName: 'E2E', ownerUserId: demo, teamId: BigInt(SEED_IDS.teamId), assignedUserId: demo });
	const at = Date.now();
	emitStageChange(sb.store, lead, 'New', 'Hot', at);
	await engine.flush();
	expect(attempts().map((e) => [e.status, e.outcome])).toEqual([[200, 'delivered']]);
	emitStageChange(sb.store, lead, 'Hot', 'Under Contract', at + 1);
	await engine.flush();
	expect(attempts().map((e) => e.status)).toEqual([200, 200]);
	const itemsOf = (ex: Json): Json[] => (ex.data?.resultData?.runData?.['Filtered Trigger']?.[0]?.data?.main?.[0] ?? []).map((i: Json) => i.json);
	await waitUntil(async () => (await executions()).some((ex) => itemsOf(ex).length > 0 && ex.finished), 'the matching execution');
	await sleep(1500); // nothing more arrives
	const exs = await executions();
	expect(exs).toHaveLength(1);
	expect(itemsOf(exs[0])).toEqual([expect.objectContaining({ event: 'pipeline.updated', leadId: lead.leadId.toString(), oldStage: 'Hot', newStage: 'Under Contract', updateTime: at + 1 })]);

	expect((await n8n.api('POST', `/workflows/${workflowId}/deactivate`)).status).toBe(200);
	await waitUntil(() => ours().length === 0, 'the deletion of its subscription');
}
