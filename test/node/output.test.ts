/**
 * The Output choice (node version 1.1) on large records, and version 1 workflows running as before: Simplify on
 * the operations that had it, the full record on those that did not.
 */
import { SEED_IDS } from '../../sandbox';
import { TX_SEED } from '../../sandbox/resources/transaction';
import { byId, run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const BIG = SEED_IDS.bigLeadId;
const getLead = { resource: 'lead', operation: 'get', leadId: byId(BIG) };
const getTx = { resource: 'transaction', operation: 'get', leadId: byId(BIG), transactionId: byId(TX_SEED.purchaseId) };
const V11 = { typeVersion: 1.1 };

describe('Output: version 1 workflows run as before', () => {
	it('Lead Get (no Simplify in version 1) returns the full record', async () => {
		const [item] = await run(sandbox(), getLead);
		expect(Object.keys(item.json)).toEqual(expect.arrayContaining(['leadInquiry', 'customAttributes', 'leadPropertyList', 'phoneStatuses']));
	});

	it('Transaction Get: Simplify on by default, off gives the full record; an Output value in the parameters is not read', async () => {
		const [simple] = await run(sandbox(), { ...getTx, output: 'raw' });
		expect(Object.keys(simple.json)).not.toContain('commissions');
		const [full] = await run(sandbox(), { ...getTx, simplify: false });
		expect(Object.keys(full.json)).toContain('commissions');
	});
});

describe('Output (version 1.1)', () => {
	it('Simplified by default: the most used fields and the IDs', async () => {
		const [item] = await run(sandbox(), getLead, V11);
		expect(Object.keys(item.json).sort()).toEqual(
			['assignedUser', 'assignedUserId', 'createTime', 'emails', 'firstName', 'lastName', 'lastTouch', 'leadId', 'leadTypes', 'leadUserId', 'lenderUserId', 'ownershipId', 'phones', 'pondId', 'score', 'source', 'stage', 'stageId', 'tags', 'teamId'].filter((k) => k in item.json),
		);
		expect(item.json).toMatchObject({ leadId: BIG, firstName: expect.any(String) });
		expect(Object.keys(item.json)).not.toContain('leadInquiry');
	});

	it('Raw: the full record; a Simplify switch left from version 1 is not read', async () => {
		const [item] = await run(sandbox(), { ...getTx, output: 'raw', simplify: true }, V11);
		expect(Object.keys(item.json)).toEqual(expect.arrayContaining(['commissions', 'customFields', 'teamRevenue']));
	});

	it('Selected Fields: only the named fields and the IDs, on every record of a list', async () => {
		const items = await run(sandbox(), { resource: 'lead', operation: 'getAll', limit: 3, output: 'selected', outputFields: 'firstName, stage' }, V11);
		expect(items).toHaveLength(3);
		for (const item of items) {
			expect(Object.keys(item.json).filter((k) => !/Id$/.test(k)).sort()).toEqual(['firstName', 'stage']);
			expect(item.json.leadId).toMatch(/^\d+$/);
		}
	});

	it('Create or Update: Simplified keeps the outcome (action, matchedBy) with the lead\'s main fields', async () => {
		const [item] = await run(sandbox(), { resource: 'lead', operation: 'upsert', firstName: 'Out', email: 'out.put@example.com' }, V11);
		expect(item.json).toMatchObject({ action: 'created', firstName: 'Out', emails: ['out.put@example.com'] });
		expect(Object.keys(item.json)).not.toContain('leadInquiry');
		const [raw] = await run(sandbox(), { resource: 'lead', operation: 'upsert', firstName: 'Out', email: 'out.put@example.com', additionalFields: { lastName: 'Put' }, output: 'raw' }, V11);
		expect(raw.json).toMatchObject({ action: 'updated', matchedBy: 'email', leadId: item.json.leadId });
		expect(Object.keys(raw.json)).toContain('leadInquiry');
	});

	it('Selected Fields without any field: a clear error before sending', async () => {
		const error = await runError(sandbox(), { ...getLead, output: 'selected', outputFields: ' , ' }, V11);
		expect(error.message).toBe('Invalid value for "Fields": name at least one field to return (or choose another Output)');
		expect(sandbox().requests).toHaveLength(0);
	});
});
