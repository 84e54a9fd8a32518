import type {
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { findFailure, toNodeApiError } from './errors';
import { parseJson, stringifyJson } from './json';
import { slotsOf } from './inFlight';
import { passGate, requestTurnOf } from './itemGate';
import { MAX_PACING_WAIT_MS, acquire, isPacingDeadline, pacingKey, requestsPerMinute } from './pacing';
import { type BindingCheck, bindToken, checkTokenBinding } from './tokenBinding';
import { type OAuthAnswer, notConnectedError, oauthAnswerOf, tokenRefusedError } from './tokenFailure';
import { type TransportFault, transportFault } from './transportFault';
import { UNCERTAIN_5XX, markUncertain, uncertainStatus } from './writeOutcome';

export { rateLimitWaitMs } from './pacing';
export { type TransportFault, transportFault } from './transportFault';

export type LoftyContext = IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions | IWebhookFunctions | IPollFunctions;

export const CREDENTIAL_TYPES = { apiKey: 'loftyApi', oAuth2: 'loftyOAuth2Api' } as const;
export const DEFAULT_BASE_URL = 'https://api.lofty.com';

/** An array is sent as the key repeated (`ids=1&ids=2`), the default form of an OpenAPI array parameter. */
export type QueryValue = string | number | boolean | bigint | undefined | Array<string | number>;

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
	/** Milliseconds to wait for an answer (default 30 s). */
	timeout?: number;
	/** Whether sending it twice is harmless (reads); default: GET and HEAD only. Writes are never resent after a timeout. */
	idempotent?: boolean;
	/** How often a read is retried after a 5xx, a timeout or a dropped connection (default 3). */
	readRetries?: number;
	/**
	 * A time budget (epoch ms, this process's clock) covering every wait: the pacer, 429s, retries and the answer.
	 * A wait that would end past it is not started: the request fails with a DeadlineReached error instead.
	 */
	deadline?: number;
	/** Background work: uses at most a share of each rate-limit window, leaving the rest to other requests (backgroundShare.ts). */
	background?: boolean;
	/** Sees the headers of every answer (its `Date` tells Lofty's clock). */
	onAnswer?: (headers: Record<string, unknown>) => void;
	/** Called as each attempt goes out, with how long it waited for the rate limit (the pace, its share, a 429's hold). */
	onSend?: (heldMs: number) => void;
}

/** The request's time budget ran out before it was answered; nothing was sent after that point. */
export class DeadlineReached extends NodeOperationError {
	readonly deadlineReached = true;
}

export const isDeadlineReached = (error: unknown): error is DeadlineReached => (error as { deadlineReached?: unknown } | null)?.deadlineReached === true;

interface RawResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
	/** n8n threw it (a status n8n handles itself, such as 401 after its OAuth2 refresh) rather than returning it */
	thrown?: boolean;
}

/** How often and how long a 429 is waited out before the item fails. */
export const RATE_LIMIT_RETRIES = 4;
export const MAX_RATE_LIMIT_WAIT_MS = MAX_PACING_WAIT_MS;
/** Defaults of the node's Request Options. */
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_READ_RETRIES = 3;
const BACKOFF_BASE_MS = 300;
const BACKOFF_MAX_MS = 10_000;

/** The credential type the node's Authentication chooses (also what the Custom Fields list needs to be set). */
export function credentialType(ctx: LoftyContext): string {
	const authentication = ctx.getNodeParameter('authentication', 0, 'apiKey') as string;
	return authentication === 'oAuth2' ? CREDENTIAL_TYPES.oAuth2 : CREDENTIAL_TYPES.apiKey;
}

interface Target {
	baseUrl: string;
	/** Pacing state key: never contains the secret. */
	pacing: string;
	/** The user's cap in requests per minute, if any. */
	cap?: number;
	/** Which Lofty account the credential reaches (memory shared across executions, e.g. leads just created); no secret. */
	account: string;
	/** the OAuth2 credential's grant type (no secret), which names the field a refused token request points at */
	grantType?: string;
	/** whether the OAuth2 token may act for the credential's current client and Customer Key */
	binding: BindingCheck;
}

