/**
 * Fixed-window rate limit per application (API key's app or OAuth client).
 * A window opens with the first request of an application and lasts `windowMs`.
 *
 * `remainingAt` says when X-RateLimit-Remaining is taken. The spec does not say; by default (`request`) it
 * is the count when the request was counted. With `answer` it is the count when the answer leaves, so it
 * also counts the requests that arrived while this one was served (a server that reads its counter late).
 */

export interface RateLimitConfig {
	perWindow: number;
	windowMs: number;
	/** When Remaining is taken: as of the request (default) or as of the answer. */
	remainingAt?: 'request' | 'answer';
}

export const DEFAULT_RATE_LIMIT: RateLimitConfig = { perWindow: 100, windowMs: 60_000 };

export interface RateDecision {
	allowed: boolean;
	headers: Record<string, string>;
	/** The headers to send with the answer (`remainingAt: 'answer'` takes Remaining again then). */
	atAnswer(): Record<string, string> | undefined;
}

interface Window {
	start: number;
	count: number;
}

export class RateLimiter {
	private windows = new Map<string, Window>();

	constructor(private config: RateLimitConfig = DEFAULT_RATE_LIMIT) {}

	get current(): RateLimitConfig {
		return { ...this.config };
	}

	/** Replace the limit; counters restart. */
	set(config: RateLimitConfig): void {
		if (!(config.perWindow >= 0) || !(config.windowMs > 0)) throw new Error('rateLimit needs perWindow >= 0 and windowMs > 0');
		if (config.remainingAt !== undefined && config.remainingAt !== 'request' && config.remainingAt !== 'answer') {
			throw new Error(`rateLimit remainingAt is 'request' or 'answer', got '${String(config.remainingAt)}'`);
		}
		this.config = { ...config };
		this.windows.clear();
	}

	clear(): void {
		this.windows.clear();
	}

	hit(appId: string, now: number): RateDecision {
		let w = this.windows.get(appId);
		if (!w || now >= w.start + this.config.windowMs) {
			w = { start: now, count: 0 };
			this.windows.set(appId, w);
		}
		const allowed = w.count < this.config.perWindow;
		if (allowed) w.count++;
		const headers = this.headers(w);
		const counted = w;
		return {
			allowed,
			headers,
			// Taken again from the window that counted the request, while it is still the application's window.
			atAnswer: () => (this.config.remainingAt === 'answer' && this.windows.get(appId) === counted ? this.headers(counted) : undefined),
		};
	}

	private headers(w: Window): Record<string, string> {
		return {
			'X-RateLimit-Limit': String(this.config.perWindow),
			'X-RateLimit-Remaining': String(Math.max(0, this.config.perWindow - w.count)),
			'X-RateLimit-Reset': String(Math.ceil((w.start + this.config.windowMs) / 1000)),
		};
	}
}
