/**
 * A Client Credentials token acts only for the Customer Key it was issued for: n8n keeps the token when the
 * credential is saved with another key (n8n 2.41.1 credentials.service keeps oauthTokenData on update) and fetches a
 * new one only after a 401, so the node checks which key the token belongs to before it sends anything.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { LoftyOAuth2Api } from '../../credentials/LoftyOAuth2Api.credentials';
import { DEMO_API_KEY, DEMO_CLIENT_ID, DEMO_CLIENT_SECRET, OTHER_AGENT_API_KEY, SEED_IDS } from '../../sandbox';
import { asN8nHandsItOver, runWithN8nOAuth2 } from '../harness/n8nOAuth2';
import { node, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const properties = new LoftyOAuth2Api().properties;

type Stored = { data: IDataObject; saves: number };

function typed(customerApiKey: string): IDataObject {
	return asN8nHandsItOver(properties, {
		grantType: 'clientCredentials',
		clientId: DEMO_CLIENT_ID,
		clientSecret: DEMO_CLIENT_SECRET,
		customerApiKey,
		baseUrl: sandbox().url,
		accessTokenUrl: `${sandbox().url}/api/user-web/oauth/token`,
	});
}

/** The person opens the credential, pastes another Customer Key and saves: n8n keeps the token it holds. */
function switchKey(stored: Stored, customerApiKey: string): void {
	stored.data = { ...typed(customerApiKey), oauthTokenData: stored.data.oauthTokenData };
}

async function getMe(stored: Stored): Promise<INodeExecutionData[] | Error> {
	return await runWithN8nOAuth2(node, stored, { resource: 'member', operation: 'getMe' }).catch((error: Error) => error);
}

const userOf = (result: INodeExecutionData[] | Error) => (result instanceof Error ? result.message : String(result[0].json.memberUserId));
const tokenRequests = () => sandbox().requests.filter((r) => r.path.endsWith('/oauth/token'));

describe('a Client Credentials token is used only for the Customer Key it was issued for', () => {
	it('after the Customer Key is switched, the node does not act as the previous user', async () => {
		const stored: Stored = { data: typed(DEMO_API_KEY), saves: 0 };
		const first = userOf(await getMe(stored));
		expect(first).not.toBe(SEED_IDS.otherAgentUserId);
		const before = sandbox().requests.filter((r) => r.path === '/v1.0/me').length;
		await getMe(stored);
		// The token n8n fetched while the node watched is bound to its key: no check on the next run.
		expect(sandbox().requests.filter((r) => r.path === '/v1.0/me').length).toBe(before + 1);

		switchKey(stored, OTHER_AGENT_API_KEY);
		const after = await getMe(stored);
		expect(after).toBeInstanceOf(Error);
		expect((after as Error).message).toBe(
			"The OAuth2 credential's token was issued for another Customer Key or Client ID than the credential has now, so GET /v1.0/me was not sent",
		);
		expect((after as { description?: string }).description).toMatch(/create a new Lofty OAuth2 credential/);
		expect(tokenRequests()).toHaveLength(1);
	});

	it('a token this n8n process did not see fetched is checked with Lofty once: another user is refused, the same user runs', async () => {
		const stored: Stored = { data: typed(DEMO_API_KEY), saves: 0 };
		// Another process (or n8n before a restart) fetched the token for the first key.
		stored.data.oauthTokenData = { access_token: sandbox().issueToken(), token_type: 'bearer', expires_in: 3600 };
		switchKey(stored, OTHER_AGENT_API_KEY);
		const refused = await getMe(stored);
		expect((refused as Error).message).toBe(
			`The OAuth2 credential's token acts as Lofty user ${SEED_IDS.demoUserId}, its Customer Key belongs to user ${SEED_IDS.otherAgentUserId}, so GET /v1.0/me was not sent`,
		);

		switchKey(stored, DEMO_API_KEY);
		expect(userOf(await getMe(stored))).toBe(SEED_IDS.demoUserId);
		const checks = sandbox().requests.filter((r) => r.path === '/v1.0/me').length;
		await getMe(stored);
		expect(sandbox().requests.filter((r) => r.path === '/v1.0/me').length).toBe(checks + 1);
	});

	it('a wrong Customer Key with an old token is refused naming the Customer Key, and nothing acts as the old user', async () => {
		const stored: Stored = { data: typed(DEMO_API_KEY), saves: 0 };
		stored.data.oauthTokenData = { access_token: sandbox().issueToken(), token_type: 'bearer', expires_in: 3600 };
		switchKey(stored, `${DEMO_API_KEY}0`);
		const refused = (await getMe(stored)) as Error;
		expect(refused.message).toBe(
			'Lofty refused the Customer Key of the OAuth2 credential, and the token it holds was issued for another one, so GET /v1.0/me was not sent',
		);
		expect(sandbox().requests.filter((r) => r.path === '/v1.0/me' && r.authScheme === 'bearer')).toHaveLength(0);
	});
});

