import type { IHttpRequestMethods, IHttpRequestOptions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { findFailure, toNodeApiError } from './errors';
import { stringifyJson } from './json';
import { slotsOf } from './inFlight';
import { passGate, requestTurnOf } from './itemGate';
import { MAX_PACING_WAIT_MS, acquire, isPacingDeadline, pacingKey } from './pacing';
import { type RawResponse, answerInsideError, decodeBody, header } from './rawAnswer';
import { type LoftyContext, type Target, CREDENTIAL_TYPES, credentialType, target } from './target';
import { type BindingCheck, type MeAnswer, bindToken, checkTokenBinding } from './tokenBinding';
import { type OAuthAnswer, notConnectedError, oauthAnswerOf, tokenBusyError, tokenRefusedError } from './tokenFailure';
import { type TransportFault, tokenEndpointStatus, transportFault } from './transportFault';
import { markUncertain, uncertainDescription } from './writeOutcome';

export { rateLimitWaitMs } from './pacing';
export { type TransportFault, transportFault } from './transportFault';
export { type LoftyContext, CREDENTIAL_TYPES, DEFAULT_BASE_URL, accountOf, credentialType } from './target';

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
	/** Called as each attempt goes out, with how long the pacer held it for the rate limit (the pace, its share, a 429's hold; not the process's stalls). */
	onSend?: (heldMs: number) => void;
}

/** The request's time budget ran out before it was answered; nothing was sent after that point. */
export class DeadlineReached extends NodeOperationError {
	readonly deadlineReached = true;
}

export const isDeadlineReached = (error: unknown): error is DeadlineReached => (error as { deadlineReached?: unknown } | null)?.deadlineReached === true;

/** How often and how long a 429 is waited out before the item fails. */
export const RATE_LIMIT_RETRIES = 4;
export const MAX_RATE_LIMIT_WAIT_MS = MAX_PACING_WAIT_MS;
/** Defaults of the node's Request Options. */
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_READ_RETRIES = 3;
const BACKOFF_BASE_MS = 300;
const BACKOFF_MAX_MS = 10_000;

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

/** A request that got no answer. */
interface SendFailure {
	fault: TransportFault;
	reason: string;
	/** a refused token request: what the token endpoint answered */
	oauth?: OAuthAnswer;
	/** a token request answered 429 or 5xx: its status */
	tokenStatus?: number;
}

/**
 * Sends once: signed by n8n with the node's credential, or with the `authorization` given (the Customer Key checked as
 * an API key, tokenBinding.ts), which n8n does not sign.
 */
