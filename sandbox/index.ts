/**
 * In-memory emulator of the Lofty Open API, written from api-spec.md and the vendor OpenAPI.
 *
 *   const sandbox = await startSandbox({ port: 0 });
 *   axios.get(`${sandbox.url}/v1.0/me`, { headers: { Authorization: `token ${sandbox.apiKey}` } });
 *   await sandbox.stop();
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import {
	AuthRegistry,
	DEMO_API_KEY,
	DEMO_CLIENT_ID,
	DEMO_CLIENT_SECRET,
	OTHER_AGENT_API_KEY,
	type Scopes,
} from './core/auth';
import { Faults, pathMatcher } from './core/faults';
import { Latency, type LatencyConfig, NO_LATENCY } from './core/latency';
import { DEFAULT_RATE_LIMIT, type RateLimitConfig, RateLimiter } from './core/rateLimit';
import { Router, scopeOf } from './core/router';
import { oauthRoutes } from './core/oauth';
import { type Readings, readingsOf } from './core/readings';
import { SEED_IDS, seedStore } from './core/seed';
import { type RequestLogEntry, handle } from './core/server';
import { MCP_PATH, mcpHandler } from './mcp/server';
import { Store } from './core/store';
import { type IdLike, toId } from './core/types';
import { RESOURCES } from './resources';
import { type DeliveryEngine, type DeliveryOptions, configureDelivery, deliveryEngine } from './resources/webhook/delivery';
import { tryoutHandler } from './web';

export {
	ACCESS_TOKEN_TTL_SEC,
	DEMO_API_KEY,
	DEMO_CLIENT_ID,
	DEMO_CLIENT_SECRET,
	OTHER_AGENT_API_KEY,
	OTHER_CLIENT_ID,
	OTHER_CLIENT_SECRET,
	pkceS256,
} from './core/auth';
export { Codes } from './core/errors';
export { parseJson, stringifyJson } from './core/json';
export { DEFAULT_RATE_LIMIT, type RateLimitConfig } from './core/rateLimit';
export { type AppliedWrite, Faults, type FaultKind, type FaultSpec } from './core/faults';
export { type LatencyConfig, parseLatency } from './core/latency';
export { READING_VALUES, Readings, type ReadingName, type ReadingSet } from './core/readings';
export { SEED_IDS, SEED_SOURCES, SEED_STAGES, SEED_TAGS, SEED_SEGMENTS } from './core/seed';
export type { RequestLogEntry } from './core/server';
export { Store } from './core/store';
export { TIMELINE_TYPES, TL } from './core/timeline';
export type * from './core/types';

export interface SandboxOptions {
	port?: number;
	host?: string;
	rateLimit?: RateLimitConfig;
	/** load the demo data set (default true) */
	seed?: boolean;
	/** webhook delivery: allowHttpCallbacks (loopback http:// callbacks), autoDeliver (real timers), timeoutMs, random */
	webhooks?: DeliveryOptions;
	/** hold every answer back by fixedMs plus 0 to jitterMs, as a remote API's round trip (default none) */
	latency?: LatencyConfig;
	/** serve the try-out page at /tryout, where a person makes events by clicking (sandbox/web; default off) */
	web?: boolean;
	/** new records get IDs this far above the seed's counters (core/idStart.ts claimIdStart; default 0) */
	idStart?: bigint;
}

export interface IssueTokenOptions {
	/** default: the demo owner */
	userId?: IdLike;
	/** endpoint scope names such as "GET /v1.0/leads" or "GET /v1.0/leads/{leadId}"; default 'all' */
	scopes?: string[] | 'all';
	/** OAuth client (rate-limit bucket); default the demo client */
	clientId?: string;
	expiresInSec?: number;
}

