/**
 * The HTTP pipeline: rate limit, authentication, routing, scope, content type,
 * body parsing, handler, response (lossless JSON), request log.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { type AuthRegistry, type Caller, hasScope, splitAuth } from './auth';
import { ApiError, Codes } from './errors';
import { type ActiveFault, type Faults, isHandlerFault } from './faults';
import { capQuery, editAnswer } from './pagingFaults';
import { readingsOf } from './readings';
import { type JsonValue, JsonSyntaxError, parseJson, stringifyJson } from './json';
import type { Latency } from './latency';
import type { RateLimiter } from './rateLimit';
import { type Ctx, type Reply, type Router, scopeOf } from './router';
import { clientCredentials } from './oauth';
import type { Store } from './store';

export interface RequestLogEntry {
	method: string;
	path: string;
	query: Record<string, string | string[]>;
	status: number;
	/** 'token' (API key), 'bearer' (OAuth), 'basic', another scheme in lower case, or 'none' */
	authScheme: string;
	appId: string;
	/** raw request body ('' when none) */
	body: string;
	time: number;
}

export interface Pipeline {
	store: Store;
	auth: AuthRegistry;
	router: Router;
	limiter: RateLimiter;
	log: RequestLogEntry[];
	/** injected faults and the count of applied writes (./faults.ts) */
	faults?: Faults;
	/** the round trip every answer takes, and the count of requests in flight (./latency.ts) */
	latency?: Latency;
	/** the tool server at /mcp (sandbox/mcp/server.ts), outside the REST pipeline: its calls come back through it */
	mcp?: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
}

const MAX_BODY = 5 * 1024 * 1024;

function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (c: Buffer) => {
			size += c.length;
			if (size > MAX_BODY) {
				reject(new ApiError(413, Codes.INVALID_PARAMETER, 'Request body too large'));
				req.destroy();
			} else chunks.push(c);
		});
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}

function queryObject(q: URLSearchParams): Record<string, string | string[]> {
	const out: Record<string, string | string[]> = {};
	for (const k of new Set(q.keys())) {
		const all = q.getAll(k);
		out[k] = all.length === 1 ? all[0] : all;
	}
	return out;
}

function errorReply(err: ApiError, plain: boolean): Reply {
	if (plain && (err.status === 400 || err.status === 403 || err.status === 500)) err.plainString = true;
	return { status: err.status, body: err.body() };
}

/** The endpoint's own error under the `bareCode` reading (api-spec.md: bodies "declared as plain strings"): the code alone. */
function endpointError(p: Pipeline, err: ApiError, plain: boolean): Reply {
	if (readingsOf(p.store).get('errorBodies') === 'bareCode' && !plain) return { status: err.status, body: String(err.code) };
	return errorReply(err, plain);
}

export async function handle(p: Pipeline, req: IncomingMessage, res: ServerResponse): Promise<void> {
	if (p.mcp && new URL(req.url ?? '/', 'http://sandbox.local').pathname === '/mcp') return await p.mcp(req, res);
	p.latency?.begin();
	try {
		await serve(p, req, res);
	} finally {
		p.latency?.end();
	}
}

