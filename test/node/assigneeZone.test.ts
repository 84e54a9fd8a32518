/**
 * A time without offset for an entry assigned by role (Assigned Role: the lead's agent or assistant) is read in the
 * assignee's zone (issue 37, item 2): the sandbox's owner (the credential's user) works in Los Angeles, the other
 * agents in Chicago; a 09:00 welcome call for the lead's Chicago agent is 09:00 in Chicago, and the output names both
 * zones. Where Lofty does not tell the assignee, the Lofty user's zone is used and the output says the assignee's may
 * differ.
 */
import type { ILoadOptionsFunctions } from 'n8n-workflow';

import { parseJson, SEED_IDS } from '../../sandbox';
import { CALENDAR_SEED } from '../../sandbox/resources/calendar';
import { TASK_SEED } from '../../sandbox/resources/task';
import { getAssigneeTimeReadings } from '../../nodes/Lofty/model/agentZone';
import { createContext } from '../harness/context';
import { apiKeyCredential, byId, node, run, useSandbox } from '../harness/sandbox';
import { welcomeCall } from './welcomeCall';

const sandbox = useSandbox();
const NEW_YORK = { timezone: 'America/New_York', typeVersion: 1.3 };
const sent = () => sandbox().requests.filter((r) => r.method === 'POST').map((r) => parseJson(r.body) as Record<string, unknown>);
const lead = () => sandbox().store.getLead(TASK_SEED.leadId)!;
const task = welcomeCall;

describe("a time for the lead's agent or assistant is read in the assignee's zone", () => {
	it("Task > Create for the lead's Chicago agent: 09:00 is 09:00 in Chicago; the output names both zones", async () => {
		lead().assignedUserId = BigInt(SEED_IDS.otherAgentUserId);
		const [item] = await run(sandbox(), task(), NEW_YORK);
		expect(sent()[0].endAt).toBe('2026-12-01T09:00:00-06:00');
		expect(item.json.timesReadIn).toEqual({
			zone: 'America/Chicago',
			from: "the assignee's time zone (Lofty's GET /v1.0/users/{userId})",
			assignee: { userId: SEED_IDS.otherAgentUserId, role: "the lead's agent", zone: 'America/Chicago' },
			loftyUserZone: 'America/Los_Angeles',
		});
	});

	it("Appointment > Create for the lead's assistant in New York, and Task > Create (V1): the assistant's zone", async () => {
		const assistant = [...sandbox().store.users.values()].find((u) => u.roleName === 'Assistant')!;
		assistant.timeZoneId = 'America/New_York';
		lead().customRoleList.push({ roleId: 3, role: 'Assistant', assigneeId: assistant.userId, assignee: assistant.email });
		const [appointment] = await run(
			sandbox(),
			{ resource: 'appointment', operation: 'create', leadId: byId(TASK_SEED.leadId), content: 'Showing', startAt: '2026-12-02T10:00:00', endAt: '2026-12-02T11:00:00', assignedRole: 'Assistant' },
			{ ...NEW_YORK, timezone: 'Europe/Berlin' },
		);
		expect(sent()[0]).toMatchObject({ startAt: '2026-12-02T10:00:00-05:00', endAt: '2026-12-02T11:00:00-05:00' });
		expect(appointment.json.timesReadIn).toMatchObject({ zone: 'America/New_York', assignee: { role: "the lead's assistant", zone: 'America/New_York' } });
		await run(sandbox(), { resource: 'task', operation: 'createV1', leadId: byId(TASK_SEED.leadId), type: 'Call', content: 'x', deadline: '2026-12-01 09:00:00', assignedRole: 'Assistant' }, NEW_YORK);
		expect(sent()[1].deadline).toBe(Date.parse('2026-12-01T14:00:00Z'));
	});

	it("the assignee cannot be told (the lead has no agent): the Lofty user's zone, and the output says the assignee's may differ", async () => {
		lead().assignedUserId = null as never;
		const [item] = await run(sandbox(), task(), NEW_YORK);
		expect(sent()[0].endAt).toBe('2026-12-01T09:00:00-08:00');
		expect(item.json.timesReadIn).toEqual({
			zone: 'America/Los_Angeles',
			from: "the Lofty user's time zone (Lofty's GET /v1.0/me): the assignee's could not be read",
			assignee: "the lead's agent: the lead has no assigned agent; their zone may differ",
			loftyUserZone: 'America/Los_Angeles',
		});
	});

	it("Task > Update whose entry's assignee has no zone in Lofty: the Lofty user's zone, and the output says whose may differ", async () => {
		lead().assignedUserId = BigInt(SEED_IDS.otherAgentUserId);
		const [made] = await run(sandbox(), task({ endAt: '2026-12-01T09:00:00-06:00' }), NEW_YORK);
		sandbox().store.getUser(BigInt(SEED_IDS.otherAgentUserId))!.timeZoneId = undefined as never;
		const [item] = await run(sandbox(), { resource: 'task', operation: 'update', taskId: byId(String(made.json.taskId)), updateFields: { endAt: '2026-12-03T09:00:00' } }, NEW_YORK);
		expect(parseJson(sandbox().requests.filter((r) => r.method === 'PUT')[0].body)).toEqual({ endAt: '2026-12-03T09:00:00-08:00', timeZoneCode: 'America/Los_Angeles' });
		expect(item.json.timesReadIn).toMatchObject({
			zone: 'America/Los_Angeles',
			assignee: `the entry's assignee: user ${SEED_IDS.otherAgentUserId} has no time zone in Lofty; their zone may differ`,
		});
	});

	it("Calendar > Update reads its entry as the V2 task it is, once per execution; an assignee without a zone: the Lofty user's, said", async () => {
		sandbox().store.getUser(BigInt(SEED_IDS.otherAgentUserId))!.timeZoneId = undefined as never;
		const day = new Date(Date.now() + 6 * 86_400_000).toISOString().slice(0, 10);
		const entry = CALENDAR_SEED.sharedLeadAppointment; // the other agent's
		const items = await run(sandbox(), { resource: 'calendar', operation: 'update', calendarId: byId(entry), updateFields: { startAt: `${day}T10:00:00` } }, { ...NEW_YORK, items: [{}, {}] });
		const reads = sandbox().requests.filter((r) => r.method === 'GET').map((r) => r.path);
		expect(reads.filter((p) => p.startsWith('/v2.0/'))).toEqual([`/v2.0/tasks/${entry.split('-')[0]}`]);
		expect(reads.filter((p) => p.startsWith('/v1.0/users/'))).toHaveLength(1);
		expect(parseJson(sandbox().requests.filter((r) => r.method === 'PUT')[0].body)).toEqual({ startAt: expect.stringMatching(/T10:00:00-0[78]:00$/), timeZoneCode: 'America/Los_Angeles' });
		expect(items.map((i) => i.json.timesReadIn)).toEqual(
			[0, 1].map(() => expect.objectContaining({ assignee: `the entry's assignee: user ${SEED_IDS.otherAgentUserId} has no time zone in Lofty; their zone may differ` })),
		);
	});

	it('items on one lead look the lead and the user up once per execution', async () => {
		lead().assignedUserId = BigInt(SEED_IDS.otherAgentUserId);
		await run(sandbox(), task(), { ...NEW_YORK, items: [{}, {}, {}] });
		const reads = sandbox().requests.filter((r) => r.method === 'GET').map((r) => r.path);
		expect(reads.filter((p) => p.startsWith('/v1.0/leads/'))).toHaveLength(1);
		expect(reads.filter((p) => p.startsWith('/v1.0/users/'))).toHaveLength(1);
	});

	it("the panel says before the run that the assignee's zone is used and may differ from the user's", async () => {
		const context = createContext(node, { params: task(), credential: apiKeyCredential(sandbox()) });
		const options = await getAssigneeTimeReadings.call(context as unknown as ILoadOptionsFunctions);
		expect(options[0]).toMatchObject({ value: 'agent', name: "The Assignee's Zone (Read From Lofty When the Node Runs; Yours: America/Los_Angeles)" });
		expect(String(options[0].description)).toMatch(/may differ from yours/);
	});
});

