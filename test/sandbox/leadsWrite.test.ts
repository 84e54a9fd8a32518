import { DEMO_API_KEY, OTHER_AGENT_API_KEY, SEED_IDS } from '../../sandbox';
import { client, useSandbox } from './helpers';

const sb = useSandbox();

const api = () => client(sb.url, { token: DEMO_API_KEY });
const getLead = async (id: string) => (await api().get(`/v1.0/leads/${id}`)).body.lead;
const tags = async (id: string): Promise<string[]> => (await getLead(id)).tags.map((t: any) => t.tagName).sort();
const BIG = SEED_IDS.bigLeadId;

async function setTags(id: string, names: string[]): Promise<void> {
	expect((await api().put(`/v1.0/leads/${id}`, { body: { tags: names } })).status).toBe(200);
}

describe('POST /v1.0/leads', () => {
	it('creates a lead and answers {leadId} as an exact bare numeral', async () => {
		const r = await api().post('/v1.0/leads', { body: { firstName: 'Bob', lastName: 'Li', emails: ['bob@example.com'], tags: ['A'], tagsAdd: ['B'] } });
		expect(r.status).toBe(200);
		expect(r.text).toMatch(/^\{"leadId":\d{16,}\}$/);
		const id = String(r.body.leadId);
		const lead = await getLead(id);
		expect(lead).toMatchObject({ firstName: 'Bob', lastName: 'Li', emails: ['bob@example.com'] });
		expect(await tags(id)).toEqual(['A', 'B']);
	});

	it('firstName is required (400 20012)', async () => {
		const r = await api().post('/v1.0/leads', { body: { lastName: 'X' } });
		expect(r.status).toBe(400);
		expect(r.body.code).toBe(20012);
		expect((await api().post('/v1.0/leads', { body: { firstName: '  ' } })).body.code).toBe(20012);
	});

	it('without assignedUserId, routing assigns agents round robin (deterministic)', async () => {
		const a = await api().post('/v1.0/leads', { body: { firstName: 'R1' } });
		const b = await api().post('/v1.0/leads', { body: { firstName: 'R2' } });
		const la = await getLead(String(a.body.leadId));
		const lb = await getLead(String(b.body.leadId));
		expect(la.assignedUserId).not.toBe(-1);
		expect(String(la.assignedUserId)).not.toBe(String(lb.assignedUserId));
		sb.reset();
		const again = await api().post('/v1.0/leads', { body: { firstName: 'R1' } });
		expect(String((await getLead(String(again.body.leadId))).assignedUserId)).toBe(String(la.assignedUserId));
	});

	it('assignedUserId above 2^53 is read losslessly from a bare numeral and from a numeric string', async () => {
		const raw = `{"firstName":"Exact","assignedUserId":${SEED_IDS.demoUserId}}`;
		const r = await api().post('/v1.0/leads', { rawBody: raw, headers: { 'Content-Type': 'application/json' } });
		expect(r.status).toBe(200);
		const lead = await api().get(`/v1.0/leads/${r.body.leadId}`);
		expect(lead.text).toContain(`"assignedUserId":${SEED_IDS.demoUserId}`);
		const s = await api().post('/v1.0/leads', { body: { firstName: 'Str', assignedUserId: SEED_IDS.otherAgentUserId } });
		expect(String((await getLead(String(s.body.leadId))).assignedUserId)).toBe(SEED_IDS.otherAgentUserId);
	});

	it('an assignedUserId outside the team is 20012', async () => {
		expect((await api().post('/v1.0/leads', { body: { firstName: 'X', assignedUserId: 42 } })).body.code).toBe(20012);
	});

	it('a property block with every address part blank is 200057 and creates nothing', async () => {
		const before = sb.store.leads.size;
		const r = await api().post('/v1.0/leads', { body: { firstName: 'P', property: { city: ' ', price: 5 } } });
		expect(r.status).toBe(400);
		expect(r.body.code).toBe(200057);
		expect(sb.store.leads.size).toBe(before);
	});
});

