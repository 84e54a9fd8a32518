import { DEMO_API_KEY, OTHER_AGENT_API_KEY, SEED_IDS } from '../../sandbox';
import { call, client, useSandbox } from './helpers';

const sb = useSandbox();

describe('authentication schemes', () => {
	it('accepts an API key as "token <key>"', async () => {
		const r = await call(sb.url, 'GET', '/v1.0/me', { auth: { token: DEMO_API_KEY } });
		expect(r.status).toBe(200);
		expect(r.text).toContain(`"memberUserId":${SEED_IDS.demoUserId}`);
	});

	it('accepts an OAuth access token as "Bearer <token>"', async () => {
		const t = sb.issueToken();
		const r = await call(sb.url, 'GET', '/v1.0/me', { auth: { bearer: t } });
		expect(r.status).toBe(200);
		expect(r.body.email).toBe('demo.owner@example.com');
	});

	it('identifies the other agent by its own key', async () => {
		const r = await call(sb.url, 'GET', '/v1.0/me', { auth: { token: OTHER_AGENT_API_KEY } });
		expect(r.status).toBe(200);
		expect(String(r.body.memberUserId)).toBe(SEED_IDS.otherAgentUserId);
	});

	it('scheme names are case-insensitive', async () => {
		expect((await call(sb.url, 'GET', '/v1.0/me', { auth: { raw: `TOKEN ${DEMO_API_KEY}` } })).status).toBe(200);
		expect((await call(sb.url, 'GET', '/v1.0/me', { auth: { raw: `bearer ${sb.issueToken()}` } })).status).toBe(200);
	});

	it('401 BAD_CREDENTIALS without an Authorization header', async () => {
		const r = await call(sb.url, 'GET', '/v1.0/me');
		expect(r.status).toBe(401);
		expect(r.body.code).toBe('BAD_CREDENTIALS');
		expect(typeof r.body.message).toBe('string');
	});

	it('401 BAD_CREDENTIALS for an unknown API key or token', async () => {
		expect((await call(sb.url, 'GET', '/v1.0/me', { auth: { token: 'nope' } })).body.code).toBe('BAD_CREDENTIALS');
		const r = await call(sb.url, 'GET', '/v1.0/me', { auth: { bearer: 'nope' } });
		expect(r.status).toBe(401);
		expect(r.body.code).toBe('BAD_CREDENTIALS');
	});

	it('401 for an unsupported scheme such as Basic on the API', async () => {
		const r = await call(sb.url, 'GET', '/v1.0/me', { auth: { raw: `Basic ${Buffer.from('a:b').toString('base64')}` } });
		expect(r.status).toBe(401);
		expect(r.body.code).toBe('BAD_CREDENTIALS');
	});

	it('400 code 200058 "User in token does not exist." for an API key sent as Bearer', async () => {
		const r = await call(sb.url, 'GET', '/v1.0/leads', { auth: { bearer: DEMO_API_KEY } });
		expect(r.status).toBe(400);
		expect(r.body).toEqual({ code: 200058, message: 'User in token does not exist.' });
	});

	it('401 for an expired access token', async () => {
		const t = sb.issueToken();
		sb.expireToken(t);
		const r = await call(sb.url, 'GET', '/v1.0/me', { auth: { bearer: t } });
		expect(r.status).toBe(401);
		expect(r.body.code).toBe('BAD_CREDENTIALS');
	});

	it('issueToken for another user acts as that user', async () => {
		const t = sb.issueToken({ userId: SEED_IDS.otherAgentUserId });
		const r = await call(sb.url, 'GET', '/v1.0/me', { auth: { bearer: t } });
		expect(r.text).toContain(`"memberUserId":${SEED_IDS.otherAgentUserId}`);
	});
});

describe('OAuth scopes', () => {
	it('a token with the endpoint scope may call it', async () => {
		const t = sb.issueToken({ scopes: ['GET /v1.0/leads'] });
		expect((await call(sb.url, 'GET', '/v1.0/leads', { auth: { bearer: t } })).status).toBe(200);
	});

	it('403 code 200100 when the token lacks the endpoint scope', async () => {
		const t = sb.issueToken({ scopes: ['GET /v1.0/leads'] });
		const r = await call(sb.url, 'GET', `/v1.0/leads/${SEED_IDS.bigLeadId}`, { auth: { bearer: t } });
		expect(r.status).toBe(403);
		expect(r.body.code).toBe(200100);
		expect(r.body.message).toContain('GET /v1.0/leads/{leadId}');
	});

	it('API keys are not limited by scopes', async () => {
		expect((await call(sb.url, 'GET', `/v1.0/leads/${SEED_IDS.bigLeadId}`, { auth: { token: DEMO_API_KEY } })).status).toBe(200);
	});

	it('lists every scope name', () => {
		expect(sb.scopes).toEqual(expect.arrayContaining(['GET /v1.0/leads', 'PUT /v1.0/leads/{leadId}', 'GET /v1.0/systemLogs', 'GET /v1.0/me']));
	});
});

describe('request handling', () => {
	const api = () => client(sb.url, { token: DEMO_API_KEY });

	it('404 RESOURCE_NOT_EXIST for an unknown route', async () => {
		const r = await api().get('/v1.0/nothing-here');
		expect(r.status).toBe(404);
		expect(r.body.code).toBe('RESOURCE_NOT_EXIST');
	});

	it('400 code 20001 when a body is sent without Content-Type: application/json', async () => {
		const r = await api().post('/v1.0/leads', { rawBody: '{"firstName":"A"}', headers: { 'Content-Type': 'text/plain' } });
		expect(r.status).toBe(400);
		expect(r.body).toEqual({ code: 20001, message: 'Content-type must be: application/json' });
	});

	it('accepts application/json with a charset', async () => {
		const r = await api().post('/v1.0/leads', { rawBody: '{"firstName":"A"}', headers: { 'Content-Type': 'application/json; charset=utf-8' } });
		expect(r.status).toBe(200);
	});

	it('400 code 20012 for malformed JSON', async () => {
		const r = await api().post('/v1.0/leads', { rawBody: '{"firstName":', headers: { 'Content-Type': 'application/json' } });
		expect(r.status).toBe(400);
		expect(r.body.code).toBe(20012);
	});

	it('records requests with method, path, query, status and auth scheme; count() matches patterns', async () => {
		await api().get('/v1.0/leads', { params: { limit: 5 } });
		await api().get(`/v1.0/leads/${SEED_IDS.bigLeadId}`);
		await call(sb.url, 'GET', '/v1.0/me', { auth: { bearer: sb.issueToken() } });
		await call(sb.url, 'GET', '/v1.0/me');
		expect(sb.requests[0]).toMatchObject({ method: 'GET', path: '/v1.0/leads', query: { limit: '5' }, status: 200, authScheme: 'token' });
		expect(sb.requests[2]).toMatchObject({ path: '/v1.0/me', authScheme: 'bearer', status: 200 });
		expect(sb.requests[3]).toMatchObject({ authScheme: 'none', status: 401 });
		expect(sb.count('GET', '/v1.0/leads')).toBe(1);
		expect(sb.count('GET', '/v1.0/leads/{leadId}')).toBe(1);
		expect(sb.count('*', '/v1.0/me')).toBe(2);
		expect(sb.count('POST', '/v1.0/me')).toBe(0);
		sb.reset();
		expect(sb.requests).toHaveLength(0);
	});
});
