import { DEMO_API_KEY, SEED_IDS } from '../../sandbox';
import { client, useSandbox } from './helpers';

/** The tagWrites reading (docs/api-readings.md, row 21): tag names, or {tagName} objects as Lofty's guide writes them. */

const sb = useSandbox();
const api = () => client(sb.url, { token: DEMO_API_KEY });
const lead = SEED_IDS.bigLeadId;
const tagsOf = async () => ((await api().get(`/v1.0/leads/${lead}`)).body.lead.tags as Array<{ tagName: string }>).map((t) => t.tagName).sort();

describe('tagWrites strings (the spec, the OpenAPI)', () => {
	it('takes names; objects are a 400 JSON parse error naming the field, and nothing is written', async () => {
		expect((await api().put(`/v1.0/leads/${lead}`, { body: { tags: ['VIP', 'Cold'] } })).status).toBe(200);
		expect(await tagsOf()).toEqual(['Cold', 'VIP']);
		const r = await api().put(`/v1.0/leads/${lead}`, { body: { tagsAdd: [{ tagName: 'Zillow' }], lastName: 'Changed' } });
		expect(r.status).toBe(400);
		expect(r.body.message).toMatch(/^JSON parse error: Cannot deserialize value of type `java.lang.String` from Object value .*EditLeadRequest\["tagsAdd"\]/);
		expect(await tagsOf()).toEqual(['Cold', 'VIP']);
		expect((await api().get(`/v1.0/leads/${lead}`)).body.lead.lastName).not.toBe('Changed');
	});
});

describe('tagWrites objects (Lofty\'s lead management guide)', () => {
	beforeEach(() => sb.readings.set({ tagWrites: 'objects' }));

	it('takes [{tagName}] on update (tags, tagsAdd, tagsRemove) and on create', async () => {
		expect((await api().put(`/v1.0/leads/${lead}`, { body: { tags: [{ tagName: 'VIP' }, { tagName: 'Cold' }] } })).status).toBe(200);
		expect((await api().put(`/v1.0/leads/${lead}`, { body: { tagsAdd: [{ tagName: 'Zillow' }], tagsRemove: [{ tagName: 'Cold' }] } })).status).toBe(200);
		expect(await tagsOf()).toEqual(['VIP', 'Zillow']);
		const created = await api().post('/v1.0/leads', { body: { firstName: 'Obi', tags: [{ tagName: 'Referral' }] } });
		expect(created.status).toBe(200);
		expect(sb.store.getLead(BigInt(created.body.leadId))?.tags.map((t) => t.tagName)).toEqual(['Referral']);
	});

	it('refuses names with Jackson\'s 400 naming the field; nothing is written (no lead created)', async () => {
		const before = sb.store.leads.size;
		const r = await api().post('/v1.0/leads', { body: { firstName: 'Obi', tags: ['Referral'] } });
		expect(r.status).toBe(400);
		expect(r.body.code).toBe(20012);
		expect(r.body.message).toMatch(/^JSON parse error: Cannot construct instance of `LeadTagVo` .*from String value \('Referral'\).*LeadRequest\["tags"\]/);
		expect(sb.store.leads.size).toBe(before);
	});
});

describe('tags are exact names', () => {
	it('the team list shows "Hot Lead" and "hot lead" as two tags, and the filters match exactly', async () => {
		await api().put(`/v1.0/leads/${lead}`, { body: { tags: ['hot lead'] } });
		const names = (await api().get('/v1.0/teamFeatures/listTag')).body.map((t: { tagName: string }) => t.tagName);
		expect(names.filter((n: string) => n.toLowerCase() === 'hot lead').sort()).toEqual(['Hot Lead', 'hot lead']);
		const found = (await api().get('/v1.0/leads', { params: { anyTags: 'hot lead', limit: 100 } })).body.leads.map((l: { leadId: bigint }) => String(l.leadId));
		expect(found).toEqual([lead]);
	});
});
