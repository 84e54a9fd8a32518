/**
 * Issue 46, item 2: a lead stage is checked as a tag filter is. Lofty takes a stage by name and adds one it does not
 * have (an MCP tool's "Super Hot" became a new stage); the node refuses such a name before anything is sent, naming
 * the nearest stage, in Create, Update, Create or Update and the Get Many filter, from an expression or a tool's
 * argument alike. The team's spelling wins over another case; the list is read once per execution.
 */
import { run, runError, byId, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const STAGES = '/v1.0/teamFeatures/lead-pipelines';

const stageCount = () => sandbox().store.stages.length;

describe('lead stages are checked before anything is sent', () => {
	it('Update refuses "Super Hot", naming the nearest stage "Hot"; the pipeline keeps its stages and the lead its stage', async () => {
		const [lead] = await run(sandbox(), { resource: 'lead', operation: 'create', firstName: 'Stella', additionalFields: { stage: 'New' } });
		const before = stageCount();
		sandbox().requests.length = 0;
		const error = await runError(sandbox(), { resource: 'lead', operation: 'update', leadId: byId(String(lead.json.leadId)), updateFields: { stage: 'Super Hot' } });
		expect(error.message).toBe(`Invalid value for "Stage Name or ID": the team's lead pipeline has no stage "Super Hot"; the nearest is "Hot". Give one of the team's stages (New, Attempted Contact, Active, Nurture, Hot, Under Contract, Closed, Archived, Past Client, Sphere of Influence), or add the stage in Lofty first`);
		expect(error.description).toMatch(/Nothing was sent to Lofty/);
		expect(sandbox().requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET ${STAGES}`]);
		expect(stageCount()).toBe(before);
		expect(sandbox().store.leads.get(String(lead.json.leadId))?.stage).toBe('New');
	});

	it('Create and Create or Update refuse a stage the team lacks too; a typo is answered with the stage meant', async () => {
		const create = await runError(sandbox(), { resource: 'lead', operation: 'create', firstName: 'Typo', additionalFields: { stage: 'Nurtur' } });
		expect(create.message).toMatch(/no stage "Nurtur"; the nearest is "Nurture"/);
		const upsert = await runError(sandbox(), { resource: 'lead', operation: 'upsert', firstName: 'Typo', email: 'typo@example.com', additionalFields: { stage: 'Warm' } });
		expect(upsert.message).toMatch(/no stage "Warm"/);
		expect(sandbox().count('POST', '/v1.0/leads')).toBe(0);
	});

	it("another case is sent in the team's spelling; the list is read once for all items", async () => {
		sandbox().requests.length = 0;
		const items = await run(sandbox(), (i) => ({ resource: 'lead', operation: 'create', firstName: `Case ${i}`, additionalFields: { stage: i ? 'under contract' : 'HOT' } }), { items: [{}, {}] });
		expect(items.map((i) => i.json.stage)).toEqual(['Hot', 'Under Contract']);
		expect(sandbox().count('GET', STAGES)).toBe(1);
	});

	it('Get Many refuses a stage filter the team lacks (no lead could match), naming the nearest', async () => {
		const error = await runError(sandbox(), { resource: 'lead', operation: 'getAll', limit: 5, filters: { stage: 'Hott' } });
		expect(error.message).toMatch(/no stage "Hott"; the nearest is "Hot"/);
		expect(sandbox().count('GET', '/v1.0/leads')).toBe(0);
	});

	it('an unreadable stage list: a write is refused (it could add a stage), a filter goes out as given with a note', async () => {
		sandbox().faults.inject({ kind: '500', status: 403, message: 'no scope', match: { path: STAGES } });
		const write = await runError(sandbox(), { resource: 'lead', operation: 'create', firstName: 'Unchecked', additionalFields: { stage: 'Hot' } });
		expect(write.message).toMatch(/"Hot" could not be checked against the team's stages/);
		expect(sandbox().count('POST', '/v1.0/leads')).toBe(0);
		sandbox().faults.inject({ kind: '500', status: 403, message: 'no scope', match: { path: STAGES } });
		const [found] = await run(sandbox(), { resource: 'lead', operation: 'getAll', limit: 1, filters: { stage: 'Hot' } });
		expect(found.json.stagesNote).toMatch(/could not be read .* used as given/);
	});

	it('no stage given: no list is read', async () => {
		sandbox().requests.length = 0;
		await run(sandbox(), { resource: 'lead', operation: 'create', firstName: 'No Stage' });
		expect(sandbox().count('GET', STAGES)).toBe(0);
	});
});
