import { createHash, randomBytes } from 'node:crypto';

import { DEMO_API_KEY, DEMO_CLIENT_ID, DEMO_CLIENT_SECRET, OTHER_AGENT_API_KEY, OTHER_CLIENT_ID, READING_VALUES, SEED_IDS } from '../../sandbox';
import { call, useSandbox } from './helpers';

const sb = useSandbox({ reset: false });

const REDIRECT = 'http://127.0.0.1:5678/rest/oauth2-credential/callback';
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

async function authorize(params: Record<string, string>): Promise<URL> {
	const r = await call(sb.url, 'GET', '/page/vendor-auth.html', { params: { clientId: DEMO_CLIENT_ID, redirect_uri: REDIRECT, ...params } });
	expect(r.status).toBe(302);
	return new URL(r.headers.location);
}

function tokenRequest(form: Record<string, string>, authorization?: string) {
	return call(sb.url, 'POST', '/api/user-web/oauth/token', {
		rawBody: new URLSearchParams(form).toString(),
		headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...(authorization ? { Authorization: authorization } : {}) },
	});
}

describe('OAuth authorization code flow', () => {
	it('the authorize page redirects at once to redirect_uri with code and state', async () => {
		const loc = await authorize({ state: 'xyz 1' });
		expect(`${loc.origin}${loc.pathname}`).toBe(REDIRECT);
		expect(loc.searchParams.get('state')).toBe('xyz 1');
		expect(loc.searchParams.get('code')).toMatch(/\S{10,}/);
	});

	it('exchanges the code with HTTP Basic client credentials; the token works as Bearer for the demo user', async () => {
		const code = (await authorize({ state: 's' })).searchParams.get('code')!;
		const r = await tokenRequest({ grant_type: 'authorization_code', code, client_id: DEMO_CLIENT_ID, redirect_uri: REDIRECT }, basic(DEMO_CLIENT_ID, DEMO_CLIENT_SECRET));
		expect(r.status).toBe(200);
		expect(Object.keys(r.body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
		expect(r.body.token_type).toBe('bearer');
		expect(r.body.expires_in).toBeGreaterThan(0);
		const me = await call(sb.url, 'GET', '/v1.0/me', { auth: { bearer: r.body.access_token } });
		expect(me.status).toBe(200);
		expect(me.text).toContain(`"memberUserId":${SEED_IDS.demoUserId}`);
	});

	it('a code is single use', async () => {
		const code = (await authorize({})).searchParams.get('code')!;
		const form = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT };
		expect((await tokenRequest(form, basic(DEMO_CLIENT_ID, DEMO_CLIENT_SECRET))).status).toBe(200);
		const again = await tokenRequest(form, basic(DEMO_CLIENT_ID, DEMO_CLIENT_SECRET));
		expect(again.status).toBe(400);
		expect(again.body.error).toBe('invalid_grant');
	});

	it('a wrong client secret is 401 invalid_client', async () => {
		const code = (await authorize({})).searchParams.get('code')!;
		const r = await tokenRequest({ grant_type: 'authorization_code', code }, basic(DEMO_CLIENT_ID, 'wrong'));
		expect(r.status).toBe(401);
		expect(r.body.error).toBe('invalid_client');
	});

	it('without a secret and without PKCE the exchange is refused', async () => {
		const code = (await authorize({})).searchParams.get('code')!;
		const r = await tokenRequest({ grant_type: 'authorization_code', code, client_id: DEMO_CLIENT_ID });
		expect(r.status).toBe(401);
	});

	it('a redirect_uri different from the authorize request is invalid_grant', async () => {
		const code = (await authorize({})).searchParams.get('code')!;
		const r = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: 'http://evil.test/cb' }, basic(DEMO_CLIENT_ID, DEMO_CLIENT_SECRET));
		expect(r.body.error).toBe('invalid_grant');
	});

	it('a code of one client cannot be redeemed by another', async () => {
		const code = (await authorize({})).searchParams.get('code')!;
		const r = await tokenRequest({ grant_type: 'authorization_code', code, client_id: OTHER_CLIENT_ID, client_secret: 'sbx-other-secret-0c7d2e4b6a18f395' });
		expect(r.status).toBe(400);
		expect(r.body.error).toBe('invalid_grant');
	});

	it('unknown clientId shows an error page, no redirect; sandbox_deny=1 redirects with error=access_denied', async () => {
		const r = await call(sb.url, 'GET', '/page/vendor-auth.html', { params: { clientId: 'nope', redirect_uri: REDIRECT } });
		expect(r.status).toBe(400);
		const denied = await authorize({ state: 'd', sandbox_deny: '1' });
		expect(denied.searchParams.get('error')).toBe('access_denied');
		expect(denied.searchParams.get('code')).toBeNull();
	});

	it('unsupported grant types are refused', async () => {
		const r = await tokenRequest({ grant_type: 'password' }, basic(DEMO_CLIENT_ID, DEMO_CLIENT_SECRET));
		expect(r.body.error).toBe('unsupported_grant_type');
	});
});

