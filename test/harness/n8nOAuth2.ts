/**
 * The token requests n8n makes for an OAuth2 credential, sent with n8n's own client (@n8n/client-oauth2 1.23.1,
 * the version n8n 2.41.1 ships) and its options built the way n8n builds them:
 *   - the code exchange: n8n's OAuth2 callback (n8n/dist/controllers/oauth/oauth2-credential.controller.js,
 *     handleCallback and convertCredentialToOptions): PKCE adds code_verifier; "body" client authentication moves
 *     client_id and client_secret into the form and takes the secret off the client, so no Basic header is sent;
 *   - the refresh: n8n-core's request helper (request-helpers/oauth.js, createOAuth2Client, then token.refresh()),
 *     where the client reads `authentication` itself.
 * `data` is the credential's data with its defaults applied, as n8n hands it over.
 */
import { ClientOAuth2, type ClientOAuth2Options, type ClientOAuth2Token, type ClientOAuth2TokenData } from '@n8n/client-oauth2';
// n8n-core's own helper, not in its public index; the package is a dev dependency pinned to n8n 2.41.1's.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { requestOAuth2 } = require('n8n-core/dist/execution-engine/node-execution-context/utils/request-helpers/oauth') as {
	requestOAuth2: (this: unknown, type: string, options: IHttpRequestOptions, node: INode, additionalData: unknown, oAuth2Options: unknown, isN8nRequest: boolean) => Promise<unknown>;
};
import type { IDataObject, IExecuteFunctions, IHttpRequestOptions, INode, INodeExecutionData, INodeParameters, INodeProperties, INodeType } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { LoftyOAuth2Api } from '../../credentials/LoftyOAuth2Api.credentials';
import { DEMO_API_KEY, DEMO_CLIENT_ID, DEMO_CLIENT_SECRET } from '../../sandbox';
import { observe } from '../secrets/observe';
import { createContext, sendSigned } from './context';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const method = (data: IDataObject): 'header' | 'body' => (data.authentication === 'body' ? 'body' : 'header');

/** n8n's code exchange for the redirect n8n received (`callbackUrl`: its redirect URI with code and state). */
export async function codeExchange(data: IDataObject, redirectUri: string, callbackUrl: string, codeVerifier?: string): Promise<ClientOAuth2Token> {
	const options: ClientOAuth2Options = {
		clientId: str(data.clientId),
		clientSecret: str(data.clientSecret),
		accessTokenUri: str(data.accessTokenUrl),
		authorizationUri: str(data.authUrl),
		authentication: method(data),
		redirectUri,
		scopes: str(data.scope || 'openid').split(','),
	};
	const isPkce = data.grantType === 'pkce';
	const body: Record<string, string> = {};
	if (isPkce) body.code_verifier = codeVerifier ?? '';
	if (method(data) === 'body') {
		body.client_id = options.clientId;
		if (options.clientSecret) body.client_secret = options.clientSecret;
		delete options.clientSecret;
	}
	return await new ClientOAuth2(options).code.getToken(callbackUrl, isPkce || method(data) === 'body' ? { body } : {});
}

/** n8n-core's refresh of stored token data. */
export async function refresh(data: IDataObject, tokenData: ClientOAuth2TokenData): Promise<ClientOAuth2Token> {
	const client = new ClientOAuth2({
		clientId: str(data.clientId),
		clientSecret: str(data.clientSecret),
		accessTokenUri: str(data.accessTokenUrl),
		authentication: method(data),
	});
	return await client.createToken(tokenData).refresh({} as ClientOAuth2Options);
}

/**
 * The credential's data as n8n hands it to a node (credentials-helper applyDefaultsAndOverwrites): n8n-workflow's
 * getNodeParameters applies the defaults of the fields shown for this grant type, then the `={{ }}` expressions are
 * resolved with `$self` bound to the data. `clientId` and `clientSecret`-like fields of n8n's base oAuth2Api come in
 * as typed.
 */