async function serve(p: Pipeline, req: IncomingMessage, res: ServerResponse): Promise<void> {
	const now = p.store.now();
	const method = (req.method ?? 'GET').toUpperCase();
	const url = new URL(req.url ?? '/', 'http://sandbox.local');
	const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
	const authHeader = req.headers.authorization;
	const scheme = splitAuth(authHeader).scheme || 'none';
	let rawBody = '';
	let reply: Reply;
	let appId = 'anonymous';
	let rateHeaders: Record<string, string> = {};
	let rateAtAnswer: (() => Record<string, string> | undefined) | undefined;
	let fault: ActiveFault | undefined;
	let dispatched = false;
	const matched = p.router.match(method, path);
	try {
		rawBody = await readBody(req);
		if (matched?.route.public) {
			const fromForm = matched.route.body === 'form' ? new URLSearchParams(rawBody) : url.searchParams;
			const client = clientCredentials({ headers: req.headers }, fromForm).clientId ?? url.searchParams.get('clientId') ?? undefined;
			appId = client && p.auth.clients.has(client) ? `oauth:${client}` : 'anonymous';
		} else {
			appId = p.auth.appOf(authHeader);
		}
		const rate = p.limiter.hit(appId, now);
		rateHeaders = rate.headers;
		rateAtAnswer = rate.atAnswer;
		if (rate.allowed) fault = p.faults?.take(method, path, rawBody);
		if (!rate.allowed) {
			reply = { status: 429, body: { message: 'Too Many Requests' } };
		} else if (fault?.kind === '429') {
			reply = { status: 429, body: { message: 'Too Many Requests' }, headers: { 'Retry-After': String(fault.retryAfterSec) } };
		} else if (fault?.kind === '500' && fault.page !== undefined) {
			reply = { status: fault.status, raw: fault.page, headers: { 'Content-Type': 'text/html; charset=utf-8' } };
		} else if (fault?.kind === '500' && !fault.applied) {
			const message = fault.message ?? 'BaseApplicationException:errorCode=20005, injected fault';
			reply = { status: fault.status, body: fault.code === undefined ? { message } : { code: fault.code, message } };
		} else if (fault?.kind === 'drop' && fault.when === 'before') {
			req.socket.destroy();
			p.log.push({ method, path, query: queryObject(url.searchParams), status: 0, authScheme: scheme, appId, body: rawBody, time: now });
			return;
		} else {
			// Held back before it is applied: it lands when the client has given up (or the delay ends).
			if (fault?.kind === 'slow' && fault.when === 'before') await heldBack(req, fault.delayMs, fault.until);
			dispatched = true;
			// The handler reads the query as served (a page cap lowers it); the log keeps what was sent.
			const served = new URLSearchParams(url.searchParams);
			capQuery(fault, served);
			reply = dispatch(p, req, method, path, served, rawBody, matched, now, isHandlerFault(fault?.kind) ? fault : undefined);
			editAnswer(fault, reply, served);
		}
	} catch (e) {
		reply = e instanceof ApiError ? errorReply(e, false) : { status: 500, body: { code: 20005, message: `Internal error: ${String(e)}` } };
	}
	const status = reply.status ?? 200;
	// Lofty's clock (the store's), as a real server states it on every answer.
	const headers: Record<string, string> = { Date: new Date(now).toUTCString(), ...rateHeaders, ...(reply.headers ?? {}) };
	let payload: string | Buffer = '';
	if (reply.raw !== undefined) payload = reply.raw;
	else {
		payload = stringifyJson(reply.body ?? null);
		headers['Content-Type'] ??= 'application/json;charset=UTF-8';
	}
	if (p.faults && dispatched && status < 300) {
		const key = `${method} ${path}`;
		const last = p.faults.lastAnswers.get(key);
		if (fault?.kind === 'repeatPage' && last !== undefined) payload = last;
		if (typeof payload === 'string') p.faults.lastAnswers.set(key, payload);
	}
	headers['Content-Length'] = String(Buffer.byteLength(payload));
	const dropped = fault?.kind === 'drop';
	const late = fault?.kind === 'slow' && fault.when === 'before';
	const failedAfter = fault?.kind === '500' && fault.applied && dispatched;
	let recorded: { delivered: boolean } | undefined;
	if (dispatched && method !== 'GET' && method !== 'HEAD' && status >= 200 && status < 300) {
		recorded = p.faults?.recordWrite({ method, path, status, delivered: !dropped && !failedAfter && !(late && req.socket.destroyed), body: rawBody, answer: typeof payload === 'string' ? payload : '', late });
	}
	if (failedAfter && fault) {
		// Applied, then answered as a server error (the change was made; the answer says it failed).
		const message = fault.message ?? 'BaseApplicationException:errorCode=20005, injected fault after applying';
		payload = stringifyJson(fault.code === undefined ? { message } : { code: fault.code, message });
		headers['Content-Length'] = String(Buffer.byteLength(payload));
		headers['Content-Type'] = 'application/json;charset=UTF-8';
	}
	const answeredStatus = failedAfter && fault ? fault.status : status;
	// Logged when answered (a slow answer is logged before it is held back; a dropped one as status 0).
	p.log.push({ method, path, query: queryObject(url.searchParams), status: dropped ? 0 : answeredStatus, authScheme: scheme, appId, body: rawBody, time: now });
	// A slow answer is held back until its delay ends (or its `until` settles) or the client hangs up.
	if (fault?.kind === 'slow' && !late) await heldBack(req, fault.delayMs, fault.until);
	if (recorded && req.socket.destroyed) recorded.delivered = false;
	await p.latency?.hold();
	// Remaining taken again as the answer leaves (remainingAt 'answer'), unless the reply set its own limit's headers (AI).
	const atAnswer = reply.headers?.['X-RateLimit-Remaining'] === undefined ? rateAtAnswer?.() : undefined;
	if (atAnswer) Object.assign(headers, atAnswer);
	if (dropped && fault?.when === 'body') {
		// The head and half the body go out, then the connection is cut (a host that fails mid-download).
		res.writeHead(status, headers);
		const body = Buffer.from(payload);
		res.write(body.subarray(0, Math.floor(body.length / 2)), () => setTimeout(() => req.socket.destroy(), 20));
		return;
	}
	if (dropped) {
		req.socket.destroy();
		return;
	}
	if (res.destroyed || req.socket.destroyed) return;
	res.writeHead(answeredStatus, headers);
	res.end(method === 'HEAD' ? undefined : payload);
}

