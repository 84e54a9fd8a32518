/**
 * Task > Update (V1) reads a Due At without offset in the zone of the task's assignee (issue 46, item 4), as Task >
 * Update (V2) does: the V1 endpoint takes no zone and gets epoch milliseconds, so the zone decides the moment stored.
 * The assignee is the task's (GET /v1.0/tasks/{taskId}: `assignedUserId`), or, when the item gives Assigned Role, that
 * role's user on the task's lead (the task's `leadId`, then the lead). The sandbox's owner (the credential's user)
 * works in Los Angeles, the other agent in Chicago; the workflow's zone is New York.
 */
import { parseJson, SEED_IDS } from '../../sandbox';
import { TASK_SEED, taskState } from '../../sandbox/resources/task';
import { byId, run, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const NEW_YORK = { timezone: 'America/New_York', typeVersion: 1.3 };
const OTHER = SEED_IDS.otherAgentUserId; // Chicago
const puts = () => sandbox().requests.filter((r) => r.method === 'PUT').map((r) => parseJson(r.body) as Record<string, unknown>);
const reads = (prefix: string) => sandbox().requests.filter((r) => r.method === 'GET' && r.path.startsWith(prefix));
const held = (taskId: string) => taskState(sandbox().store).find(BigInt(taskId))!;
const updateV1 = (taskId: string, updateFields: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
	resource: 'task',
	operation: 'updateV1',
	taskId: byId(taskId),
	updateFields,
	...extra,
});

/** The seeded lead with the Chicago agent as its agent and an assistant in New York; the assistant's user ID. */
function teamWithAssistant(): string {
	const lead = sandbox().store.getLead(TASK_SEED.leadId)!;
	lead.assignedUserId = BigInt(OTHER);
	const assistant = [...sandbox().store.users.values()].find((u) => u.roleName === 'Assistant')!;
	assistant.timeZoneId = 'America/New_York';
	lead.customRoleList.push({ roleId: 3, role: 'Assistant', assigneeId: assistant.userId, assignee: assistant.email });
	return String(assistant.userId);
}

/** A V1 task on the seeded lead for its agent (Chicago), due with an offset (no zone read); its ID. */
async function chicagoTask(): Promise<string> {
	const made = { resource: 'task', operation: 'createV1', leadId: byId(TASK_SEED.leadId), type: 'Call', content: 'Welcome call', deadline: '2026-12-01T09:00:00-06:00', assignedRole: 'Agent' };
	const [item] = await run(sandbox(), made, NEW_YORK);
	return String(item.json.taskId);
}

