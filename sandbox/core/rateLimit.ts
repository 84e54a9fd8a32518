/**
 * Fixed-window rate limit per application (API key's app or OAuth client).
 * A window opens with the first request of an application and lasts `windowMs`.
 */

export interface RateLimitConfig {
	perWindow: number;
	windowMs: number;
}

export const DEFAULT_RATE_LIMIT: RateLimitConfig = { perWindow: 100, windowMs: 60_000 };

export interface RateDecision {
	allowed: boolean;
	headers: Record<string, string>;
}

export class RateLimiter {
	private windows = new Map<string, { start: number; count: number }>();

	constructor(private config: RateLimitConfig = DEFAULT_RATE_LIMIT) {}

	get current(): RateLimitConfig {
		return { ...this.config };
	}

	/** Replace the limit; counters restart. */
	set(config: RateLimitConfig): void {
		if (!(config.perWindow >= 0) || !(config.windowMs > 0)) throw new Error('rateLimit needs perWindow >= 0 and windowMs > 0');
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
		return {
			allowed,
			headers: {
				'X-RateLimit-Limit': String(this.config.perWindow),
				'X-RateLimit-Remaining': String(Math.max(0, this.config.perWindow - w.count)),
				'X-RateLimit-Reset': String(Math.ceil((w.start + this.config.windowMs) / 1000)),
			},
		};
	}
}
