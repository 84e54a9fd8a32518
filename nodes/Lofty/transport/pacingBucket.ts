/** The pacer's state per credential (pacing.ts). */

/** The announced window as the newest answer told it, or as assumed until an answer tells it. */
export interface Window {
	/** Not told by an answer: opened at a reset with the last announced limit, or after the probe's bound. */
	assumed: boolean;
	/** The X-RateLimit-Reset value (identifies the window; NaN when assumed) and when it ends on our clock (ms). */
	reset: number;
	resetAt: number;
	/** The number of the request whose answer told it, and the Remaining it said. */
	from: number;
	reported: number;
	/** Requests allowed = base - requests sent so far. */
	base: number;
	/** Older requests in flight when it was told, held back from `base` in case the server had not counted them. */
	pending: Set<number>;
}

export interface Bucket {
	window?: Window;
	/** The newest request whose answer told a window: older answers naming another window are stale. */
	newest: number;
	/** Requests sent so far (numbers them), and the numbers of those not answered yet. */
	sent: number;
	inFlight: Set<number>;
	/** False once an answer came without the rate-limit headers (then nothing waits for them). */
	announces?: boolean;
	/** The limit the last answer announced (X-RateLimit-Limit, else the most its Remaining implied). */
	limit?: number;
	/** When the first request sent while no window was known went out (the probe). */
	probeAt?: number;
	/** No request before this time (after a 429). */
	blockedUntil?: number;
	/** The reset of a window a 429 overruled (Retry-After said otherwise, or the reset was implausible): not waited for. */
	overruled?: number;
	/** Acquisitions waiting for their turn; they are served one at a time, in order. */
	waiting: number;
	queue: Promise<void>;
	/** Settles when the next request of the credential ends. */
	nextEnd?: { promise: Promise<void>; settle: () => void };
	/** With a cap only: start times of the last `cap` requests, oldest first. */
	starts: number[];
	/** Milliseconds the head of the queue has paused for the limit, all told (heldMs of the tickets). */
	paused: number;
}
