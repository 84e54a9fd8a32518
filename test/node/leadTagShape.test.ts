import { READING_VALUES, SEED_IDS } from '../../sandbox';
import { forgetAccountReadings } from '../../nodes/Lofty/model/readings';
import { byId, run, runError, useSandbox } from '../harness/sandbox';

/**
 * Lead tag writes as names (the spec, the OpenAPI) or as {tagName} objects (Lofty's lead management guide):
 * docs/api-readings.md, row 21. Every operation that writes lead tags, under both readings of the sandbox.
 */

const sandbox = useSandbox();
beforeEach(() => forgetAccountReadings());

const LEADS = '/v1.0/leads';
const ONE_LEAD = '/v1.0/leads/{leadId}';

async function tagsOf(leadId: string): Promise<string[]> {
	const [item] = await run(sandbox(), { resource: 'lead', operation: 'get', leadId: byId(leadId) }, { typeVersion: 1 });
	return ((item.json.tags as Array<{ tagName: string }>) ?? []).map((t) => t.tagName).sort();
}

/** The leads the sandbox holds with this first name (a write is applied once or not at all). */
const leadsNamed = (firstName: string) => [...sandbox().store.leads.values()].filter((l) => l.firstName === firstName);

/** Refused writes (400) and applied ones (2xx) of a method and path. */
function answers(method: string, path: string): { refused: number; applied: number } {
	const pattern = new RegExp(`^${path.replace('{leadId}', '\\d+')}$`);
	const mine = sandbox().requests.filter((r) => r.method === method && pattern.test(r.path));
	return { refused: mine.filter((r) => r.status === 400).length, applied: mine.filter((r) => r.status < 300).length };
}

/** Under `objects` the first write of the account is refused once (nothing written), then sent with objects. */
const refusalsFor = (reading: string) => (reading === 'objects' ? 1 : 0);

