/**
 * Lead > Create returns the lead as Lofty now holds it (read back after the create, through Lofty's read delay), and
 * Create or Update's Simplified output shows the custom fields: a person sees what was saved without another node.
 */
import { leadPersistence } from '../../sandbox/resources/lead';
import { run, useSandbox } from '../harness/sandbox';
import { TEST_TIMEOUT_MS } from '../harness/budgets';

const sandbox = useSandbox();
const mapped = (value: Record<string, unknown>) => ({ mappingMode: 'defineBelow', value, matchingColumns: [], schema: [] });
const create = {
	resource: 'lead',
	operation: 'create',
	firstName: 'Rae',
	additionalFields: { lastName: 'Rivera', emails: ['rae@example.com'], phones: ['(415) 555-0170'], source: 'Website' },
	customFieldValues: mapped({ 'Must-Haves': 'Pool, Garage', Financing: 'Cash' }),
};

describe('Lead > Create shows what Lofty saved', () => {
	it('the Simplified output (node version 1.2) is the lead read back: names, stored phone, custom fields', async () => {
		const [item] = await run(sandbox(), create, { typeVersion: 1.2 });
		expect(item.json).toMatchObject({ firstName: 'Rae', lastName: 'Rivera', emails: ['rae@example.com'], phones: ['+14155550170'], source: 'Website' });
		expect(item.json.customAttributes).toEqual(
			expect.arrayContaining([expect.objectContaining({ attributeName: 'Must-Haves', value: '["Pool","Garage"]' }), expect.objectContaining({ attributeName: 'Financing', value: 'Cash' })]),
		);
		expect(item.json.leadId).toMatch(/^\d+$/);
		expect(sandbox().requests.filter((r) => r.method === 'GET' && r.path === `/v1.0/leads/${item.json.leadId as string}`)).toHaveLength(1);
	});

	it('waits through Lofty\'s short read delay after a create', async () => {
		leadPersistence(sandbox().store).readDelayMs = 600;
		const [item] = await run(sandbox(), create, { typeVersion: 1.2 });
		expect(item.json).toMatchObject({ firstName: 'Rae', phones: ['+14155550170'] });
		expect(item.json.note).toBeUndefined();
	});

	it('a lead Lofty cannot read yet: the item has its ID and says so, it does not fail (a retry would create it twice)', async () => {
		leadPersistence(sandbox().store).readDelayMs = 60_000;
		const [item] = await run(sandbox(), create, { typeVersion: 1.2 });
		expect(item.json.leadId).toMatch(/^\d+$/);
		expect(item.json.note).toMatch(/not made the new lead readable yet/);
		expect(sandbox().count('POST', '/v1.0/leads')).toBe(1);
	}, TEST_TIMEOUT_MS);

	it('node version 1 (no Output choice) gets the whole lead', async () => {
		const [item] = await run(sandbox(), create, { typeVersion: 1 });
		expect(item.json).toMatchObject({ firstName: 'Rae', leadId: expect.stringMatching(/^\d+$/), tags: [] });
	});
});

describe("Create or Update's Simplified output", () => {
	it('includes the custom fields', async () => {
		const [item] = await run(sandbox(), { ...create, operation: 'upsert', email: 'rae@example.com', output: 'simplified' }, { typeVersion: 1.2 });
		expect(item.json.action).toBe('created');
		expect(item.json.customAttributes).toEqual(expect.arrayContaining([expect.objectContaining({ attributeName: 'Financing', value: 'Cash' })]));
	});
});
