/**
 * A Lofty node with an OAuth2 credential that was never connected (Authorization Code or PKCE without Connect): n8n
 * signs the request with @n8n/client-oauth2, which refuses without an access token before anything is sent. The
 * node says to connect the credential, not that Lofty could not be reached or that the Base URL is wrong.
 */
import { ClientOAuth2, ClientOAuth2Token } from '@n8n/client-oauth2';
import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { SEED_IDS } from '../../sandbox';
import { createContext } from '../harness/context';
import { node, useSandbox } from '../harness/sandbox';
import { observe } from '../secrets/observe';

const sandbox = useSandbox();

test('an OAuth2 credential never connected: "Connect the credential", nothing sent', async () => {
	const credential = { type: 'loftyOAuth2Api' as const, data: { baseUrl: sandbox().url, grantType: 'pkce' } };
	const context = createContext(node, {
		params: { authentication: 'oAuth2', resource: 'lead', operation: 'get', leadId: { __rl: true, mode: 'id', value: SEED_IDS.bigLeadId } },
		credential,
	});
	const before = sandbox().requests.length;
	(context.helpers as { httpRequestWithAuthentication: unknown }).httpRequestWithAuthentication = async (_type: string, options: IHttpRequestOptions) => {
		// What n8n-core's requestOAuth2 does with a credential without oauthTokenData: sign with an empty token.
		const client = new ClientOAuth2({ clientId: 'demo', accessTokenUri: `${sandbox().url}/api/user-web/oauth/token` });
		const token = new ClientOAuth2Token(client, {} as never);
		return token.sign({ url: String(options.url), method: 'GET', headers: {} });
	};
	const error = await (node.execute!.call(context as IExecuteFunctions) as Promise<unknown>).then(
		() => {
			throw new Error('expected the node to fail');
		},
		(e: Error & { description?: string }) => e,
	);
	observe('Lofty error', { message: error.message, description: error.description });
	expect(error.message).toBe(`Connect the credential: this OAuth2 credential is not connected yet, so GET /v1.0/leads/${SEED_IDS.bigLeadId} was not sent`);
	expect(error.message).not.toMatch(/Could not reach/);
	expect(error.description).toMatch(/click Connect/);
	expect(error.description).not.toMatch(/Base URL/);
	expect(sandbox().requests.length).toBe(before);
});