/**
 * One read of the credential per execution context and type: n8n loads and decrypts a credential on every
 * getCredentials call, which per item of a bulk job costs more than the request itself (measured in `npm run bench`).
 */
const targets = new WeakMap<object, Map<string, Promise<Target>>>();

async function target(ctx: LoftyContext, type: string): Promise<Target> {
	let byType = targets.get(ctx);
	if (!byType) targets.set(ctx, (byType = new Map()));
	let found = byType.get(type);
	if (!found) {
		found = readTarget(ctx, type);
		byType.set(type, found);
		// A failed read is not kept: the next item tries again.
		found.catch(() => byType.delete(type));
	}
	return await found;
}

async function readTarget(ctx: LoftyContext, type: string): Promise<Target> {
	const credentials = await ctx.getCredentials(type);
	const url = typeof credentials.baseUrl === 'string' && credentials.baseUrl.trim() ? credentials.baseUrl : DEFAULT_BASE_URL;
	const baseUrl = url.trim().replace(/\/+$/, '');
	// Lofty's limit is per application: the API key, or the OAuth client (else its token).
	const token = (credentials.oauthTokenData as { access_token?: unknown } | undefined)?.access_token;
	const identity = String(type === CREDENTIAL_TYPES.apiKey ? (credentials.apiKey ?? '') : (credentials.clientId ?? token ?? ''));
	return {
		baseUrl,
		pacing: pacingKey(type, baseUrl, identity),
		cap: requestsPerMinute(credentials.rateLimit, credentials.requestsPerMinute),
		// One OAuth client may serve several Lofty accounts: its n8n credential tells them apart.
		account: pacingKey(type, baseUrl, type === CREDENTIAL_TYPES.apiKey ? identity : `credential ${ctx.getNode().credentials?.[type]?.id ?? String(token ?? '')}`),
		grantType: typeof credentials.grantType === 'string' ? credentials.grantType : undefined,
		binding:
			type === CREDENTIAL_TYPES.oAuth2
				? await checkTokenBinding(credentials, baseUrl, async (o) => await ctx.helpers.httpRequest(o), async (o) => await ctx.helpers.httpRequestWithAuthentication.call(ctx, type, o))
				: {},
	};
}

/** The Lofty account the node's credential reaches, as a key without secrets. */
export async function accountOf(ctx: LoftyContext): Promise<string> {
	return (await target(ctx, credentialType(ctx))).account;
}

/**
 * One query value or path segment, percent-encoded as RFC 3986 asks: encodeURIComponent leaves ! ' ( ) *
 * as they are (a phone `(415) 555-0101` went out as `(415)%20555-0101`), which strict servers and gateways refuse.
 */
