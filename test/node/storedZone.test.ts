/**
 * Times are stored in the zone they were meant in (issue 46, item 4). A time without offset is read in a zone (the
 * assignee's, the Lofty user's or the workflow's: model/agentZone.ts); the node sends that zone as `timeZoneCode` to
 * the endpoints that take one (Tasks V2 and Calendar V2), so Lofty holds the entry in it and everyone reading the
 * entry (Get, an export, the agent's app) sees 09:00 Chicago, not the same moment as 07:00 Los Angeles (the
 * credential user's zone, Lofty's fallback when no zone is sent). The sandbox's owner works in Los Angeles, the other
 * agent in Chicago.
 */
import { SEED_IDS, parseJson } from '../../sandbox';
import { CALENDAR_SEED, calendarState } from '../../sandbox/resources/calendar';
import { isoInZone } from '../../sandbox/core/time';
import { TASK_SEED, taskState } from '../../sandbox/resources/task';
import { byId, run, useSandbox } from '../harness/sandbox';
import { welcomeCall } from './welcomeCall';

const sandbox = useSandbox();
const NEW_YORK = { timezone: 'America/New_York', typeVersion: 1.3 };
const writes = () => sandbox().requests.filter((r) => r.method === 'POST' || r.method === 'PUT').map((r) => parseJson(r.body) as Record<string, unknown>);
const lead = () => sandbox().store.getLead(TASK_SEED.leadId)!;
/** An entry as Lofty answers Task > Get (raw): the times in the entry's zone, and the zone. */
const stored = async (taskId: unknown) =>
	(await run(sandbox(), { resource: 'task', operation: 'get', taskId: byId(String(taskId)), output: 'raw' }, NEW_YORK))[0].json;

