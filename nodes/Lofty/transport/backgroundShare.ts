/**
 * Background work (the Lofty Polling Trigger's backlog reader) uses at most a share of each rate-limit window of
 * its credential, so that the credential's other requests (an action node's run, another trigger's poll) find room
 * in every window while it reads. A background request goes only while the window, as the pacer counts it (every
 * request of the credential, the others' included), has more room left than the rest of the limit, and, with the
 * user's cap, while the last minute holds fewer requests than its share of the cap. It waits for that outside the
 * pacer's queue (pacing.ts): no request ever waits behind a background request that waits for its share.
 */

const MINUTE_MS = 60_000;
/** The share of each window background work may use. */
export const BACKGROUND_SHARE = 0.5;

/** The most requests background work sends in a window of `limit` requests: its share, at least one. */
export const backgroundQuota = (limit: number): number => Math.max(1, Math.floor(limit * BACKGROUND_SHARE));

/** What the pacer knows of a credential's window when a background request asks to go. */
export interface ShareView {
	/** The limit the last answer announced (undefined until an answer told it). */
	limit?: number;
	/** The room the current window has left and when it ends; undefined when no window is known. */
	room?: number;
	resetAt?: number;
	/** Requests of the credential on their way (an answer may give room back). */
	inFlight: number;
	/** The user's cap (requests per minute) and the start times of the last requests under it, oldest first. */
	cap?: number;
	starts: number[];
}

/** How long a background request waits for its share (0: it may go now), and whether an answer may end that sooner. */
export function shareWait(view: ShareView, now: number): { ms: number; answer: boolean } {
	let ms = 0;
	let answer = false;
	const { limit, room, resetAt } = view;
	if (limit !== undefined && room !== undefined && resetAt !== undefined && room <= limit - backgroundQuota(limit)) {
		// Its share of this window is used: the window's reset, unless an answer shows the server counted fewer.
		ms = resetAt - now;
		answer = view.inFlight > 0;
	}
	if (view.cap !== undefined && view.cap > 0) {
		const quota = backgroundQuota(view.cap);
		const recent = view.starts.filter((start) => start > now - MINUTE_MS);
		if (recent.length >= quota) ms = Math.max(ms, recent[recent.length - quota] + MINUTE_MS - now);
	}
	return { ms: Math.max(0, ms), answer: answer && ms > 0 };
}
