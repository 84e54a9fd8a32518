import type { ICredentialDataDecryptedObject, IExecuteFunctions, IHookFunctions, ILoadOptionsFunctions, IPollFunctions, IWebhookFunctions } from 'n8n-workflow';

import { fingerprint, pacingKey, requestsPerMinute } from './pacing';

export type LoftyContext = IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions | IWebhookFunctions | IPollFunctions;

export const CREDENTIAL_TYPES = { apiKey: 'loftyApi', oAuth2: 'loftyOAuth2Api' } as const;
export const DEFAULT_BASE_URL = 'https://api.lofty.com';

/** The credential type the node's Authentication chooses (also what the Custom Fields list needs to be set). */
export function credentialType(ctx: LoftyContext): string {
	const authentication = ctx.getNodeParameter('authentication', 0, 'apiKey') as string;
	return authentication === 'oAuth2' ? CREDENTIAL_TYPES.oAuth2 : CREDENTIAL_TYPES.apiKey;
}

/** Where a credential sends its requests and whom it acts for; no secret in it. */
export interface Target {
	type: string;
	baseUrl: string;
	/** Pacing state key: never contains the secret. */
	pacing: string;
	/** The user's cap in requests per minute, if any. */
	cap?: number;
	/** Which Lofty account the credential acts as (accountOf); no secret. */
	account: string;
	/** the OAuth2 credential's grant type (no secret), which names the field a refused token request points at */
	grantType?: string;
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * The Lofty account a credential acts as, one identity for the turns (model/turns.ts), the leads made a moment ago and
 * the creates without a certain answer (resources/lead): the Lofty user's API key, which an API key credential holds
 * and an OAuth2 Client Credentials credential holds as its Customer Key (its token acts as that user), as a
 * fingerprint with the base URL, never the key itself. So two n8n credentials of one key (one per workflow author, or
 * the old and new after a rotation) are one account. Authorization Code and PKCE name no user: the n8n credential
 * (one connection of one Lofty user) is the account.
 */
export function accountIdentity(type: string, baseUrl: string, credentials: ICredentialDataDecryptedObject, credentialId: string | undefined): string {
	const key = type === CREDENTIAL_TYPES.apiKey ? str(credentials.apiKey) : credentials.grantType === 'clientCredentials' ? str(credentials.customerApiKey) : '';
	if (key) return `account ${baseUrl} key ${fingerprint(key)}`;
	const token = str((credentials.oauthTokenData as { access_token?: unknown } | undefined)?.access_token);
	return `account ${baseUrl} credential ${credentialId ?? fingerprint(token)}`;
}

/** The credential's target, read from n8n's credential (no request is sent). */
export function targetOf(ctx: LoftyContext, type: string, credentials: ICredentialDataDecryptedObject): Target {
	const url = typeof credentials.baseUrl === 'string' && credentials.baseUrl.trim() ? credentials.baseUrl : DEFAULT_BASE_URL;
	const baseUrl = url.trim().replace(/\/+$/, '');
	// Lofty's limit is per application: the API key, or the OAuth client (else its token).
	const token = (credentials.oauthTokenData as { access_token?: unknown } | undefined)?.access_token;
	const identity = String(type === CREDENTIAL_TYPES.apiKey ? (credentials.apiKey ?? '') : (credentials.clientId ?? token ?? ''));
	return {
		type,
		baseUrl,
		pacing: pacingKey(type, baseUrl, identity),
		cap: requestsPerMinute(credentials.rateLimit, credentials.requestsPerMinute),
		account: accountIdentity(type, baseUrl, credentials, ctx.getNode().credentials?.[type]?.id ?? undefined),
		grantType: typeof credentials.grantType === 'string' ? credentials.grantType : undefined,
	};
}

/**
 * One read of the credential per execution context and type: n8n loads and decrypts a credential on every
 * getCredentials call, which per item of a bulk job costs more than the request itself (measured in `npm run bench`).
 */
const targets = new WeakMap<object, Map<string, Promise<Target>>>();

export async function target(ctx: LoftyContext, type: string): Promise<Target> {
	let byType = targets.get(ctx);
	if (!byType) targets.set(ctx, (byType = new Map()));
	let found = byType.get(type);
	if (!found) {
		found = (async () => targetOf(ctx, type, await ctx.getCredentials(type)))();
		byType.set(type, found);
		// A failed read is not kept: the next item tries again.
		found.catch(() => byType.delete(type));
	}
	return await found;
}

/** The Lofty account the node's credential acts as, as a key without secrets (accountIdentity). */
export async function accountOf(ctx: LoftyContext): Promise<string> {
	return (await target(ctx, credentialType(ctx))).account;
}
