import { DEMO_API_KEY, OTHER_AGENT_API_KEY, SEED_IDS } from '../../sandbox';
import { client, useSandbox } from './helpers';

const sb = useSandbox({ reset: false });

const api = () => client(sb.url, { token: DEMO_API_KEY });
const ACT = SEED_IDS.activityLeadId;
const SS = SEED_IDS.savedSearchLeadId;

describe('GET /v1.0/leads/{leadId}/activities (v1)', () => {
	it('pages by curPage (0-based) with a fixed page size of 100, as a bare array, newest first', async () => {
		const sizes: number[] = [];
		const seen = new Set<string>();
		for (let p = 0; p < 5; p++) {
			const r = await api().get(`/v1.0/leads/${ACT}/activities`, { params: { curPage: p } });
			expect(Array.isArray(r.body)).toBe(true);
			sizes.push(r.body.length);
			for (const a of r.body) seen.add(`${a.created}|${a.link}`);
			const created = r.body.map((a: any) => a.created);
			for (let i = 1; i < created.length; i++) expect(created[i - 1]).toBeGreaterThanOrEqual(created[i]);
		}
		expect(sizes).toEqual([100, 100, 100, 20, 0]);
		expect(seen.size).toBe(320);
	});

	it('curPage defaults to 0; negative is 20012; LeadActivity fields', async () => {
		const r = await api().get(`/v1.0/leads/${ACT}/activities`);
		expect(r.body).toHaveLength(100);
		expect(Object.keys(r.body[0]).sort()).toEqual(['created', 'link', 'listing', 'pageName', 'picture', 'scheduledDate', 'text', 'type']);
		expect((await api().get(`/v1.0/leads/${ACT}/activities`, { params: { curPage: -1 } })).body.code).toBe(20012);
	});

	it('404 LEAD_NOT_EXIST without access', async () => {
		expect((await api().get(`/v1.0/leads/${SEED_IDS.notSharedLeadId}/activities`)).body.code).toBe('LEAD_NOT_EXIST');
	});
});

describe('GET /v2.0/leads/{leadId}/activities', () => {
	it('answers {activities:[...]} with limit default 10, oldest first', async () => {
		const r = await api().get(`/v2.0/leads/${ACT}/activities`);
		expect(Object.keys(r.body)).toEqual(['activities']);
		expect(r.body.activities).toHaveLength(10);
		const t = r.body.activities.map((a: any) => Date.parse(a.activityTime));
		for (let i = 1; i < t.length; i++) expect(t[i - 1]).toBeLessThanOrEqual(t[i]);
	});

	it('limit is 1..1000 (LIMIT_NOT_VALID outside)', async () => {
		expect((await api().get(`/v2.0/leads/${ACT}/activities`, { params: { limit: 1000 } })).body.activities).toHaveLength(45);
		for (const bad of [0, 1001]) {
			const r = await api().get(`/v2.0/leads/${ACT}/activities`, { params: { limit: bad } });
			expect(r.status).toBe(400);
			expect(r.body.code).toBe('LIMIT_NOT_VALID');
		}
	});

	it('currentId continues after the given item (keyset) and wins over offset', async () => {
		const first = (await api().get(`/v2.0/leads/${ACT}/activities`, { params: { limit: 20 } })).body.activities;
		const next = await api().get(`/v2.0/leads/${ACT}/activities`, { params: { limit: 10, currentId: String(first[9].id), offset: 30 } });
		expect(next.body.activities.map((a: any) => String(a.id))).toEqual(first.slice(10, 20).map((a: any) => String(a.id)));
		const byOffset = await api().get(`/v2.0/leads/${ACT}/activities`, { params: { limit: 10, offset: 10 } });
		expect(byOffset.body.activities.map((a: any) => String(a.id))).toEqual(first.slice(10, 20).map((a: any) => String(a.id)));
	});

	it('timeZoneCode sets the offset of activityTime; an unknown zone is 20012', async () => {
		const utc = await api().get(`/v2.0/leads/${ACT}/activities`, { params: { limit: 1, timeZoneCode: 'UTC' } });
		expect(utc.body.activities[0].activityTime).toMatch(/\+00:00$/);
		const la = await api().get(`/v2.0/leads/${ACT}/activities`, { params: { limit: 1, timeZoneCode: 'America/Los_Angeles' } });
		expect(la.body.activities[0].activityTime).toMatch(/-0[78]:00$/);
		expect(Date.parse(la.body.activities[0].activityTime)).toBe(Date.parse(utc.body.activities[0].activityTime));
		expect((await api().get(`/v2.0/leads/${ACT}/activities`, { params: { timeZoneCode: 'Mars/Base' } })).body.code).toBe(20012);
	});
});

describe('GET /v1.0/leads/{leadId}/savedSearches', () => {
	const ss = (params: Record<string, unknown> = {}, id: string = SS) => api().get(`/v1.0/leads/${id}/savedSearches`, { params });

	it('by default returns active searches only; INSTANTLY counts as active', async () => {
		const r = await ss();
		expect(r.status).toBe(200);
		expect(Array.isArray(r.body)).toBe(true);
		const cadences = r.body.map((s: any) => s.alert.cadence).sort();
		expect(cadences).toEqual(['DAILY', 'INSTANTLY', 'MONTHLY', 'WEEKLY']);
	});

	it('includeInactive=true adds searches whose alerts are off', async () => {
		const r = await ss({ includeInactive: true });
		expect(r.body).toHaveLength(6);
		expect(r.body.filter((s: any) => !s.active)).toHaveLength(2);
	});

	it('source keeps the listed origins (comma list)', async () => {
		const one = await ss({ source: 'LEAD_CREATED' });
		expect(one.body.map((s: any) => s.source)).toEqual(['LEAD_CREATED', 'LEAD_CREATED']);
		const two = await ss({ source: 'AGENT_CREATED,SYSTEM_CREATED', includeInactive: true });
		expect(two.body).toHaveLength(4);
		expect(two.body.every((s: any) => s.source !== 'LEAD_CREATED')).toBe(true);
		expect((await ss({ source: 'ROBOT' })).body.code).toBe(20012);
	});

	it('names unmodelled filters in unmappedCriteria without their values', async () => {
		const r = await ss({ includeInactive: true });
		const withUnmapped = r.body.find((s: any) => s.unmappedCriteria.includes('hoaFeeMax'));
		expect(withUnmapped.unmappedCriteria).toEqual(['hoaFeeMax', 'openHouseOnly']);
		expect(withUnmapped.criteria.hoaFeeMax).toBeUndefined();
	});

	it('empty array when the lead has none', async () => {
		const r = await ss({}, SEED_IDS.bigLeadId);
		expect(r.status).toBe(200);
		expect(r.text).toBe('[]');
	});

	it('403 when the caller cannot access the lead; the owner can', async () => {
		const r = await ss({}, SEED_IDS.notSharedLeadId);
		expect(r.status).toBe(403);
		expect(r.body.code).toBe('PERMISSION_DENIED');
		const own = await client(sb.url, { token: OTHER_AGENT_API_KEY }).get(`/v1.0/leads/${SEED_IDS.notSharedLeadId}/savedSearches`);
		expect(own.status).toBe(200);
		expect(own.body).toHaveLength(1);
	});

	it('404 LEAD_NOT_EXIST for a lead that does not exist', async () => {
		expect((await ss({}, '77')).status).toBe(404);
	});
});