describe("Task > Update (V1): a Due At without offset is read in the zone of the task's assignee", () => {
	it("09:00 for the task's Chicago agent is 09:00 in Chicago, although the lead's agent is now the Los Angeles owner", async () => {
		teamWithAssistant();
		const taskId = await chicagoTask();
		sandbox().store.getLead(TASK_SEED.leadId)!.assignedUserId = BigInt(SEED_IDS.demoUserId);
		const [item] = await run(sandbox(), updateV1(taskId, { deadline: '2026-12-03 09:00:00' }), NEW_YORK);
		expect(puts()[0]).toEqual({ deadline: Date.parse('2026-12-03T15:00:00Z') });
		expect(held(taskId).endAt).toBe(Date.parse('2026-12-03T15:00:00Z'));
		expect(item.json.timesReadIn).toEqual({
			zone: 'America/Chicago',
			from: "the assignee's time zone (Lofty's GET /v1.0/users/{userId})",
			assignee: { userId: OTHER, role: "the entry's assignee", zone: 'America/Chicago' },
			loftyUserZone: 'America/Los_Angeles',
		});
		expect(reads('/v1.0/tasks/').map((r) => r.path)).toEqual([`/v1.0/tasks/${taskId}`]);
	});

	it("a seeded task of the Chicago agent on a lead shared with the owner: read in Chicago; items on it read the task and the user once", async () => {
		const items = await run(sandbox(), updateV1(TASK_SEED.sharedLeadTaskId, { deadline: '2026-12-03T09:00:00' }), { ...NEW_YORK, items: [{}, {}] });
		expect(puts().map((p) => p.deadline)).toEqual([0, 1].map(() => Date.parse('2026-12-03T15:00:00Z')));
		expect(items.map((i) => (i.json.timesReadIn as { zone?: string }).zone)).toEqual(['America/Chicago', 'America/Chicago']);
		expect(reads('/v1.0/tasks/')).toHaveLength(1);
		expect(reads('/v1.0/users/')).toHaveLength(1);
	});

	it("Assigned Role given: the task goes to the lead's assistant (New York), and 09:00 is 09:00 in New York", async () => {
		const assistant = teamWithAssistant();
		const taskId = await chicagoTask();
		const [item] = await run(sandbox(), updateV1(taskId, { deadline: '2026-12-04T09:00:00', assignedRole: 'Assistant' }), NEW_YORK);
		expect(puts()[0]).toEqual({ deadline: Date.parse('2026-12-04T14:00:00Z'), assignedRole: 'Assistant' });
		expect(item.json.timesReadIn).toMatchObject({ zone: 'America/New_York', assignee: { userId: assistant, role: "the lead's assistant", zone: 'America/New_York' } });
		expect([String(held(taskId).assignedUserId), held(taskId).endAt]).toEqual([assistant, Date.parse('2026-12-04T14:00:00Z')]);
	});

	it('items on one task in item order: after an item reassigns it, the next reads who has it now', async () => {
		const assistant = teamWithAssistant();
		const taskId = await chicagoTask();
		const fields = [{ deadline: '2026-12-03T09:00:00' }, { deadline: '2026-12-04T09:00:00', assignedRole: 'Assistant' }, { deadline: '2026-12-05T09:00:00' }];
		const items = await run(sandbox(), (i) => updateV1(taskId, fields[i]), { ...NEW_YORK, items: [{}, {}, {}] });
		expect(puts().map((p) => new Date(p.deadline as number).toISOString())).toEqual(['2026-12-03T15:00:00.000Z', '2026-12-04T14:00:00.000Z', '2026-12-05T14:00:00.000Z']);
		expect(items.map((i) => (i.json.timesReadIn as { assignee: { userId: string } }).assignee.userId)).toEqual([OTHER, assistant, assistant]);
		expect(reads(`/v1.0/leads/${TASK_SEED.leadId}`)).toHaveLength(1);
	});

	it("the task's assignee has no zone in Lofty: the Lofty user's zone, and the output says whose may differ", async () => {
		sandbox().store.getUser(BigInt(OTHER))!.timeZoneId = undefined as never;
		const [item] = await run(sandbox(), updateV1(TASK_SEED.sharedLeadTaskId, { deadline: '2026-12-03T09:00:00' }), NEW_YORK);
		expect(puts()[0].deadline).toBe(Date.parse('2026-12-03T17:00:00Z'));
		expect(item.json.timesReadIn).toEqual({
			zone: 'America/Los_Angeles',
			from: "the Lofty user's time zone (Lofty's GET /v1.0/me): the assignee's could not be read",
			assignee: `the entry's assignee: user ${OTHER} has no time zone in Lofty; their zone may differ`,
			loftyUserZone: 'America/Los_Angeles',
		});
	});

	it("a Due At with an offset, or Times Without Offset Are In the workflow's zone: the task is not read", async () => {
		await run(sandbox(), updateV1(TASK_SEED.sharedLeadTaskId, { deadline: '2026-12-03T09:00:00-06:00' }), NEW_YORK);
		const [workflow] = await run(sandbox(), updateV1(TASK_SEED.sharedLeadTaskId, { deadline: '2026-12-03T09:00:00' }, { timesIn: 'workflow' }), NEW_YORK);
		expect(puts().map((p) => p.deadline)).toEqual([Date.parse('2026-12-03T15:00:00Z'), Date.parse('2026-12-03T14:00:00Z')]);
		expect(workflow.json.timesReadIn).toMatchObject({ zone: 'America/New_York', from: "the workflow's time zone (Times Without Offset Are In)" });
		expect(reads('/v1.0/tasks/')).toHaveLength(0);
	});
});

describe('Task > Create (V1) had no such gap: it reads Due At in the zone of the Assigned Role on the lead', () => {
	it("09:00 for the lead's Chicago agent is sent as 09:00 Chicago, and the output says so", async () => {
		teamWithAssistant();
		const made = { resource: 'task', operation: 'createV1', leadId: byId(TASK_SEED.leadId), type: 'Call', content: 'Welcome call', deadline: '2026-12-01 09:00:00', assignedRole: 'Agent' };
		const [item] = await run(sandbox(), made, NEW_YORK);
		expect(sandbox().requests.filter((r) => r.method === 'POST').map((r) => (parseJson(r.body) as { deadline: number }).deadline)).toEqual([Date.parse('2026-12-01T15:00:00Z')]);
		expect(item.json.timesReadIn).toMatchObject({ zone: 'America/Chicago', assignee: { userId: OTHER, role: "the lead's agent" } });
	});
});