describe('GET /v1.0/leads/{leadId}', () => {
	it('wraps the lead as {lead:{...}} and keeps ids above 2^53 exact', async () => {
		const r = await api().get(`/v1.0/leads/${BIG}`);
		expect(r.status).toBe(200);
		expect(Object.keys(r.body)).toEqual(['lead']);
		expect(r.text).toContain(`"leadId":${BIG}`);
		expect(r.body.lead.leadId).toBe(BigInt(BIG));
	});

	it('404 LEAD_NOT_EXIST for a lead owned by another agent and not shared', async () => {
		const r = await api().get(`/v1.0/leads/${SEED_IDS.notSharedLeadId}`);
		expect(r.status).toBe(404);
		expect(r.body.code).toBe('LEAD_NOT_EXIST');
		expect((await client(sb.url, { token: OTHER_AGENT_API_KEY }).get(`/v1.0/leads/${SEED_IDS.notSharedLeadId}`)).status).toBe(200);
	});

	it('a shared lead is readable; a missing id is LEAD_NOT_EXIST; a bad id is 20012', async () => {
		expect((await api().get(`/v1.0/leads/${SEED_IDS.sharedLeadId}`)).status).toBe(200);
		expect((await api().get('/v1.0/leads/12')).body.code).toBe('LEAD_NOT_EXIST');
		expect((await api().get('/v1.0/leads/x1')).body.code).toBe(20012);
	});

	it('trashed leads need withTrash=true', async () => {
		expect((await api().get(`/v1.0/leads/${SEED_IDS.trashedLeadId}`)).status).toBe(404);
		expect((await api().get(`/v1.0/leads/${SEED_IDS.trashedLeadId}`, { params: { withTrash: true } })).status).toBe(200);
	});
});

describe('PUT /v1.0/leads/{leadId} tag precedence', () => {
	it('tags replaces all tags', async () => {
		await setTags(BIG, ['A', 'B']);
		await api().put(`/v1.0/leads/${BIG}`, { body: { tags: ['C'] } });
		expect(await tags(BIG)).toEqual(['C']);
	});

	it('tagsAdd adds and keeps the existing tags', async () => {
		await setTags(BIG, ['A']);
		await api().put(`/v1.0/leads/${BIG}`, { body: { tagsAdd: ['B', 'A'] } });
		expect(await tags(BIG)).toEqual(['A', 'B']);
	});

	it('tagsRemove removes literal names (including "*"), ignores names not on the lead', async () => {
		await setTags(BIG, ['A', '*', 'B']);
		await api().put(`/v1.0/leads/${BIG}`, { body: { tagsRemove: ['*', 'Nope', 'a'] } });
		expect(await tags(BIG)).toEqual(['A', 'B']);
	});

	it('tagsRemove is applied after tags / tagsAdd', async () => {
		await setTags(BIG, ['A', 'B']);
		await api().put(`/v1.0/leads/${BIG}`, { body: { tags: ['A', 'C'], tagsAdd: ['D'], tagsRemove: ['A'] } });
		expect(await tags(BIG)).toEqual(['C', 'D']);
	});

	it('tagsRemove does not touch a brand-new tag added in the same request', async () => {
		await setTags(BIG, ['A']);
		await api().put(`/v1.0/leads/${BIG}`, { body: { tagsAdd: ['New'], tagsRemove: ['New', 'A'] } });
		expect(await tags(BIG)).toEqual(['New']);
	});

	it('clearAllTags wins over tags, tagsAdd and tagsRemove', async () => {
		await setTags(BIG, ['A', 'B']);
		await api().put(`/v1.0/leads/${BIG}`, { body: { clearAllTags: true, tags: ['X'], tagsAdd: ['Y'], tagsRemove: ['A'] } });
		expect(await tags(BIG)).toEqual([]);
	});

	it('clearAllTags=false changes nothing by itself', async () => {
		await setTags(BIG, ['A']);
		await api().put(`/v1.0/leads/${BIG}`, { body: { clearAllTags: false } });
		expect(await tags(BIG)).toEqual(['A']);
	});
});