export interface Sandbox {
	readonly url: string;
	/** the tool server (MCP over streamable HTTP, Bearer API key or access token): sandbox/mcp/server.ts */
	readonly mcpUrl: string;
	readonly port: number;
	readonly apiKey: string;
	readonly otherAgentApiKey: string;
	readonly oauthClient: { clientId: string; clientSecret: string };
	readonly store: Store;
	/** the webhook delivery engine: clock, log, flush(), advance(ms) */
	readonly webhooks: DeliveryEngine;
	readonly auth: AuthRegistry;
	/** every answered request, oldest first (cleared by reset) */
	readonly requests: RequestLogEntry[];
	/** fault injection (429 bursts, 5xx, slow answers, dropped connections) and applied-write counts; cleared by reset */
	readonly faults: Faults;
	/** which reading of an ambiguous contract the sandbox answers by (docs/api-readings.md); the spec's after reset */
	readonly readings: Readings;
	/** every scope name the sandbox knows ("METHOD /path/{param}") */
	readonly scopes: string[];
	/** requests whose method (or '*') and path match; pattern segments may be `{param}` or `*`, or a RegExp */
	count(method: string, pathPattern: string | RegExp): number;
	/** restore seed data and the spec's readings, clear the request log, faults, rate-limit counters, and the rate limit and latency set at runtime */
	reset(): void;
	setRateLimit(config: RateLimitConfig): void;
	/** hold every answer back by fixedMs plus 0 to jitterMs (a remote API's round trip); reset restores the start option */
	setLatency(config: LatencyConfig): void;
	/** requests being served now, and the most at once since the last reset or resetConcurrency() */
	concurrency(): { now: number; most: number };
	resetConcurrency(): void;
	issueToken(opts?: IssueTokenOptions): string;
	/** make an issued access token expired (401 BAD_CREDENTIALS from then on) */
	expireToken(accessToken: string): void;
	stop(): Promise<void>;
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
	const host = opts.host ?? '127.0.0.1';
	const initialLimit = opts.rateLimit ?? DEFAULT_RATE_LIMIT;
	const store = new Store();
	if (opts.webhooks) configureDelivery(store, opts.webhooks);
	const load = (): void => {
		store.clear();
		if (opts.seed ?? true) {
			seedStore(store);
			for (const resource of RESOURCES) resource.seed?.(store);
		}
		if (opts.idStart) store.shiftIds(opts.idStart);
	};
	load();
	const auth = new AuthRegistry();
	const router = new Router();
	router.add(oauthRoutes);
	router.add(RESOURCES.flatMap((resource) => resource.routes));
	const limiter = new RateLimiter(initialLimit);
	const log: RequestLogEntry[] = [];
	const faults = new Faults();
	const latency = new Latency(opts.latency ?? NO_LATENCY);
	const mcp = mcpHandler({ auth, router, now: () => store.now() });
	const pipeline = { store, auth, router, limiter, log, faults, latency, mcp };

	const web = opts.web ? tryoutHandler({ store, auth, router }) : undefined;
	const server: Server = createServer((req, res) => {
		const served = web ? web(req, res).then((done) => (done ? undefined : handle(pipeline, req, res))) : handle(pipeline, req, res);
		served.catch((e) => {
			if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify({ code: 20005, message: String(e) }));
		});
	});
	server.keepAliveTimeout = 1000;
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(opts.port ?? 0, host, () => resolve());
	});
	const port = (server.address() as AddressInfo).port;
	const urlHost = host.includes(':') ? `[${host}]` : host;

	return {
		get webhooks() {
			return deliveryEngine(store);
		},
		get readings() {
			return readingsOf(store);
		},
		url: `http://${urlHost}:${port}`,
		mcpUrl: `http://${urlHost}:${port}${MCP_PATH}`,
		port,
		apiKey: DEMO_API_KEY,
		otherAgentApiKey: OTHER_AGENT_API_KEY,
		oauthClient: { clientId: DEMO_CLIENT_ID, clientSecret: DEMO_CLIENT_SECRET },
		store,
		auth,
		requests: log,
		faults,
		scopes: router.routes.filter((r) => !r.public).map(scopeOf),
		count(method, pathPattern) {
			const m = method.toUpperCase();
			const match = pathMatcher(pathPattern);
			return log.filter((e) => (m === '*' || e.method === m) && match(e.path)).length;
		},
		reset() {
			load();
			log.length = 0;
			faults.clear();
			limiter.set(initialLimit);
			latency.set(opts.latency ?? NO_LATENCY);
			latency.restartCount();
		},
		setRateLimit(config) {
			limiter.set(config);
		},
		setLatency(config) {
			latency.set(config);
		},
		concurrency() {
			return latency.concurrency;
		},
		resetConcurrency() {
			latency.restartCount();
		},
		issueToken(o = {}) {
			const userId = toId(o.userId ?? SEED_IDS.demoUserId);
			if (!store.getUser(userId)) throw new Error(`issueToken: unknown user ${userId}`);
			const clientId = o.clientId ?? DEMO_CLIENT_ID;
			if (!auth.clients.has(clientId)) throw new Error(`issueToken: unknown client ${clientId}`);
			const scopes: Scopes = o.scopes ?? 'all';
			return auth.issue(userId, clientId, scopes, store.now(), o.expiresInSec).access_token;
		},
		expireToken(accessToken) {
			if (!auth.expire(accessToken)) throw new Error('expireToken: unknown access token');
		},
		stop() {
			return new Promise<void>((resolve, reject) => {
				server.close((err) => (err ? reject(err) : resolve()));
				server.closeAllConnections();
			});
		},
	};
}
