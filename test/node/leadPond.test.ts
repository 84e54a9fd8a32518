import { getLeadPonds } from '../../nodes/Lofty/methods/leadPond';
import { SEED_IDS } from '../../sandbox';
import { POND_IDS } from '../../sandbox/resources/leadPond';
import { createContext } from '../harness/context';
import { apiKeyCredential, node, run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const asOther = () => ({ credential: apiKeyCredential(sandbox(), sandbox().otherAgentApiKey) });

describe('Lead Pond: Get Many', () => {
	it('returns the ponds a team owner may see, IDs as exact strings', async () => {
		const items = await run(sandbox(), { resource: 'leadPond', operation: 'getAll' });
		expect(items.map((i) => i.json.id).sort()).toEqual([POND_IDS.company, POND_IDS.north, POND_IDS.downtown].sort());
		const company = items.find((i) => i.json.id === POND_IDS.company)!.json;
		expect(company).toMatchObject({ pondName: 'Company Pond', pondOwnerId: SEED_IDS.demoUserId });
		expect(company.agentIds).toEqual([SEED_IDS.demoUserId, SEED_IDS.otherAgentUserId]);
	});

	it('shows an agent only the ponds of their office or that they belong to', async () => {
		const items = await run(sandbox(), { resource: 'leadPond', operation: 'getAll' }, asOther());
		expect(items.map((i) => i.json.pondName).sort()).toEqual(['Company Pond', 'Downtown Pond']);
	});
});

describe('Lead Pond: Get', () => {
	it('gets a pond whose ID is above 2^53', async () => {
		const [item] = await run(sandbox(), { resource: 'leadPond', operation: 'get', id: POND_IDS.company });
		expect(item.json).toMatchObject({ id: POND_IDS.company, pondName: 'Company Pond' });
		expect(sandbox().requests[0].path).toBe(`/v1.0/team-features/lead-pond/${POND_IDS.company}`);
	});

	it.each([
		['a disabled pond', POND_IDS.disabled],
		['another team\'s pond', POND_IDS.otherTeam],
		['a pond that does not exist', '999999'],
	])('explains 20017 for %s', async (_, id) => {
		const error = await runError(sandbox(), { resource: 'leadPond', operation: 'get', id });
		expect(error.message).toMatch(/HTTP 400 20017/);
		expect(error.description).toMatch(/does not exist, is disabled, belongs to another team, or lies outside the offices/);
	});

	it('answers 20017 for a pond outside the agent\'s offices', async () => {
		const error = await runError(sandbox(), { resource: 'leadPond', operation: 'get', id: POND_IDS.north }, asOther());
		expect(error.message).toMatch(/HTTP 400 20017/);
	});

	it('refuses an ID that is not a number before sending', async () => {
		const error = await runError(sandbox(), { resource: 'leadPond', operation: 'get', id: 'north' });
		expect(error.message).toMatch(/^Invalid value for "Lead Pond Name or ID": must be a Lofty ID/);
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('Lead Pond: getLeadPonds dropdown', () => {
	it('offers the visible ponds by name, valued by ID', async () => {
		const ctx = createContext(node, { params: { authentication: 'apiKey' }, credential: apiKeyCredential(sandbox()) });
		expect(await getLeadPonds.call(ctx as never)).toEqual([
			{ name: 'Company Pond', value: POND_IDS.company },
			{ name: 'Downtown Pond', value: POND_IDS.downtown },
			{ name: 'North Austin Pond', value: POND_IDS.north },
		]);
	});
});
