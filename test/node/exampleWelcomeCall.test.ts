/**
 * examples/follow-up-tasks.json (Example 2) keeps docs/operations.md's promise: a welcome call is due tomorrow at
 * 09:00 where the lead's agent works, and Lofty holds it there (issue 46, item 4). The example's Task: Create node is
 * run as shipped: its `{{ }}` expressions evaluated as plain JavaScript with `$json` (the lead) and `$now` (now in the
 * workflow's zone, as n8n gives it), at the node version and in the workflow's zone the example is saved with. The
 * sandbox's owner (the credential user) works in Los Angeles, the other agent in Chicago.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { DateTime } from 'luxon';

import { SEED_IDS } from '../../sandbox';
import { TASK_SEED } from '../../sandbox/resources/task';
import { byId, run, useSandbox } from '../harness/sandbox';

interface ExampleNode {
	name: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
}
const wf = JSON.parse(readFileSync(join(__dirname, '..', '..', 'examples', 'follow-up-tasks.json'), 'utf8')) as { nodes: ExampleNode[]; settings: { timezone: string } };
const create = wf.nodes.find((n) => n.name === 'Create Follow-up Task')!;
const zone = wf.settings.timezone;

/** A parameter value with its expressions evaluated for one lead. */
function render(value: unknown, $json: Record<string, unknown>, $now: DateTime): unknown {
	if (typeof value === 'string' && value.startsWith('=')) {
		const evaluate = (expr: string) => new Function('$json', '$now', `return (${expr});`)($json, $now) as unknown;
		const whole = /^=\{\{([\s\S]*)\}\}$/.exec(value.trim());
		if (whole && !whole[1].includes('}}')) return evaluate(whole[1]);
		return value.slice(1).replace(/\{\{([\s\S]*?)\}\}/g, (_, expr: string) => String(evaluate(expr)));
	}
	if (Array.isArray(value)) return value.map((v) => render(v, $json, $now));
	if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, render(v, $json, $now)]));
	return value;
}

const sandbox = useSandbox();

async function welcomeCallFor(agentUserId: string) {
	const lead = sandbox().store.getLead(TASK_SEED.leadId)!;
	lead.assignedUserId = BigInt(agentUserId);
	const $now = DateTime.now().setZone(zone);
	const params = render(create.parameters, { leadId: TASK_SEED.leadId, firstName: lead.firstName, lastName: lead.lastName, source: 'Zillow' }, $now) as Record<string, unknown>;
	const [made] = await run(sandbox(), params, { typeVersion: create.typeVersion, timezone: zone });
	const [stored] = await run(sandbox(), { resource: 'task', operation: 'get', taskId: byId(String(made.json.taskId)), output: 'raw' }, { typeVersion: create.typeVersion });
	return { $now, stored: stored.json as { endAt: string; timeZoneCode: string } };
}

describe('examples/follow-up-tasks.json: the welcome call is due tomorrow at 09:00 in the lead agent\'s zone, and held there', () => {
	it.each([
		['the Chicago agent', SEED_IDS.otherAgentUserId, 'America/Chicago'],
		['the Los Angeles owner', SEED_IDS.demoUserId, 'America/Los_Angeles'],
	])('a lead of %s', async (_who, agentUserId, agentZone) => {
		const { $now, stored } = await welcomeCallFor(agentUserId);
		// "Tomorrow" is counted in the workflow's zone (the example's $now), 09:00 is the agent's.
		const due = DateTime.fromISO(`${$now.plus({ days: 1 }).toFormat('yyyy-MM-dd')}T09:00:00`, { zone: agentZone });
		expect(stored).toMatchObject({ endAt: due.toISO({ suppressMilliseconds: true }), timeZoneCode: agentZone });
	});
});