describe('PKCE', () => {
	const verifier = randomBytes(32).toString('base64url');
	const challenge = createHash('sha256').update(verifier).digest('base64url');

	it('exchanges with code_verifier (S256) and no secret', async () => {
		const code = (await authorize({ code_challenge: challenge, code_challenge_method: 'S256' })).searchParams.get('code')!;
		const r = await tokenRequest({ grant_type: 'authorization_code', client_id: DEMO_CLIENT_ID, code, code_verifier: verifier, redirect_uri: REDIRECT });
		expect(r.status).toBe(200);
		expect((await call(sb.url, 'GET', '/v1.0/me', { auth: { bearer: r.body.access_token } })).status).toBe(200);
	});

	it('a wrong or missing code_verifier is refused', async () => {
		const code1 = (await authorize({ code_challenge: challenge, code_challenge_method: 'S256' })).searchParams.get('code')!;
		const wrong = await tokenRequest({ grant_type: 'authorization_code', client_id: DEMO_CLIENT_ID, code: code1, code_verifier: `${verifier}x` });
		expect(wrong.status).toBe(400);
		expect(wrong.body.error).toBe('invalid_grant');
		const code2 = (await authorize({ code_challenge: challenge })).searchParams.get('code')!;
		const missing = await tokenRequest({ grant_type: 'authorization_code', client_id: DEMO_CLIENT_ID, code: code2 }, basic(DEMO_CLIENT_ID, DEMO_CLIENT_SECRET));
		expect(missing.status).toBe(400);
		expect(missing.body.error).toBe('invalid_request');
	});
});

describe('refresh_token grant', () => {
	it('issues a new pair; the old refresh token is then rejected; the new access token works', async () => {
		const code = (await authorize({})).searchParams.get('code')!;
		const first = (await tokenRequest({ grant_type: 'authorization_code', code }, basic(DEMO_CLIENT_ID, DEMO_CLIENT_SECRET))).body;
		sb.expireToken(first.access_token);
		expect((await call(sb.url, 'GET', '/v1.0/me', { auth: { bearer: first.access_token } })).status).toBe(401);
		const r = await tokenRequest({ grant_type: 'refresh_token', refresh_token: first.refresh_token }, basic(DEMO_CLIENT_ID, DEMO_CLIENT_SECRET));
		expect(r.status).toBe(200);
		expect(r.body.access_token).not.toBe(first.access_token);
		expect(r.body.refresh_token).not.toBe(first.refresh_token);
		expect((await call(sb.url, 'GET', '/v1.0/me', { auth: { bearer: r.body.access_token } })).status).toBe(200);
		const reused = await tokenRequest({ grant_type: 'refresh_token', refresh_token: first.refresh_token }, basic(DEMO_CLIENT_ID, DEMO_CLIENT_SECRET));
		expect(reused.status).toBe(400);
		expect(reused.body.error).toBe('invalid_grant');
	});

	it('works for a public (PKCE) client with client_id only', async () => {
		const verifier = 'v'.repeat(50);
		const challenge = createHash('sha256').update(verifier).digest('base64url');
		const code = (await authorize({ code_challenge: challenge })).searchParams.get('code')!;
		const first = (await tokenRequest({ grant_type: 'authorization_code', client_id: DEMO_CLIENT_ID, code, code_verifier: verifier })).body;
		const r = await tokenRequest({ grant_type: 'refresh_token', client_id: DEMO_CLIENT_ID, refresh_token: first.refresh_token });
		expect(r.status).toBe(200);
	});

	it('the token endpoint also answers at /oauth/token', async () => {
		const code = (await authorize({})).searchParams.get('code')!;
		const r = await call(sb.url, 'POST', '/oauth/token', {
			rawBody: new URLSearchParams({ grant_type: 'authorization_code', code }).toString(),
			headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: basic(DEMO_CLIENT_ID, DEMO_CLIENT_SECRET) },
		});
		expect(r.status).toBe(200);
	});
});