export function asN8nHandsItOver(properties: INodeProperties[], typed: IDataObject): IDataObject {
	const base: INodeProperties[] = [{ displayName: 'Client ID', name: 'clientId', type: 'string', default: '' }];
	const data = NodeHelpers.getNodeParameters([...base, ...properties], typed as INodeParameters, true, false, null, null) as IDataObject;
	for (const [name, value] of Object.entries(data)) {
		const match = typeof value === 'string' ? /^=\{\{([\s\S]*)\}\}$/.exec(value) : null;
		// eslint-disable-next-line @typescript-eslint/no-implied-eval
		if (match) data[name] = new Function('$self', `return (${match[1]});`)(data) as string;
	}
	return data;
}

/**
 * Gives a node context n8n-core's own OAuth2 request helper (n8n-core 2.41.1, request-helpers/oauth.js requestOAuth2,
 * as httpRequestWithAuthentication calls it): for a Client Credentials credential without a token it fetches one
 * (@n8n/client-oauth2 CredentialsFlow) and saves it; on a 401 it fetches a new one and sends again. `stored` is the
 * credential as saved; `saves` counts n8n's writes of new token data. The helper's log lines go to the secret watch.
 */
export function useN8nCoreOAuth2(context: IExecuteFunctions, stored: { data: IDataObject; saves: number }, log: (line: unknown[]) => void): void {
	const copy = (): IDataObject => structuredClone(stored.data);
	const additionalData = {
		credentialsHelper: {
			getDecrypted: async () => copy(),
			updateCredentialsOauthTokenData: async (_node: unknown, _type: string, data: IDataObject) => {
				stored.data = { ...stored.data, oauthTokenData: structuredClone(data.oauthTokenData) };
				stored.saves++;
			},
			runPreAuthentication: async () => undefined,
		},
	};
	const core = Object.assign(Object.create(context) as object, {
		getCredentials: async () => copy(),
		getMode: () => 'manual',
		helpers: { httpRequest: sendSigned },
		logger: { debug: (...a: unknown[]) => log(a), info: (...a: unknown[]) => log(a), warn: (...a: unknown[]) => log(a), error: (...a: unknown[]) => log(a) },
	});
	// n8n reads the credential from its database on every call: the node sees the token n8n saved.
	(context as { getCredentials: unknown }).getCredentials = async () => copy();
	(context.helpers as { httpRequestWithAuthentication: unknown }).httpRequestWithAuthentication = async (type: string, options: IHttpRequestOptions) =>
		await requestOAuth2.call(core as never, type, options, context.getNode(), additionalData as never, undefined, true);
}

/** Runs the node with an OAuth2 credential as saved (`stored`), signed by n8n-core's helper; output and error to the secret watch. */
export async function runWithN8nOAuth2(node: INodeType, stored: { data: IDataObject; saves: number }, params: IDataObject): Promise<INodeExecutionData[]> {
	const context = createContext(node, { params: { authentication: 'oAuth2', ...params }, credential: { type: 'loftyOAuth2Api', data: stored.data } });
	useN8nCoreOAuth2(context, stored, (line) => observe('n8n-core log', line));
	try {
		const result = (await node.execute!.call(context as IExecuteFunctions)) as INodeExecutionData[][];
		observe('Lofty output', result);
		return result[0];
	} catch (error) {
		observe('Lofty error', error);
		throw error;
	}
}

/** A Client Credentials credential as a person fills it in for the sandbox at `url`, saved as n8n saves it (no token yet). */
export function savedClientCredentials(url: string, typed: IDataObject = {}): { data: IDataObject; saves: number } {
	const data = asN8nHandsItOver(new LoftyOAuth2Api().properties, {
		grantType: 'clientCredentials',
		clientId: DEMO_CLIENT_ID,
		clientSecret: DEMO_CLIENT_SECRET,
		customerApiKey: DEMO_API_KEY,
		baseUrl: url,
		accessTokenUrl: `${url}/api/user-web/oauth/token`,
		...typed,
	});
	return { data, saves: 0 };
}