describe('the token check is a read of the transport: a 429, a 5xx or no answer is never a refusal, and never kept', () => {
	/** A token this process did not see fetched (n8n restarted), for the Customer Key the credential has. */
	const afterRestart = (): Stored => {
		const stored: Stored = { data: typed(DEMO_API_KEY), saves: 0 };
		stored.data.oauthTokenData = { access_token: sandbox().issueToken(), token_type: 'bearer', expires_in: 3600 };
		return stored;
	};
	const me = { method: 'GET', path: '/v1.0/me' };
	const meAnswers = () => sandbox().requests.filter((r) => r.path === '/v1.0/me').map((r) => `${r.authScheme} ${r.status}`);

	it('a 429 on the check is waited out as Lofty asks, and the run acts as the user', async () => {
		sandbox().faults.inject({ kind: '429', times: 2, retryAfterSec: 1, match: me });
		expect(userOf(await getMe(afterRestart()))).toBe(SEED_IDS.demoUserId);
		// The Customer Key's check twice (429, then its answer), the token's, then the request itself.
		expect(meAnswers()).toEqual(['token 429', 'token 429', 'token 200', 'bearer 200', 'bearer 200']);
	});

	it('a 5xx on the check is retried, as every read is', async () => {
		sandbox().faults.inject({ kind: '500', status: 503, times: 1, match: me });
		sandbox().faults.inject({ kind: '500', times: 1, skip: 1, match: me });
		expect(userOf(await getMe(afterRestart()))).toBe(SEED_IDS.demoUserId);
		expect(meAnswers()).toEqual(['token 503', 'token 200', 'bearer 500', 'bearer 200', 'bearer 200']);
	});

	it('Lofty does not answer the Customer Key check: the item fails saying so, nothing is sent, and the next run checks again', async () => {
		const stored = afterRestart();
		sandbox().faults.inject({ kind: '500', times: 4, match: me });
		const error = (await getMe(stored)) as Error & { description?: string };
		expect(error.message).toBe("Lofty did not answer the check of the OAuth2 credential's token (GET /v1.0/me), so GET /v1.0/me was not sent");
		expect(error.description).toMatch(/^Lofty error \(HTTP 500 20005\).*Nothing was changed in Lofty; run the item again later/);
		expect(`${error.message} ${error.description}`).not.toMatch(/refused/i);
		expect(meAnswers()).toEqual(['token 500', 'token 500', 'token 500', 'token 500']);
		// Not kept: the next run checks again, and Lofty answers.
		expect(userOf(await getMe(stored))).toBe(SEED_IDS.demoUserId);
	});

	it("Lofty does not answer the token's check: the item fails saying so, and the token is not taken as checked", async () => {
		const stored = afterRestart();
		sandbox().faults.inject({ kind: '500', times: 4, skip: 1, match: me });
		expect(((await getMe(stored)) as Error).message).toBe("Lofty did not answer the check of the OAuth2 credential's token (GET /v1.0/me), so GET /v1.0/me was not sent");
		expect(meAnswers()).toEqual(['token 200', 'bearer 500', 'bearer 500', 'bearer 500', 'bearer 500']);
		expect(userOf(await getMe(stored))).toBe(SEED_IDS.demoUserId);
		// Checked now: the next run sends the request alone.
		const before = meAnswers().length;
		await getMe(stored);
		expect(meAnswers().slice(before)).toEqual(['bearer 200']);
	});

	it('a refusal names what Lofty answered the Customer Key', async () => {
		const stored = afterRestart();
		switchKey(stored, `${DEMO_API_KEY}0`);
		const refused = (await getMe(stored)) as Error & { description?: string };
		expect(refused.message).toMatch(/^Lofty refused the Customer Key of the OAuth2 credential/);
		expect(refused.description).toMatch(/^Lofty answered HTTP 401 \S+ \(.+\) to the Customer Key sent as an API key\./);
	});
});

