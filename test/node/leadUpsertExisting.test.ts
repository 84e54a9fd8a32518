/**
 * Lead > Create or Update when the lead exists: "Only Fill Empty Fields" (the default) keeps what Lofty already
 * knows, "Update All Given Fields" replaces it; emails, phones and tags are added in both. The two modes run on two
 * identical leads and their difference is exactly what the first lists as kept.
 */
import type { IDataObject } from 'n8n-workflow';

import { parseJson } from '../../sandbox';
import { leadPersistence } from '../../sandbox/resources/lead';
import { byId, run, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const upsert = (params: Record<string, unknown>) => ({ resource: 'lead', operation: 'upsert', ...params });
const mapped = (value: IDataObject) => ({ mappingMode: 'defineBelow', value, matchingColumns: [], schema: [] });
const tagNames = (lead: IDataObject) => (lead.tags as IDataObject[]).map((t) => t.tagName).sort();
const custom = (lead: IDataObject) => Object.fromEntries((lead.customAttributes as IDataObject[]).map((a) => [a.attributeName, a.value]));
const puts = () => sandbox().requests.filter((r) => r.method === 'PUT').map((r) => parseJson(r.body) as IDataObject);

async function existing(body: IDataObject): Promise<string> {
	const [item] = await run(sandbox(), { resource: 'lead', operation: 'create', firstName: String(body.firstName), additionalFields: body });
	return item.json.leadId as string;
}

async function leadById(leadId: string): Promise<IDataObject> {
	const [item] = await run(sandbox(), { resource: 'lead', operation: 'get', leadId: byId(leadId) });
	return item.json;
}

/** A lead an agent has worked on: a first source, a name as the agent wrote it, a custom field, an inquiry. */
const known = (email: string): IDataObject => ({
	firstName: 'Tess',
	emails: [email],
	source: 'Open House',
	stage: 'Hot',
	tags: ['Buyer'],
	customAttributeList: [{ attributeName: 'Financing', attributeType: 'single_select', value: 'Cash' }],
	inquiryPriceMin: 300000,
});

/** A repeat web-form submission for that person, with values that differ from what Lofty has. */
const submission = (email: string, whenExists?: string) =>
	upsert({
		firstName: 'tess',
		email,
		phone: '415-555-0150',
		additionalFields: { lastName: 'Tran', source: 'Web Form', stage: 'New', tags: ['Web Form'], inquiryPriceMin: 450000, inquiryPriceMax: 800000 },
		customFieldValues: mapped({ Financing: 'VA', 'Household Size': 3 }),
		...(whenExists ? { options: { whenExists } } : {}),
	});

describe('Create or Update of a lead that exists', () => {
	it('by default fills only empty fields: the first source, the name as written, a set custom field and inquiry value stay; the output lists them', async () => {
		const leadId = await existing(known('tess@example.com'));
		const [item] = await run(sandbox(), submission('tess@example.com'));
		expect(item.json).toMatchObject({ action: 'updated', leadId, firstName: 'Tess', source: 'Open House', stage: 'Hot', lastName: 'Tran' });
		expect(item.json.keptFields).toEqual(['firstName', 'stage', 'source', 'inquiry.priceMin', 'customFields.Financing']);
		const lead = await leadById(leadId);
		expect(custom(lead)).toEqual({ Financing: 'Cash', 'Household Size': '3' });
		expect(lead.leadInquiry).toMatchObject({ priceMin: 300000, priceMax: 800000 });
		// Added in both modes: the phone, the tag.
		expect(lead.phones).toEqual(['+14155550150']);
		expect(tagNames(lead)).toEqual(['Buyer', 'Web Form']);
	});

	it('the two modes on two identical leads differ exactly in the fields Only Fill Empty Fields kept', async () => {
		const keep = await existing(known('keep@example.com'));
		const replace = await existing(known('replace@example.com'));
		const [kept] = await run(sandbox(), submission('keep@example.com', 'fillEmpty'));
		const [replaced] = await run(sandbox(), submission('replace@example.com', 'updateAll'));
		expect(replaced.json.keptFields).toBeUndefined();
		expect(replaced.json).toMatchObject({ action: 'updated', firstName: 'tess', source: 'Web Form', stage: 'New', lastName: 'Tran' });
		const [a, b] = [await leadById(keep), await leadById(replace)];
		const differing = ['firstName', 'lastName', 'source', 'stage', 'phones', 'tags', 'leadInquiry', 'customAttributes', 'emails'].filter(
			(f) => JSON.stringify(f === 'tags' ? tagNames(a) : f === 'emails' ? [] : a[f]) !== JSON.stringify(f === 'tags' ? tagNames(b) : f === 'emails' ? [] : b[f]),
		);
		expect(differing).toEqual(['firstName', 'source', 'stage', 'leadInquiry', 'customAttributes']);
		const asRead = (field: string) => (field.startsWith('inquiry.') ? 'leadInquiry' : field.startsWith('customFields.') ? 'customAttributes' : field);
		expect((kept.json.keptFields as string[]).map(asRead).sort()).toEqual([...differing].sort());
		expect(custom(b)).toEqual({ Financing: 'VA', 'Household Size': '3' });
		expect((b.leadInquiry as IDataObject).priceMin).toBe(450000);
	});

	it('nothing the lead lacks: no update is sent, action "unchanged"', async () => {
		const leadId = await existing({ firstName: 'Uri', emails: ['uri@example.com'], source: 'Zillow' });
		sandbox().requests.length = 0;
		const [item] = await run(sandbox(), upsert({ firstName: 'Uri', email: 'URI@example.com', additionalFields: { source: 'Web Form' } }));
		expect(item.json).toMatchObject({ action: 'unchanged', leadId, source: 'Zillow', keptFields: ['source'] });
		expect(puts()).toEqual([]);
	});

	it('a lead this run created, not readable yet: the second item fills what the first left empty and keeps what it set', async () => {
		leadPersistence(sandbox().store).readDelayMs = 60_000;
		const items = await run(
			sandbox(),
			(i) => upsert({ firstName: 'Vera', email: 'vera@example.com', additionalFields: [{ source: 'Open House' }, { source: 'Web Form', lastName: 'Voss' }][i] }),
			{ items: [{}, {}] },
		);
		expect(items.map((i) => [i.json.action, i.json.keptFields])).toEqual([
			['created', undefined],
			['updated', ['source']],
		]);
		expect(puts()).toEqual([{ lastName: 'Voss' }]);
		leadPersistence(sandbox().store).readableAt.clear();
		expect(await leadById(items[0].json.leadId as string)).toMatchObject({ source: 'Open House', lastName: 'Voss' });
	});

	it('a property at an address the lead has: its set values stay, its empty ones are filled; a new address is added', async () => {
		const leadId = await existing({ firstName: 'Wyn', emails: ['wyn@example.com'], propertyStreetAddress: '1 Elm St', propertyCity: 'Austin', propertyPrice: 500000 });
		const [same] = await run(sandbox(), upsert({ firstName: 'Wyn', email: 'wyn@example.com', additionalFields: { propertyStreetAddress: '1 ELM ST', propertyCity: 'Austin', propertyPrice: 650000, propertyBedrooms: 3 } }));
		expect(same.json.keptFields).toEqual(['property.price']);
		const [other] = await run(sandbox(), upsert({ firstName: 'Wyn', email: 'wyn@example.com', additionalFields: { propertyStreetAddress: '9 Oak Ave', propertyCity: 'Austin', propertyPrice: 250000 } }));
		expect(other.json.keptFields).toBeUndefined();
		const list = (await leadById(leadId)).leadPropertyList as IDataObject[];
		// Unset numbers: -1 as Lofty's live service answers (docs/api-readings.md row 16), or null.
		const unset = (v: unknown) => (v === undefined || v === -1 ? null : v);
		expect(list.map((p) => [p.streetAddress, p.price, unset(p.bedrooms)])).toEqual([
			['1 Elm St', 500000, 3],
			['9 Oak Ave', 250000, null],
		]);
	});

	it('a contact restriction given on is set in both modes (never lost); given off, it does not lift one the lead has', async () => {
		const leadId = await existing({ firstName: 'Xan', emails: ['xan@example.com'], cannotText: true });
		const [item] = await run(sandbox(), upsert({ firstName: 'Xan', email: 'xan@example.com', additionalFields: { cannotCall: true, cannotText: false, cannotEmail: false } }));
		expect(item.json).toMatchObject({ action: 'updated', cannotCall: true, cannotText: true, cannotEmail: false, keptFields: ['cannotText'] });
		expect(puts()).toEqual([{ cannotCall: true }]);
		expect(await leadById(leadId)).toMatchObject({ cannotCall: true, cannotText: true });
	});
});
