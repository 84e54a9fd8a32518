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
import type { IDataObject } from 'n8n-workflow';

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
