import { sleep } from 'n8n-workflow';

/**
 * Request pacing, shared by every request made with one credential in this n8n process: across the
 * items of an execution, across paged requests and across executions that run at the same time.
 *
 * Lofty limits each application (100 requests a minute in Development, 500 in Production) and
 * announces the window on every answer: `X-RateLimit-Limit`, `X-RateLimit-Remaining` and
 * `X-RateLimit-Reset` (UTC epoch seconds). Before each request the pacer waits while the announced
 * window is used up, and, when the credential sets a cap, while the last minute already holds that
 * many requests. A 429 blocks the whole credential until its Retry-After or reset time.
 */

/** Longest single wait; a window announced further away is not trusted beyond this. */
export const MAX_PACING_WAIT_MS = 65_000;
/** Added to the announced reset, whose unit is whole seconds. */
export const RESET_MARGIN_MS = 250;
const MINUTE_MS = 60_000;

/** Requests per minute for the credential's "Rate Limit" choice; undefined = follow Lofty's headers only. */
export const RATE_LIMIT_PRESETS: Record<string, number | undefined> = {
	auto: undefined,
	development: 100,
	production: 500,
};

interface Bucket {
	/** Requests the announced window still allows, minus the ones sent since that answer. */
	remaining?: number;
	/** When the announced window ends (ms). */
	resetAt?: number;
	/** No request before this time (after a 429). */
	blockedUntil?: number;
	/** Requests sent and not yet answered. */
	inFlight: number;
	/** Start times of the requests of the last minute, for the user's cap. */
	starts: number[];
	/** Acquisitions are served one at a time, in order. */
	queue: Promise<void>;
}

const buckets = new Map<string, Bucket>();

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

/** Forgets every credential's state (tests). */
export function resetPacing(): void {
	buckets.clear();
}

function bucketOf(key: string): Bucket {
	let bucket = buckets.get(key);
	if (!bucket) {
		bucket = { inFlight: 0, starts: [], queue: Promise.resolve() };
		buckets.set(key, bucket);
	}
	return bucket;
}

function headerNumber(headers: Record<string, unknown>, name: string): number | undefined {
	let value = headers[name] ?? headers[name.toLowerCase()];
	if (Array.isArray(value)) value = value[0];
	if (value === undefined || value === null || value === '') return undefined;
	const number = Number(value);
	return Number.isFinite(number) ? number : undefined;
}

/** Reads X-RateLimit-Reset as epoch seconds (the documented unit), epoch ms, or seconds from now. */
export function resetTime(reset: number, now: number): number {
	if (reset > 1e12) return reset + RESET_MARGIN_MS;
	if (reset > 1e9) return reset * 1000 + RESET_MARGIN_MS;
	return now + reset * 1000 + RESET_MARGIN_MS;
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
		bucket.resetAt = undefined;
		bucket.remaining = undefined;
	}
	if (bucket.remaining !== undefined && bucket.remaining <= 0 && bucket.resetAt !== undefined) {
		wait = Math.max(wait, bucket.resetAt - now);
	}
	if (cap !== undefined && cap > 0) {
		while (bucket.starts.length && bucket.starts[0] <= now - MINUTE_MS) bucket.starts.shift();
		if (bucket.starts.length >= cap) wait = Math.max(wait, bucket.starts[bucket.starts.length - cap] + MINUTE_MS - now);
	}
	return wait;
}

export interface PacingTicket {
	/** The request is over (answered or not). */
	done(): void;
	/** Learns the announced window from an answer's headers. */
	observe(headers: Record<string, unknown>): void;
}

/**
 * Waits until one more request with this credential stays within the announced limit and the
 * optional cap (requests per minute), then counts it as sent.
 */
export async function acquire(key: string, cap?: number): Promise<PacingTicket> {
	const bucket = bucketOf(key);
	const previous = bucket.queue;
	let release!: () => void;
	bucket.queue = new Promise<void>((resolve) => (release = resolve));
	try {
		await previous;
		for (let round = 0; round < 3; round++) {
			const wait = waitFor(bucket, cap, Date.now());
			if (wait <= 0) break;
			await sleep(Math.min(wait, MAX_PACING_WAIT_MS));
			if (wait > MAX_PACING_WAIT_MS) {
				// An announced reset this far away is not waited out: let the server decide.
				bucket.remaining = undefined;
				bucket.resetAt = undefined;
				bucket.blockedUntil = undefined;
			}
		}
		if (bucket.remaining !== undefined) bucket.remaining--;
		bucket.starts.push(Date.now());
		if (cap !== undefined && bucket.starts.length > cap) bucket.starts.splice(0, bucket.starts.length - cap);
		bucket.inFlight++;
	} finally {
		release();
	}
	let finished = false;
	return {
		done() {
			if (finished) return;
			finished = true;
			bucket.inFlight = Math.max(0, bucket.inFlight - 1);
		},
		observe(headers) {
			const remaining = headerNumber(headers, 'X-RateLimit-Remaining');
			const reset = headerNumber(headers, 'X-RateLimit-Reset');
			if (remaining === undefined || reset === undefined) return;
			// Requests sent after this one may not be counted in its answer yet.
			bucket.remaining = remaining - bucket.inFlight;
			bucket.resetAt = resetTime(reset, Date.now());
		},
	};
}

/** After a 429: no request with this credential before `waitMs` from now. */
export function block(key: string, waitMs: number): void {
	const bucket = bucketOf(key);
	const until = Date.now() + waitMs;
	bucket.blockedUntil = Math.max(bucket.blockedUntil ?? 0, until);
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
