import { DEMO_API_KEY, OTHER_AGENT_API_KEY, SEED_IDS } from '../../sandbox';
import { ORG_SEED } from '../../sandbox/resources/organization';
import { client, useSandbox } from './helpers';

const sb = useSandbox();

const api = () => client(sb.url, { token: DEMO_API_KEY });
const other = () => client(sb.url, { token: OTHER_AGENT_API_KEY });
const seeded = (i: number) => String(302656410082801n + BigInt(i * 17));

const profile = (extra: Record<string, unknown> = {}) => ({
	accountType: 1,
	accountInfo: { firstName: 'Nina', lastName: 'Novak', emailAddress: 'nina@example.com', phoneNumber: '5125559876' },
	...extra,
});

describe('POST /v1.0/agent/profile/add', () => {
	it('creates an agent: {data: new user id, errorCode: 0}, the id above 2^53 written exactly', async () => {
		const r = await api().post('/v1.0/agent/profile/add', { body: profile({ workInfo: { licenses: [{ label: 'TX', value: 'TX-1' }] } }) });
		expect(r.status).toBe(200);
		expect(r.text).toBe('{"data":9007199254770001,"errorCode":0,"errorMsg":null}');
		const me = await api().get('/v1.0/members/nina@example.com');
		expect(me.status).toBe(404); // invitation not accepted yet
		const byId = await api().get('/v1.0/users/9007199254770001');
		expect(byId.body).toMatchObject({ status: 0, phoneNumber: '+15125559876', roleName: 'Agent' });
		expect(byId.body.agentInfo.licenses).toEqual([{ label: 'TX', value: 'TX-1' }]);
	});

	it('reads licenses at the top level too, and refuses more than 5 (errorCode 20012, HTTP 200)', async () => {
		const ok = await api().post('/v1.0/agent/profile/add', { body: profile({ licenses: [{ label: 'CA', value: 'CA-9' }] }) });
		expect(ok.body.errorCode).toBe(0);
		const six = Array.from({ length: 6 }, (_, k) => ({ label: `S${k}`, value: `V${k}` }));
		const r = await api().post('/v1.0/agent/profile/add', { body: profile({ accountInfo: { ...profile().accountInfo, emailAddress: 'x@example.com' }, workInfo: { licenses: six } }) });
		expect(r.status).toBe(200);
		expect(r.body).toMatchObject({ data: 0, errorCode: 20012 });
		expect(r.body.errorMsg).toMatch(/at most 5/);
	});

	it.each([
		['accountType', { accountInfo: profile().accountInfo }],
		['accountInfo', { accountType: 1 }],
		['phoneNumber', profile({ accountInfo: { firstName: 'A', lastName: 'B', emailAddress: 'a@b.co' } })],
		['emailAddress', profile({ accountInfo: { firstName: 'A', lastName: 'B', phoneNumber: '1' } })],
	])('requires %s', async (field, body) => {
		const r = await api().post('/v1.0/agent/profile/add', { body });
		expect(r.body.errorCode).toBe(20012);
		expect(r.body.errorMsg).toContain(field);
	});

	it('returns data 0 and errorCode 0 for an e-mail already in the team; ignores unknown role names', async () => {
		const dup = await api().post('/v1.0/agent/profile/add', { body: profile({ accountInfo: { ...profile().accountInfo, emailAddress: 'other.agent@example.com' } }) });
		expect(dup.body).toMatchObject({ data: 0, errorCode: 0 });
		const r = await api().post('/v1.0/agent/profile/add', { body: profile({ accountInfo: { ...profile().accountInfo, roleName: 'Wizard' } }) });
		expect((await api().get(`/v1.0/users/${r.body.data}`)).body.roleName).toBe('Agent');
	});
});

