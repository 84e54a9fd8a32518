import { DEMO_API_KEY, OTHER_AGENT_API_KEY, SEED_IDS } from '../../sandbox';
import { client, useSandbox } from './helpers';

const sb = useSandbox();

const api = (key = DEMO_API_KEY) => client(sb.url, { token: key });

describe('GET /v1.0/teamFeatures/listTag', () => {
	it('is a bare array of UserLeadTag with ISO times and exact 64-bit IDs', async () => {
		const r = await api().get('/v1.0/teamFeatures/listTag');
		expect(r.status).toBe(200);
		expect(Array.isArray(r.body)).toBe(true);
		expect(r.text).toContain('"tagId":9007199254740995');
		const hot = r.body.find((t: any) => t.tagName === 'Hot Lead');
		expect(Object.keys(hot).sort()).toEqual(['createTime', 'creatorUserId', 'leadId', 'tagId', 'tagName', 'updateTime', 'visibleType']);
		expect(hot.createTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
		expect(String(hot.creatorUserId)).toBe(SEED_IDS.demoUserId);
	});

	it('shows team-wide tags and the caller\'s private ones, never another team\'s', async () => {
		const demo = (await api().get('/v1.0/teamFeatures/listTag')).body.map((t: any) => t.tagName);
		const other = (await api(OTHER_AGENT_API_KEY).get('/v1.0/teamFeatures/listTag')).body.map((t: any) => t.tagName);
		expect(demo).toContain('My Sphere');
		expect(demo).not.toContain("Oscar's Private");
		expect(other).toContain("Oscar's Private");
		expect(other).not.toContain('My Sphere');
		expect([...demo, ...other]).not.toContain('Other Team Tag');
	});

	it('also lists tag names found on leads the caller can access, once each', async () => {
		await api().put(`/v1.0/leads/${SEED_IDS.bigLeadId}`, { body: { tagsAdd: ['Open House 2026', 'VIP'] } });
		const names = (await api().get('/v1.0/teamFeatures/listTag')).body.map((t: any) => t.tagName);
		expect(names).toContain('Open House 2026');
		expect(names.filter((n: string) => n === 'VIP')).toHaveLength(1);
		const other = (await api(OTHER_AGENT_API_KEY).get('/v1.0/teamFeatures/listTag')).body.map((t: any) => t.tagName);
		expect(other).not.toContain('Open House 2026');
	});

	it('needs credentials', async () => {
		const r = await api().get('/v1.0/teamFeatures/listTag', { noAuth: true });
		expect(r.status).toBe(401);
	});
});