describe('PUT /v1.0/leads/{leadId} fields', () => {
	it('updates fields and answers {leadId}', async () => {
		const r = await api().put(`/v1.0/leads/${BIG}`, { body: { firstName: 'Changed', segments: ['Luxury'], isHidden: true } });
		expect(r.text).toBe(`{"leadId":${BIG}}`);
		expect(await getLead(BIG)).toMatchObject({ firstName: 'Changed', segments: ['Luxury'], hiddenFlag: true });
	});

	it('an invalid body changes nothing (validation happens first)', async () => {
		const before = await getLead(BIG);
		const r = await api().put(`/v1.0/leads/${BIG}`, { body: { firstName: 'Nope', emails: 'not-an-array' } });
		expect(r.status).toBe(400);
		expect((await getLead(BIG)).firstName).toBe(before.firstName);
	});

	it('property.id of another lead is 404 200108; blank address is 200057', async () => {
		await api().post(`/v1.0/leads/${SEED_IDS.activityLeadId}/property`, { body: { city: 'Austin' } });
		const foreign = (await getLead(SEED_IDS.activityLeadId)).leadPropertyList[0].id;
		const r = await api().put(`/v1.0/leads/${BIG}`, { body: { firstName: 'Nope', property: { id: String(foreign), city: 'Austin' } } });
		expect(r.status).toBe(404);
		expect(r.body.code).toBe(200108);
		expect((await getLead(BIG)).firstName).not.toBe('Nope');
		expect((await api().put(`/v1.0/leads/${BIG}`, { body: { property: { zipCode: '' } } })).body.code).toBe(200057);
	});

	it('a property block updates the named property in place or merges by address', async () => {
		await api().put(`/v1.0/leads/${BIG}`, { body: { property: { streetAddress: '9 Oak Rd', city: 'Austin', price: 1 } } });
		const [p] = (await getLead(BIG)).leadPropertyList;
		await api().put(`/v1.0/leads/${BIG}`, { body: { property: { id: String(p.id), streetAddress: '9 Oak Rd', city: 'Austin', price: 2 } } });
		await api().put(`/v1.0/leads/${BIG}`, { body: { property: { streetAddress: '9 OAK RD', city: 'austin', bedrooms: 3 } } });
		const list = (await getLead(BIG)).leadPropertyList;
		expect(list).toHaveLength(1);
		expect(list[0]).toMatchObject({ price: 2, bedrooms: 3 });
	});

	it('404 LEAD_NOT_EXIST for a lead not shared with the caller', async () => {
		const r = await api().put(`/v1.0/leads/${SEED_IDS.notSharedLeadId}`, { body: { firstName: 'X' } });
		expect(r.status).toBe(404);
		expect(r.body.code).toBe('LEAD_NOT_EXIST');
	});
});

describe('DELETE /v1.0/leads/{leadId}', () => {
	it('reason is required: 400 MISSING_PARAMETER', async () => {
		const r = await api().delete(`/v1.0/leads/${BIG}`);
		expect(r.status).toBe(400);
		expect(r.body.code).toBe('MISSING_PARAMETER');
	});

	it('moves the lead to the trash and answers {"deleted":true,"leadId":"<id>"}', async () => {
		const r = await api().delete(`/v1.0/leads/${BIG}`, { params: { reason: 'duplicate' } });
		expect(r.status).toBe(200);
		expect(r.text).toBe(`{"deleted":true,"leadId":"${BIG}"}`);
		expect((await api().get(`/v1.0/leads/${BIG}`)).status).toBe(404);
		expect((await api().get(`/v1.0/leads/${BIG}?withTrash=true`)).status).toBe(200);
		expect((await api().delete(`/v1.0/leads/${BIG}`, { params: { reason: 'again' } })).body.code).toBe('LEAD_NOT_EXIST');
	});
});