describe('POST /v1.0/agent/{agentId}/tag/add', () => {
	const path = `/v1.0/agent/${SEED_IDS.otherAgentUserId}/tag/add`;

	it('adds known tags ({data: true, errorCode: 0}); unknown ones need autoCreate', async () => {
		expect((await api().post(path, { body: { tagNames: ['Mentor'] } })).body).toEqual({ data: true, errorCode: 0, errorMsg: null });
		const unknown = await api().post(path, { body: { tagNames: ['Brand New'] } });
		expect(unknown.status).toBe(200);
		expect(unknown.body).toMatchObject({ data: false, errorCode: 20012 });
		expect((await api().post(path, { body: { tagNames: ['Brand New'], autoCreate: true } })).body.data).toBe(true);
		expect((await api().post(path, { body: { tagNames: ['brand new'] } })).body.data).toBe(true);
	});

	it('400 for empty or more than 20 tag names or a bad agent id; 404 outside the team', async () => {
		expect((await api().post(path, { body: { tagNames: [] } })).status).toBe(400);
		expect((await api().post(path, { body: { tagNames: Array.from({ length: 21 }, (_, k) => `t${k}`), autoCreate: true } })).status).toBe(400);
		const bad = await api().post('/v1.0/agent/abc/tag/add', { body: { tagNames: ['Mentor'] } });
		expect(bad.status).toBe(400);
		expect(bad.body.errorCode).toBe(20012);
		const missing = await api().post('/v1.0/agent/5/tag/add', { body: { tagNames: ['Mentor'] } });
		expect(missing.status).toBe(404);
		expect(missing.body).toMatchObject({ data: false, errorCode: 20003 });
	});
});

describe('POST /v2.0/agents/{agentId}/deactivate and /reactivate', () => {
	const deactivate = (id: string, c = api()) => c.post(`/v2.0/agents/${id}/deactivate`);
	const reactivate = (id: string, c = api()) => c.post(`/v2.0/agents/${id}/reactivate`);

	it('answers {success: true} and, for every failure, HTTP 200 with {code, message}', async () => {
		const ok = await deactivate(SEED_IDS.otherAgentUserId);
		expect(ok.status).toBe(200);
		expect(ok.body).toEqual({ success: true });
		const cases: Array<[Promise<any>, number]> = [
			[deactivate(SEED_IDS.otherAgentUserId), 990105],
			[deactivate(ORG_SEED.northOwnerUserId), 990106],
			[deactivate(SEED_IDS.demoUserId), 990107],
			[deactivate(seeded(27)), 990113],
			[deactivate('abc'), 20012],
			[deactivate('5'), 20012],
			[deactivate(seeded(0), other()), 1900012],
			[reactivate(seeded(0)), 990112],
			[reactivate(SEED_IDS.otherAgentUserId, other()), 1900012],
		];
		for (const [pending, code] of cases) {
			const r = await pending;
			expect(r.status).toBe(200);
			expect(r.body.code).toBe(code);
			expect(typeof r.body.message).toBe('string');
		}
	});

	it('counts seats: reactivation needs a free seat (310111), which a deactivation frees', async () => {
		expect((await reactivate(seeded(20))).body.code).toBe(310111);
		await deactivate(seeded(0));
		expect((await reactivate(seeded(20))).body).toEqual({ success: true });
		expect((await reactivate(seeded(0))).body.code).toBe(310111);
	});

	it('revokes the access tokens of the deactivated agent; other data stays', async () => {
		const token = sb.issueToken({ userId: SEED_IDS.otherAgentUserId });
		const asAgent = client(sb.url, { bearer: token });
		expect((await asAgent.get('/v1.0/me')).status).toBe(200);
		await deactivate(SEED_IDS.otherAgentUserId);
		expect((await asAgent.get('/v1.0/me')).status).toBe(401);
		expect(sb.store.getLead(SEED_IDS.notSharedLeadId)?.assignedUserId).toBe(BigInt(SEED_IDS.otherAgentUserId));
		const member = await api().get(`/v1.0/users/${SEED_IDS.otherAgentUserId}`);
		expect(member.body.accountStatus).toBe('INACTIVE');
	});

	it('an office manager reaches only agents of the offices below them', async () => {
		const manager = client(sb.url, { bearer: sb.issueToken({ userId: ORG_SEED.northOwnerUserId }) });
		// i=7 sits in North Austin - Team A, below North Austin Office
		expect((await deactivate(seeded(7), manager)).body).toEqual({ success: true });
		expect((await deactivate(seeded(0), manager)).body.code).toBe(1900012);
	});
});
