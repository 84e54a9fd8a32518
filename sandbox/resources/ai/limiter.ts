/**
 * The AI endpoints' own, lower rate limit (api-notes: "some endpoints (AI features) are lower"); its size is not
 * published, so it is configurable (`setAiRateLimit`).
 */
import type { Reply } from '../../core/router';

export interface AiRateLimit {
	perWindow: number;
	windowMs: number;
}

/** api-notes: "some endpoints (AI features) are lower" than the application limit; the number is not published. */
export const DEFAULT_AI_RATE_LIMIT: AiRateLimit = { perWindow: 20, windowMs: 60_000 };

export class AiLimiter {
	config: AiRateLimit = { ...DEFAULT_AI_RATE_LIMIT };
	private windows = new Map<string, { start: number; count: number }>();

	set(config: AiRateLimit): void {
		this.config = { ...config };
		this.windows.clear();
	}

	/** undefined when allowed, else the 429 reply (same body and headers as the application limit). */
	hit(appId: string, now: number): Reply | undefined {
		let w = this.windows.get(appId);
		if (!w || now >= w.start + this.config.windowMs) {
			w = { start: now, count: 0 };
			this.windows.set(appId, w);
		}
		if (w.count < this.config.perWindow) {
			w.count++;
			return undefined;
		}
		return {
			status: 429,
			body: { message: 'Too Many Requests' },
			headers: {
				'X-RateLimit-Limit': String(this.config.perWindow),
				'X-RateLimit-Remaining': '0',
				'X-RateLimit-Reset': String(Math.ceil((w.start + this.config.windowMs) / 1000)),
			},
		};
	}
}
