/**
 * OAuth 2.0: the authorize page (auto-approves as the demo owner) and the token endpoint
 * (authorization_code with HTTP Basic client auth or PKCE S256, refresh_token, client_credentials).
 */
import { type OAuthClient, type TokenPair, pkceS256 } from './auth';
import { toInt64 } from './json';
import { readingsOf } from './readings';
import type { Ctx, Reply, Route } from './router';
import { SEED_IDS } from './seed';

const oauthError = (status: number, error: string, description: string): Reply => ({
	status,
	body: { error, error_description: description },
	headers: { 'Cache-Control': 'no-store' },
});

class OAuthFailure extends Error {
	constructor(readonly reply: Reply) {
		super(String((reply.body as { error: string }).error));
	}
}
const fail = (status: number, error: string, description: string): never => {
	throw new OAuthFailure(oauthError(status, error, description));
};

/** Client id and secret from HTTP Basic, else from the form. */
export function clientCredentials(ctx: Pick<Ctx, 'headers'>, form: URLSearchParams): { clientId?: string; secret?: string; basic: boolean } {
	const h = ctx.headers.authorization ?? '';
	const m = /^\s*basic\s+(\S+)\s*$/i.exec(h);
	if (m) {
		const decoded = Buffer.from(m[1], 'base64').toString('utf8');
		const i = decoded.indexOf(':');
		const dec = (s: string): string => {
			try {
				return decodeURIComponent(s.replace(/\+/g, ' '));
			} catch {
				return s;
			}
		};
		return i < 0 ? { clientId: dec(decoded), basic: true } : { clientId: dec(decoded.slice(0, i)), secret: dec(decoded.slice(i + 1)), basic: true };
	}
	return { clientId: form.get('client_id') ?? undefined, secret: form.get('client_secret') ?? undefined, basic: false };
}

/**
 * Server to server: the app's secret plus `customer_key`, the API key of the Lofty user the token acts for
 * (readings 17 and 18 where the vendor's text is vague). The token has the app's scopes and no refresh token.
 */
function clientCredentialsGrant(ctx: Ctx, form: URLSearchParams, client: OAuthClient, basic: boolean, authenticated: boolean): TokenPair {
	const readings = readingsOf(ctx.store);
	if (!authenticated) fail(401, 'invalid_client', 'client_secret is required for client_credentials (HTTP Basic header or client_secret in the form body)');
	const how = readings.get('ccClientAuth');
	if (how === 'basic' && !basic) fail(401, 'invalid_client', 'client_credentials: send the client ID and secret as HTTP Basic');
	if (how === 'body' && basic) fail(401, 'invalid_client', 'client_credentials: send client_id and client_secret as form fields');
	const key = form.get('customer_key') || undefined;
	let userId: bigint;
	if (key === undefined) {
		if (readings.get('ccCustomerKey') === 'required') fail(400, 'invalid_request', 'customer_key is required (the API key of the Lofty user to act for)');
		userId = BigInt(SEED_IDS.demoUserId);
	} else {
		const rec = ctx.auth.apiKeys.get(key);
		if (!rec) fail(400, 'invalid_grant', 'customer_key is not a valid API key');
		userId = rec!.userId;
	}
	return ctx.auth.issueAccess(userId, client.clientId, client.scopes, ctx.now);
}

