import { sleep } from 'n8n-workflow';

/**
 * Request pacing, shared by every request made with one credential in this n8n process: across the
 * items of an execution, the requests it has in flight, paged requests and executions that run at the
 * same time.
 *
 * Lofty limits each application (100 requests a minute in Development, 500 in Production) and
 * announces the window on every answer: `X-RateLimit-Limit`, `X-RateLimit-Remaining` and
 * `X-RateLimit-Reset` (UTC epoch seconds). Before each request the pacer waits while the announced
 * window is used up, and, when the credential sets a cap, while the last minute already holds that
 * many requests. A 429 blocks the whole credential for as long as the server asks.
 *
 * The state is small and bounded: per credential a few numbers, plus, with a cap, the start times of
 * at most `cap` requests; credentials left idle are forgotten once many are tracked. Other processes
 * that use the same application (n8n workers, other tools) are seen only through the answers'
 * `X-RateLimit-Remaining`, which counts their requests too.
 */

/** Longest single wait; a window announced further away is not trusted beyond this. */
export const MAX_PACING_WAIT_MS = 65_000;
/** Shortest wait after a 429. */
export const MIN_RATE_LIMIT_WAIT_MS = 250;
/** Added to the announced reset, whose unit is whole seconds. */
export const RESET_MARGIN_MS = 250;
/** Lofty's windows are a minute long: a reset further away than this is not believed after a 429. */
export const PLAUSIBLE_RESET_MS = 65_000;
/** Differences between our clock and the server's `Date` below this are the header's rounding, not skew. */
const CLOCK_SKEW_MS = 2000;
const MINUTE_MS = 60_000;
/** Beyond this many tracked credentials (or twice the number busy), idle ones are forgotten. */
export const MAX_IDLE_CREDENTIALS = 100;

/** Requests per minute for the credential's "Rate Limit" choice; undefined = follow Lofty's headers only. */
export const RATE_LIMIT_PRESETS: Record<string, number | undefined> = {
	auto: undefined,
	development: 100,
	production: 500,
};

interface Bucket {
	/** Requests the announced window still allows, minus the ones sent since that answer. */
	remaining?: number;
	/** When the announced window ends (ms), and the header value that named it (identifies the window). */
	resetAt?: number;
	resetHeader?: number;
	/** Which request's answer told the window (requests are numbered as they are sent). */
	windowFrom?: number;
	/** Requests sent so far (numbers them). */
	sent: number;
	/** The reset of a window a 429 overruled (its Retry-After said otherwise, or the reset was implausible): not waited for. */
	overruled?: number;
	/** No request before this time (after a 429). */
	blockedUntil?: number;
	/** Requests sent and not yet answered. */
	inFlight: number;
	/** False once an answer came without the rate-limit headers (then nothing waits for them). */
	announces?: boolean;
	/** Settles when the next request of the credential ends (see `probing`). */
	nextEnd?: { promise: Promise<void>; settle: () => void };
	/** Acquisitions waiting for their turn. */
	waiting: number;
	/** With a cap only: start times of the last `cap` requests, oldest first. */
	starts: number[];
	/** Acquisitions are served one at a time, in order. */
	queue: Promise<void>;
}

const buckets = new Map<string, Bucket>();
let sweepAt = MAX_IDLE_CREDENTIALS;

/** FNV-1a, twice with different seeds: identifies a key without keeping or revealing it. */
function fingerprint(text: string): string {
	let a = 0x811c9dc5;
	let b = 0x01000193 ^ text.length;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		a = Math.imul(a ^ c, 0x01000193) >>> 0;
		b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
	}
	return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

/**
 * The pacing key of a credential: its type, base URL and a fingerprint of what identifies the
 * application (the API key, or the OAuth client ID, else the access token). Never the secret itself.
 */
export function pacingKey(credentialType: string, baseUrl: string, identity: string): string {
	return `${credentialType} ${baseUrl} ${fingerprint(identity)}`;
}

