/**
 * Connecting a Lofty OAuth2 API credential through n8n's own OAuth2 flow, as the editor's "Connect" does, for each
 * client authentication and for PKCE: GET /rest/oauth2-credential/auth (the authorize URL n8n builds), the sandbox's
 * authorize page (auto-approves) redirecting to n8n's callback, n8n's code exchange at the sandbox's token endpoint.
 * Then a workflow runs with the stored token; after the sandbox expires it, n8n refreshes it and the run passes.
 * The sandbox's request log shows where n8n put the client ID and secret each time.
 * Client Credentials has no browser step: n8n fetches a token with the secret and the Customer Key (customer_key)
 * itself, in the credential test and in a run, and fetches a new one when the sandbox answers 401.
 */
import { randomBytes } from 'node:crypto';

import { OTHER_AGENT_API_KEY, type Sandbox, SEED_IDS } from '../../sandbox';
import { type ExecutionResult, type N8nServer, NODE_TYPE, httpRequest } from './n8nServer';
import type { Json } from './plan';

interface Setup {
	n8n: N8nServer;
	sandbox: Sandbox;
}

const TRIGGER = 'Manual Trigger';
const TOKEN_PATH = '/api/user-web/oauth/token';

function getMeWorkflow(name: string, credential: Json): { name: string; nodes: Json[]; connections: Json } {
	const id = () => randomBytes(8).toString('hex');
	return {
		name,
		nodes: [
			{ id: id(), name: TRIGGER, type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: id(),
				name: 'Get Me',
				type: NODE_TYPE,
				typeVersion: 1,
				position: [220, 0],
				parameters: { authentication: 'oAuth2', resource: 'member', operation: 'getMe' },
				credentials: { loftyOAuth2Api: credential },
			},
		],
		connections: { [TRIGGER]: { main: [[{ node: 'Get Me', type: 'main', index: 0 }]] } },
	};
}

/** The token requests the sandbox answered after `from`: grant, status, where the client ID and secret were. */
function tokenRequests(sandbox: Sandbox, from: number, clientSecret: string) {
	return sandbox.requests
		.slice(from)
		.filter((r) => r.path === TOKEN_PATH)
		.map((r) => {
			const form = new URLSearchParams(r.body);
			return {
				grant: form.get('grant_type'),
				status: r.status,
				basic: r.authScheme === 'basic',
				formClientId: form.has('client_id'),
				// compared, never printed
				formSecret: form.get('client_secret') === clientSecret,
				verifier: form.has('code_verifier'),
				...(form.get('grant_type') === 'client_credentials' ? { customerKey: form.get('customer_key') === OTHER_AGENT_API_KEY } : {}),
			};
		});
}

/** What a failed run says (the node's error, else the execution's). */
function runError(ex: ExecutionResult): string | undefined {
	const err = ex.runData['Get Me']?.[0]?.error ?? ex.error;
	return err ? `${err.message ?? ''}${err.description ? ` (${err.description})` : ''}` : undefined;
}

