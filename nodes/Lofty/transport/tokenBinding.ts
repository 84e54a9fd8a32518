import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { fingerprint } from './pacing';

/**
 * A Client Credentials token is used only for the client and Customer Key it was issued for. n8n keeps the token in
 * the credential's oauthTokenData when the credential is saved with another Customer Key or Client ID, and fetches a
 * new one only when Lofty refuses the old one, so a switched credential would go on acting as the previous user.
 * This module remembers, for this n8n process, which client and key (as fingerprints, never the secrets) each token
 * was issued for: a token n8n fetched while the node watched is bound to the key it was fetched with; a token first
 * seen here is checked with Lofty (GET /v1.0/me with the Customer Key as an API key and with the token: the same
 * user, or it is refused). Only an answer is kept: a check Lofty did not answer stops the request, and the next one
 * checks again; a refusal is told only when Lofty answered one.
 */

/**
 * GET /v1.0/me through the transport (a read: paced, 429s waited out, 5xx and timeouts retried), signed with the
 * credential's token, or with `customerKey` as an API key: the user it answers for, Lofty's refusal (a 4xx), or a
 * read Lofty did not answer (past the retries, or without a user).
 */
export type Me = (customerKey?: string) => Promise<MeAnswer>;
export type MeAnswer = { user: string } | { refused: string } | { unanswered: string };

interface Stop {
	message: string;
	description: string;
}

export interface BindingCheck {
	/** Why the token must not be used (no secret in it); nothing is sent then. */
	refused?: Stop;
	/** Lofty did not answer the check: nothing is sent, and the check is not kept (the next request checks again). */
	unanswered?: Stop;
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

const unanswered = (why: string): BindingCheck => ({
	unanswered: {
		message: "Lofty did not answer the check of the OAuth2 credential's token (GET /v1.0/me)",
		description: `${why}. This n8n process did not see the token fetched (after a restart, or fetched by another worker), so it asks Lofty once which user the token acts as before using it. Nothing was changed in Lofty; run the item again later (the check is made again).`,
	},
});

/** Whether the credential's token may act for its current client and Customer Key (Client Credentials only). */
export async function checkTokenBinding(credentials: ICredentialDataDecryptedObject, me: Me): Promise<BindingCheck> {
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
	const asKey = await me(str(credentials.customerApiKey));
	if ('unanswered' in asKey) return unanswered(asKey.unanswered);
	if ('refused' in asKey) {
		return {
			refused: {
				message: 'Lofty refused the Customer Key of the OAuth2 credential, and the token it holds was issued for another one',
				description: `Lofty answered ${asKey.refused} to the Customer Key sent as an API key. The Customer Key must be the API key of the Lofty user the workflow acts as (that user finds it in Lofty: Settings > Integrations > API). ${SWITCH}`,
			},
		};
	}
	const asToken = await me();
	if ('unanswered' in asToken) return unanswered(asToken.unanswered);
	// Refused: an app not granted GET /v1.0/me cannot be checked; its token is used as before.
	if ('refused' in asToken) return {};
	if (asToken.user !== asKey.user) {
		return {
			refused: {
				message: `The OAuth2 credential's token acts as Lofty user ${asToken.user}, its Customer Key belongs to user ${asKey.user}`,
				description: `The token was issued for the Customer Key the credential had before. ${SWITCH}`,
			},
		};
	}
	remember(tokenPrint, key);
	return {};
}

/** After n8n fetched a token for a credential that had none: that token is the key's. */
export function bindToken(credentials: ICredentialDataDecryptedObject, key: string): void {
	const token = tokenOf(credentials);
	if (token) remember(fingerprint(token), key);
}