/** The keys currently tracked (for tests: they must not contain secrets). */
export function pacingKeys(): string[] {
	return [...buckets.keys()];
}

/** How much the pacer holds (for tests of its bounds). */
export function pacingState(): { credentials: number; startTimes: number } {
	let startTimes = 0;
	for (const bucket of buckets.values()) startTimes += bucket.starts.length;
	return { credentials: buckets.size, startTimes };
}

/** Forgets every credential's state (tests). */
export function resetPacing(): void {
	buckets.clear();
	sweepAt = MAX_IDLE_CREDENTIALS;
}

/** A credential with nothing pending whose windows are over carries nothing worth keeping. */
function idle(bucket: Bucket, now: number): boolean {
	return (
		bucket.inFlight === 0 &&
		bucket.waiting === 0 &&
		(bucket.blockedUntil ?? 0) <= now &&
		(bucket.resetAt ?? 0) <= now &&
		(bucket.starts.length === 0 || bucket.starts[bucket.starts.length - 1] <= now - MINUTE_MS)
	);
}

function bucketOf(key: string): Bucket {
	let bucket = buckets.get(key);
	if (!bucket) {
		if (buckets.size >= sweepAt) {
			const now = Date.now();
			for (const [other, state] of buckets) if (idle(state, now)) buckets.delete(other);
			// Credentials still busy stay; the next sweep waits until the map has doubled (amortized cost).
			sweepAt = Math.max(MAX_IDLE_CREDENTIALS, buckets.size * 2);
		}
		bucket = { inFlight: 0, waiting: 0, sent: 0, starts: [], queue: Promise.resolve() };
		buckets.set(key, bucket);
	}
	return bucket;
}

function headerValue(headers: Record<string, unknown>, name: string): unknown {
	const value = headers[name] ?? headers[name.toLowerCase()];
	return Array.isArray(value) ? value[0] : value;
}

function headerNumber(headers: Record<string, unknown>, name: string): number | undefined {
	const value = headerValue(headers, name);
	if (value === undefined || value === null || value === '') return undefined;
	const number = Number(value);
	return Number.isFinite(number) ? number : undefined;
}

/** How far the server's clock (its `Date` header) is ahead of ours, when that is more than the header's rounding. */
function serverClockAhead(headers: Record<string, unknown>, now: number): number {
	const date = headerValue(headers, 'Date');
	const server = typeof date === 'string' ? Date.parse(date) : NaN;
	if (!Number.isFinite(server)) return 0;
	// `Date` is truncated to the second: it reads up to 1 s early.
	const ahead = server + 500 - now;
	return Math.abs(ahead) >= CLOCK_SKEW_MS ? ahead : 0;
}

/**
 * Reads X-RateLimit-Reset as epoch seconds (the documented unit), epoch ms, or seconds from now, on
 * our clock: an epoch time is moved by how far the server's clock is off ours (`skewMs`).
 */
export function resetTime(reset: number, now: number, skewMs = 0): number {
	if (reset > 1e12) return reset - skewMs + RESET_MARGIN_MS;
	if (reset > 1e9) return reset * 1000 - skewMs + RESET_MARGIN_MS;
	return now + reset * 1000 + RESET_MARGIN_MS;
}

/** The end of the window an answer announces, on our clock; undefined without the headers. */
function announcedReset(headers: Record<string, unknown>, now: number): number | undefined {
	const reset = headerNumber(headers, 'X-RateLimit-Reset');
	return reset === undefined ? undefined : resetTime(reset, now, serverClockAhead(headers, now));
}

interface RateLimitWait {
	ms: number;
	/** What the wait follows: the server's Retry-After, its announced reset, or our own backoff. */
	basis: 'retry-after' | 'reset' | 'backoff';
}

