import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** The token endpoint's answer (RFC 6749: `error`, `error_description`), as n8n's OAuth2 client keeps it. */
export interface OAuthAnswer {
	error: string;
	description?: string;
}

/**
 * The token endpoint's answer inside an error n8n threw while it got or renewed a token: @n8n/client-oauth2's
 * AuthError keeps it as `body` (its message is only the RFC's generic sentence for the code).
 */
export function oauthAnswerOf(error: unknown): OAuthAnswer | undefined {
	const seen = new Set<unknown>();
	let current: unknown = error;
	while (current && typeof current === 'object' && !seen.has(current)) {
		seen.add(current);
		const body = (current as { body?: { error?: unknown; error_description?: unknown } }).body;
		if (body && typeof body.error === 'string') {
			return { error: body.error, description: typeof body.error_description === 'string' ? body.error_description : undefined };
		}
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

/** Which field of the OAuth2 credential the answer points at, for the grant type in use. */
function culprit(grantType: string | undefined, answer: OAuthAnswer | undefined): string | undefined {
	if (!answer) return undefined;
	if (answer.error === 'invalid_client' || answer.error === 'unauthorized_client') return 'the Client ID or Client Secret';
	// Client Credentials exchanges no code and no refresh token: a refused grant is the Customer Key.
	if (grantType === 'clientCredentials' && (answer.error === 'invalid_grant' || /customer_key/i.test(answer.description ?? ''))) return 'the Customer Key';
	if (answer.error === 'invalid_grant') return 'the connection (its code or refresh token)';
	return undefined;
}

const FIX: Record<string, string> = {
	'the Customer Key':
		'The Customer Key must be the API key of the Lofty user the workflow acts as (that user finds it in Lofty: Settings > Integrations > API). Open the credential, paste it again and save.',
	'the Client ID or Client Secret':
		"Copy the Client ID and Client Secret again from the app in Lofty's developer portal; if they are right, try Client Authentication: Body.",
	'the connection (its code or refresh token)': 'Open the credential and click Connect again.',
};

/** The error of a request never sent because Lofty refused the credential's token request. */
export function tokenRefusedError(node: INode, where: string, reason: string, itemIndex: number, grantType?: string, answer?: OAuthAnswer): NodeOperationError {
	const field = culprit(grantType, answer);
	const said = answer ? ` Lofty answered ${answer.error}${answer.description ? `: ${answer.description}` : ''}.` : '';
	if (field) {
		return new NodeOperationError(node, `Lofty refused ${field} of the OAuth2 credential, so ${where} was not sent`, {
			itemIndex,
			description: `${FIX[field]}${said}`,
		});
	}
	return new NodeOperationError(node, `Lofty refused the credential's token request, so ${where} was not sent`, {
		itemIndex,
		description: `${reason}.${said} Check the OAuth2 credential: Client ID, Client Secret and Client Authentication, and for Client Credentials the Customer Key (the user's API key, Lofty: Settings > Integrations > API); for Authorization Code, connect it again.`,
	});
}

/**
 * n8n signs a request of an OAuth2 credential that was never connected (Authorization Code or PKCE without Connect):
 * @n8n/client-oauth2 refuses to sign without an access token, before anything is sent.
 */
export const NOT_CONNECTED = /Unable to sign without access token/i;

/** The error of a request never sent because its OAuth2 credential has no access token yet. */
export function notConnectedError(node: INode, where: string, itemIndex: number): NodeOperationError {
	return new NodeOperationError(node, `Connect the credential: this OAuth2 credential is not connected yet, so ${where} was not sent`, {
		itemIndex,
		description:
			'Open the credential and click Connect (Authorization Code and PKCE sign in to Lofty once), or choose a credential that is connected, such as one with an API key.',
	});
}

/**
 * The error of a request never sent because the credential's token request was answered 429 or 5xx, after the
 * transport waited and asked again (request.ts).
 */
export function tokenBusyError(node: INode, where: string, status: number, tries: number, itemIndex: number): NodeOperationError {
	const answered = status === 429 ? 'HTTP 429 (rate limit)' : `HTTP ${status}`;
	return new NodeOperationError(node, `Lofty answered the credential's token request with ${answered}, so ${where} was not sent`, {
		itemIndex,
		description: `Nothing was sent to Lofty (the token was asked for ${tries} times). The credential itself was not refused: run the workflow again later${status === 429 ? ", or send fewer requests a minute with this Lofty account (the credential's Rate Limit, other workflows)" : ''}.`,
	});
}