function tokenHandler(ctx: Ctx): Reply {
	const form = new URLSearchParams(ctx.rawBody);
	const { auth, now } = ctx;
	try {
		const cred = clientCredentials(ctx, form);
		if (!cred.clientId) fail(401, 'invalid_client', 'client_id is required (HTTP Basic or form field)');
		const client = auth.clients.get(cred.clientId!);
		if (!client) return fail(401, 'invalid_client', `unknown client '${cred.clientId}'`);
		if (cred.basic && form.get('client_id') && form.get('client_id') !== client.clientId) fail(400, 'invalid_request', 'client_id does not match the HTTP Basic credentials');
		if (cred.secret !== undefined && cred.secret !== client.clientSecret) fail(401, 'invalid_client', 'client authentication failed');
		const authenticated = cred.secret !== undefined;

		const grant = form.get('grant_type');
		let pair: TokenPair;
		if (grant === 'authorization_code') {
			const code = form.get('code');
			if (!code) return fail(400, 'invalid_request', 'code is required');
			const rec = auth.takeCode(code, now);
			if (!rec || rec.clientId !== client.clientId) return fail(400, 'invalid_grant', 'authorization code is invalid, expired or already used');
			const redirect = form.get('redirect_uri');
			if (rec.redirectUri && redirect && redirect !== rec.redirectUri) fail(400, 'invalid_grant', 'redirect_uri does not match the authorization request');
			if (rec.codeChallenge) {
				const verifier = form.get('code_verifier');
				if (!verifier) fail(400, 'invalid_request', 'code_verifier is required (PKCE)');
				const derived = rec.codeChallengeMethod === 'plain' ? verifier : pkceS256(verifier!);
				if (derived !== rec.codeChallenge) fail(400, 'invalid_grant', 'code_verifier does not match code_challenge');
			} else if (!authenticated) {
				fail(401, 'invalid_client', 'client_secret is required without PKCE (HTTP Basic header or client_secret in the form body)');
			}
			pair = auth.issue(rec.userId, client.clientId, rec.scopes, now);
		} else if (grant === 'refresh_token') {
			const token = form.get('refresh_token');
			if (!token) return fail(400, 'invalid_request', 'refresh_token is required');
			const peek = auth.peekRefreshToken(token);
			if (!peek || peek.clientId !== client.clientId) return fail(400, 'invalid_grant', 'refresh token is invalid or was already used');
			const rec = auth.takeRefreshToken(token)!;
			pair = auth.issue(rec.userId, client.clientId, rec.scopes, now);
		} else if (grant === 'client_credentials') {
			pair = clientCredentialsGrant(ctx, form, client, cred.basic, authenticated);
		} else {
			return fail(400, 'unsupported_grant_type', `grant_type '${grant ?? ''}' is not supported (authorization_code, refresh_token, client_credentials)`);
		}
		return { body: pair, headers: { 'Cache-Control': 'no-store' } };
	} catch (e) {
		if (e instanceof OAuthFailure) return e.reply;
		throw e;
	}
}

const page = (status: number, text: string): Reply => ({ status, raw: `<!doctype html><title>Lofty sandbox</title><p>${text}</p>`, headers: { 'Content-Type': 'text/html; charset=utf-8' } });

function authorizeHandler(ctx: Ctx): Reply {
	const q = ctx.query;
	const clientId = q.get('clientId') ?? q.get('client_id');
	if (!clientId) return page(400, 'Missing clientId');
	const client = ctx.auth.clients.get(clientId);
	if (!client) return page(400, `Unknown clientId ${clientId.replace(/[<>&"]/g, '')}`);
	const redirectUri = q.get('redirect_uri');
	if (!redirectUri) return page(400, 'Missing redirect_uri');
	let target: URL;
	try {
		target = new URL(redirectUri);
	} catch {
		return page(400, 'Invalid redirect_uri');
	}
	if (client.redirectUris.length && !client.redirectUris.includes(redirectUri)) return page(400, 'redirect_uri is not registered for this application');
	const state = q.get('state');
	if (q.get('sandbox_deny') === '1') {
		target.searchParams.set('error', 'access_denied');
	} else {
		const challenge = q.get('code_challenge');
		const method = (q.get('code_challenge_method') ?? 'S256').toUpperCase();
		if (challenge && method !== 'S256' && method !== 'PLAIN') return page(400, 'Unsupported code_challenge_method');
		const userId = toInt64(q.get('sandbox_user_id') ?? SEED_IDS.demoUserId);
		if (!userId || !ctx.store.getUser(userId)) return page(400, 'Unknown sandbox_user_id');
		const code = ctx.auth.createCode(
			{
				clientId,
				userId,
				redirectUri,
				codeChallenge: challenge,
				codeChallengeMethod: method === 'PLAIN' ? 'plain' : 'S256',
				scopes: client.scopes,
			},
			ctx.now,
		);
		target.searchParams.set('code', code);
	}
	if (state !== null) target.searchParams.set('state', state);
	return { status: 302, raw: '', headers: { Location: target.toString() } };
}

export const oauthRoutes: Route[] = [
	{ method: 'GET', pattern: '/page/vendor-auth.html', public: true, handler: authorizeHandler },
	{ method: 'POST', pattern: '/api/user-web/oauth/token', public: true, body: 'form', handler: tokenHandler },
	{ method: 'POST', pattern: '/oauth/token', public: true, body: 'form', handler: tokenHandler },
];