function waitAfter429(headers: Record<string, unknown>, attempt: number, now: number): RateLimitWait {
	const bounded = (ms: number) => Math.min(Math.max(ms, MIN_RATE_LIMIT_WAIT_MS), MAX_PACING_WAIT_MS);
	const retryAfter = headerValue(headers, 'Retry-After');
	if (retryAfter !== undefined && retryAfter !== null && String(retryAfter).trim() !== '') {
		const text = String(retryAfter).trim();
		const seconds = Number(text);
		const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(text) - now;
		if (Number.isFinite(ms)) return { ms: bounded(ms), basis: 'retry-after' };
	}
	const resetAt = announcedReset(headers, now);
	if (resetAt !== undefined && resetAt - now <= PLAUSIBLE_RESET_MS) return { ms: bounded(resetAt - now), basis: 'reset' };
	return { ms: bounded(1000 * 2 ** attempt), basis: 'backoff' };
}

/**
 * Milliseconds to wait after a 429. The server's own word first: Retry-After (seconds or a date);
 * else the announced reset, unless it is implausibly far for a one-minute window (a skewed clock or
 * another kind of quota), then growing steps of 1, 2, 4, 8 s. Always 250 ms to 65 s.
 */
export function rateLimitWaitMs(headers: Record<string, unknown>, attempt: number, now = Date.now()): number {
	return waitAfter429(headers, attempt, now).ms;
}

/** How long the next request must wait, 0 when it may go now. */
function waitFor(bucket: Bucket, cap: number | undefined, now: number): number {
	let wait = 0;
	if (bucket.blockedUntil !== undefined) {
		if (now < bucket.blockedUntil) wait = bucket.blockedUntil - now;
		else bucket.blockedUntil = undefined;
	}
	if (bucket.resetAt !== undefined && now >= bucket.resetAt) {
		// The announced window is over: the next answer tells the new one.
		forgetWindow(bucket);
	}
	if (bucket.remaining !== undefined && bucket.remaining <= 0 && bucket.resetAt !== undefined && bucket.resetHeader !== bucket.overruled) {
		wait = Math.max(wait, bucket.resetAt - now);
	}
	if (cap !== undefined && cap > 0) {
		while (bucket.starts.length && bucket.starts[0] <= now - MINUTE_MS) bucket.starts.shift();
		if (bucket.starts.length >= cap) wait = Math.max(wait, bucket.starts[bucket.starts.length - cap] + MINUTE_MS - now);
	}
	return wait;
}

/**
 * While the window is unknown (the first request, or the first after a reset), one request goes alone
 * and the others wait for its answer, which tells how many the window allows: a burst of requests in
 * flight cannot overrun a window it knows nothing about. Costs one round trip per window.
 */
function probing(bucket: Bucket): boolean {
	return bucket.remaining === undefined && bucket.inFlight > 0 && bucket.announces !== false;
}

function nextEnd(bucket: Bucket): Promise<void> {
	if (!bucket.nextEnd) {
		let settle!: () => void;
		const promise = new Promise<void>((resolve) => (settle = resolve));
		bucket.nextEnd = { promise, settle };
	}
	return bucket.nextEnd.promise;
}

function forgetWindow(bucket: Bucket): void {
	bucket.remaining = undefined;
	bucket.resetAt = undefined;
	bucket.resetHeader = undefined;
}

export interface PacingTicket {
	/** The request is over (answered or not). */
	done(): void;
	/** Learns the announced window from an answer's headers. */
	observe(headers: Record<string, unknown>): void;
	/** After a 429: holds every request of the credential as the server asks; returns the wait. */
	refused(headers: Record<string, unknown>, attempt: number): number;
}

/**
 * Learns the window from an answer. Answers overtake each other: one of the same window only lowers
 * what is known (an older answer must not raise what a newer one lowered); another window replaces it
 * only when the answer is to a request sent after the one that told the known window.
 */
