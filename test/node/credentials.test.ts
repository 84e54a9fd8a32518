import { createHash, randomBytes } from 'node:crypto';

import axios from 'axios';
import type { ICredentialType, IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { LoftyApi } from '../../credentials/LoftyApi.credentials';
import { LoftyOAuth2Api } from '../../credentials/LoftyOAuth2Api.credentials';
import { SEED_IDS } from '../../sandbox';
import { authenticate } from '../harness/context';
import { codeExchange, refresh } from '../harness/n8nOAuth2';
import { byId, oauthCredential, run, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();

/** Evaluates an n8n `={{ ... }}` credential expression, with `$credentials` and `$self` bound to the data. */
function evaluate(template: string, data: IDataObject): string {
	const match = /^=\{\{([\s\S]*)\}\}$/.exec(template);
	if (!match) return template;
	// eslint-disable-next-line @typescript-eslint/no-implied-eval
	return String(new Function('$credentials', '$self', `return (${match[1]});`)(data, data));
}

/** Runs a credential's own test request, authenticated by its own definition, and applies its rules. */
async function credentialTest(type: ICredentialType, data: IDataObject) {
	const test = type.test!;
	const request: IHttpRequestOptions = {
		method: 'GET',
		url: `${evaluate(String(test.request.baseURL), data)}${test.request.url}`,
		headers: test.request.headers as IDataObject,
	};
	const signed = authenticate({ type: type.name as 'loftyApi' | 'loftyOAuth2Api', data }, request);
	const response = await axios.request({ url: signed.url, headers: signed.headers as Record<string, string>, validateStatus: () => true });
	const rule = test.rules?.find((r) => r.type === 'responseCode' && r.properties.value === response.status);
	return { status: response.status, message: rule && 'message' in rule.properties ? rule.properties.message : undefined };
}

function defaults(type: ICredentialType): Record<string, unknown> {
	return Object.fromEntries(type.properties.map((p) => [p.name, p.default]));
}

describe('Lofty API credential', () => {
	const type = new LoftyApi();

	it('passes its test with the demo key and the sandbox base URL (with a trailing slash)', async () => {
		const result = await credentialTest(type, { apiKey: sandbox().apiKey, baseUrl: `${sandbox().url}/` });
		expect(result.status).toBe(200);
		expect(sandbox().requests[0]).toMatchObject({ method: 'GET', path: '/v1.0/me', authScheme: 'token' });
	});

	it('fails its test clearly on a bad key', async () => {
		const result = await credentialTest(type, { apiKey: 'nope', baseUrl: sandbox().url });
		expect(result.status).toBe(401);
		expect(result.message).toMatch(/rejected the API key/);
	});

	it('defaults to the production API', () => {
		expect(defaults(type).baseUrl).toBe('https://api.lofty.com');
	});
});

describe('Lofty OAuth2 credential', () => {
	const type = new LoftyOAuth2Api();
	const redirectUri = 'http://127.0.0.1:5678/rest/oauth2-credential/callback';

	it("points at Lofty's authorize page with its clientId parameter and its token URL", () => {
		const data: IDataObject = { ...defaults(type), clientId: 'my app' } as IDataObject;
		expect(data.authUrl).toBe('https://lofty.com/page/vendor-auth.html');
		expect(data.accessTokenUrl).toBe('https://crm.lofty.com/api/user-web/oauth/token');
		expect(evaluate(String(data.authQueryParameters), data)).toBe('clientId=my%20app');
		expect(data.authentication).toBe('header');
		const grant = type.properties.find((p) => p.name === 'grantType');
		expect(grant?.options?.map((o) => ('value' in o ? o.value : undefined))).toEqual(['authorizationCode', 'pkce', 'clientCredentials']);
		expect(type.properties.find((p) => p.name === 'clientSecret')?.displayOptions).toEqual({ hide: { grantType: ['pkce'] } });
	});

	async function authorize(extra: Record<string, string>) {
		const data = { ...defaults(type), clientId: sandbox().oauthClient.clientId } as IDataObject;
		const query = new URLSearchParams({ redirect_uri: redirectUri, state: 'xyz', ...extra });
		const url = `${sandbox().url}/page/vendor-auth.html?${evaluate(String(data.authQueryParameters), data)}&${query}`;
		const response = await axios.get(url, { maxRedirects: 0, validateStatus: () => true });
		const location = new URL(response.headers.location as string);
		expect(location.searchParams.get('state')).toBe('xyz');
		return location.searchParams.get('code') as string;
	}

	const tokenUrl = () => `${sandbox().url}/api/user-web/oauth/token`;

	it('offers Header (HTTP Basic, the default) or Body client authentication, hidden for PKCE', () => {
		const prop = type.properties.find((p) => p.name === 'authentication');
		expect(prop).toMatchObject({ displayName: 'Client Authentication', type: 'options', default: 'header', displayOptions: { hide: { grantType: ['pkce'] } } });
		expect(prop?.options?.map((o) => ('value' in o ? o.value : undefined))).toEqual(['header', 'body']);
	});

	/** The last token request the sandbox answered: how the client authenticated and the form it sent. */
	function lastTokenRequest() {
		const entry = sandbox().requests.filter((r) => r.path === '/api/user-web/oauth/token').at(-1)!;
		return { authScheme: entry.authScheme, status: entry.status, form: new URLSearchParams(entry.body) };
	}

	/** Where each choice puts the client ID and secret (compared as booleans: a failure must not print the secret). */
	function expectClientAuth(authentication: string, grant: string) {
		const { authScheme, status, form } = lastTokenRequest();
		const { clientId, clientSecret } = sandbox().oauthClient;
		expect({ status, grant: form.get('grant_type') }).toEqual({ status: 200, grant });
		if (authentication === 'header') {
			expect({ authScheme, formClientId: form.has('client_id'), formSecret: form.has('client_secret') }).toEqual({ authScheme: 'basic', formClientId: false, formSecret: false });
		} else {
			expect({ authScheme, formClientId: form.get('client_id'), formSecret: form.get('client_secret') === clientSecret }).toEqual({ authScheme: 'none', formClientId: clientId, formSecret: true });
		}
	}

	const oauthData = (extra: IDataObject): IDataObject => ({
		...defaults(type),
		clientId: sandbox().oauthClient.clientId,
		clientSecret: sandbox().oauthClient.clientSecret,
		authUrl: `${sandbox().url}/page/vendor-auth.html`,
		accessTokenUrl: tokenUrl(),
		baseUrl: sandbox().url,
		...extra,
	});

	async function callback(extra: Record<string, string> = {}): Promise<string> {
		const code = await authorize(extra);
		return `${redirectUri}?code=${encodeURIComponent(code)}&state=xyz`;
	}

	describe.each([
		['Header (HTTP Basic)', 'header'],
		['Body', 'body'],
	])('Authorization Code, client authentication %s, through n8n\'s OAuth2 client', (_label, authentication) => {
		it('connects: the code exchange carries the client ID and secret where chosen, and the token works in the node', async () => {
			const data = oauthData({ authentication });
			const token = await codeExchange(data, redirectUri, await callback());
			expectClientAuth(authentication, 'authorization_code');
			const [item] = await run(sandbox(), { resource: 'lead', operation: 'get', leadId: byId(SEED_IDS.bigLeadId) }, { credential: oauthCredential(sandbox(), token.accessToken) });
			expect(item.json.leadId).toBe(SEED_IDS.bigLeadId);
		});

		it('refreshes an expired token the same way; the new token works, the old one does not', async () => {
			const data = oauthData({ authentication });
			const first = await codeExchange(data, redirectUri, await callback());
			sandbox().expireToken(first.accessToken);
			expect((await credentialTest(type, { baseUrl: sandbox().url, oauthTokenData: { access_token: first.accessToken } })).status).toBe(401);
			const second = await refresh(data, first.data);
			expectClientAuth(authentication, 'refresh_token');
			expect(second.accessToken).not.toBe(first.accessToken);
			expect((await credentialTest(type, { baseUrl: sandbox().url, oauthTokenData: { access_token: second.accessToken } })).status).toBe(200);
		});

		it('a wrong client secret is refused with invalid_client, and no token is issued', async () => {
			const issued = sandbox().auth.accessTokens.size;
			const error = await codeExchange(oauthData({ authentication, clientSecret: 'not-the-secret' }), redirectUri, await callback()).catch((e: { body?: IDataObject }) => e);
			expect((error as { body?: IDataObject }).body?.error).toBe('invalid_client');
			expect(lastTokenRequest()).toMatchObject({ status: 401, authScheme: authentication === 'header' ? 'basic' : 'none' });
			expect(sandbox().auth.accessTokens.size).toBe(issued);
		});
	});

	it.each(['header', 'body'])('PKCE (client authentication left at "%s"): the code exchange sends the verifier and the client ID, no secret', async (authentication) => {
		const verifier = randomBytes(32).toString('base64url');
		const challenge = createHash('sha256').update(verifier).digest('base64url');
		const data = oauthData({ grantType: 'pkce', clientSecret: '', authentication });
		const token = await codeExchange(data, redirectUri, await callback({ code_challenge: challenge, code_challenge_method: 'S256' }), verifier);
		const { authScheme, form } = lastTokenRequest();
		expect({ authScheme, clientId: form.get('client_id'), secret: form.has('client_secret'), verifier: form.get('code_verifier') === verifier }).toEqual({
			authScheme: 'none',
			clientId: sandbox().oauthClient.clientId,
			secret: false,
			verifier: true,
		});
		const result = await credentialTest(type, { baseUrl: sandbox().url, oauthTokenData: { access_token: token.accessToken } });
		expect(result.status).toBe(200);
		expect(sandbox().requests.at(-1)?.authScheme).toBe('bearer');
	});

	it('fails its test clearly with a revoked token', async () => {
		const result = await credentialTest(type, { baseUrl: sandbox().url, oauthTokenData: { access_token: 'expired' } });
		expect(result.status).toBe(401);
		expect(result.message).toMatch(/Reconnect the credential/);
	});
});