export function defineOAuthConnectTests(setup: () => Setup): void {
	const cases: Array<{ title: string; grantType: string; authentication: string; exchange: object; refresh: object }> = [
		{
			title: 'Authorization Code, client authentication Header (HTTP Basic, the default)',
			grantType: 'authorizationCode',
			authentication: 'header',
			exchange: { basic: true, formClientId: false, formSecret: false, verifier: false },
			refresh: { basic: true, formClientId: false, formSecret: false },
		},
		{
			title: 'Authorization Code, client authentication Body',
			grantType: 'authorizationCode',
			authentication: 'body',
			exchange: { basic: false, formClientId: true, formSecret: true, verifier: false },
			refresh: { basic: false, formClientId: true, formSecret: true },
		},
		{
			title: 'Authorization Code with PKCE (no secret)',
			grantType: 'pkce',
			authentication: 'header',
			exchange: { basic: false, formClientId: true, formSecret: false, verifier: true },
			refresh: { basic: false, formClientId: true, formSecret: false },
		},
	];

	for (const c of cases) {
		test(`${c.title}: n8n connects, runs with the token, refreshes it when expired`, async () => {
			const { n8n, sandbox } = setup();
			const { clientId, clientSecret } = sandbox.oauthClient;
			const name = `Lofty OAuth2 connect ${c.grantType}/${c.authentication} (e2e)`;
			const id = await n8n.createCredential(name, 'loftyOAuth2Api', {
				grantType: c.grantType,
				clientId,
				...(c.grantType === 'pkce' ? {} : { clientSecret }),
				authentication: c.authentication,
				authUrl: `${sandbox.url}/page/vendor-auth.html`,
				accessTokenUrl: `${sandbox.url}${TOKEN_PATH}`,
				baseUrl: sandbox.url,
			});
			const from = sandbox.requests.length;

			// "Connect": n8n builds the authorize URL (with Lofty's clientId parameter), the browser follows it.
			const auth = await n8n.rest('GET', `/rest/oauth2-credential/auth?id=${id}`);
			expect(auth.status).toBe(200);
			const authorizeUrl = new URL(auth.json?.data ?? auth.json);
			expect(`${authorizeUrl.origin}${authorizeUrl.pathname}`).toBe(`${sandbox.url}/page/vendor-auth.html`);
			expect(authorizeUrl.searchParams.get('clientId')).toBe(clientId);
			expect(authorizeUrl.searchParams.has('code_challenge')).toBe(c.grantType === 'pkce');
			const approved = await httpRequest('GET', authorizeUrl.toString());
			expect(approved.status).toBe(302);
			const binding = (auth.headers['set-cookie'] ?? []).map((h) => h.split(';')[0]);
			const callback = await httpRequest('GET', String(approved.headers.location), undefined, {
				cookie: [n8n.cookie, ...binding].join('; '),
				'browser-id': 'e2e-browser',
			});
			const failed = /error|failed/i.test(callback.text) && !/success/i.test(callback.text);
			expect({ status: callback.status, failed }).toEqual({ status: 200, failed: false });
			expect(tokenRequests(sandbox, from, clientSecret)).toEqual([{ grant: 'authorization_code', status: 200, ...c.exchange }]);

			const wf = await n8n.createWorkflow(getMeWorkflow(`Lofty e2e: ${name}`, { id, name }));
			const first = await n8n.runWorkflow(wf, TRIGGER);
			expect({ status: first.status, error: runError(first) }).toEqual({ status: 'success', error: undefined });
			expect(first.runData['Get Me']?.[0]?.data?.main?.[0]?.[0]?.json?.memberUserId).toBe(SEED_IDS.demoUserId);

			// The token n8n stored is the one the sandbox issued last; expire it and run again.
			const issued = [...sandbox.auth.accessTokens.values()].filter((t) => t.clientId === clientId).at(-1)!;
			sandbox.expireToken(issued.token);
			const beforeRefresh = sandbox.requests.length;
			const second = await n8n.runWorkflow(wf, TRIGGER);
			expect({ status: second.status, error: runError(second) }).toEqual({ status: 'success', error: undefined });
			expect(tokenRequests(sandbox, beforeRefresh, clientSecret)).toEqual([{ grant: 'refresh_token', status: 200, verifier: false, ...c.refresh }]);
			n8n.log(`OAuth2 connect ${c.grantType}/${c.authentication}: exchange and refresh as expected, both runs passed`);
		});
	}

	test('Client Credentials: no Connect; the credential test and runs fetch a token for the Customer Key, again when expired', async () => {
		const { n8n, sandbox } = setup();
		const { clientId, clientSecret } = sandbox.oauthClient;
		const name = 'Lofty OAuth2 client credentials (e2e)';
		const id = await n8n.createCredential(name, 'loftyOAuth2Api', {
			grantType: 'clientCredentials',
			clientId,
			clientSecret,
			customerApiKey: OTHER_AGENT_API_KEY,
			accessTokenUrl: `${sandbox.url}${TOKEN_PATH}`,
			baseUrl: sandbox.url,
		});
		const fetched = { grant: 'client_credentials', status: 200, basic: true, formClientId: false, formSecret: false, verifier: false, customerKey: true };
		const from = sandbox.requests.length;
		const tested = await n8n.testStoredCredential(id);
		expect(tested.status).toBe('OK');
		expect(tokenRequests(sandbox, from, clientSecret)).toEqual([fetched]);

		const wf = await n8n.createWorkflow(getMeWorkflow(`Lofty e2e: ${name}`, { id, name }));
		const first = await n8n.runWorkflow(wf, TRIGGER);
		expect({ status: first.status, error: runError(first) }).toEqual({ status: 'success', error: undefined });
		expect(String(first.runData['Get Me']?.[0]?.data?.main?.[0]?.[0]?.json?.memberUserId)).toBe(SEED_IDS.otherAgentUserId);
		// The run signs with the token n8n saved during the test (1.123.81, 2.8.4 and 2.41.1 alike).
		expect(tokenRequests(sandbox, from, clientSecret)).toEqual([fetched]);

		const issued = [...sandbox.auth.accessTokens.values()].filter((t) => t.clientId === clientId).at(-1)!;
		sandbox.expireToken(issued.token);
		const beforeRefresh = sandbox.requests.length;
		const second = await n8n.runWorkflow(wf, TRIGGER);
		expect({ status: second.status, error: runError(second) }).toEqual({ status: 'success', error: undefined });
		expect(tokenRequests(sandbox, beforeRefresh, clientSecret)).toEqual([fetched]);
		n8n.log('OAuth2 client credentials: one token request for the test and the first run, one after expiry; both runs passed');
	});
}