function dispatch(
	p: Pipeline,
	req: IncomingMessage,
	method: string,
	path: string,
	query: URLSearchParams,
	rawBody: string,
	matched: ReturnType<Router['match']>,
	now: number,
	fault: ActiveFault | undefined,
): Reply {
	/** bare-string error bodies apply to the endpoint's own errors, not to gateway checks */
	const plain = matched?.route.plainStringErrors ?? false;
	try {
		let caller: Caller | undefined;
		if (!matched?.route.public) caller = p.auth.authenticate(req.headers.authorization, now);
		if (!matched) throw new ApiError(404, Codes.RESOURCE_NOT_EXIST, `No resource at ${method} ${path}`);
		const { route, params } = matched;
		if (caller && !hasScope(caller.scopes, scopeOf(route))) {
			throw new ApiError(403, Codes.SCOPE_MISSING, `The access token is not granted the scope of ${scopeOf(route)}`);
		}
		let body: JsonValue | undefined;
		const ctype = String(req.headers['content-type'] ?? '').toLowerCase();
		if (route.body === 'json') {
			if (!ctype.includes('application/json')) throw new ApiError(400, Codes.CONTENT_TYPE, 'Content-type must be: application/json');
			if (rawBody.trim() === '') throw new ApiError(400, Codes.INVALID_PARAMETER, 'INVALID_PARAMETER: request body is required');
			try {
				body = parseJson(rawBody);
			} catch (e) {
				const why = e instanceof JsonSyntaxError ? e.message : String(e);
				throw new ApiError(400, Codes.INVALID_PARAMETER, `INVALID_PARAMETER: malformed JSON body (${why})`);
			}
		}
		if (route.body === 'form' && !ctype.includes('application/x-www-form-urlencoded')) {
			return { status: 400, body: { error: 'invalid_request', error_description: 'Content-Type must be application/x-www-form-urlencoded' } };
		}
		const user = caller ? p.store.getUser(caller.userId) : undefined;
		if (caller && !user) throw new ApiError(400, Codes.USER_IN_TOKEN_NOT_EXIST, 'User in token does not exist.');
		const ctx: Ctx = {
			method,
			path,
			params,
			query,
			headers: req.headers,
			body,
			rawBody,
			caller,
			user: user!,
			store: p.store,
			auth: p.auth,
			now,
			fault,
		};
		try {
			return route.handler(ctx);
		} catch (e) {
			if (e instanceof ApiError) return endpointError(p, e, plain);
			return errorReply(new ApiError(500, 20005, `BaseApplicationException:errorCode=20005, ${String(e)}`), plain);
		}
	} catch (e) {
		if (e instanceof ApiError) return errorReply(e, false);
		throw e;
	}
}

/** Resolves after `ms` (or when `until` settles, if given), or at once when the request's connection closes first (an answer held back for nobody). */
export function heldBack(req: IncomingMessage, ms: number, until?: Promise<unknown>): Promise<void> {
	return new Promise((resolve) => {
		const done = () => {
			clearTimeout(timer);
			req.socket.off('close', done);
			resolve();
		};
		const timer = until ? undefined : setTimeout(done, ms);
		until?.then(done, done);
		if (req.socket.destroyed) done();
		else req.socket.once('close', done);
	});
}
