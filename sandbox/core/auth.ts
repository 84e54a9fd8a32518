/**
 * Credentials: API keys (`Authorization: token <key>`), OAuth clients, authorization
 * codes and access/refresh tokens (`Authorization: Bearer <token>`).
 */
import { createHash, randomBytes } from 'node:crypto';

import { ApiError, Codes } from './errors';
import { SEED_IDS } from './seed';

export const DEMO_API_KEY = 'lofty_sbx_demo_owner_7f3a9c2e5b1d4f60';
export const OTHER_AGENT_API_KEY = 'lofty_sbx_other_agent_1b8e6d0c4a2f9e37';
export const DEMO_CLIENT_ID = 'sbx-demo-client-4d2c';
export const DEMO_CLIENT_SECRET = 'sbx-demo-secret-8e51b7a0c3f94d26';
/** Second registered client (its own rate-limit bucket), also all scopes. */
export const OTHER_CLIENT_ID = 'sbx-other-client-91aa';
export const OTHER_CLIENT_SECRET = 'sbx-other-secret-0c7d2e4b6a18f395';

export const ACCESS_TOKEN_TTL_SEC = 3600;
const CODE_TTL_MS = 10 * 60_000;

export type Scopes = 'all' | string[];

export interface ApiKeyRecord {
	key: string;
	userId: bigint;
	appId: string;
}

export interface OAuthClient {
	clientId: string;
	clientSecret: string;
	/** registered redirect URIs; empty = any redirect URI is accepted */
	redirectUris: string[];
	scopes: Scopes;
}

export interface AccessToken {
	token: string;
	userId: bigint;
	clientId: string;
	scopes: Scopes;
	expiresAt: number;
}

interface RefreshToken {
	token: string;
	userId: bigint;
	clientId: string;
	scopes: Scopes;
}

interface AuthCode {
	code: string;
	clientId: string;
	userId: bigint;
	redirectUri: string | null;
	codeChallenge: string | null;
	codeChallengeMethod: 'S256' | 'plain';
	scopes: Scopes;
	expiresAt: number;
}

export interface Caller {
	userId: bigint;
	appId: string;
	scheme: 'token' | 'bearer';
	scopes: Scopes;
}

export interface TokenPair {
	access_token: string;
	token_type: 'bearer';
	expires_in: number;
	/** absent for client_credentials: the client asks again instead (RFC 6749 4.4.3) */
	refresh_token?: string;
	scope: string;
}

const rand = (prefix: string): string => `${prefix}${randomBytes(18).toString('base64url')}`;

export function scopeString(scopes: Scopes): string {
	return scopes === 'all' ? 'all' : scopes.join(',');
}

export class AuthRegistry {
	apiKeys = new Map<string, ApiKeyRecord>();
	clients = new Map<string, OAuthClient>();
	accessTokens = new Map<string, AccessToken>();
	private refreshTokens = new Map<string, RefreshToken>();
	private codes = new Map<string, AuthCode>();

	constructor() {
		this.addApiKey({ key: DEMO_API_KEY, userId: BigInt(SEED_IDS.demoUserId), appId: 'apikey:demo-owner' });
		this.addApiKey({ key: OTHER_AGENT_API_KEY, userId: BigInt(SEED_IDS.otherAgentUserId), appId: 'apikey:other-agent' });
		this.clients.set(DEMO_CLIENT_ID, { clientId: DEMO_CLIENT_ID, clientSecret: DEMO_CLIENT_SECRET, redirectUris: [], scopes: 'all' });
		this.clients.set(OTHER_CLIENT_ID, { clientId: OTHER_CLIENT_ID, clientSecret: OTHER_CLIENT_SECRET, redirectUris: [], scopes: 'all' });
	}

	addApiKey(rec: ApiKeyRecord): void {
		this.apiKeys.set(rec.key, rec);
	}

	/** Rate-limit bucket of a request, without validating anything. */
	appOf(authorization: string | undefined): string {
		const { scheme, value } = splitAuth(authorization);
		if (!value) return 'anonymous';
		const key = this.apiKeys.get(value);
		if (key) return key.appId;
		const tok = this.accessTokens.get(value);
		if (tok && scheme === 'bearer') return `oauth:${tok.clientId}`;
		return 'anonymous';
	}

