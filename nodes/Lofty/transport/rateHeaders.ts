/**
 * What Lofty's answers say about its rate limit: `X-RateLimit-Remaining`, `X-RateLimit-Reset` (UTC epoch
 * seconds), and after a 429 `Retry-After`, read on our clock (the server's `Date` header corrects a skewed
 * clock) and bounded.
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

export type Headers = Record<string, unknown>;

function headerValue(headers: Headers, name: string): unknown {
	const value = headers[name] ?? headers[name.toLowerCase()];
	return Array.isArray(value) ? value[0] : value;
}

export function headerNumber(headers: Headers, name: string): number | undefined {
	const value = headerValue(headers, name);
	if (value === undefined || value === null || value === '') return undefined;
	const number = Number(value);
	return Number.isFinite(number) ? number : undefined;
}

/** How far the server's clock (its `Date` header) is ahead of ours, when that is more than the header's rounding. */
function serverClockAhead(headers: Headers, now: number): number {
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

/** The end of the window an answer announces, on our clock; undefined without the header. */
export function announcedReset(headers: Headers, now: number): number | undefined {
	const reset = headerNumber(headers, 'X-RateLimit-Reset');
	return reset === undefined ? undefined : resetTime(reset, now, serverClockAhead(headers, now));
}

export interface RateLimitWait {
	ms: number;
	/** What the wait follows: the server's Retry-After, its announced reset, or our own backoff. */
	basis: 'retry-after' | 'reset' | 'backoff';
}

/**
 * The wait after a 429. The server's own word first: Retry-After (seconds or a date); else the
 * announced reset, unless it is implausibly far for a one-minute window (a skewed clock or another
 * kind of quota), then growing steps of 1, 2, 4, 8 s. Always 250 ms to 65 s.
 */
export function waitAfter429(headers: Headers, attempt: number, now: number): RateLimitWait {
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

/** Milliseconds to wait after a 429 (see waitAfter429). */
export function rateLimitWaitMs(headers: Headers, attempt: number, now = Date.now()): number {
	return waitAfter429(headers, attempt, now).ms;
}
