/**
 * Times for an agent (issue 28, items 2 and 6): from node version 1.3 a time picked without a UTC offset means that
 * time where the Lofty user behind the credential works (GET /v1.0/me: the sandbox's owner works in Los Angeles),
 * unless Time Zone is set or "Times Without Offset Are In" says the workflow's zone; an offset always wins. The
 * output names the zone used and the times already past. Earlier node versions keep the workflow's zone.
 */
import type { ILoadOptionsFunctions } from 'n8n-workflow';

import { parseJson } from '../../sandbox';
import { TASK_SEED } from '../../sandbox/resources/task';
import { getTimeReadings } from '../../nodes/Lofty/model/agentZone';
import { createContext } from '../harness/context';
import { apiKeyCredential, byId, node, run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
/** n8n's default zone when a workflow sets none; the Lofty user works in Los Angeles. */
const NEW_YORK = { timezone: 'America/New_York', typeVersion: 1.3 };
const lead = byId(TASK_SEED.leadId);
const sent = () => sandbox().requests.filter((r) => r.method === 'POST').map((r) => parseJson(r.body) as Record<string, unknown>);
const meCalls = () => sandbox().requests.filter((r) => r.path === '/v1.0/me').length;
const task = (endAt: unknown, extra: Record<string, unknown> = {}) => ({
	resource: 'task',
	operation: 'create',
	leadId: lead,
	type: 'Call',
	content: 'Welcome call',
	endAt,
	assignedRole: 'Agent',
	...extra,
});
/** The seed lead's agent is the Lofty user: the assignee's zone is the user's (test/node/assigneeZone.test.ts: another agent). */
const USER_ZONE = {
	zone: 'America/Los_Angeles',
	from: "the assignee's time zone (Lofty's GET /v1.0/users/{userId})",
	assignee: { userId: '9007199254741001', role: "the lead's agent", zone: 'America/Los_Angeles' },
	loftyUserZone: 'America/Los_Angeles',
};

describe("a picked time without an offset is the Lofty user's time (node version 1.3)", () => {
	it("Task > Create: 09:00 picked in a New York workflow is 09:00 Los Angeles; the output says so; /v1.0/me asked once for three items", async () => {
		const items = await run(sandbox(), () => task('2026-12-01T09:00:00'), { ...NEW_YORK, items: [{}, {}, {}] });
		expect(sent().map((b) => b.endAt)).toEqual(['2026-12-01T09:00:00-08:00', '2026-12-01T09:00:00-08:00', '2026-12-01T09:00:00-08:00']);
		for (const item of items) expect(item.json.timesReadIn).toEqual(USER_ZONE);
		expect(meCalls()).toBe(1);
	});

	it("Times Without Offset Are In: the workflow's zone reads 09:00 in New York, and says so", async () => {
		const [item] = await run(sandbox(), task('2026-12-01T09:00:00', { timesIn: 'workflow' }), NEW_YORK);
		expect(sent()[0].endAt).toBe('2026-12-01T09:00:00-05:00');
		expect(item.json.timesReadIn).toEqual({ zone: 'America/New_York', from: "the workflow's time zone (Times Without Offset Are In)" });
		expect(meCalls()).toBe(0);
	});

	it('Time Zone, when set, wins; an offset in the value wins over everything (and nothing is said of a zone)', async () => {
		const [zoned] = await run(sandbox(), task('2026-12-01T09:00:00', { additionalFields: { timeZoneCode: 'Europe/Berlin' } }), NEW_YORK);
		expect(zoned.json.timesReadIn).toEqual({ zone: 'Europe/Berlin', from: 'the Time Zone field' });
		const [offset] = await run(sandbox(), task('2026-12-01T09:00:00-06:00'), NEW_YORK);
		expect(sent().map((b) => b.endAt)).toEqual(['2026-12-01T09:00:00+01:00', '2026-12-01T09:00:00-06:00']);
		expect(offset.json.timesReadIn).toBeUndefined();
		// Neither needed the user's zone: Lofty was not asked for it.
		expect(meCalls()).toBe(0);
	});

	it('Task > Create (V1) and Appointment > Create read their times in the same zone', async () => {
		await run(sandbox(), { resource: 'task', operation: 'createV1', leadId: lead, type: 'Call', content: 'x', deadline: '2026-12-01 09:00:00', assignedRole: 'Agent' }, NEW_YORK);
		expect(sent()[0].deadline).toBe(Date.parse('2026-12-01T17:00:00Z'));
		const [appointment] = await run(
			sandbox(),
			{ resource: 'appointment', operation: 'create', leadId: lead, content: 'Showing', startAt: '2026-12-02T10:00:00', endAt: '2026-12-02T11:00:00', assignedRole: 'Agent' },
			NEW_YORK,
		);
		expect(sent()[1]).toMatchObject({ startAt: '2026-12-02T10:00:00-08:00', endAt: '2026-12-02T11:00:00-08:00' });
		expect(appointment.json.timesReadIn).toEqual(USER_ZONE);
	});

	it('node version 1.2 keeps reading in the workflow\'s zone (saved workflows run as before), without asking Lofty', async () => {
		const [item] = await run(sandbox(), task('2026-12-01T09:00:00'), { ...NEW_YORK, typeVersion: 1.2 });
		expect(sent()[0].endAt).toBe('2026-12-01T09:00:00-05:00');
		expect(item.json.timesReadIn).toEqual({ zone: 'America/New_York', from: "the workflow's time zone (Times Without Offset Are In)" });
		expect(meCalls()).toBe(0);
	});

	it('the user profile cannot be read: the item fails naming what to do, and nothing is sent', async () => {
		const error = await runError(sandbox(), task('2026-12-01T09:00:00'), { ...NEW_YORK, credential: apiKeyCredential(sandbox(), 'not-a-key') });
		expect(error.message).toMatch(/^Could not read the Lofty user's time zone \(GET \/v1.0\/me\)/);
		expect(error.description).toMatch(/Set Time Zone, give the times with an offset, or set Times Without Offset Are In to the workflow's zone/);
		expect(sandbox().requests.filter((r) => r.method === 'POST')).toHaveLength(0);
	});
});

describe('a time already past is said in the output (item 6)', () => {
	it('a task created overdue says alreadyPast with its due time; a future one does not', async () => {
		const items = await run(
			sandbox(),
			(i) => ({ resource: 'task', operation: 'createV1', leadId: lead, type: 'Call', content: 'x', deadline: ['2020-01-06T09:00:00', '2099-01-06T09:00:00'][i], assignedRole: 'Agent' }),
			{ ...NEW_YORK, items: [{}, {}] },
		);
		expect(items[0].json.alreadyPast).toEqual({ 'Due At': '2020-01-06T09:00:00-08:00' });
		expect(items[1].json.alreadyPast).toBeUndefined();
	});
});

describe('the dropdown shows both zones before the run', () => {
	it("names the Lofty user's zone and the workflow's", async () => {
		const ctx = createContext(node, { params: { authentication: 'apiKey' }, credential: apiKeyCredential(sandbox()), timezone: 'America/New_York' });
		const options = await getTimeReadings.call(ctx as unknown as ILoadOptionsFunctions);
		expect(options.map((o) => [o.name, o.value])).toEqual([
			["The Lofty User's Zone (America/Los_Angeles)", 'agent'],
			["The Workflow's Zone (America/New_York)", 'workflow'],
		]);
	});
});
