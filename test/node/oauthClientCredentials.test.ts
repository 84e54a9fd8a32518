/**
 * The OAuth2 credential's Client Credentials grant, run through n8n-core's own OAuth2 helper (n8n 2.41.1's
 * requestOAuth2 and @n8n/client-oauth2's CredentialsFlow) against the sandbox: n8n fetches a token with the app's
 * secret and `customer_key` (the acting user's API key), saves it, signs the node's requests with it, and fetches a
 * new one when Lofty answers 401. n8n 1.123 and 2.8 build the same token request (their credentials-flow.js reads
 * additionalBodyProperties too); the e2e suites run the whole flow on all three lines (test/e2e/oauthConnect.ts).
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { LoftyOAuth2Api } from '../../credentials/LoftyOAuth2Api.credentials';
import { DEMO_API_KEY, DEMO_CLIENT_ID, DEMO_CLIENT_SECRET, OTHER_AGENT_API_KEY, READING_VALUES, SEED_IDS } from '../../sandbox';
import { asN8nHandsItOver, runWithN8nOAuth2, savedClientCredentials } from '../harness/n8nOAuth2';
import { apiKeyCredential, node, run, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const properties = new LoftyOAuth2Api().properties;

/** A Client Credentials credential as a person fills it in, saved as n8n saves it (no token yet). */
const saved = (typed: IDataObject) => savedClientCredentials(sandbox().url, typed);

const runCc = async (stored: { data: IDataObject; saves: number }, params: IDataObject): Promise<INodeExecutionData[]> => await runWithN8nOAuth2(node, stored, params);

const tokenRequests = () => sandbox().requests.filter((r) => r.path.endsWith('/oauth/token'));
const getMe = { resource: 'member', operation: 'getMe' };

describe('OAuth2 Client Credentials through n8n-core', () => {
	it.each(['header', 'body'])('gets a token for the customer key and reads as that user, as the API key does (%s)', async (authentication) => {
		const stored = saved({ customerApiKey: OTHER_AGENT_API_KEY, authentication });
		const viaOAuth = await runCc(stored, getMe);
		const viaKey = await run(sandbox(), getMe, { credential: apiKeyCredential(sandbox(), OTHER_AGENT_API_KEY) });
		expect(String(viaOAuth[0].json.memberUserId)).toBe(SEED_IDS.otherAgentUserId);
		expect(viaOAuth.map((i) => i.json)).toEqual(viaKey.map((i) => i.json));

		const [token] = tokenRequests();
		const form = Object.fromEntries(new URLSearchParams(token.body));
		expect(form).toEqual({
			grant_type: 'client_credentials',
			customer_key: OTHER_AGENT_API_KEY,
			...(authentication === 'body' ? { client_id: DEMO_CLIENT_ID, client_secret: DEMO_CLIENT_SECRET } : {}),
		});
		expect(token.authScheme).toBe(authentication === 'header' ? 'basic' : 'none');
		expect(stored.saves).toBe(1);
		expect(sandbox().requests.filter((r) => r.path === '/v1.0/me').map((r) => [r.authScheme, r.status])).toEqual([
			['bearer', 200],
			['token', 200],
		]);
	});

	it('reuses the saved token, and fetches a new one when Lofty answers 401; a write is applied once', async () => {
		const stored = saved({});
		await runCc(stored, getMe);
		const first = (stored.data.oauthTokenData as IDataObject).access_token as string;
		await runCc(stored, getMe);
		expect(tokenRequests()).toHaveLength(1);

		sandbox().expireToken(first);
		const before = sandbox().store.leads.size;
		const items = await runCc(stored, { resource: 'lead', operation: 'create', firstName: 'Server', additionalFields: { emails: ['cc@example.com'] } });
		expect(items).toHaveLength(1);
		expect(sandbox().store.leads.size).toBe(before + 1);
		expect(sandbox().requests.filter((r) => r.method === 'POST' && r.path.startsWith('/v1.0/')).map((r) => r.status)).toEqual([401, 200]);
		expect(tokenRequests().map((r) => new URLSearchParams(r.body).get('grant_type'))).toEqual(['client_credentials', 'client_credentials']);
		expect((stored.data.oauthTokenData as IDataObject).access_token).not.toBe(first);
		expect(stored.saves).toBe(2);
	});

	it.each(READING_VALUES.ccClientAuth)('works with the client authentication Lofty accepts (ccClientAuth %s)', async (reading) => {
		sandbox().readings.set({ ccClientAuth: reading });
		const choice = reading === 'body' ? 'body' : 'header';
		expect((await runCc(saved({ authentication: choice }), getMe))[0].json.memberUserId).toBeDefined();
		if (reading === 'either') return;
		const refused = await runCc(saved({ authentication: reading === 'body' ? 'header' : 'body' }), getMe).catch((e: Error) => e);
		expect(refused).toMatchObject({ message: 'Lofty refused the Client ID or Client Secret of the OAuth2 credential, so GET /v1.0/me was not sent' });
		expect((refused as { description?: string }).description).toMatch(/Client Authentication: Body.*Lofty answered invalid_client/);
	});

	it.each(READING_VALUES.ccCustomerKey)('works whether Lofty requires customer_key or not (ccCustomerKey %s)', async (reading) => {
		sandbox().readings.set({ ccCustomerKey: reading });
		const [me] = await runCc(saved({ customerApiKey: OTHER_AGENT_API_KEY }), getMe);
		expect(String(me.json.memberUserId)).toBe(SEED_IDS.otherAgentUserId);
	});

	it('a wrong customer key fails the run with a message that names the Customer Key, and no secret in it', async () => {
		const error = (await runCc(saved({ customerApiKey: `${DEMO_API_KEY}0` }), getMe).catch((e: Error) => e)) as Error;
		expect(error.message).toBe('Lofty refused the Customer Key of the OAuth2 credential, so GET /v1.0/me was not sent');
		expect((error as { description?: string }).description).toBe(
			'The Customer Key must be the API key of the Lofty user the workflow acts as (that user finds it in Lofty: Settings > Integrations > API). Open the credential, paste it again and save. Lofty answered invalid_grant: customer_key is not a valid API key.',
		);
		expect(sandbox().requests.filter((r) => r.path === '/v1.0/me')).toHaveLength(0);
	});
});

describe('the OAuth2 credential per grant type, as n8n reads it', () => {
	it('Authorization Code and PKCE are unchanged: no customer key, no extra token fields', () => {
		for (const grantType of ['authorizationCode', 'pkce']) {
			const data = asN8nHandsItOver(properties, { grantType, clientId: DEMO_CLIENT_ID, customerApiKey: DEMO_API_KEY });
			expect(Object.keys(data)).not.toContain('additionalBodyProperties');
			expect(Object.keys(data)).not.toContain('customerApiKey');
			expect(data.authQueryParameters).toBe(`clientId=${DEMO_CLIENT_ID}`);
			expect(data.authUrl).toBe('https://lofty.com/page/vendor-auth.html');
		}
	});

	it('Client Credentials sends the customer key as customer_key, and nothing without one', () => {
		const data = asN8nHandsItOver(properties, { grantType: 'clientCredentials', customerApiKey: 'k "1"' });
		expect(JSON.parse(String(data.additionalBodyProperties))).toEqual({ customer_key: 'k "1"' });
		expect(data.authUrl).toBeUndefined();
		expect(asN8nHandsItOver(properties, { grantType: 'clientCredentials' }).additionalBodyProperties).toBe('');
	});
});
