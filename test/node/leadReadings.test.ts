/**
 * Lead operations under both readings of the contract where it is ambiguous (docs/api-readings.md): Get Many's
 * paging (row 2), whole-number fields (row 12) and error bodies that are a bare code (row 14).
 */
import { READING_VALUES, SEED_IDS } from '../../sandbox';
import { byId, run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();

describe.each(READING_VALUES.leadPaging)('Lead: Get Many (leadPaging %s)', (reading) => {
	beforeEach(() => sandbox().readings.set({ leadPaging: reading }));
	const visible = () => [...sandbox().store.leads.values()].filter((l) => l.deletedAt === null && sandbox().store.canAccess(BigInt(SEED_IDS.demoUserId), l)).length;

	it('Return All returns every lead once: offset and scrollId from page 2, whichever Lofty follows', async () => {
		const n = visible();
		expect(n).toBeGreaterThan(200);
		const items = await run(sandbox(), { resource: 'lead', operation: 'getAll', returnAll: true });
		expect(items).toHaveLength(n);
		expect(new Set(items.map((i) => i.json.leadId)).size).toBe(n);
		const pages = sandbox().requests;
		// the scroll-only reading serves at most 25 a page however many are asked for
		expect(pages).toHaveLength(Math.ceil(n / (reading === 'spec' ? 100 : 25)));
		expect(pages[0].query.scrollId).toBeUndefined();
		for (const page of pages.slice(1)) expect(page.query).toEqual(expect.objectContaining({ offset: expect.any(String), scrollId: expect.any(String) }));
	});

	it('a Limit above one served page gets exactly that many, each once', async () => {
		const items = await run(sandbox(), { resource: 'lead', operation: 'getAll', limit: 130 });
		expect(items).toHaveLength(130);
		expect(new Set(items.map((i) => i.json.leadId)).size).toBe(130);
		expect(sandbox().requests.map((r) => r.query.limit)).toEqual(reading === 'spec' ? ['100', '30'] : ['100', '100', '80', '55', '30', '5']);
	});
});

describe.each(READING_VALUES.integers)('Lead: whole-number fields (integers %s)', (reading) => {
	beforeEach(() => sandbox().readings.set({ integers: reading }));

	it('sends whole numbers as given and they are stored exactly', async () => {
		await run(sandbox(), {
			resource: 'lead',
			operation: 'addInquiry',
			leadId: byId(SEED_IDS.bigLeadId),
			inquiryFields: { priceMin: 300000, priceMax: 500000, bedroomsMin: 2, bedroomsMax: 4 },
		});
		await run(sandbox(), {
			resource: 'lead',
			operation: 'updateProperty',
			leadId: byId(SEED_IDS.bigLeadId),
			propertyFields: { streetAddress: '1 Main St', price: 450000, bedrooms: 3, bathrooms: 2.5, squareFeet: 1800, lotSize: 0.25, parkingSpace: 2, floors: 2 },
		});
		const [lead] = await run(sandbox(), { resource: 'lead', operation: 'get', leadId: byId(SEED_IDS.bigLeadId) });
		expect(lead.json.leadInquiry).toMatchObject({ priceMin: 300000, priceMax: 500000, bedroomsMin: 2, bedroomsMax: 4 });
		expect(lead.json.leadPropertyList).toEqual(
			expect.arrayContaining([expect.objectContaining({ streetAddress: '1 Main St', price: 450000, bedrooms: 3, bathrooms: 2.5, squareFeet: 1800, lotSize: 0.25 })]),
		);
	});

	it.each([
		['addInquiry', 'inquiryFields', { bedroomsMin: 2.5 }, 'Bedrooms Min'],
		['updateProperty', 'propertyFields', { streetAddress: '1 Main St', squareFeet: 1800.5 }, 'Square Feet'],
		['create', 'additionalFields', { propertyPrice: 450000.99, propertyStreetAddress: '1 Main St' }, 'Property Price'],
	])('%s refuses a decimal in an integer field before sending', async (operation, collection, fields, label) => {
		const base = operation === 'create' ? { firstName: 'Ada' } : { leadId: byId(SEED_IDS.bigLeadId) };
		const error = await runError(sandbox(), { resource: 'lead', operation, ...base, [collection]: fields });
		expect(error.message).toMatch(new RegExp(`^Invalid value for "${label}": must be a whole number, got \\d+\\.\\d+$`));
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe.each(READING_VALUES.errorBodies)('Lead: errors (errorBodies %s)', (reading) => {
	beforeEach(() => sandbox().readings.set({ errorBodies: reading }));

	it('a lead of another agent fails with LEAD_NOT_EXIST and its explanation, whether the body is {code, message} or the bare code', async () => {
		const error = await runError(sandbox(), { resource: 'lead', operation: 'get', leadId: byId(SEED_IDS.notSharedLeadId) });
		expect(error.message).toMatch(/^Lofty error \(HTTP 404 LEAD_NOT_EXIST\): \S/);
		if (reading === 'bareCode') expect(error.message).toBe('Lofty error (HTTP 404 LEAD_NOT_EXIST): the lead does not exist or is not accessible');
		expect(error.description).toMatch(/does not exist, is in the trash, or the user behind this credential cannot see it/);
	});
});
