/**
 * Lofty's clock as this poll sees it: every answer's `Date` header tells how far Lofty's clock is from n8n's
 * (a laptop or NAS without NTP can be off by minutes or hours). Windows and the cursor are kept on Lofty's clock,
 * the one its record times are written in. Without any `Date` (a proxy that drops it) n8n's clock is used.
 */
import type { IDataObject } from 'n8n-workflow';

/** Below this the difference is the header's rounding to whole seconds, not a skewed clock. */
const ROUNDING_MS = 2000;

export class LoftyClock {
	/** Lofty's clock minus n8n's (ms), from the newest answer; undefined before any. */
	private skew: number | undefined;

	/** `known`: the skew a previous poll measured (kept in the node's static data). */
	constructor(known?: number) {
		this.skew = typeof known === 'number' && Number.isFinite(known) ? known : undefined;
	}

	/** Reads an answer's `Date` (truncated to the second: the middle of that second is the best guess). */
	readonly observe = (headers: Record<string, unknown>): void => {
		const raw = headers.date ?? headers.Date;
		const server = Date.parse(String(Array.isArray(raw) ? raw[0] : (raw ?? '')));
		if (!Number.isFinite(server)) return;
		const skew = server + 500 - Date.now();
		this.skew = Math.abs(skew) < ROUNDING_MS ? 0 : skew;
	};

	get known(): boolean {
		return this.skew !== undefined;
	}

	get skewMs(): number {
		return this.skew ?? 0;
	}

	/** Lofty's now. */
	now(): number {
		return Date.now() + this.skewMs;
	}

	toJSON(): IDataObject {
		return { skewMs: this.skewMs };
	}
}