describe.each(READING_VALUES.tagWrites)('Lead tag writes (tagWrites %s)', (reading) => {
	beforeEach(() => sandbox().readings.set({ tagWrites: reading }));

	it('Create: the lead gets its tags, is created once, and the shape is learned for the account (next executions send it at once)', async () => {
		const [item] = await run(sandbox(), { resource: 'lead', operation: 'create', firstName: 'Shape', additionalFields: { tags: ['VIP', 'Brand New Tag'] } });
		expect(await tagsOf(item.json.leadId as string)).toEqual(['Brand New Tag', 'VIP']);
		expect(leadsNamed('Shape')).toHaveLength(1);
		expect(answers('POST', LEADS)).toEqual({ refused: refusalsFor(reading), applied: 1 });
		const sent = JSON.parse(sandbox().requests.filter((r) => r.method === 'POST' && r.status < 300).at(-1)!.body);
		expect(sent.tags).toEqual(reading === 'objects' ? [{ tagName: 'VIP' }, { tagName: 'Brand New Tag' }] : ['VIP', 'Brand New Tag']);
		// Another execution on the same account: no refusal again.
		await run(sandbox(), { resource: 'lead', operation: 'create', firstName: 'Shape Two', additionalFields: { tags: ['Zillow'] } });
		expect(answers('POST', LEADS)).toEqual({ refused: refusalsFor(reading), applied: 2 });
		expect(leadsNamed('Shape Two')).toHaveLength(1);
	});

	it('Create without tags sends no tag field and is never refused for it', async () => {
		await run(sandbox(), { resource: 'lead', operation: 'create', firstName: 'Plain' });
		expect(answers('POST', LEADS)).toEqual({ refused: 0, applied: 1 });
	});

	it('Update: Tags to Add, Tags to Remove and Replace All Tags With each land', async () => {
		const lead = SEED_IDS.bigLeadId;
		const update = (updateFields: Record<string, unknown>) => run(sandbox(), { resource: 'lead', operation: 'update', leadId: byId(lead), updateFields });
		await update({ tags: ['Referral', 'Cold'] });
		expect(await tagsOf(lead)).toEqual(['Cold', 'Referral']);
		await update({ tagsAdd: ['VIP', 'Open House May'] });
		expect(await tagsOf(lead)).toEqual(['Cold', 'Open House May', 'Referral', 'VIP']);
		await update({ tagsRemove: ['Cold', 'Referral'] });
		expect(await tagsOf(lead)).toEqual(['Open House May', 'VIP']);
		await update({ tagsAdd: ['Investor'], tagsRemove: ['VIP'] });
		expect(await tagsOf(lead)).toEqual(['Investor', 'Open House May']);
		expect(answers('PUT', ONE_LEAD)).toEqual({ refused: refusalsFor(reading), applied: 4 });
	});

	it('Update without tag fields (a name only) is never refused for tags', async () => {
		await run(sandbox(), { resource: 'lead', operation: 'update', leadId: byId(SEED_IDS.bigLeadId), updateFields: { lastName: 'Plain' } });
		expect(answers('PUT', ONE_LEAD)).toEqual({ refused: 0, applied: 1 });
	});

	it('Create or Update: a new person is created with the tags, a known one gets them added (or replaced)', async () => {
		const upsert = (params: Record<string, unknown>) => run(sandbox(), { resource: 'lead', operation: 'upsert', ...params }, { typeVersion: 1.1 });
		const [created] = await upsert({ firstName: 'Umashape', email: 'uma.shape@example.com', additionalFields: { tags: ['Web Form'] } });
		expect(created.json.action).toBe('created');
		expect(await tagsOf(created.json.leadId as string)).toEqual(['Web Form']);
		const [added] = await upsert({ firstName: 'Umashape', email: 'uma.shape@example.com', additionalFields: { tags: ['VIP'] } });
		expect(added.json.action).toBe('updated');
		expect(await tagsOf(created.json.leadId as string)).toEqual(['VIP', 'Web Form']);
		const [replaced] = await upsert({ firstName: 'Umashape', email: 'uma.shape@example.com', additionalFields: { tags: ['Cold'] }, options: { replaceTags: true } });
		expect(replaced.json.action).toBe('updated');
		expect(await tagsOf(created.json.leadId as string)).toEqual(['Cold']);
		expect(leadsNamed('Umashape')).toHaveLength(1);
		const refusals = answers('POST', LEADS).refused + answers('PUT', ONE_LEAD).refused;
		expect(refusals).toBe(refusalsFor(reading));
	});

	it('items in flight: eight creates with tags, each lead once, the shape found out by one request', async () => {
		const items = await run(sandbox(), (i) => ({ resource: 'lead', operation: 'create', firstName: `Flight ${i}`, additionalFields: { tags: ['VIP'] } }), {
			items: Array.from({ length: 8 }, () => ({})),
		});
		expect(items).toHaveLength(8);
		for (let i = 0; i < 8; i++) {
			expect(leadsNamed(`Flight ${i}`)).toHaveLength(1);
			expect(await tagsOf(items[i].json.leadId as string)).toEqual(['VIP']);
		}
		expect(answers('POST', LEADS).refused).toBe(refusalsFor(reading));
	});

	it('Agent > Add Tags (tagNames, not lead tags) is the same under this reading', async () => {
		const [item] = await run(sandbox(), {
			resource: 'agent',
			operation: 'addTags',
			agentId: byId(SEED_IDS.otherAgentUserId),
			tagNames: ['Mentor'],
			additionalFields: { autoCreate: true },
		});
		expect(item.json).toEqual({ agentId: SEED_IDS.otherAgentUserId, tagNames: ['Mentor'], added: true });
	});
});

describe('Lead tag writes: the account changes its shape', () => {
	it('an account that took objects and then refuses them gets names again, each write applied once', async () => {
		sandbox().readings.set({ tagWrites: 'objects' });
		await run(sandbox(), { resource: 'lead', operation: 'create', firstName: 'Before', additionalFields: { tags: ['VIP'] } });
		sandbox().readings.set({ tagWrites: 'strings' });
		const [item] = await run(sandbox(), { resource: 'lead', operation: 'create', firstName: 'After', additionalFields: { tags: ['Cold'] } });
		expect(await tagsOf(item.json.leadId as string)).toEqual(['Cold']);
		expect(leadsNamed('Before')).toHaveLength(1);
		expect(leadsNamed('After')).toHaveLength(1);
		expect(answers('POST', LEADS)).toEqual({ refused: 2, applied: 2 });
	});

	it('a refusal about something else is shown as it is, not sent again in the other shape', async () => {
		sandbox().readings.set({ tagWrites: 'objects' });
		const error = await runError(sandbox(), { resource: 'lead', operation: 'create', firstName: 'Bad', additionalFields: { tags: ['VIP'], assignedUserId: '123456789' } });
		expect(error.message).not.toMatch(/tag/i);
		expect(sandbox().count('POST', LEADS)).toBe(1);
		expect(leadsNamed('Bad')).toHaveLength(0);
	});
});
