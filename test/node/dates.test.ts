import type { INodeProperties } from 'n8n-workflow';

import { SEED_IDS, parseJson } from '../../sandbox';
import { TASK_SEED } from '../../sandbox/resources/task';
import { byId, node, run, runError, useSandbox } from '../harness/sandbox';

/**
 * Dates from n8n's date picker (issue 19, point 6): the picker gives a local time without a UTC offset
 * ("2026-03-08T10:00:00"), which means the workflow's time zone; an operation's Time Zone, when set, wins; an
 * offset in the text wins over both. 2026-03-08 is the day daylight saving time starts in the United States.
 */

const sandbox = useSandbox();
const LA = { timezone: 'America/Los_Angeles' };
const sentBody = (n = 0) => parseJson(sandbox().requests[n].body) as Record<string, unknown>;
const lead = byId(TASK_SEED.leadId);
const createTask = (endAt: unknown, additionalFields: Record<string, unknown> = {}, extra = LA) =>
	run(sandbox(), { resource: 'task', operation: 'create', leadId: lead, type: 'Call', content: 'Welcome call', endAt, assignedRole: 'Agent', additionalFields }, extra);

describe('a picked date without an offset is in the workflow\'s time zone', () => {
	it('Task > Create: 10:00 in Los Angeles is sent as 10:00 with the offset of that day (before and after the DST change)', async () => {
		await createTask('2026-03-07T10:00:00');
		await createTask('2026-03-08T10:00:00');
		expect([sentBody(0).endAt, sentBody(1).endAt]).toEqual(['2026-03-07T10:00:00-08:00', '2026-03-08T10:00:00-07:00']);
	});

	it('the same picked time in two workflow zones is two different instants; an offset in the text is the same in both', async () => {
		await createTask('2026-03-08T10:00:00', {}, { timezone: 'Europe/Berlin' });
		await createTask('2026-03-08T10:00:00Z', {}, { timezone: 'Europe/Berlin' });
		await createTask('2026-03-08T10:00:00Z', {}, LA);
		expect(sentBody(0).endAt).toBe('2026-03-08T10:00:00+01:00');
		expect(sentBody(1).endAt).toBe('2026-03-08T10:00:00Z');
		expect(sentBody(2).endAt).toBe('2026-03-08T10:00:00Z');
	});

	it('an explicit Time Zone wins over the workflow\'s', async () => {
		await createTask('2026-03-08T10:00:00', { timeZoneCode: 'America/New_York' });
		expect(sentBody()).toMatchObject({ endAt: '2026-03-08T10:00:00-04:00', timeZoneCode: 'America/New_York' });
	});

	it('an epoch-ms field (Task > Create (V1), Due At) reads the picked time in the workflow\'s zone, across the DST change', async () => {
		const v1 = (deadline: string) =>
			run(sandbox(), { resource: 'task', operation: 'createV1', leadId: lead, type: 'Call', content: 'x', deadline, assignedRole: 'Agent' }, LA);
		await v1('2026-03-07 10:00:00');
		await v1('2026-03-08T10:00:00');
		expect([sentBody(0).deadline, sentBody(1).deadline]).toEqual([Date.parse('2026-03-07T18:00:00Z'), Date.parse('2026-03-08T17:00:00Z')]);
	});

	it('a date-only field (Lead > Create, Birthday) keeps the picked day in a zone west of UTC', async () => {
		await run(sandbox(), { resource: 'lead', operation: 'create', firstName: 'Bea', additionalFields: { birthday: '1990-05-04T00:00:00' } }, { timezone: 'Pacific/Honolulu' });
		expect(sentBody().birthday).toBe('May 4, 1990');
	});
});

describe('a date that is not a date', () => {
	it('names the field and says where Time Zone is (an operation with a Time Zone field)', async () => {
		const error = await runError(sandbox(), { resource: 'task', operation: 'create', leadId: lead, type: 'Call', content: 'x', endAt: 'next Tuesday', assignedRole: 'Agent' }, LA);
		expect(error.message).toMatch(/^Invalid value for "Due At": must be a date and time/);
		expect(error.message).toMatch(/got next Tuesday; a date without a UTC offset is read in Additional Fields > Time Zone, or when that is empty in the zone of "Times Without Offset Are In"$/);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('names the field and the workflow\'s Timezone setting (an operation without a Time Zone field)', async () => {
		const activity = { resource: 'lead', operation: 'addActivity', leadId: byId(SEED_IDS.bigLeadId), type: 'Browse', text: 'x', link: 'https://x', picture: 'https://x' };
		const error = await runError(sandbox(), { ...activity, created: '31/02/2026' }, LA);
		expect(error.message).toMatch(/^Invalid value for "Happened At": must be a date and time .*; a date without a UTC offset is read in the workflow's time zone \(Workflow Settings > Timezone\)$/);
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('date fields in the editor', () => {
	const all = (list: INodeProperties[]): INodeProperties[] => list.flatMap((p) => [p, ...all((p.options ?? []).filter((o): o is INodeProperties => 'displayName' in o))]);
	it('every date field says in its hint how a date without an offset is read', () => {
		const dates = all(node.description.properties).filter((p) => p.type === 'dateTime');
		expect(dates.length).toBeGreaterThan(20);
		for (const p of dates) expect([p.displayName, p.hint]).toEqual([p.displayName, expect.stringMatching(/without a UTC offset .*(time zone|the zone of Times Without Offset Are In)/i)]);
	});

	it('a date field of an operation with a Time Zone field names that field; one without names the workflow\'s setting', () => {
		const field = (resource: string, operation: string, name: string) =>
			all(node.description.properties).find((p) => p.name === name && p.type === 'dateTime' && p.displayOptions?.show?.resource?.includes(resource) && p.displayOptions?.show?.operation?.includes(operation));
		expect(field('calendar', 'create', 'startAt')?.hint).toMatch(/is in Time Zone Name or ID, or when that is empty in the workflow's time zone$/);
		expect(field('lead', 'addActivity', 'created')?.hint).toBe("A date without a UTC offset (as the picker gives) is in the workflow's time zone (Workflow Settings > Timezone)");
		// A time for the agent: read in the zone of Times Without Offset Are In (agentTimes.test.ts).
		expect(field('task', 'createV1', 'deadline')?.hint).toMatch(/^Without a UTC offset \(as the picker gives\) read in the zone of Times Without Offset Are In/);
	});
});
