import type { IDataObject } from 'n8n-workflow';

import { byId, run, useSandbox } from '../harness/sandbox';

/**
 * Unset numeric lead fields (issue 19, point 9): Lofty's live service answers -1 (api-notes.md), the sandbox's
 * reading `unsetNumbers: 'null'` answers null (docs/api-readings.md, row 16). The Simplified and Selected Fields outputs
 * show null either way, so that an IF node's "is empty" holds; Raw keeps what Lofty sent.
 */

const sandbox = useSandbox();
const READINGS = ['live', 'null'] as const;

/** A lead with nothing set for the numbers: team-wide (no ownership ID), no lender, no pond, one inquiry and property number. */
async function bareLead(): Promise<string> {
	const [item] = await run(
		sandbox(),
		{
			resource: 'lead',
			operation: 'create',
			firstName: 'Una',
			additionalFields: { ownershipScope: 'TEAM', inquiryPriceMin: 250000, propertyCity: 'Fresno' },
		},
		{ typeVersion: 1.1 },
	);
	return item.json.leadId as string;
}

const get = async (leadId: string, output: Record<string, unknown>) =>
	(await run(sandbox(), { resource: 'lead', operation: 'get', leadId: byId(leadId), ...output }, { typeVersion: 1.1 }))[0].json;

describe.each(READINGS)('unset numbers, the sandbox answering as %s', (reading) => {
	beforeEach(() => sandbox().readings.set({ unsetNumbers: reading }));

	it('Raw keeps what Lofty sent', async () => {
		const raw = await get(await bareLead(), { output: 'raw' });
		const expected = reading === 'live' ? [-1, '-1'] : [null];
		expect(expected).toContain(raw.pondId);
		expect(expected).toContain(raw.ownershipId);
		expect(expected).toContain(raw.lenderUserId);
		expect((raw.leadInquiry as IDataObject).priceMax).toBe(reading === 'live' ? -1 : null);
		expect((raw.leadInquiry as IDataObject).priceMin).toBe(250000);
		expect((raw.leadPropertyList as IDataObject[])[0].price).toBe(reading === 'live' ? -1 : null);
	});

	it('Simplified shows null for each unset number and keeps the set ones', async () => {
		const simple = await get(await bareLead(), { output: 'simplified' });
		expect([simple.pondId, simple.ownershipId, simple.lenderUserId]).toEqual([null, null, null]);
		expect(simple.assignedUserId).toMatch(/^\d+$/);
	});

	it('Selected Fields shows null inside the inquiry and the properties too', async () => {
		const picked = await get(await bareLead(), { output: 'selected', outputFields: 'leadInquiry, leadPropertyList' });
		expect(picked.leadInquiry).toMatchObject({ priceMin: 250000, priceMax: null, bedroomsMin: null, bedroomsMax: null });
		expect((picked.leadPropertyList as IDataObject[])[0]).toMatchObject({ city: 'Fresno', price: null, bedrooms: null, floors: null });
	});
});

describe('unset numbers read the same whichever Lofty sends', () => {
	it('the Simplified output of one lead is equal under both answers, and the Raw outputs differ', async () => {
		const leadId = await bareLead();
		const outputs: Record<string, { simple: IDataObject; raw: IDataObject }> = {};
		for (const reading of READINGS) {
			sandbox().readings.set({ unsetNumbers: reading });
			outputs[reading] = { simple: await get(leadId, { output: 'simplified' }), raw: await get(leadId, { output: 'raw' }) };
		}
		expect(outputs.live.simple).toEqual(outputs.null.simple);
		expect(outputs.live.raw).not.toEqual(outputs.null.raw);
	});

	it('by default the sandbox answers -1 as the live service does, in each unset one of the 17 fields', async () => {
		const raw = await get(await bareLead(), { output: 'raw' });
		const inquiry = raw.leadInquiry as IDataObject;
		const property = (raw.leadPropertyList as IDataObject[])[0];
		const values = [
			raw.pondId,
			raw.ownershipId,
			raw.lenderUserId,
			...['priceMax', 'bedroomsMin', 'bedroomsMax'].map((f) => inquiry[f]),
			...['price', 'priceMin', 'priceMax', 'bedrooms', 'bathrooms', 'squareFeet', 'lotSize', 'parkingSpace', 'floors'].map((f) => property[f]),
		].map(String);
		// Fifteen are unset here: routing assigned an agent (assignedUserId) and the inquiry has priceMin.
		expect(values).toEqual(Array(15).fill('-1'));
	});
});