describe('client_credentials grant', () => {
	afterEach(() => sb.readings.reset());
	const me = async (token: string) => call(sb.url, 'GET', '/v1.0/me', { auth: { bearer: token } });
	const grant = (extra: Record<string, string>, authorization?: string) => tokenRequest({ grant_type: 'client_credentials', ...extra }, authorization);
	const viaBasic = (key: Record<string, string>) => grant(key, basic(DEMO_CLIENT_ID, DEMO_CLIENT_SECRET));
	const viaBody = (key: Record<string, string>) => grant({ client_id: DEMO_CLIENT_ID, client_secret: DEMO_CLIENT_SECRET, ...key });

	it('issues an access token, without a refresh token, that acts as the user whose API key is customer_key', async () => {
		const owner = await viaBasic({ customer_key: DEMO_API_KEY });
		const other = await viaBody({ customer_key: OTHER_AGENT_API_KEY });
		for (const r of [owner, other]) {
			expect(r.status).toBe(200);
			expect(Object.keys(r.body).sort()).toEqual(['access_token', 'expires_in', 'scope', 'token_type']);
			expect(r.body.scope).toBe('all');
		}
		expect(String((await me(owner.body.access_token)).body.memberUserId)).toBe(SEED_IDS.demoUserId);
		expect(String((await me(other.body.access_token)).body.memberUserId)).toBe(SEED_IDS.otherAgentUserId);
		expect(sb.requests.filter((r) => r.path === '/v1.0/me').slice(-2).map((r) => r.authScheme)).toEqual(['bearer', 'bearer']);
	});

	it('refuses a wrong secret, a missing secret and an unknown customer_key as OAuth errors', async () => {
		const wrong = await grant({ customer_key: DEMO_API_KEY }, basic(DEMO_CLIENT_ID, 'nope'));
		expect([wrong.status, wrong.body.error]).toEqual([401, 'invalid_client']);
		const noSecret = await grant({ client_id: DEMO_CLIENT_ID, customer_key: DEMO_API_KEY });
		expect([noSecret.status, noSecret.body.error]).toEqual([401, 'invalid_client']);
		const badKey = await viaBasic({ customer_key: `${DEMO_API_KEY}x` });
		expect([badKey.status, badKey.body.error]).toEqual([400, 'invalid_grant']);
		expect(JSON.stringify(badKey.body)).not.toContain(DEMO_API_KEY);
	});

	it.each(READING_VALUES.ccCustomerKey)('without customer_key (ccCustomerKey %s)', async (reading) => {
		sb.readings.set({ ccCustomerKey: reading });
		const r = await viaBasic({});
		if (reading === 'required') {
			expect([r.status, r.body.error]).toEqual([400, 'invalid_request']);
		} else {
			expect(r.status).toBe(200);
			expect(String((await me(r.body.access_token)).body.memberUserId)).toBe(SEED_IDS.demoUserId);
		}
	});

	it.each(READING_VALUES.ccClientAuth)('client authentication by Basic or by form fields (ccClientAuth %s)', async (reading) => {
		sb.readings.set({ ccClientAuth: reading });
		const statuses = [(await viaBasic({ customer_key: DEMO_API_KEY })).status, (await viaBody({ customer_key: DEMO_API_KEY })).status];
		expect(statuses).toEqual({ either: [200, 200], basic: [200, 401], body: [401, 200] }[reading]);
	});

	it('answers at /oauth/token too', async () => {
		const r = await call(sb.url, 'POST', '/oauth/token', {
			rawBody: new URLSearchParams({ grant_type: 'client_credentials', customer_key: OTHER_AGENT_API_KEY }).toString(),
			headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: basic(DEMO_CLIENT_ID, DEMO_CLIENT_SECRET) },
		});
		expect(String((await me(r.body.access_token)).body.memberUserId)).toBe(SEED_IDS.otherAgentUserId);
	});
});