	authenticate(authorization: string | undefined, now: number): Caller {
		const { scheme, value } = splitAuth(authorization);
		if (!authorization || !value) throw new ApiError(401, Codes.BAD_CREDENTIALS, 'Missing Authorization header');
		if (scheme === 'token') {
			const key = this.apiKeys.get(value);
			if (!key) throw new ApiError(401, Codes.BAD_CREDENTIALS, 'Invalid API key');
			return { userId: key.userId, appId: key.appId, scheme: 'token', scopes: 'all' };
		}
		if (scheme === 'bearer') {
			if (this.apiKeys.has(value)) throw new ApiError(400, Codes.USER_IN_TOKEN_NOT_EXIST, 'User in token does not exist.');
			const tok = this.accessTokens.get(value);
			if (!tok) throw new ApiError(401, Codes.BAD_CREDENTIALS, 'Invalid access token');
			if (tok.expiresAt <= now) throw new ApiError(401, Codes.BAD_CREDENTIALS, 'Access token expired');
			return { userId: tok.userId, appId: `oauth:${tok.clientId}`, scheme: 'bearer', scopes: tok.scopes };
		}
		throw new ApiError(401, Codes.BAD_CREDENTIALS, 'Unsupported authorization scheme (use "token <apiKey>" or "Bearer <accessToken>")');
	}

	issue(userId: bigint, clientId: string, scopes: Scopes, now: number, ttlSec = ACCESS_TOKEN_TTL_SEC): TokenPair {
		const pair = this.issueAccess(userId, clientId, scopes, now, ttlSec);
		const refresh: RefreshToken = { token: rand('sbx_rt_'), userId, clientId, scopes };
		this.refreshTokens.set(refresh.token, refresh);
		return { ...pair, refresh_token: refresh.token };
	}

	/** An access token alone (client_credentials). */
	issueAccess(userId: bigint, clientId: string, scopes: Scopes, now: number, ttlSec = ACCESS_TOKEN_TTL_SEC): TokenPair {
		const access: AccessToken = { token: rand('sbx_at_'), userId, clientId, scopes, expiresAt: now + ttlSec * 1000 };
		this.accessTokens.set(access.token, access);
		return { access_token: access.token, token_type: 'bearer', expires_in: ttlSec, scope: scopeString(scopes) };
	}

	createCode(c: Omit<AuthCode, 'code' | 'expiresAt'>, now: number): string {
		const code = rand('sbx_code_');
		this.codes.set(code, { ...c, code, expiresAt: now + CODE_TTL_MS });
		return code;
	}

	/** Single use: the code is removed whether or not the exchange succeeds afterwards. */
	takeCode(code: string, now: number): AuthCode | undefined {
		const c = this.codes.get(code);
		this.codes.delete(code);
		return c && c.expiresAt > now ? c : undefined;
	}

	takeRefreshToken(token: string): RefreshToken | undefined {
		const t = this.refreshTokens.get(token);
		this.refreshTokens.delete(token);
		return t;
	}

	peekRefreshToken(token: string): RefreshToken | undefined {
		return this.refreshTokens.get(token);
	}

	expire(accessToken: string): boolean {
		const t = this.accessTokens.get(accessToken);
		if (t) t.expiresAt = 0;
		return !!t;
	}
}

export function splitAuth(header: string | undefined): { scheme: string; value: string } {
	const m = /^\s*(\S+)\s+(.+?)\s*$/.exec(header ?? '');
	return m ? { scheme: m[1].toLowerCase(), value: m[2] } : { scheme: '', value: '' };
}

export function pkceS256(verifier: string): string {
	return createHash('sha256').update(verifier).digest('base64url');
}

/** Does a granted scope set allow the route's scope name (e.g. "GET /v1.0/leads")? */
export function hasScope(scopes: Scopes, needed: string): boolean {
	return scopes === 'all' || scopes.includes(needed);
}
