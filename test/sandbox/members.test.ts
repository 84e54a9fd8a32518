import { DEMO_API_KEY, SEED_IDS } from '../../sandbox';
import { client, useSandbox } from './helpers';

const sb = useSandbox({ reset: false });

const api = () => client(sb.url, { token: DEMO_API_KEY });

describe('members', () => {
	it('GET /v1.0/me returns the caller as a UserResponse with its exact big id', async () => {
		const r = await api().get('/v1.0/me');
		expect(r.status).toBe(200);
		expect(r.text).toContain(`"memberUserId":${SEED_IDS.demoUserId}`);
		expect(r.body.memberUserId).toBe(BigInt(SEED_IDS.demoUserId));
		expect(r.body).toMatchObject({ roleName: 'Owner', firstName: 'Dana', groupName: 'Main Office', isAdmin: true });
	});

	it('GET /v1.0/members pages with offset/limit (default 25) and _metadata', async () => {
		const r = await api().get('/v1.0/members');
		expect(r.body._metadata).toEqual({ collection: 'members', limit: 25, offset: 0, total: 30, scrollId: null });
		expect(r.body.members).toHaveLength(25);
		const rest = await api().get('/v1.0/members', { params: { offset: 25, limit: 25 } });
		expect(rest.body.members).toHaveLength(5);
		const ids = new Set([...r.body.members, ...rest.body.members].map((m: any) => String(m.memberUserId)));
		expect(ids.size).toBe(30);
	});

	it('negative offset is reset to 0; limit above the maximum is LIMIT_PARAM_OVERSIZE; 0 is LIMIT_NOT_VALID', async () => {
		expect((await api().get('/v1.0/members', { params: { offset: -3, limit: 2 } })).body._metadata.offset).toBe(0);
		const big = await api().get('/v1.0/members', { params: { limit: 101 } });
		expect(big.status).toBe(400);
		expect(big.body.code).toBe('LIMIT_PARAM_OVERSIZE');
		expect((await api().get('/v1.0/members', { params: { limit: 0 } })).body.code).toBe('LIMIT_NOT_VALID');
	});

	it('groupIds filters by office; no match gives 404 USER_NOT_EXIST', async () => {
		const r = await api().get(`/v1.0/members?groupIds=${SEED_IDS.downtownOfficeId}`);
		expect(r.body.members.length).toBeGreaterThan(0);
		expect(r.body.members.every((m: any) => String(m.groupId) === SEED_IDS.downtownOfficeId)).toBe(true);
		const none = await api().get('/v1.0/members?groupIds=1');
		expect(none.status).toBe(404);
		expect(none.body.code).toBe('USER_NOT_EXIST');
	});

	it('GET /v1.0/members/{account} finds an accepted member by e-mail; pending or unknown is USER_NOT_EXIST', async () => {
		const r = await api().get('/v1.0/members/other.agent@example.com');
		expect(r.status).toBe(200);
		expect(String(r.body.memberUserId)).toBe(SEED_IDS.otherAgentUserId);
		const pending = [...sb.store.users.values()].find((u) => u.status === 0)!;
		expect((await api().get(`/v1.0/members/${encodeURIComponent(pending.email)}`)).body.code).toBe('USER_NOT_EXIST');
		expect((await api().get('/v1.0/members/nobody@example.com')).status).toBe(404);
	});

	it('GET /v1.0/users/{userId} works with an id above 2^53; unknown is 404, non-numeric is 20012', async () => {
		const r = await api().get(`/v1.0/users/${SEED_IDS.demoUserId}`);
		expect(r.status).toBe(200);
		expect(r.text).toContain(`"memberUserId":${SEED_IDS.demoUserId}`);
		expect((await api().get('/v1.0/users/123')).body.code).toBe('USER_NOT_EXIST');
		const bad = await api().get('/v1.0/users/abc');
		expect(bad.status).toBe(400);
		expect(bad.body.code).toBe(20012);
	});
});
