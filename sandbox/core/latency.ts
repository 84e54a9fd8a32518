/**
 * A remote API's round trip: every answer is held back by a fixed delay plus a random jitter (0 to
 * `jitterMs`), after the request was counted, applied and logged. Also counts the requests being served
 * at once (now, and the most since the last restart of the count), which shows how many a client keeps
 * in flight.
 */

export interface LatencyConfig {
	/** held back at least this long (ms) */
	fixedMs: number;
	/** plus up to this much more, uniformly at random (ms; default 0) */
	jitterMs?: number;
}

export const NO_LATENCY: Required<LatencyConfig> = { fixedMs: 0, jitterMs: 0 };

/** Reads "300" or "300+60" (fixed + jitter, in ms), as the CLI and LOFTY_SANDBOX_LATENCY take it. */
export function parseLatency(raw: string): Required<LatencyConfig> {
	const m = /^\s*(\d+(?:\.\d+)?)\s*(?:\+\s*(\d+(?:\.\d+)?))?\s*$/.exec(raw);
	if (!m) throw new Error(`latency must look like 300 or 300+60 (fixed + jitter, ms), got '${raw}'`);
	return { fixedMs: Number(m[1]), jitterMs: Number(m[2] ?? 0) };
}

export class Latency {
	private config: Required<LatencyConfig> = { ...NO_LATENCY };
	private serving = 0;
	private peak = 0;

	constructor(config: LatencyConfig = NO_LATENCY) {
		this.set(config);
	}

	get current(): Required<LatencyConfig> {
		return { ...this.config };
	}

	set(config: LatencyConfig): void {
		const jitterMs = config.jitterMs ?? 0;
		if (!(config.fixedMs >= 0) || !(jitterMs >= 0)) throw new Error('latency needs fixedMs >= 0 and jitterMs >= 0');
		this.config = { fixedMs: config.fixedMs, jitterMs };
	}

	/** How long to hold this answer back. */
	delayMs(): number {
		return this.config.fixedMs + Math.random() * this.config.jitterMs;
	}

	async hold(): Promise<void> {
		const ms = this.delayMs();
		if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
	}

	/** A request arrived; call `end` once it is answered (or its connection is gone). */
	begin(): void {
		this.serving++;
		this.peak = Math.max(this.peak, this.serving);
	}

	end(): void {
		this.serving = Math.max(0, this.serving - 1);
	}

	/** Requests being served now, and the most at once since the last restart of the count. */
	get concurrency(): { now: number; most: number } {
		return { now: this.serving, most: this.peak };
	}

	restartCount(): void {
		this.peak = this.serving;
	}
}
