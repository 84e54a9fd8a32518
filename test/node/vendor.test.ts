import { SEED_IDS } from '../../sandbox';
import { VENDOR_IDS } from '../../sandbox/resources/vendor';
import { apiKeyCredential, run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();

describe('Vendor: Get Many', () => {
	it('returns every vendor of the team as one item each, IDs exact', async () => {
		const items = await run(sandbox(), { resource: 'vendor', operation: 'getAll' });
		expect(items).toHaveLength(6);
		expect(sandbox().count('GET', '/v1.0/vendor/list')).toBe(1);
		const big = items.find((i) => i.json.id === VENDOR_IDS.bigId);
		expect(big?.json).toMatchObject({ firstName: 'Noah', roleName: 'Admin', agentUserId: '302656410082818' });
		const demo = items.find((i) => i.json.agentUserId === SEED_IDS.demoUserId);
		expect(demo?.json).toMatchObject({ phoneCode: '1', phoneCountry: 'US', companyName: 'Sandbox Realty' });
		expect(items.find((i) => i.json.id === VENDOR_IDS.unlinkedId)?.json.agentUserId).toBeNull();
	});

	it('explains 20017 PERMISSION_DENIED for a user who may not list vendors', async () => {
		const error = await runError(sandbox(), { resource: 'vendor', operation: 'getAll' }, { credential: apiKeyCredential(sandbox(), sandbox().otherAgentApiKey) });
		expect(error.message).toMatch(/HTTP 400 20017/);
		expect(error.description).toMatch(/may not list the team's vendors/);
	});

	it('returns no items when the team has no vendors', async () => {
		sandbox().store.ext<{ vendors: unknown[] }>('vendor', () => ({ vendors: [] })).vendors = [];
		const items = await run(sandbox(), { resource: 'vendor', operation: 'getAll' });
		expect(items).toHaveLength(0);
	});
});