describe('lead parts', () => {
	it('POST property: creates, merges by address, updates by id', async () => {
		const id = SEED_IDS.bigLeadId2;
		await api().post(`/v1.0/leads/${id}/property`, { body: { streetAddress: '1 Elm St', city: 'Austin', price: 100 } });
		await api().post(`/v1.0/leads/${id}/property`, { body: { streetAddress: '1 elm st', city: 'AUSTIN', price: 200 } });
		let props = (await getLead(id)).leadPropertyList;
		expect(props).toHaveLength(1);
		expect(props[0].price).toBe(200);
		await api().post(`/v1.0/leads/${id}/property`, { body: { id: String(props[0].id), bedrooms: 4, city: 'Austin' } });
		props = (await getLead(id)).leadPropertyList;
		expect(props).toHaveLength(1);
		expect(props[0].bedrooms).toBe(4);
		const r = await api().post(`/v1.0/leads/${id}/property`, { body: { id: 5, city: 'Austin' } });
		expect(r.status).toBe(404);
		expect(r.body.code).toBe(200108);
		expect((await api().post(`/v1.0/leads/${id}/property`, { body: { price: 5 } })).body.code).toBe(200057);
	});

	it('POST inquiry stores the inquiry', async () => {
		const r = await api().post(`/v1.0/leads/${BIG}/inquiry`, { body: { priceMin: 1, priceMax: 9, locations: [{ city: 'Austin', stateCode: 'TX' }] } });
		expect(r.text).toBe(`{"leadId":${BIG}}`);
		expect((await getLead(BIG)).leadInquiry).toMatchObject({ priceMin: 1, priceMax: 9 });
		expect((await api().post(`/v1.0/leads/${BIG}/inquiry`, { body: { priceMin: 'cheap' } })).body.code).toBe(20012);
	});

	it('POST assignment sets agent, lender and assistant by account', async () => {
		const lender = [...sb.store.users.values()].find((u) => u.roleName === 'Lender')!;
		const r = await api().post(`/v1.0/leads/${BIG}/assignment`, {
			body: [
				{ role: 'Agent', assignee: 'other.agent@example.com' },
				{ role: 'Lender', assignee: lender.email },
			],
		});
		expect(r.status).toBe(200);
		const lead = await getLead(BIG);
		expect(String(lead.assignedUserId)).toBe(SEED_IDS.otherAgentUserId);
		expect(String(lead.lenderUserId)).toBe(String(lender.userId));
		expect((await api().post(`/v1.0/leads/${BIG}/assignment`, { body: [{ role: 'Boss', assignee: 'other.agent@example.com' }] })).body.code).toBe(20012);
		expect((await api().post(`/v1.0/leads/${BIG}/assignment`, { body: [{ role: 'Agent', assignee: 'ghost@example.com' }] })).body.code).toBe(20012);
		expect((await api().post(`/v1.0/leads/${BIG}/assignment`, { body: { role: 'Agent' } })).body.code).toBe(20012);
	});

	it('POST activity requires type, text, link, picture, created', async () => {
		const ok = { type: 'Browse', text: 'Viewed', link: 'https://x', picture: 'https://x/p.jpg', created: 1747272300000 };
		expect((await api().post(`/v1.0/leads/${BIG}/activity`, { body: ok })).status).toBe(200);
		const first = (await api().get(`/v1.0/leads/${BIG}/activities`)).body[0];
		expect(first).toMatchObject({ type: 'Browse', text: 'Viewed', created: 1747272300000 });
		for (const f of Object.keys(ok)) {
			const body: Record<string, unknown> = { ...ok };
			delete body[f];
			const r = await api().post(`/v1.0/leads/${BIG}/activity`, { body });
			expect(r.status).toBe(400);
			expect(r.body.code).toBe(20012);
		}
		expect((await api().post(`/v1.0/leads/${BIG}/activity`, { body: { ...ok, type: 'Dance' } })).body.code).toBe(20012);
	});

	it('POST /v1.0/leads/assignee: PARAM_FIRST_NAME_FILL, PARAM_EMAIL_MUST_FILL, bare array answer', async () => {
		const noName = await api().post('/v1.0/leads/assignee', { body: { email: 'a@b.c' } });
		expect(noName.status).toBe(400);
		expect(noName.body.code).toBe('PARAM_FIRST_NAME_FILL');
		const noEmail = await api().post('/v1.0/leads/assignee', { body: { firstName: 'A' } });
		expect(noEmail.body.code).toBe('PARAM_EMAIL_MUST_FILL');
		const r = await api().post('/v1.0/leads/assignee', { body: { firstName: 'A', email: 'new@example.com' } });
		expect(Array.isArray(r.body)).toBe(true);
		expect(r.body[0].customRoleAssignees[0]).toMatchObject({ role: 'Agent' });
	});

	it('parts of a lead not shared with the caller are LEAD_NOT_EXIST', async () => {
		const r = await api().post(`/v1.0/leads/${SEED_IDS.notSharedLeadId}/inquiry`, { body: { priceMin: 1 } });
		expect(r.status).toBe(404);
		expect(r.body.code).toBe('LEAD_NOT_EXIST');
	});
});
