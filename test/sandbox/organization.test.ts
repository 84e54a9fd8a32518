import { DEMO_API_KEY, OTHER_AGENT_API_KEY, SEED_IDS } from '../../sandbox';
import { ORG_SEED } from '../../sandbox/resources/organization';
import { client, useSandbox } from './helpers';

const sb = useSandbox();

const api = () => client(sb.url, { token: DEMO_API_KEY });
const other = () => client(sb.url, { token: OTHER_AGENT_API_KEY });

describe('GET /v1.0/org', () => {
	it('returns OrganizationInfo of a single instance, visible offices by permission', async () => {
		const r = await api().get('/v1.0/org');
		expect(r.body.orgType).toBe('SIGNAL_INSTANCE');
		expect(r.body.multiTeamInfo).toBeUndefined();
		expect(r.body.enterpriseInfo.visibleOrgInfoList).toHaveLength(4);
		expect(r.text).toContain('"profileId":9007199254760001');
		expect((await other().get('/v1.0/org')).body.enterpriseInfo).toMatchObject({ groupName: 'Downtown Office', profileName: 'Agent', visibleOrgInfoList: [] });
	});
});

describe('office writes, by the officeCreate reading', () => {
	it('spec: POST without an id creates, with one updates (404 when unknown); PUT changes an office and needs its id', async () => {
		const up = await api().post('/v1.0/org/office', { body: { id: Number(SEED_IDS.northOfficeId), city: 'Pflugerville', allowManageSub: true } });
		expect(up.body.data).toMatchObject({ name: 'North Austin Office', city: 'Pflugerville', allowManageSub: true });
		const missing = await api().post('/v1.0/org/office', { body: { id: 42, name: 'X' } });
		expect(missing.status).toBe(404);
		expect(missing.body.code).toBe('RESOURCE_NOT_EXIST');
		const created = await api().post('/v1.0/org/office', { body: { name: 'Round Rock' } });
		expect(created.text).toMatch(/^\{"code":0,"message":"success","data":\{"id":9007199254790001,"parentId":0,"name":"Round Rock"/);
		const put = await api().put('/v1.0/org/office', { body: { name: 'Cedar Park' } });
		expect([put.status, put.body.code]).toEqual([400, 20012]);
		expect(put.body.message).toMatch(/'id' is required/);
		expect((await api().put('/v1.0/org/office', { body: { id: Number(SEED_IDS.northOfficeId), city: 'Round Rock' } })).body.data).toMatchObject({ city: 'Round Rock' });
	});

	it('openapi: PUT creates and ignores an id ("Add Office"); POST needs the id (404 "Office does not exist" without it)', async () => {
		sb.readings.set({ officeCreate: 'openapi' });
		const r = await api().put('/v1.0/org/office', { body: { id: 12345, name: 'Cedar Park', parentId: 0, phone: '5125550000' } });
		expect(r.status).toBe(200);
		expect(r.text).toMatch(/^\{"code":0,"message":"success","data":\{"id":9007199254790001,"parentId":0,"name":"Cedar Park"/);
		expect(sb.store.offices.get(SEED_IDS.mainOfficeId)?.name).toBe('Main Office');
		const post = await api().post('/v1.0/org/office', { body: { name: 'Round Rock' } });
		expect([post.status, post.body.code]).toEqual([404, 'RESOURCE_NOT_EXIST']);
		expect(post.body.message).toMatch(/Office does not exist/);
		const up = await api().post('/v1.0/org/office', { body: { id: Number(SEED_IDS.northOfficeId), city: 'Pflugerville' } });
		expect(up.body.data).toMatchObject({ city: 'Pflugerville' });
	});

	it('validates with 400 20012: name, digits-only phone, parent office, no cycles', async () => {
		for (const body of [{ parentId: 0 }, { name: 'A', phone: '512-555' }, { name: 'A', parentId: 777 }, { name: 'A', email: 'nope' }, { name: 'A', phoneCountry: 'USA' }]) {
			const r = await api().post('/v1.0/org/office', { body });
			expect(r.status).toBe(400);
			expect(r.body.code).toBe(20012);
		}
		const cycle = await api().post('/v1.0/org/office', { body: { id: Number(SEED_IDS.mainOfficeId), parentId: Number(SEED_IDS.northTeamAOfficeId) } });
		expect(cycle.body.code).toBe(20012);
	});

	it('needs MANAGE_ORGANIZATION (or the department variant below the own office): 400 20017', async () => {
		const denied = await other().post('/v1.0/org/office', { body: { name: 'Mine' } });
		expect(denied.status).toBe(400);
		expect(denied.body.code).toBe(20017);
		const manager = client(sb.url, { bearer: sb.issueToken({ userId: ORG_SEED.downtownOwnerUserId }) });
		expect((await manager.post('/v1.0/org/office', { body: { name: 'Downtown East', parentId: Number(SEED_IDS.downtownOfficeId) } })).body.code).toBe(0);
		expect((await manager.post('/v1.0/org/office', { body: { name: 'Top', parentId: 0 } })).body.code).toBe(20017);
		expect((await manager.post('/v1.0/org/office', { body: { id: Number(SEED_IDS.northOfficeId), name: 'Mine now' } })).body.code).toBe(20017);
	});
});

describe('POST /v1.0/org/company', () => {
	it('acknowledges with {code: 0, message: success} and no data; needs company-level MANAGE_ORGANIZATION', async () => {
		const r = await api().post('/v1.0/org/company', { body: { name: 'Lone Star', zipcode: '78702' } });
		expect(r.text).toBe('{"code":0,"message":"success"}');
		const manager = client(sb.url, { bearer: sb.issueToken({ userId: ORG_SEED.downtownOwnerUserId }) });
		expect((await manager.post('/v1.0/org/company', { body: { name: 'X' } })).body.code).toBe(20017);
		expect((await api().post('/v1.0/org/company', { body: { name: ' ' } })).body.code).toBe(20012);
	});
});

describe('GET /v1.0/org/permission/profiles', () => {
	it('is a bare array of {id, name}; without MANAGE_TEAM_AGENT or MANAGE_PERMISSION_PROFILE 400 VENDOR_HAS_NO_PERMISSION', async () => {
		const r = await api().get('/v1.0/org/permission/profiles');
		expect(r.body).toHaveLength(7);
		expect(Object.keys(r.body[0])).toEqual(['id', 'name']);
		const denied = await other().get('/v1.0/org/permission/profiles');
		expect(denied.status).toBe(400);
		expect(denied.body.code).toBe('VENDOR_HAS_NO_PERMISSION');
		// an office manager holds only the department variants
		const manager = client(sb.url, { bearer: sb.issueToken({ userId: ORG_SEED.northOwnerUserId }) });
		expect((await manager.get('/v1.0/org/permission/profiles')).status).toBe(400);
	});
});