export function encodeComponent(value: string): string {
	return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function buildQuery(qs: Record<string, QueryValue> | undefined): string {
	if (!qs) return '';
	const parts: string[] = [];
	for (const [key, value] of Object.entries(qs)) {
		for (const one of Array.isArray(value) ? value : [value]) {
			if (one === undefined || one === '') continue;
			parts.push(`${encodeComponent(key)}=${encodeComponent(String(one))}`);
		}
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

/** A request that got no answer. */
interface SendFailure {
	fault: TransportFault;
	reason: string;
	/** a refused token request: what the token endpoint answered */
	oauth?: OAuthAnswer;
}

async function send(ctx: LoftyContext, type: string, options: IHttpRequestOptions): Promise<RawResponse | SendFailure> {
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
		if (inside) return { ...inside, thrown: true };
		// Only the message travels on: the raw error holds the request, with its Authorization header.
		const fault = transportFault(error);
		return { fault, reason: error instanceof Error ? error.message : String(error), oauth: fault === 'token' ? oauthAnswerOf(error) : undefined };
	}
}

/** Exponential backoff with jitter (50-100 % of the step), for retried reads. */
export function backoffMs(retry: number): number {
	const step = Math.min(BACKOFF_BASE_MS * 2 ** retry, BACKOFF_MAX_MS);
	return Math.round(step * (0.5 + Math.random() * 0.5));
}

function seconds(ms: number): string {
	return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** The error of a request that got no answer: uncertain for writes, plain for reads. */
function noAnswerError(ctx: LoftyContext, failure: SendFailure, request: LoftyRequest, url: string, timeout: number, tries: number, idempotent: boolean, itemIndex: number, grantType?: string): NodeOperationError {
	const where = `${request.method} ${request.path}`;
	if (failure.fault === 'canceled') {
		return new NodeOperationError(ctx.getNode(), `The request ${where} was canceled (the execution was stopped)`, { itemIndex });
	}
	if (failure.fault === 'notConnected') return notConnectedError(ctx.getNode(), where, itemIndex);
	if (failure.fault === 'token') {
		// The token request came before (or instead of) the answer that counts: nothing was applied.
		return tokenRefusedError(ctx.getNode(), where, failure.reason, itemIndex, grantType, failure.oauth);
	}
	if (failure.fault === 'unreachable') {
		// n8n rewrites messages that contain socket codes (ECONNREFUSED ...), so the reason goes in the description.
		return new NodeOperationError(ctx.getNode(), `Could not reach Lofty at ${url.split('?')[0]}`, {
			itemIndex,
			description: `${failure.reason}. Check the Base URL of the credential and that this n8n can reach it.`,
		});
	}
	const what = failure.fault === 'timeout' ? `Lofty did not answer ${where} within ${seconds(timeout)}` : `The connection to Lofty was lost during ${where}`;
	if (!idempotent) {
		return markUncertain(
			new NodeOperationError(ctx.getNode(), `${what}: the change may or may not have been applied`, {
				itemIndex,
				description:
					'The request was not sent again, so that it cannot be applied twice. Check in Lofty whether the change was made (for example by getting the record) before running this item again.' +
					(failure.fault === 'timeout' ? ' To allow slower answers, raise Request Options > Timeout.' : ''),
			}),
		);
	}
	return new NodeOperationError(ctx.getNode(), `${what} (tried ${tries} times)`, {
		itemIndex,
		description:
			'Nothing was changed: this was a read. Lofty or the network may be slow or down; try again later' +
			(failure.fault === 'timeout' ? ', or raise Request Options > Timeout.' : '.'),
	});
}

/**
 * The one way the package talks to Lofty: authenticates with the node's chosen credential,
 * sends JSON, parses answers without losing 64-bit IDs, paces requests by the announced rate
 * limit, waits out 429s, retries reads after 5xx, timeouts and dropped connections, never resends
 * a write that may have been applied, and turns every failure (HTTP error or HTTP 200 with an
 * error code) into an error naming status and code.
 */
export async function loftyRequest(ctx: LoftyContext, request: LoftyRequest, itemIndex = 0): Promise<unknown> {
	// The item's turn on the records it reads (model/turns.ts), when its operation has one.
	const turn = requestTurnOf(ctx, itemIndex);
	return turn ? await turn(request, async () => await sendRequest(ctx, request, itemIndex)) : await sendRequest(ctx, request, itemIndex);
}

async function sendRequest(ctx: LoftyContext, request: LoftyRequest, itemIndex: number): Promise<unknown> {
	const type = credentialType(ctx);
	const { baseUrl, pacing, cap, grantType, binding } = await target(ctx, type);
	if (binding.refused) {
		throw new NodeOperationError(ctx.getNode(), `${binding.refused.message}, so ${request.method} ${request.path} was not sent`, { itemIndex, description: binding.refused.description });
	}
	const url = `${baseUrl}${request.path}${buildQuery(request.qs)}`;
	const timeout = request.timeout && request.timeout > 0 ? request.timeout : DEFAULT_TIMEOUT_MS;
	const idempotent = request.idempotent ?? (request.method === 'GET' || request.method === 'HEAD');
	const readRetries = idempotent ? Math.max(0, request.readRetries ?? DEFAULT_READ_RETRIES) : 0;
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
		timeout,
	};
	if (request.body !== undefined) options.body = stringifyJson(request.body);

	const slots = slotsOf(ctx);
	let rateLimited = 0;
	let retried = 0;
	const { deadline } = request;
	const outOfTime = (why: string) =>
		new DeadlineReached(ctx.getNode(), `${request.method} ${request.path} was not answered within its time budget: ${why}`, { itemIndex });
	/** Whether a wait of `ms` from now still ends inside the budget. */
	const fits = (ms: number) => deadline === undefined || Date.now() + ms < deadline;
	for (;;) {
		// A slot of the execution's Parallel Requests first, then the credential's pace.
		const release = slots ? await slots.take() : undefined;
		let ticket: Awaited<ReturnType<typeof acquire>>;
		const asked = Date.now();
		try {
			ticket = await acquire(pacing, cap, deadline, request.background);
		} catch (error) {
			release?.();
			throw isPacingDeadline(error) ? outOfTime('the rate limit asks for a longer wait') : error;
		}
		if (deadline !== undefined) {
			const left = deadline - Date.now();
			if (left <= 0) {
				ticket.done();
				release?.();
				throw outOfTime('no time left to send it');
			}
			options.timeout = Math.min(timeout, left);
		}
		// A cancelled execution sends nothing more; a failed run starts no item (transport/itemGate.ts).
		const stopped = passGate(ctx, itemIndex);
		if (stopped) {
			ticket.done();
			release?.();
			throw new NodeOperationError(ctx.getNode(), `${request.method} ${request.path} was not sent: ${stopped}`, { itemIndex });
		}
		request.onSend?.(Date.now() - asked);
		const response = await send(ctx, type, options)
			.catch((error: unknown) => ({ fault: 'unreachable' as const, reason: error instanceof Error ? error.message : String(error) }))
			.finally(() => release?.());
		if ('fault' in response) {
			ticket.done();
			// The answer was cut off by the budget, not by Lofty's own slowness (a write stays "may have been applied").
			if (response.fault === 'timeout' && idempotent && (options.timeout ?? timeout) < timeout) throw outOfTime('Lofty did not answer before it ended');
			const transient = response.fault === 'timeout' || response.fault === 'dropped';
			const backoff = backoffMs(retried);
			if (transient && retried < readRetries && fits(backoff)) {
				retried++;
				await sleep(backoff);
				continue;
			}
			throw noAnswerError(ctx, response, request, url, options.timeout ?? timeout, retried + 1, idempotent, itemIndex, grantType);
		}
		request.onAnswer?.(response.headers);
		if (response.statusCode === 429) {
			// Every request with this credential waits as the server asks.
			const wait = ticket.refused(response.headers, rateLimited);
			// Refused before processing, so even a write is safe to send again.
			if (rateLimited++ < RATE_LIMIT_RETRIES) {
				if (!fits(wait)) throw outOfTime(`Lofty answered 429 (rate limit) and asks to wait ${seconds(wait)}`);
				continue;
			}
		} else {
			ticket.observe(response.headers);
		}
		if (response.statusCode === 401 && !response.thrown && type === 'loftyOAuth2Api' && options.ignoreHttpStatusErrors) {
			// n8n before 2.9 (1.x, 2.0 to 2.8) reads `except` as "ignore every status" and hands the 401 back without
			// refreshing the token: send once more with errors thrown, so n8n refreshes it (a 401 was refused, nothing applied).
			options.ignoreHttpStatusErrors = false;
			continue;
		}
		if (response.statusCode >= 500 && retried < readRetries) {
			const retryAfter = response.statusCode === 503 && response.headers ? Number(header(response.headers, 'retry-after')) : NaN;
			const wait = Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter * 1000, BACKOFF_MAX_MS) : backoffMs(retried);
			if (fits(wait)) {
				await sleep(wait);
				retried++;
				continue;
			}
		}
		const failure = findFailure(response.statusCode, response.body);
		if (failure) {
			const error = toNodeApiError(ctx.getNode(), failure, itemIndex, request.hints, type);
			// A write answered by a server error may have been applied (transport/writeOutcome.ts).
			if (!idempotent && uncertainStatus(failure.httpCode)) markUncertain(error, UNCERTAIN_5XX, 'replace');
			throw error;
		}
		if (binding.bindNext) {
			// n8n fetched the credential's first token for this request: it is the current key's.
			const key = binding.bindNext;
			binding.bindNext = undefined;
			bindToken(await ctx.getCredentials(type), key);
		}
		return response.body;
	}
}

