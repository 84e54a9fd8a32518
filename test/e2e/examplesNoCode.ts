/**
 * The follow-up-tasks example run as its users run it (registered by editor.e2e.ts, on its n8n), against a sandbox of
 * its own: examples/follow-up-tasks.json as shipped (only its credential swapped for one on the sandbox), run from
 * its Manual Trigger.
 *   - Once: each of the 5 newest leads gets one "Welcome call" task, due tomorrow (in the workflow's time zone,
 *     America/Los_Angeles, whatever n8n's own zone is: America/New_York here) at 09:00 where the lead's agent works,
 *     and Lofty holds it in that zone (timeZoneCode).
 *   - Twice: Lofty's tasks are exactly as after one run (meant for a daily schedule).
 *   - A welcome call already done (finished) is not created again.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { DateTime } from 'luxon';

import { type Sandbox, startSandbox } from '../../sandbox';
import { taskState } from '../../sandbox/resources/task';
import type { N8nServer } from './n8nServer';
import { PACKAGE_NAME, ROOT } from './n8nServer';

interface ExampleNode {
	name: string;
	type: string;
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
}
interface Example {
	name: string;
	nodes: ExampleNode[];
	connections: unknown;
	settings: { timezone?: string };
}

export function exampleRunChecks(t: { server: N8nServer; log: (msg: string) => void }): void {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, rateLimit: { perWindow: 1_000_000, windowMs: 60_000 } });
	});
	afterAll(async () => await sandbox?.stop());

	/** Every live task: what a run may change. */
	const tasks = () =>
		[...taskState(sandbox.store).entries.values()]
			.filter((e) => !e.deleteFlag)
			.map((e) => ({ id: String(e.id), leadId: String(e.leadId), type: e.type, content: e.content, endAt: e.endAt, timeZoneCode: e.timeZoneCode, finishFlag: e.finishFlag }))
			.sort((a, b) => a.id.localeCompare(b.id));
	const welcomeCalls = () => tasks().filter((x) => /^Welcome call/i.test(x.content));

	test('examples/follow-up-tasks.json: one welcome call per new lead, due tomorrow 09:00 in the agent\'s zone; a second run changes nothing', async () => {
		const example = JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', 'follow-up-tasks.json'), 'utf8')) as Example;
		const zone = example.settings.timezone;
		expect(zone).toBe('America/Los_Angeles');
		const credId = await t.server.createCredential('Lofty API (examples sandbox)', 'loftyApi', { apiKey: sandbox.apiKey, baseUrl: sandbox.url });
		for (const n of example.nodes) if (n.type.startsWith(`${PACKAGE_NAME}.`)) n.credentials = { loftyApi: { id: credId, name: 'Lofty API (examples sandbox)' } };
		const id = await t.server.createWorkflow({ name: example.name, nodes: example.nodes, connections: example.connections, settings: example.settings });
		const trigger = example.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger')!.name;
		const items = (run: { runData: Record<string, any[]> }, node: string) => (run.runData[node] ?? []).flatMap((r) => r.data?.main?.[0] ?? []); // eslint-disable-line @typescript-eslint/no-explicit-any

		const before = tasks();
		const first = await t.server.runWorkflow(id, trigger);
		expect([first.status, first.error?.message]).toEqual(['success', undefined]);
		const newest = items(first, 'Newest Leads').map((i) => String(i.json.leadId));
		expect(newest).toHaveLength(5);
		const afterOne = tasks();
		const created = afterOne.filter((x) => !before.some((b) => b.id === x.id));
		// One Call task per newest lead, named after it.
		expect(created.map((x) => x.leadId).sort()).toEqual([...newest].sort());
		for (const x of created) expect([x.type, x.content]).toEqual(['Call', expect.stringMatching(/^Welcome call: /)]);
		// Due tomorrow ("tomorrow" counted from the run's start in the workflow's zone) at 09:00 in the lead's agent's
		// zone, and held in that zone.
		const tomorrow = DateTime.fromISO(String(first.raw.startedAt)).setZone(zone).plus({ days: 1 }).toFormat('yyyy-MM-dd');
		const agentZone = (leadId: string) => sandbox.store.getUser(sandbox.store.getLead(leadId)!.assignedUserId!)!.timeZoneId;
		const due = (leadId: string) => DateTime.fromISO(`${tomorrow}T09:00`, { zone: agentZone(leadId) });
		for (const x of created) expect([DateTime.fromMillis(x.endAt).setZone(agentZone(x.leadId)).toISO(), x.timeZoneCode]).toEqual([due(x.leadId).toISO(), agentZone(x.leadId)]);
		t.log(`follow-up example, run 1: ${created.length} welcome calls, due ${created.map((x) => due(x.leadId).toISO()).join(', ')}`);

		const second = await t.server.runWorkflow(id, trigger);
		expect([second.status, second.error?.message]).toEqual(['success', undefined]);
		expect(items(second, 'Create Follow-up Task')).toHaveLength(0);
		expect(tasks()).toEqual(afterOne);

		// The agent made one of the calls: finishing it does not bring the task back.
		const done = taskState(sandbox.store).find(BigInt(created[0].id))!;
		done.finishFlag = true;
		const third = await t.server.runWorkflow(id, trigger);
		expect([third.status, third.error?.message]).toEqual(['success', undefined]);
		expect(welcomeCalls().map((x) => x.id)).toEqual(afterOne.filter((x) => /^Welcome call/i.test(x.content)).map((x) => x.id));
		t.log(`follow-up example: runs 2 and 3 created ${items(second, 'Create Follow-up Task').length + items(third, 'Create Follow-up Task').length} tasks; ${welcomeCalls().length} welcome calls in the sandbox`);
	});
}
