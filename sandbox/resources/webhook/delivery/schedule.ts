/**
 * Delivery rules of api-spec.md ("Events > Delivery rules", "States and transitions > Webhook
 * subscription and delivery", "Limits"), as numbers.
 */

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** Delay before attempt n+1 after the failure of attempt n (index 0: before attempt 2). */
export const RETRY_DELAYS_MS = [30 * SECOND, 2 * MINUTE, 10 * MINUTE, 30 * MINUTE, 2 * HOUR, 6 * HOUR, 12 * HOUR, 24 * HOUR];
/** "Up to 9 attempts within 48 hours" */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** "Each delay has about ±20% random jitter" */
export const JITTER = 0.2;
/** "an event undeliverable 48 hours after creation is discarded" */
export const EVENT_TTL_MS = 48 * HOUR;
/** "429 with Retry-After: retried after the requested delay, minimum 60 seconds, capped at 1 hour" */
export const RETRY_AFTER_MIN_MS = 60 * SECOND;
export const RETRY_AFTER_MAX_MS = HOUR;
/** "A disabled subscription receives a ping about every 6 hours" */
export const PING_INTERVAL_MS = 6 * HOUR;
/**
 * "deliveries keep failing with no success in between: within hours for high-volume endpoints,
 * about a day otherwise". The sandbox disables after 20 hours of failures (so the 8th attempt of a
 * lone event, 20 h 42 min after the first, disables), or 6 hours with a backlog of HIGH_VOLUME_BACKLOG events.
 */
export const DISABLE_AFTER_MS = 20 * HOUR;
export const DISABLE_AFTER_HIGH_VOLUME_MS = 6 * HOUR;
export const HIGH_VOLUME_BACKLOG = 1000;
/** A receiver that has not answered after this long counts as a timeout (retried). */
export const DEFAULT_TIMEOUT_MS = 10 * SECOND;

/** The delay before the next attempt after `failedAttempts` failures, with ±JITTER. */
export function retryDelay(failedAttempts: number, random: () => number): number {
	const base = RETRY_DELAYS_MS[Math.min(failedAttempts, RETRY_DELAYS_MS.length) - 1];
	return Math.round(base * (1 + JITTER * (2 * random() - 1)));
}

/** A Retry-After header (seconds or an HTTP date) as a delay within 60 s .. 1 h; undefined when absent or unreadable. */
export function retryAfterDelay(header: string | undefined, now: number): number | undefined {
	if (header === undefined || header.trim() === '') return undefined;
	const text = header.trim();
	let ms: number;
	if (/^\d+(\.\d+)?$/.test(text)) ms = Number(text) * SECOND;
	else {
		const at = Date.parse(text);
		if (Number.isNaN(at)) return undefined;
		ms = at - now;
	}
	return Math.min(Math.max(ms, RETRY_AFTER_MIN_MS), RETRY_AFTER_MAX_MS);
}

/** How a receiver's answer is treated. */
export type Verdict = 'delivered' | 'retry' | 'disable' | 'discard';

export function verdictOf(status: number | 'timeout' | 'error'): Verdict {
	if (status === 'timeout' || status === 'error') return 'retry';
	if (status >= 200 && status < 300) return 'delivered';
	if (status === 410) return 'disable';
	if (status === 408 || status === 429 || status >= 500) return 'retry';
	if (status >= 400 && status < 500) return 'discard';
	// 1xx/3xx: not a success; treated like a server failure and retried
	return 'retry';
}
