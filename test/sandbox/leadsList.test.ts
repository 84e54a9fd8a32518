import { DEMO_API_KEY, OTHER_AGENT_API_KEY, SEED_IDS } from '../../sandbox';
import { client, useSandbox } from './helpers';

const sb = useSandbox({ reset: false });

const api = () => client(sb.url, { token: DEMO_API_KEY });
const list = (params: Record<string, unknown>) => api().get('/v1.0/leads', { params });
const visible = () => [...sb.store.leads.values()].filter((l) => l.deletedAt === null && sb.store.canAccess(BigInt(SEED_IDS.demoUserId), l));
const tagNames = (lead: any): string[] => lead.tags.map((t: any) => t.tagName);

describe('GET /v1.0/leads paging', () => {
	it('answers {_metadata:{collection,limit,offset,total,scrollId}, leads}', async () => {
		const r = await list({ limit: 10 });
		expect(r.status).toBe(200);
		expect(Object.keys(r.body._metadata).sort()).toEqual(['collection', 'limit', 'offset', 'scrollId', 'total']);
		expect(r.body._metadata).toMatchObject({ collection: 'leads', limit: 10, offset: 0, total: visible().length });
		expect(typeof r.body._metadata.scrollId).toBe('string');
		expect(r.body.leads).toHaveLength(10);
	});

	it('limit must be 1..100, else 400 LIMIT_NOT_VALID', async () => {
		for (const bad of [0, 101, -1]) {
			const r = await list({ limit: bad });
			expect(r.status).toBe(400);
			expect(r.body.code).toBe('LIMIT_NOT_VALID');
		}
		expect((await list({ limit: 1 })).body.leads).toHaveLength(1);
		expect((await list({ limit: 100 })).body.leads).toHaveLength(100);
	});

	it('a non-numeric limit is 20012', async () => {
		expect((await list({ limit: 'ten' })).body.code).toBe(20012);
	});

	it('offset pages do not overlap', async () => {
		const a = await list({ limit: 50, offset: 0 });
		const b = await list({ limit: 50, offset: 50 });
		const ids = new Set([...a.body.leads, ...b.body.leads].map((l: any) => String(l.leadId)));
		expect(ids.size).toBe(100);
		expect(b.body._metadata.offset).toBe(50);
	});

	it('scrollId continues after the previous page until every lead was seen once', async () => {
		const total = visible().length;
		const seen: string[] = [];
		let r = await list({ limit: 100 });
		seen.push(...r.body.leads.map((l: any) => String(l.leadId)));
		let guard = 0;
		while (seen.length < total && guard++ < 10) {
			r = await list({ limit: 100, scrollId: r.body._metadata.scrollId });
			expect(r.status).toBe(200);
			expect(r.body._metadata.offset).toBe(seen.length);
			seen.push(...r.body.leads.map((l: any) => String(l.leadId)));
		}
		expect(seen).toHaveLength(total);
		expect(new Set(seen).size).toBe(total);
		const after = await list({ limit: 100, scrollId: r.body._metadata.scrollId });
		expect(after.body.leads).toHaveLength(0);
	});

	it('the scroll cursor keeps the filters of the first request', async () => {
		const first = await list({ limit: 5, stage: 'Hot' });
		const next = await list({ limit: 5, scrollId: first.body._metadata.scrollId });
		expect(next.body.leads.every((l: any) => l.stage === 'Hot')).toBe(true);
		expect(next.body._metadata.total).toBe(first.body._metadata.total);
	});

	it('an invalid scrollId is 400 20012', async () => {
		const r = await list({ scrollId: 'not-a-cursor' });
		expect(r.status).toBe(400);
		expect(r.body.code).toBe(20012);
	});

	it('excludes leads the caller cannot access and trashed leads', async () => {
		const r = await list({ limit: 100, key: '' });
		const all: string[] = [];
		let page = r;
		all.push(...page.body.leads.map((l: any) => String(l.leadId)));
		for (let off = 100; off < page.body._metadata.total; off += 100) {
			page = await list({ limit: 100, offset: off });
			all.push(...page.body.leads.map((l: any) => String(l.leadId)));
		}
		expect(all).not.toContain(SEED_IDS.notSharedLeadId);
		expect(all).not.toContain(SEED_IDS.trashedLeadId);
		expect(all).toContain(SEED_IDS.sharedLeadId);
		const other = await client(sb.url, { token: OTHER_AGENT_API_KEY }).get('/v1.0/leads', { params: { limit: 100 } });
		expect(other.body.leads.map((l: any) => String(l.leadId))).toContain(SEED_IDS.notSharedLeadId);
	});
});

