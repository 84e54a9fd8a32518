import type {
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { findFailure, toNodeApiError } from './errors';
import { parseJson, stringifyJson } from './json';

export type LoftyContext = IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions | IWebhookFunctions;

export const CREDENTIAL_TYPES = { apiKey: 'loftyApi', oAuth2: 'loftyOAuth2Api' } as const;
export const DEFAULT_BASE_URL = 'https://api.lofty.com';

export type QueryValue = string | number | boolean | bigint | undefined;

export interface LoftyRequest {
	method: IHttpRequestMethods;
	/** Path with its parameters already filled in, e.g. `/v1.0/leads/123`. */
	path: string;
	qs?: Record<string, QueryValue>;
	body?: unknown;
	/** Lofty serves a few endpoints (published listings) as XML. */
	accept?: 'json' | 'xml';
	/** Explanations for error codes the calling operation can meet, by code. */
	hints?: Record<string, string>;
}

interface RawResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
}

/** How often and how long a 429 is waited out before the item fails. */
export const RATE_LIMIT_RETRIES = 4;
export const MAX_RATE_LIMIT_WAIT_MS = 65_000;

function credentialType(ctx: LoftyContext): string {
	const authentication = ctx.getNodeParameter('authentication', 0, 'apiKey') as string;
	return authentication === 'oAuth2' ? CREDENTIAL_TYPES.oAuth2 : CREDENTIAL_TYPES.apiKey;
}

async function baseUrl(ctx: LoftyContext, type: string): Promise<string> {
	const credentials = await ctx.getCredentials(type);
	const url = typeof credentials.baseUrl === 'string' && credentials.baseUrl.trim() ? credentials.baseUrl : DEFAULT_BASE_URL;
	return url.trim().replace(/\/+$/, '');
}

export function buildQuery(qs: Record<string, QueryValue> | undefined): string {
	if (!qs) return '';
	const parts: string[] = [];
	for (const [key, value] of Object.entries(qs)) {
		if (value === undefined || value === '') continue;
		parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
	}
	return parts.length ? `?${parts.join('&')}` : '';
}

function header(headers: Record<string, unknown>, name: string): string | undefined {
	const value = headers[name] ?? headers[name.toLowerCase()];
	if (Array.isArray(value)) return String(value[0]);
	return value === undefined || value === null ? undefined : String(value);
}

function decodeBody(data: unknown, headers: Record<string, unknown>): unknown {
	let text: string;
	if (Buffer.isBuffer(data)) text = data.toString('utf8');
	else if (data instanceof ArrayBuffer) text = Buffer.from(data).toString('utf8');
	else if (typeof data === 'string') text = data;
	else return data;
	if (text.trim() === '') return undefined;
	const contentType = header(headers, 'content-type') ?? '';
	if (/xml|html/i.test(contentType) && !/json/i.test(contentType)) return text;
	try {
		return parseJson(text, { idsAsStrings: true });
	} catch {
		return text;
	}
}

/** n8n throws for the statuses it handles itself (401 for OAuth refresh); find the answer inside. */
function responseInsideError(error: unknown): RawResponse | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
		const response = (current as { response?: { status?: number; headers?: Record<string, unknown>; data?: unknown } }).response;
		if (response && typeof response.status === 'number') {
			const headers = response.headers ?? {};
			return { statusCode: response.status, headers, body: decodeBody(response.data, headers) };
		}
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

/** Milliseconds to wait after a 429: Retry-After, else X-RateLimit-Reset (epoch seconds), else backoff. */
export function rateLimitWaitMs(headers: Record<string, unknown>, attempt: number, now = Date.now()): number {
	const retryAfter = header(headers, 'retry-after');
	let wait: number | undefined;
	if (retryAfter !== undefined) {
		const seconds = Number(retryAfter);
		wait = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - now;
	}
	const reset = Number(header(headers, 'x-ratelimit-reset'));
	if ((wait === undefined || !Number.isFinite(wait)) && Number.isFinite(reset) && reset > 0) {
		wait = reset * 1000 - now + 250;
	}
	if (wait === undefined || !Number.isFinite(wait)) wait = 1000 * 2 ** attempt;
	return Math.min(Math.max(wait, 250), MAX_RATE_LIMIT_WAIT_MS);
}

async function send(ctx: LoftyContext, type: string, options: IHttpRequestOptions): Promise<RawResponse> {
	try {
		const response = (await ctx.helpers.httpRequestWithAuthentication.call(ctx, type, options)) as {
			statusCode: number;
			headers: Record<string, unknown>;
			body: unknown;
		};
		const headers = response.headers ?? {};
		return { statusCode: response.statusCode, headers, body: decodeBody(response.body, headers) };
	} catch (error) {
		const inside = responseInsideError(error);
		if (inside) return inside;
		const reason = error instanceof Error ? error.message : String(error);
		// n8n rewrites messages that contain socket codes (ECONNREFUSED ...), so the reason goes in the description.
		throw new NodeOperationError(ctx.getNode(), `Could not reach Lofty at ${options.url.split('?')[0]}`, {
			description: `${reason}. Check the Base URL of the credential and that this n8n can reach it.`,
		});
	}
}

/**
 * The one way the package talks to Lofty: authenticates with the node's chosen credential,
 * sends JSON, parses answers without losing 64-bit IDs, waits out 429s, and turns every failure
 * (HTTP error or HTTP 200 with an error code) into a NodeApiError naming status and code.
 */
export async function loftyRequest(ctx: LoftyContext, request: LoftyRequest, itemIndex = 0): Promise<unknown> {
	const type = credentialType(ctx);
	const url = `${await baseUrl(ctx, type)}${request.path}${buildQuery(request.qs)}`;
	const options: IHttpRequestOptions = {
		method: request.method,
		url,
		headers: {
			'Content-Type': 'application/json',
			Accept: request.accept === 'xml' ? 'application/xml' : 'application/json',
		},
		encoding: 'arraybuffer',
		json: false,
		returnFullResponse: true,
		// 401 still throws inside n8n so that OAuth2 tokens get refreshed; the rest come back to us.
		ignoreHttpStatusErrors: { ignore: true, except: [401] },
	};
	if (request.body !== undefined) options.body = stringifyJson(request.body);

	for (let attempt = 0; ; attempt++) {
		const response = await send(ctx, type, options);
		if (response.statusCode === 429 && attempt < RATE_LIMIT_RETRIES) {
			await sleep(rateLimitWaitMs(response.headers, attempt));
			continue;
		}
		const failure = findFailure(response.statusCode, response.body);
		if (failure) throw toNodeApiError(ctx.getNode(), failure, itemIndex, request.hints);
		return response.body;
	}
}