function learn(bucket: Bucket, headers: Record<string, unknown>, othersInFlight: number, request: number): void {
	const remaining = headerNumber(headers, 'X-RateLimit-Remaining');
	const reset = headerNumber(headers, 'X-RateLimit-Reset');
	bucket.announces = remaining !== undefined && reset !== undefined;
	if (remaining === undefined || reset === undefined) return;
	// Requests still in flight may not be counted in this answer yet.
	const estimate = remaining - othersInFlight;
	if (bucket.resetHeader === reset && bucket.remaining !== undefined) {
		bucket.remaining = Math.min(bucket.remaining, estimate);
		bucket.windowFrom = Math.max(bucket.windowFrom ?? 0, request);
	} else if (bucket.windowFrom === undefined || request > bucket.windowFrom) {
		bucket.remaining = estimate;
		bucket.resetAt = announcedReset(headers, Date.now());
		bucket.resetHeader = reset;
		bucket.windowFrom = request;
	}
}

/**
 * Waits until one more request with this credential stays within the announced limit and the
 * optional cap (requests per minute), then counts it as sent.
 */
export async function acquire(key: string, cap?: number): Promise<PacingTicket> {
	const bucket = bucketOf(key);
	const previous = bucket.queue;
	let request = 0;
	let release!: () => void;
	bucket.queue = new Promise<void>((resolve) => (release = resolve));
	bucket.waiting++;
	try {
		await previous;
		for (;;) {
			const wait = waitFor(bucket, cap, Date.now());
			if (wait > 0) {
				await sleep(Math.min(wait, MAX_PACING_WAIT_MS));
				if (wait > MAX_PACING_WAIT_MS) {
					// An announced reset this far away is not waited out: let the server decide.
					forgetWindow(bucket);
					bucket.blockedUntil = undefined;
				}
			} else if (probing(bucket)) {
				await nextEnd(bucket);
			} else {
				break;
			}
		}
		if (bucket.remaining !== undefined) bucket.remaining--;
		if (cap !== undefined && cap > 0) {
			bucket.starts.push(Date.now());
			if (bucket.starts.length > cap) bucket.starts.splice(0, bucket.starts.length - cap);
		} else if (bucket.starts.length) {
			bucket.starts = [];
		}
		bucket.inFlight++;
		request = ++bucket.sent;
	} finally {
		bucket.waiting--;
		release();
	}
	let finished = false;
	const done = () => {
		if (finished) return;
		finished = true;
		bucket.inFlight = Math.max(0, bucket.inFlight - 1);
		const waiting = bucket.nextEnd;
		bucket.nextEnd = undefined;
		waiting?.settle();
	};
	return {
		done,
		// Learn first, then end: whoever waits for this answer (`probing`) sees what it said.
		observe(headers) {
			if (!finished) learn(bucket, headers, bucket.inFlight - 1, request);
			done();
		},
		refused(headers, attempt) {
			const now = Date.now();
			const wait = waitAfter429(headers, attempt, now);
			// The server's wait replaces what its window said: a far reset is not waited for when Retry-After is short,
			// neither now nor when other answers of that window arrive.
			forgetWindow(bucket);
			bucket.overruled = wait.basis === 'reset' ? undefined : headerNumber(headers, 'X-RateLimit-Reset');
			bucket.blockedUntil = Math.max(bucket.blockedUntil ?? 0, now + wait.ms);
			done();
			return wait.ms;
		},
	};
}

/** After a 429: no request with this credential before `waitMs` from now. */
export function block(key: string, waitMs: number): void {
	const bucket = bucketOf(key);
	bucket.blockedUntil = Math.max(bucket.blockedUntil ?? 0, Date.now() + waitMs);
}

/** The user's cap from the credential: a preset name, or 'custom' with a number. */
export function requestsPerMinute(preset: unknown, custom: unknown): number | undefined {
	const name = typeof preset === 'string' && preset ? preset : 'auto';
	if (name === 'custom') {
		const number = Number(custom);
		return Number.isFinite(number) && number >= 1 ? Math.floor(number) : undefined;
	}
	return RATE_LIMIT_PRESETS[name];
}