describe('GET /v1.0/leads filters', () => {
	it('stage and source (comma lists)', async () => {
		const r = await list({ limit: 100, stage: 'Hot,Closed' });
		expect(r.body.leads.length).toBeGreaterThan(0);
		expect(r.body.leads.every((l: any) => ['Hot', 'Closed'].includes(l.stage))).toBe(true);
		const s = await list({ limit: 100, source: 'Zillow' });
		expect(s.body.leads.every((l: any) => l.source === 'Zillow')).toBe(true);
		expect(s.body._metadata.total).toBe(visible().filter((l) => l.source === 'Zillow').length);
	});

	it('allTags is AND, anyTags is OR', async () => {
		const all = await list({ limit: 100, allTags: 'Hot Lead,Zillow' });
		expect(all.body.leads.length).toBeGreaterThan(0);
		expect(all.body.leads.every((l: any) => tagNames(l).includes('Hot Lead') && tagNames(l).includes('Zillow'))).toBe(true);
		const any = await list({ limit: 100, anyTags: 'Hot Lead,Zillow' });
		expect(any.body.leads.every((l: any) => tagNames(l).includes('Hot Lead') || tagNames(l).includes('Zillow'))).toBe(true);
		expect(any.body._metadata.total).toBeGreaterThan(all.body._metadata.total);
	});

	it('email and phone are precise unless preciseSearchFlag=false', async () => {
		const lead = visible().find((l) => l.emails.length && l.phones.length)!;
		const byEmail = await list({ email: lead.emails[0].toUpperCase() });
		expect(byEmail.body.leads.map((l: any) => String(l.leadId))).toContain(String(lead.leadId));
		const partial = lead.emails[0].slice(0, 6);
		expect((await list({ email: partial })).body._metadata.total).toBe(0);
		expect((await list({ email: partial, preciseSearchFlag: false })).body._metadata.total).toBeGreaterThan(0);
		const byPhone = await list({ phone: lead.phones[0].replace('+1', '') });
		expect(byPhone.body.leads.map((l: any) => String(l.leadId))).toContain(String(lead.leadId));
	});

	it('key matches name, e-mail or phone fuzzily', async () => {
		const r = await list({ key: 'timeline' });
		expect(r.body.leads.map((l: any) => String(l.leadId))).toEqual([SEED_IDS.logsLeadId]);
		const lead = visible().find((l) => l.phones.length)!;
		const byDigits = await list({ key: lead.phones[0].slice(-7), limit: 100 });
		expect(byDigits.body.leads.map((l: any) => String(l.leadId))).toContain(String(lead.leadId));
	});

	it('assignedUserId (exact, above 2^53) and contacted', async () => {
		const r = await list({ limit: 100, assignedUserId: SEED_IDS.demoUserId });
		expect(r.body.leads.length).toBeGreaterThan(0);
		expect(r.body.leads.every((l: any) => String(l.assignedUserId) === SEED_IDS.demoUserId)).toBe(true);
		const c = await list({ limit: 100, contacted: true });
		expect(c.body._metadata.total).toBe(visible().filter((l) => l.contacted).length);
		expect((await list({ contacted: 'maybe' })).body.code).toBe(20012);
	});

	it('segments and deprecated groups; languages', async () => {
		const r = await list({ limit: 100, segments: 'Luxury' });
		expect(r.body.leads.length).toBeGreaterThan(0);
		expect(r.body.leads.every((l: any) => l.segments.includes('Luxury'))).toBe(true);
		expect((await list({ limit: 100, groups: 'Luxury' })).body._metadata.total).toBe(r.body._metadata.total);
		const es = await list({ limit: 100, languages: 'es,fr' });
		expect(es.body.leads.every((l: any) => ['es', 'fr'].includes(l.language))).toBe(true);
	});

	it('groupIds with querySubGroup includes sub-offices', async () => {
		const only = await list({ groupIds: SEED_IDS.northOfficeId });
		const withSub = await list({ groupIds: SEED_IDS.northOfficeId, querySubGroup: true });
		expect(withSub.body._metadata.total).toBeGreaterThan(only.body._metadata.total);
	});

	it('roleAssigneeFilters matches role and assignee ids; bad JSON is 20012', async () => {
		const f = JSON.stringify([{ roleName: 'Agent', assigneeToIds: [SEED_IDS.otherAgentUserId] }]);
		const r = await list({ limit: 100, roleAssigneeFilters: f });
		expect(r.body.leads.length).toBeGreaterThan(0);
		expect(r.body.leads.every((l: any) => String(l.assignedUserId) === SEED_IDS.otherAgentUserId)).toBe(true);
		expect((await list({ roleAssigneeFilters: '[{' })).body.code).toBe(20012);
	});

	it('otherFilters is a JSON object of lead fields; unknown fields are 20012', async () => {
		const r = await list({ limit: 100, otherFilters: JSON.stringify({ leadTypes: [1] }) });
		expect(r.body.leads.every((l: any) => l.leadTypes.includes(1))).toBe(true);
		const score = await list({ limit: 100, otherFilters: JSON.stringify({ score: { min: 90 } }) });
		expect(score.body.leads.every((l: any) => l.score >= 90)).toBe(true);
		expect((await list({ otherFilters: '{"nope":1}' })).body.code).toBe(20012);
	});

	it('returnFields keeps only the named fields plus leadId', async () => {
		const r = await list({ limit: 3, returnFields: 'firstName,stage' });
		for (const l of r.body.leads) expect(Object.keys(l).sort()).toEqual(['firstName', 'leadId', 'stage']);
	});

	it('sort with desc; unknown sort is 20012', async () => {
		const asc = await list({ limit: 100, sort: 'Score', desc: false });
		const scores = asc.body.leads.map((l: any) => l.score);
		expect([...scores].sort((a, b) => a - b)).toEqual(scores);
		const desc = await list({ limit: 100, sort: 'CreateTime', desc: true });
		const times = desc.body.leads.map((l: any) => Date.parse(l.createTime));
		for (let i = 1; i < times.length; i++) expect(times[i - 1]).toBeGreaterThanOrEqual(times[i]);
		expect((await list({ sort: 'Alphabet' })).body.code).toBe(20012);
	});

	it('lead ids above 2^53 are written as exact bare numerals', async () => {
		const r = await list({ key: sb.store.getLead(SEED_IDS.bigLeadId)!.emails[0] ?? 'deepak' });
		expect(r.text).toContain(`"leadId":${SEED_IDS.bigLeadId}`);
	});
});
