import { createHash, randomBytes } from 'node:crypto';

import axios from 'axios';
import type { ICredentialType, IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { LoftyApi } from '../../credentials/LoftyApi.credentials';
import { LoftyOAuth2Api } from '../../credentials/LoftyOAuth2Api.credentials';
import { SEED_IDS } from '../../sandbox';
import { authenticate } from '../harness/context';
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
		expect(grant?.options?.map((o) => ('value' in o ? o.value : undefined))).toEqual(['authorizationCode', 'pkce']);
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

	it('Authorization Code: exchanges the code with HTTP Basic client auth, and the token works in the node', async () => {
		const code = await authorize({});
		const { clientId, clientSecret } = sandbox().oauthClient;
		const token = await axios.post(tokenUrl(), new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri }).toString(), {
			headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}` },
		});
		const accessToken = token.data.access_token as string;
		const result = await credentialTest(type, { baseUrl: sandbox().url, oauthTokenData: { access_token: accessToken } });
		expect(result.status).toBe(200);
		const [item] = await run(sandbox(), { resource: 'lead', operation: 'get', leadId: byId(SEED_IDS.bigLeadId) }, { credential: oauthCredential(sandbox(), accessToken) });
		expect(item.json.leadId).toBe(SEED_IDS.bigLeadId);
	});

	it('PKCE: exchanges the code with a verifier and no secret', async () => {
		const verifier = randomBytes(32).toString('base64url');
		const challenge = createHash('sha256').update(verifier).digest('base64url');
		const code = await authorize({ code_challenge: challenge, code_challenge_method: 'S256' });
		const token = await axios.post(
			tokenUrl(),
			new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: sandbox().oauthClient.clientId, code_verifier: verifier }).toString(),
			{ headers: { 'Content-Type': 'application/x-www-form-urlencoded' } },
		);
		const result = await credentialTest(type, { baseUrl: sandbox().url, oauthTokenData: { access_token: token.data.access_token } });
		expect(result.status).toBe(200);
		expect(sandbox().requests.at(-1)?.authScheme).toBe('bearer');
	});

	it('fails its test clearly with a revoked token', async () => {
		const result = await credentialTest(type, { baseUrl: sandbox().url, oauthTokenData: { access_token: 'expired' } });
		expect(result.status).toBe(401);
		expect(result.message).toMatch(/Reconnect the credential/);
	});
});