describe('a time without offset is stored in the zone it was read in (timeZoneCode sent)', () => {
	it("Task > Create at 09:00 for the lead's Chicago agent: Lofty holds 09:00 Chicago, and the output says so", async () => {
		lead().assignedUserId = BigInt(SEED_IDS.otherAgentUserId);
		const [made] = await run(sandbox(), welcomeCall({ additionalFields: { startAt: '2026-12-01T08:30:00' } }), NEW_YORK);
		expect(writes()[0]).toMatchObject({ endAt: '2026-12-01T09:00:00-06:00', startAt: '2026-12-01T08:30:00-06:00', timeZoneCode: 'America/Chicago' });
		expect(made.json).toMatchObject({ endAt: '2026-12-01T09:00:00-06:00', timeZoneCode: 'America/Chicago' });
		expect(await stored(made.json.taskId)).toMatchObject({ endAt: '2026-12-01T09:00:00-06:00', startAt: '2026-12-01T08:30:00-06:00', timeZoneCode: 'America/Chicago' });
	});

	it("Appointment > Create for the lead's assistant in New York: held in New York", async () => {
		const assistant = [...sandbox().store.users.values()].find((u) => u.roleName === 'Assistant')!;
		assistant.timeZoneId = 'America/New_York';
		lead().customRoleList.push({ roleId: 3, role: 'Assistant', assigneeId: assistant.userId, assignee: assistant.email });
		const [made] = await run(
			sandbox(),
			{ resource: 'appointment', operation: 'create', leadId: byId(TASK_SEED.leadId), content: 'Showing', startAt: '2026-12-02T10:00:00', endAt: '2026-12-02T11:00:00', assignedRole: 'Assistant' },
			{ ...NEW_YORK, timezone: 'Europe/Berlin' },
		);
		expect(writes()[0]).toMatchObject({ timeZoneCode: 'America/New_York' });
		expect(await stored(made.json.taskId)).toMatchObject({ startAt: '2026-12-02T10:00:00-05:00', endAt: '2026-12-02T11:00:00-05:00', timeZoneCode: 'America/New_York' });
	});

	it("Times Without Offset Are In the workflow's zone: Task > Create and Task > Update store the workflow's zone", async () => {
		const [made] = await run(sandbox(), welcomeCall({ timesIn: 'workflow' }), { ...NEW_YORK, timezone: 'Europe/Berlin' });
		expect(await stored(made.json.taskId)).toMatchObject({ endAt: '2026-12-01T09:00:00+01:00', timeZoneCode: 'Europe/Berlin' });
		await run(sandbox(), { resource: 'task', operation: 'update', taskId: byId(String(made.json.taskId)), timesIn: 'workflow', updateFields: { endAt: '2026-12-03T10:00:00' } }, NEW_YORK);
		expect(writes()[1]).toEqual({ endAt: '2026-12-03T10:00:00-05:00', timeZoneCode: 'America/New_York' });
		expect(await stored(made.json.taskId)).toMatchObject({ endAt: '2026-12-03T10:00:00-05:00', timeZoneCode: 'America/New_York' });
	});

	it("Task > Update and Appointment > Update at 09:00 for the entry's Chicago assignee: held in Chicago, as Create does", async () => {
		lead().assignedUserId = BigInt(SEED_IDS.otherAgentUserId);
		const [task] = await run(sandbox(), welcomeCall(), NEW_YORK);
		const appointment = { resource: 'appointment', operation: 'create', leadId: byId(TASK_SEED.leadId), content: 'Showing', assignedRole: 'Agent' };
		const [showing] = await run(sandbox(), { ...appointment, startAt: '2026-12-02T10:00:00', endAt: '2026-12-02T11:00:00' }, NEW_YORK);
		lead().assignedUserId = BigInt(SEED_IDS.demoUserId); // the lead's agent is now the Los Angeles owner: the entry's assignee counts
		const [updated] = await run(sandbox(), { resource: 'task', operation: 'update', taskId: byId(String(task.json.taskId)), updateFields: { endAt: '2026-12-03T09:00:00' } }, NEW_YORK);
		expect(writes()[2]).toEqual({ endAt: '2026-12-03T09:00:00-06:00', timeZoneCode: 'America/Chicago' });
		expect(updated.json.timesReadIn).toMatchObject({ zone: 'America/Chicago' });
		expect(await stored(task.json.taskId)).toMatchObject({ endAt: '2026-12-03T09:00:00-06:00', timeZoneCode: 'America/Chicago' });
		const change = { startAt: '2026-12-04T09:00:00', endAt: '2026-12-04T10:00:00' };
		await run(sandbox(), { resource: 'appointment', operation: 'update', appointmentId: byId(String(showing.json.taskId)), updateFields: change }, NEW_YORK);
		expect(writes()[3]).toEqual({ startAt: '2026-12-04T09:00:00-06:00', endAt: '2026-12-04T10:00:00-06:00', timeZoneCode: 'America/Chicago' });
		expect(await stored(showing.json.taskId)).toMatchObject({ startAt: '2026-12-04T09:00:00-06:00', timeZoneCode: 'America/Chicago' });
	});

	it("Calendar > Update at 10:00 for the entry's Chicago assignee: held at 10:00 Chicago, as Task > Update does", async () => {
		const day = new Date(Date.now() + 6 * 86_400_000).toISOString().slice(0, 10);
		const chicago = CALENDAR_SEED.sharedLeadAppointment; // the other agent's (Chicago), on a lead shared with the owner
		// Held in the owner's zone, as Lofty held the entries the node made before it sent a zone.
		taskState(sandbox().store).entries.get(chicago.split('-')[0])!.timeZoneCode = 'America/Los_Angeles';
		const [item] = await run(sandbox(), { resource: 'calendar', operation: 'update', calendarId: byId(chicago), updateFields: { startAt: `${day}T10:00:00`, endAt: `${day}T11:00:00` } }, NEW_YORK);
		expect(writes()[0]).toMatchObject({ startAt: expect.stringMatching(/T10:00:00-0[56]:00$/), endAt: expect.stringMatching(/T11:00:00-0[56]:00$/), timeZoneCode: 'America/Chicago' });
		expect(item.json.timesReadIn).toMatchObject({ zone: 'America/Chicago', assignee: { userId: SEED_IDS.otherAgentUserId, role: "the entry's assignee", zone: 'America/Chicago' } });
		// The entry as Lofty answers it: the calendar (GET /v2.0/calendar) and the V2 task it is (Task > Get).
		const entry = calendarState(sandbox().store).entries.get(chicago)!;
		expect([isoInZone(entry.startMs, entry.timeZoneCode), entry.timeZoneCode]).toEqual([expect.stringMatching(new RegExp(`^${day}T10:00:00`)), 'America/Chicago']);
		expect(await stored(chicago.split('-')[0])).toMatchObject({ startAt: expect.stringMatching(new RegExp(`^${day}T10:00:00-0[56]:00$`)), timeZoneCode: 'America/Chicago' });
	});

	it('a time given with an offset and no Time Zone: no zone is sent; Lofty holds the same moment in the Lofty user\'s zone', async () => {
		lead().assignedUserId = BigInt(SEED_IDS.otherAgentUserId);
		const [made] = await run(sandbox(), welcomeCall({ endAt: '2026-12-01T09:00:00-06:00' }), NEW_YORK);
		expect(writes()[0]).not.toHaveProperty('timeZoneCode');
		expect(made.json.timesReadIn).toBeUndefined();
		expect(await stored(made.json.taskId)).toMatchObject({ endAt: '2026-12-01T07:00:00-08:00', timeZoneCode: 'America/Los_Angeles' });
	});

	it('the Time Zone field, when set, is the zone sent and held, whatever the assignee\'s', async () => {
		lead().assignedUserId = BigInt(SEED_IDS.otherAgentUserId);
		const [made] = await run(sandbox(), welcomeCall({ additionalFields: { timeZoneCode: 'Asia/Tokyo' } }), NEW_YORK);
		expect(await stored(made.json.taskId)).toMatchObject({ endAt: '2026-12-01T09:00:00+09:00', timeZoneCode: 'Asia/Tokyo' });
	});
});