describe('Task > Create returns the due time, zone and assignee (issue 37, item 8)', () => {
	it('as sent: the due time with its offset, the Time Zone when set, the role; the assignee and both zones in timesReadIn', async () => {
		lead().assignedUserId = BigInt(SEED_IDS.otherAgentUserId);
		const [read] = await run(sandbox(), task({ additionalFields: { startAt: '2026-12-01T08:30:00' } }), NEW_YORK);
		expect(read.json).toMatchObject({ endAt: '2026-12-01T09:00:00-06:00', startAt: '2026-12-01T08:30:00-06:00', assignedRole: 'Agent' });
		expect(read.json.timesReadIn).toMatchObject({ zone: 'America/Chicago', assignee: { userId: SEED_IDS.otherAgentUserId } });
		const [zoned] = await run(sandbox(), task({ endAt: '2026-12-01T09:00:00+01:00', additionalFields: { timeZoneCode: 'Europe/Berlin' } }), NEW_YORK);
		expect(zoned.json).toEqual({ taskId: zoned.json.taskId, endAt: '2026-12-01T09:00:00+01:00', timeZoneCode: 'Europe/Berlin', assignedRole: 'Agent' });
		// What was returned is what Lofty holds.
		const stored = await run(sandbox(), { resource: 'task', operation: 'get', taskId: byId(String(zoned.json.taskId)), output: 'raw' }, NEW_YORK);
		expect(stored[0].json).toMatchObject({ endAt: '2026-12-01T09:00:00+01:00', timeZoneCode: 'Europe/Berlin', assignedRole: 'Agent' });
	});
});