async function send(ctx: LoftyContext, type: string, options: IHttpRequestOptions, authorization?: string): Promise<RawResponse | SendFailure> {
	try {
		const response = (
			authorization === undefined
				? await ctx.helpers.httpRequestWithAuthentication.call(ctx, type, options)
				: await ctx.helpers.httpRequest({ ...options, headers: { ...options.headers, Authorization: authorization }, ignoreHttpStatusErrors: true })
		) as {
			statusCode: number;
			headers: Record<string, unknown>;
			body: unknown;
		};
		const headers = response.headers ?? {};
		return { statusCode: response.statusCode, headers, body: decodeBody(response.body, headers) };
	} catch (error) {
		const inside = answerInsideError(error, options.url);
		if (inside && !inside.other) return { ...inside, thrown: true };
		// Only the message travels on: the raw error holds the request, with its Authorization header.
		const reason = error instanceof Error ? error.message : String(error);
		// The token endpoint's answer (n8n's OAuth2 helper): 429 and 5xx are for now, the rest a refusal.
		if (inside) {
			const busy = inside.statusCode === 429 || inside.statusCode >= 500;
			return { fault: busy ? 'tokenBusy' : 'token', reason, tokenStatus: inside.statusCode, oauth: oauthAnswerOf(error) };
		}
		const fault = transportFault(error);
		return { fault, reason, oauth: fault === 'token' ? oauthAnswerOf(error) : undefined, tokenStatus: fault === 'tokenBusy' ? tokenEndpointStatus(error) : undefined };
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
		return notAnswered(
			new NodeOperationError(ctx.getNode(), `Could not reach Lofty at ${url.split('?')[0]}`, {
				itemIndex,
				description: `${failure.reason}. Check the Base URL of the credential and that this n8n can reach it.`,
			}),
		);
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
	return notAnswered(
		new NodeOperationError(ctx.getNode(), `${what} (tried ${tries} times)`, {
			itemIndex,
			description:
				'Nothing was changed: this was a read. Lofty or the network may be slow or down; try again later' +
				(failure.fault === 'timeout' ? ', or raise Request Options > Timeout.' : '.'),
		}),
	);
}

/** Errors of a read Lofty did not answer (no answer, a cut connection, an unreachable host): the token check tells them from refusals. */
const unanswered = new WeakSet<object>();
function notAnswered<E extends object>(error: E): E {
	unanswered.add(error);
	return error;
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
	const to = await target(ctx, credentialType(ctx));
	const binding = to.type === CREDENTIAL_TYPES.oAuth2 ? await bindingOf(ctx, to, request, itemIndex) : undefined;
	const stop = binding?.refused ?? binding?.unanswered;
	if (stop) throw new NodeOperationError(ctx.getNode(), `${stop.message}, so ${request.method} ${request.path} was not sent`, { itemIndex, description: stop.description });
	const body = await exchange(ctx, to, request, itemIndex);
	if (binding?.bindNext) {
		// n8n fetched the credential's first token for this request: it is the current key's.
		const key = binding.bindNext;
		binding.bindNext = undefined;
		bindToken(await ctx.getCredentials(to.type), key);
	}
	return body;
}

/**
 * The token check of an OAuth2 credential (tokenBinding.ts), once per execution context; an outcome Lofty did not
 * answer is not kept, so the next request checks again.
 */
const bindings = new WeakMap<object, Promise<BindingCheck>>();

async function bindingOf(ctx: LoftyContext, to: Target, request: LoftyRequest, itemIndex: number): Promise<BindingCheck> {
	let found = bindings.get(ctx);
	if (!found) {
		const check = (async () => await checkTokenBinding(await ctx.getCredentials(to.type), async (customerKey) => await me(ctx, to, customerKey, request, itemIndex)))();
		bindings.set(ctx, check);
		const drop = () => bindings.get(ctx) === check && bindings.delete(ctx);
		check.then((b) => b.unanswered && drop(), drop);
		found = check;
	}
	return await found;
}

/**
 * GET /v1.0/me as a read of the transport (paced, 429s waited out, 5xx and timeouts retried), within the time budget of
 * the request that needs it: signed with the credential's token, or with `customerKey` as an API key (paced as that
 * key). Lofty's refusal (a 4xx) and a read it did not answer are told apart.
 */
async function me(ctx: LoftyContext, to: Target, customerKey: string | undefined, request: LoftyRequest, itemIndex: number): Promise<MeAnswer> {
	const check: LoftyRequest = { method: 'GET', path: '/v1.0/me', timeout: request.timeout, deadline: request.deadline, background: request.background };
	const asKey = customerKey === undefined ? undefined : { ...to, type: CREDENTIAL_TYPES.apiKey, pacing: pacingKey(CREDENTIAL_TYPES.apiKey, to.baseUrl, customerKey), cap: undefined };
	let failed: unknown;
	const body = (await exchange(ctx, asKey ?? to, check, itemIndex, customerKey === undefined ? undefined : `token ${customerKey}`).catch((error: unknown) => {
		failed = error;
	})) as { memberUserId?: unknown; userId?: unknown } | undefined;
	if (failed === undefined) {
		const id = body?.memberUserId ?? body?.userId;
		return id === undefined || id === null ? { unanswered: 'Lofty answered GET /v1.0/me without a user ID' } : { user: String(id) };
	}
	const status = Number((failed as { httpCode?: unknown }).httpCode);
	if (failed instanceof NodeApiError && status >= 400 && status < 500 && status !== 408 && status !== 429) {
		const said = failed.errorResponse as { code?: unknown; message?: unknown } | undefined;
		return { refused: `HTTP ${status}${said?.code === undefined ? '' : ` ${String(said.code)}`}${typeof said?.message === 'string' && said.message ? ` (${said.message})` : ''}` };
	}
	if (failed instanceof NodeApiError || unanswered.has(failed as object)) return { unanswered: (failed as Error).message };
	// Not a question of the answer (the execution stopped, its time budget ended, the token request refused): as it is.
	throw failed as NodeOperationError;
}

/** One request through the pacer and the retries of reads: its answer's body, or the error of its failure. */
async function exchange(ctx: LoftyContext, to: Target, request: LoftyRequest, itemIndex: number, authorization?: string): Promise<unknown> {
	const { type, baseUrl, pacing, cap, grantType } = to;
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
	let tokenAsks = 0;
	const { deadline } = request;
	const outOfTime = (why: string) =>
		new DeadlineReached(ctx.getNode(), `${request.method} ${request.path} was not answered within its time budget: ${why}`, { itemIndex });
	/** Whether a wait of `ms` from now still ends inside the budget. */
	const fits = (ms: number) => deadline === undefined || Date.now() + ms < deadline;
	for (;;) {
		// A slot of the execution's Parallel Requests first, then the credential's pace.
		const release = slots ? await slots.take() : undefined;
		let ticket: Awaited<ReturnType<typeof acquire>>;
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
		request.onSend?.(ticket.heldMs);
		const response = await send(ctx, type, options, authorization)
			.catch((error: unknown) => ({ fault: 'unreachable' as const, reason: error instanceof Error ? error.message : String(error) }))
			.finally(() => release?.());
		if ('fault' in response && response.fault === 'tokenBusy') {
			// Only the token request was answered (429: waited as any 429; 5xx: a backoff): a write may go again too.
			const status = response.tokenStatus ?? 0;
			tokenAsks++;
			const wait = status === 429 ? ticket.refused({}, rateLimited) : (ticket.done(), backoffMs(retried));
			if ((status === 429 ? rateLimited++ < RATE_LIMIT_RETRIES : retried++ < DEFAULT_READ_RETRIES) && fits(wait)) {
				if (status !== 429) await sleep(wait);
				continue;
			}
			throw notAnswered(tokenBusyError(ctx.getNode(), `${request.method} ${request.path}`, status, tokenAsks, itemIndex));
		}
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
		if (response.statusCode === 401 && !response.thrown && type === CREDENTIAL_TYPES.oAuth2 && authorization === undefined && options.ignoreHttpStatusErrors) {
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
			// A write whose answer leaves open whether it was applied (transport/writeOutcome.ts).
			const uncertain = idempotent ? undefined : uncertainDescription(failure);
			if (uncertain) markUncertain(error, uncertain, 'replace');
			throw error;
		}
		return response.body;
	}
}

