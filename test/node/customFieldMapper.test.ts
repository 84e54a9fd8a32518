/**
 * Custom fields by name: the editor's mapper lists the team's fields from the sandbox with a fitting input,
 * values are checked before anything is sent and go out in Lofty's shape, reads can give `name: value` keys.
 */
import type { ILoadOptionsFunctions } from 'n8n-workflow';

import { getLeadCustomFieldMapping, getTransactionCustomFieldMapping } from '../../nodes/Lofty/methods/customFieldMapping';
import { SEED_IDS, parseJson } from '../../sandbox';
import { TX_SEED } from '../../sandbox/resources/transaction';
import { createContext } from '../harness/context';
import { apiKeyCredential, byId, node, run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const BIG = SEED_IDS.bigLeadId;

/** The mapper's parameter value as the editor stores it. */
const mapped = (value: Record<string, unknown>) => ({ mappingMode: 'defineBelow', value, matchingColumns: [], schema: [] });
const bodies = (method: string, path: RegExp) =>
	sandbox()
		.requests.filter((r) => r.method === method && path.test(r.path))
		.map((r) => parseJson(r.body) as Record<string, unknown>);
const loadContext = () => createContext(node, { params: { authentication: 'apiKey' }, credential: apiKeyCredential(sandbox()) }) as unknown as ILoadOptionsFunctions;

describe('Custom Fields mapper: the fields listed in the editor', () => {
	it('lists the team\'s lead fields by name, with an input fitting each type and the choices Lofty gives', async () => {
		const { fields } = await getLeadCustomFieldMapping.call(loadContext());
		const byName = Object.fromEntries(fields.map((f) => [f.displayName, f]));
		expect(Object.keys(byName)).toEqual([
			'Budget Ceiling',
			'Down Payment',
			'Financing',
			'Home Anniversary',
			'Household Size',
			'Move-In Date',
			'Must-Haves (List)',
			'Preferred School District',
		]);
		expect(byName['Preferred School District']).toMatchObject({ id: 'Preferred School District', type: 'string', required: false, display: true, removed: true });
		expect(byName['Budget Ceiling'].type).toBe('number');
		expect(byName['Down Payment'].type).toBe('number');
		expect(byName['Move-In Date'].type).toBe('dateTime');
		expect(byName['Home Anniversary'].type).toBe('dateTime');
		expect(byName.Financing).toMatchObject({ type: 'options', options: ['Cash', 'Conventional', 'FHA', 'VA'].map((v) => ({ name: v, value: v })) });
		// n8n's mapper keeps no lists: several choices are typed as text.
		expect(byName['Must-Haves (List)']).toMatchObject({ id: 'Must-Haves', type: 'string' });
	});

	it('lists the transaction fields by name, keyed by ID, choices by label with Lofty\'s option values', async () => {
		const { fields } = await getTransactionCustomFieldMapping.call(loadContext());
		const byName = Object.fromEntries(fields.map((f) => [f.displayName, f]));
		expect(Object.keys(byName)).toEqual(['Closing Agent', 'Lender Name', 'Option Period End', 'Referral Fee', 'Showing Days (List)']);
		expect(byName['Closing Agent']).toMatchObject({ id: '1001', type: 'options', options: [{ name: 'Option A', value: '1' }, { name: 'Option B', value: '2' }] });
		expect(byName['Option Period End']).toMatchObject({ id: TX_SEED.bigCustomFieldId, type: 'dateTime' });
		expect(byName['Showing Days (List)']).toMatchObject({ id: '1004', type: 'string' });
		expect(byName['Referral Fee'].type).toBe('number');
		expect(byName['Lender Name'].type).toBe('string');
	});
});

describe('Custom Fields mapper before the editor has set the credential', () => {
	// The editor asks as the panel opens; a credential it picks by itself arrives later (see customFieldMapping.ts).
	const withoutCredential = (params: Record<string, unknown>) => {
		const ctx = createContext(node, { params, credential: apiKeyCredential(sandbox()) }) as unknown as ILoadOptionsFunctions;
		const bare = { ...ctx.getNode(), credentials: undefined };
		return Object.assign(Object.create(ctx) as ILoadOptionsFunctions, { getNode: () => bare });
	};

	it('answers an empty list with a notice instead of an error, and asks Lofty nothing', async () => {
		const before = sandbox().requests.length;
		for (const method of [getLeadCustomFieldMapping, getTransactionCustomFieldMapping]) {
			const answer = await method.call(withoutCredential({ authentication: 'apiKey' }));
			expect(answer).toEqual({ fields: [], emptyFieldsNotice: expect.stringMatching(/once a credential is chosen above/) });
		}
		expect(sandbox().requests.length).toBe(before);
	});

	it('reads the credential that Authentication chooses: an OAuth2 node with only an API key credential set gets the notice', async () => {
		const ctx = createContext(node, { params: { authentication: 'oAuth2' }, credential: apiKeyCredential(sandbox()) }) as unknown as ILoadOptionsFunctions;
		expect(await getLeadCustomFieldMapping.call(ctx)).toMatchObject({ fields: [] });
		expect((await getLeadCustomFieldMapping.call(loadContext())).fields.length).toBeGreaterThan(0);
	});
});

describe('Custom Fields mapper on lead writes', () => {
	it('Create sends customAttributeList in Lofty\'s shape; Get with Custom Fields By Name reads them back as name: value', async () => {
		const [created] = await run(sandbox(), {
			resource: 'lead',
			operation: 'create',
			firstName: 'Mapper',
			customFieldValues: mapped({
				Financing: 'fha',
				'Must-Haves': 'Pool, garage',
				'Budget Ceiling': 500000,
				'Household Size': '4',
				'Move-In Date': '2026-03-01T00:00:00',
				'Preferred School District': 'Eanes ISD',
				'Down Payment': null,
			}),
		});
		const [body] = bodies('POST', /^\/v1\.0\/leads$/);
		expect(body.customAttributeList).toEqual([
			{ attributeName: 'Financing', attributeType: 'single_select', value: 'FHA' },
			{ attributeName: 'Must-Haves', attributeType: 'multi_select', value: '["Pool","Garage"]' },
			{ attributeName: 'Budget Ceiling', attributeType: 'currency', value: '500000' },
			{ attributeName: 'Household Size', attributeType: 'number', value: '4' },
			{ attributeName: 'Move-In Date', attributeType: 'date', value: 'Mar 1, 2026' },
			{ attributeName: 'Preferred School District', attributeType: 'text', value: 'Eanes ISD' },
		]);
		const [lead] = await run(sandbox(), { resource: 'lead', operation: 'get', leadId: byId(created.json.leadId as string), options: { customFieldsByName: true } });
		expect(lead.json.customFields).toEqual({
			Financing: 'FHA',
			'Must-Haves': ['Pool', 'Garage'],
			'Budget Ceiling': 500000,
			'Household Size': 4,
			'Move-In Date': 'Mar 1, 2026',
			'Preferred School District': 'Eanes ISD',
		});
		// The raw list stays next to it.
		expect(lead.json.customAttributes).toHaveLength(6);
	});

	it('Update joins the mapped fields to Custom Fields (JSON); a mapped field replaces the same field there', async () => {
		await run(sandbox(), {
			resource: 'lead',
			operation: 'update',
			leadId: byId(BIG),
			customFieldValues: mapped({ Financing: 'VA' }),
			updateFields: {
				customAttributeList: '[{"attributeName": "Financing", "attributeType": "single_select", "value": "Cash"}, {"attributeName": "Legacy Field", "attributeType": "text", "value": "kept"}]',
			},
		});
		const [body] = bodies('PUT', /^\/v1\.0\/leads\/\d+$/);
		expect(body.customAttributeList).toEqual([
			{ attributeName: 'Legacy Field', attributeType: 'text', value: 'kept' },
			{ attributeName: 'Financing', attributeType: 'single_select', value: 'VA' },
		]);
	});

	it('Update with only mapped fields counts as a change (no "add at least one field" error)', async () => {
		await run(sandbox(), { resource: 'lead', operation: 'update', leadId: byId(BIG), customFieldValues: mapped({ 'Household Size': 2 }) });
		expect(bodies('PUT', /^\/v1\.0\/leads\/\d+$/)[0]).toEqual({ customAttributeList: [{ attributeName: 'Household Size', attributeType: 'number', value: '2' }] });
	});

	it.each([
		[{ 'Budget Ceiling': 'a lot' }, 'Custom Field Budget Ceiling', 'must be a number (currency), got a lot'],
		[{ Financing: 'Loan' }, 'Custom Field Financing', 'must be one of Cash, Conventional, FHA, VA, got Loan'],
		[{ 'Must-Haves': 'Pool, Sauna' }, 'Custom Field Must-Haves', 'must be one of Pool, Garage, Yard, Home Office, got Sauna'],
		[{ 'Move-In Date': 'next spring' }, 'Custom Field Move-In Date', 'must be a date and time'],
		[{ 'Preferred School District': { nested: true } }, 'Custom Field Preferred School District', 'must be text'],
	])('refuses %j before sending: naming the field and the rule', async (values, field, rule) => {
		const error = await runError(sandbox(), { resource: 'lead', operation: 'create', firstName: 'Bad', customFieldValues: mapped(values) });
		expect(error.message).toContain(`Invalid value for "${field}": ${rule}`);
		expect(error.description).toMatch(/Nothing was sent to Lofty/);
		expect(sandbox().requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1.0/teamFeatures/listCustomField']);
	});

	it('refuses a field the team no longer has (deleted since the mapper listed it), naming it and the fields there are', async () => {
		const error = await runError(sandbox(), {
			resource: 'lead',
			operation: 'create',
			firstName: 'Gone',
			customFieldValues: { ...mapped({ 'Pet Policy': 'Cats' }), schema: [{ id: 'Pet Policy', displayName: 'Pet Policy' }] },
		});
		expect(error.message).toMatch(/^Invalid value for "Custom Field Pet Policy": Lofty has no lead custom field of this name \(the team's fields: Preferred School District, Budget Ceiling, /);
		expect(sandbox().count('POST', '/v1.0/leads')).toBe(0);
	});

	it('lists the fields once per run, whatever the number of items', async () => {
		const items = await run(sandbox(), (i) => ({ resource: 'lead', operation: 'create', firstName: `Batch ${i}`, customFieldValues: mapped({ 'Household Size': i + 1 }) }), {
			items: [{}, {}, {}],
		});
		expect(items).toHaveLength(3);
		expect(sandbox().count('GET', '/v1.0/teamFeatures/listCustomField')).toBe(1);
		expect(bodies('POST', /^\/v1\.0\/leads$/).map((b) => (b.customAttributeList as Array<{ value: string }>)[0].value)).toEqual(['1', '2', '3']);
	});

	it('Get Many: Custom Fields By Name survives the Simplified output (node version 1.1)', async () => {
		await run(sandbox(), {
			resource: 'lead',
			operation: 'create',
			firstName: 'Listed',
			additionalFields: { emails: ['listed.mapper@example.com'] },
			customFieldValues: mapped({ Financing: 'Cash' }),
		});
		const items = await run(
			sandbox(),
			{ resource: 'lead', operation: 'getAll', limit: 5, filters: { email: 'listed.mapper@example.com' }, options: { customFieldsByName: true } },
			{ typeVersion: 1.1 },
		);
		expect(items).toHaveLength(1);
		const lead = items[0].json;
		expect(Object.keys(lead)).not.toContain('customAttributes');
		expect(Object.keys(lead)).not.toContain('leadInquiry');
		expect(lead).toMatchObject({ firstName: 'Listed', customFields: { Financing: 'Cash' } });
	});
});

describe('Custom Fields mapper on transaction writes', () => {
	const tx = { resource: 'transaction', leadId: byId(BIG) };

	it('Update keeps the values of the fields not mapped (Lofty replaces all), sends choices by their values and dates as epoch ms', async () => {
		await run(sandbox(), {
			...tx,
			operation: 'update',
			transactionId: byId(TX_SEED.purchaseId),
			customFieldValues: mapped({ '1002': 'Acme Lending', '1004': ['Saturday', 'sun'], [TX_SEED.bigCustomFieldId]: '2026-05-01T00:00:00Z', '1003': 2.5 }),
		});
		const [body] = bodies('PUT', /\/transaction\/\d+$/);
		// IDs go out as exact integers (the sandbox reads a big one as a bigint).
		expect(body.customFields).toEqual([
			{ id: 1001, value: '1' },
			{ id: 1002, value: 'Acme Lending' },
			{ id: 1003, value: '2.5' },
			{ id: 1004, value: '["sat","sun"]' },
			{ id: BigInt(TX_SEED.bigCustomFieldId), value: String(Date.UTC(2026, 4, 1)) },
		]);
		const [read] = await run(sandbox(), { ...tx, operation: 'get', transactionId: byId(TX_SEED.purchaseId), simplify: false, options: { customFieldsByName: true } });
		expect(read.json.customFields).toEqual({
			'Closing Agent': 'Option A',
			'Lender Name': 'Acme Lending',
			'Showing Days': ['Saturday', 'Sunday'],
			'Option Period End': String(Date.UTC(2026, 4, 1)),
			'Referral Fee': 2.5,
		});
	});

	it('a mapped choice given by its label is sent as its value; the By ID rows join, the mapper wins on the same field', async () => {
		await run(sandbox(), {
			...tx,
			operation: 'update',
			transactionId: byId(TX_SEED.listingId),
			customFieldValues: mapped({ '1001': 'Option B' }),
			updateFields: { customFields: { values: [{ id: '1001', value: '1' }, { id: '1002', value: 'By ID' }] } },
		});
		const [body] = bodies('PUT', /\/transaction\/\d+$/);
		expect(body.customFields).toEqual([
			{ id: 1002, value: 'By ID' },
			{ id: 1001, value: '2' },
		]);
	});

	it('Create sends the mapped fields without reading anything first', async () => {
		await run(sandbox(), { ...tx, operation: 'create', transactionName: '1 Mapper Way', customFieldValues: mapped({ '1001': '2' }) });
		expect(bodies('POST', /\/transaction$/)[0].customFields).toEqual([{ id: 1001, value: '2' }]);
		expect(sandbox().requests.filter((r) => r.method === 'GET').map((r) => r.path)).toEqual(['/v1.0/transaction/customfields']);
	});

	it('refuses a value not among the choices before sending', async () => {
		const error = await runError(sandbox(), { ...tx, operation: 'update', transactionId: byId(TX_SEED.purchaseId), customFieldValues: mapped({ '1004': ['Monday'] }) });
		expect(error.message).toBe('Invalid value for "Custom Field Showing Days": must be one of Saturday, Sunday, got Monday');
		expect(sandbox().count('PUT', '/v1.0/leads/{leadId}/transaction/{transactionId}')).toBe(0);
	});

	it('Get Many: Custom Fields By Name turns each deal\'s list into name: value keys', async () => {
		const items = await run(sandbox(), { resource: 'transaction', operation: 'getAll', transactionType: 'All', limit: 100, simplify: false, filters: { leadId: BIG }, options: { customFieldsByName: true } });
		const purchase = items.find((i) => i.json.transactionId === TX_SEED.purchaseId)!.json;
		expect(purchase.customFields).toEqual({ 'Closing Agent': 'Option A' });
		expect(items.every((i) => typeof i.json.customFields === 'object' && !Array.isArray(i.json.customFields))).toBe(true);
	});
});
