import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

import { parseJson } from './json';
import { fingerprint } from './pacing';

/**
 * A Client Credentials token is used only for the client and Customer Key it was issued for. n8n keeps the token in
 * the credential's oauthTokenData when the credential is saved with another Customer Key or Client ID, and fetches a
 * new one only when Lofty refuses the old one, so a switched credential would go on acting as the previous user.
 * This module remembers, for this n8n process, which client and key (as fingerprints, never the secrets) each token
 * was issued for: a token n8n fetched while the node watched is bound to the key it was fetched with; a token first
 * seen here is checked once with Lofty (GET /v1.0/me with the token and with the Customer Key as an API key: the
 * same user, or it is refused).
 */

type Http = (options: IHttpRequestOptions) => Promise<unknown>;

export interface BindingCheck {
	/** Why the token must not be used (no secret in it); nothing is sent then. */
	refused?: { message: string; description: string };
	/** The credential had no token: the one n8n fetches for the next request is bound to this key. */
	bindNext?: string;
}

/** token fingerprint -> fingerprint of the client and Customer Key it was issued for */
const issuedFor = new Map<string, string>();
/** Entries kept at most: a process sees few tokens; the oldest go first. */
const MAX_TOKENS = 1000;

function remember(token: string, key: string): void {
	issuedFor.delete(token);
	issuedFor.set(token, key);
	if (issuedFor.size > MAX_TOKENS) issuedFor.delete(issuedFor.keys().next().value as string);
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const tokenOf = (credentials: ICredentialDataDecryptedObject): string =>
	str((credentials.oauthTokenData as { access_token?: unknown } | undefined)?.access_token);
const keyOf = (credentials: ICredentialDataDecryptedObject): string =>
	fingerprint(`${str(credentials.clientId)}\n${str(credentials.customerApiKey)}`);

const SWITCH =
	'n8n keeps a Client Credentials token when the credential is saved with another Customer Key or Client ID, until Lofty refuses it. To act as the user of the new key now, create a new Lofty OAuth2 credential with it and choose that one in the node (or wait until the old token expires; Lofty tokens last about an hour).';

/** Whether the credential's token may act for its current client and Customer Key (Client Credentials only). */
export async function checkTokenBinding(credentials: ICredentialDataDecryptedObject, baseUrl: string, http: Http, signed: Http): Promise<BindingCheck> {
	if (credentials.grantType !== 'clientCredentials') return {};
	const key = keyOf(credentials);
	const token = tokenOf(credentials);
	if (!token) return { bindNext: key };
	const tokenPrint = fingerprint(token);
	const bound = issuedFor.get(tokenPrint);
	if (bound === key) return {};
	if (bound !== undefined) {
		return {
			refused: {
				message: "The OAuth2 credential's token was issued for another Customer Key or Client ID than the credential has now",
				description: SWITCH,
			},
		};
	}
	const asKey = await userOf(http, baseUrl, `token ${str(credentials.customerApiKey)}`);
	if (asKey === undefined) {
		return {
			refused: {
				message: 'Lofty refused the Customer Key of the OAuth2 credential, and the token it holds was issued for another one',
				description: `The Customer Key must be the API key of the Lofty user the workflow acts as (that user finds it in Lofty: Settings > Integrations > API). ${SWITCH}`,
			},
		};
	}
	const asToken = await userOf(signed, baseUrl);
	if (asToken !== undefined && asToken !== asKey) {
		return {
			refused: {
				message: `The OAuth2 credential's token acts as Lofty user ${asToken}, its Customer Key belongs to user ${asKey}`,
				description: `The token was issued for the Customer Key the credential had before. ${SWITCH}`,
			},
		};
	}
	if (asToken !== undefined) remember(tokenPrint, key);
	return {};
}

/** After n8n fetched a token for a credential that had none: that token is the key's. */
export function bindToken(credentials: ICredentialDataDecryptedObject, key: string): void {
	const token = tokenOf(credentials);
	if (token) remember(fingerprint(token), key);
}

/** The user GET /v1.0/me answers for (`authorization` set: that header; else n8n signs it), or undefined if refused. */
async function userOf(http: Http, baseUrl: string, authorization?: string): Promise<string | undefined> {
	try {
		const answer = await http({
			method: 'GET',
			url: `${baseUrl}/v1.0/me`,
			headers: { Accept: 'application/json', ...(authorization ? { Authorization: authorization } : {}) },
			encoding: 'arraybuffer',
			json: false,
		});
		// 64-bit user IDs: read as text, never as a JavaScript number.
		const text = Buffer.isBuffer(answer) ? answer.toString('utf8') : answer instanceof ArrayBuffer ? Buffer.from(answer).toString('utf8') : answer;
		const me = (typeof text === 'string' ? parseJson(text, { idsAsStrings: true }) : text) as { memberUserId?: unknown; userId?: unknown } | undefined;
		const id = me?.memberUserId ?? me?.userId;
		return id === undefined || id === null ? undefined : String(id);
	} catch {
		return undefined;
	}
}
