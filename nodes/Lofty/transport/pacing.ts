import { sleep } from 'n8n-workflow';

import { shareWait } from './backgroundShare';
import type { Bucket, Window } from './pacingBucket';
import { type Headers, MAX_PACING_WAIT_MS, announcedReset, headerNumber, waitAfter429 } from './rateHeaders';

export { fingerprint, pacingKey } from './pacingKey';
export { MAX_PACING_WAIT_MS, RESET_MARGIN_MS, rateLimitWaitMs, resetTime } from './rateHeaders';
export { RATE_LIMIT_PRESETS, requestsPerMinute } from './rateLimitChoice';

/**
 * Request pacing, shared by every request made with one credential in this n8n process: across the items of an
 * execution, the requests it keeps in flight, paged requests and executions that run at the same time.
 *
 * Lofty limits each application (100 requests a minute in Development, 500 in Production) and announces the window on
 * every answer: `X-RateLimit-Remaining` and `X-RateLimit-Reset`. Before each request the pacer waits while the window
 * is used up, and, when the credential sets a cap, while the last minute already holds that many requests. A 429 holds
 * the whole credential as the server asks. Background work (the polling trigger's backlog reader) keeps to a share of
 * each window, leaving the rest to the credential's other requests (backgroundShare.ts).
 *
 * With requests in flight, an answer may not count the requests sent after it. Requests are numbered as they are sent:
 * the newest answer tells the window, minus everything sent after it and the older requests still in flight (their own
 * answers later show whether the server had counted them, and give the room back if so). Whether Lofty's Remaining is
 * as of the request or as of its answer, this never counts fewer requests than the server did; a request that waits for
 * room wakes at each answer.
 *
 * No request waits on another's latency: answers only ever let a request go sooner. When the window is unknown (the
 * first request of the process, or after a 429) one request goes first and the others wait for its answer at most
 * PROBE_WAIT_MS; then they go within the smallest limit Lofty grants an application. When a window ends, the next opens
 * at its reset with the announced limit, less the requests still on their way: a request that waited for the reset goes
 * then, without a probe.
 *
 * Other processes that use the same application (n8n workers, other tools) are seen through the answers only: each
 * newer answer's Remaining counts their requests too. Between two answers a process cannot know what the others sent,
 * so together they may overrun a window by what they send in that time; a 429 then holds the credential until the
 * window's reset (or Retry-After) and nothing is lost.
 *
 * The state is small and bounded: per credential a few numbers and the numbers of the requests in flight, plus, with a
 * cap, the start times of at most `cap` requests; idle credentials are forgotten once many are tracked.
 */

const MINUTE_MS = 60_000;
/**
 * How long requests wait for the first answer of an unknown window. Longer than a usual round trip (the
 * probe's answer normally comes first and tells the real window), short beside a one-minute window.
 */
export const PROBE_WAIT_MS = 1000;
/**
 * The window assumed until an answer tells it: Lofty's smallest limit for an application (Development,
 * 100 a minute), so that requests sent before the first answer cannot overrun any application's window.
 */
export const SMALLEST_LIMIT = 100;
/** Beyond this many tracked credentials (or twice the number busy), idle ones are forgotten. */
export const MAX_IDLE_CREDENTIALS = 100;

const buckets = new Map<string, Bucket>();
let sweepAt = MAX_IDLE_CREDENTIALS;

/** The keys currently tracked (for tests: they must not contain secrets). */
export function pacingKeys(): string[] {
	return [...buckets.keys()];
}

/** How much the pacer holds (for tests of its bounds). */
export function pacingState(): { credentials: number; startTimes: number; inFlight: number } {
	const all = [...buckets.values()];
	return { credentials: buckets.size, startTimes: all.reduce((n, b) => n + b.starts.length, 0), inFlight: all.reduce((n, b) => n + b.inFlight.size, 0) };
}

/** Forgets every credential's state (tests). */
export function resetPacing(): void {
	buckets.clear();
	sweepAt = MAX_IDLE_CREDENTIALS;
}

/** A credential with nothing pending whose windows are over carries nothing worth keeping. */
function idle(bucket: Bucket, now: number): boolean {
	return (
		bucket.inFlight.size === 0 &&
		bucket.waiting === 0 &&
		(bucket.blockedUntil ?? 0) <= now &&
		(bucket.window?.resetAt ?? 0) <= now &&
		(bucket.starts.length === 0 || bucket.starts[bucket.starts.length - 1] <= now - MINUTE_MS)
	);
}

function bucketOf(key: string): Bucket {
	let bucket = buckets.get(key);
	if (!bucket) {
		if (buckets.size >= sweepAt) {
			const now = Date.now();
			for (const [other, state] of buckets) if (idle(state, now)) buckets.delete(other);
			// Credentials still busy stay; the next sweep waits until the map has doubled (amortized cost).
			sweepAt = Math.max(MAX_IDLE_CREDENTIALS, buckets.size * 2);
		}
		bucket = { newest: 0, sent: 0, inFlight: new Set(), waiting: 0, queue: Promise.resolve(), starts: [], paused: 0 };
		buckets.set(key, bucket);
	}
	return bucket;
}

/** What the wait before the next request is for: a time, and/or the next answer. */
interface Wait {
	ms: number;
	/** An answer may allow the request sooner (it tells the window, or gives back room held for it). */
	answer: boolean;
}

/**
 * A window not told by an answer: `limit` requests from now for a minute, less the requests still on their way
 * (the server may count them in it; their answers give the room back when they name the window before).
 */
function assume(bucket: Bucket, limit: number, now: number): Window {
	bucket.probeAt = undefined;
	bucket.window = {
		assumed: true,
		reset: NaN,
		resetAt: now + MINUTE_MS,
		from: bucket.sent,
		reported: limit,
		base: limit + bucket.sent - bucket.inFlight.size,
		pending: new Set(bucket.inFlight),
	};
	return bucket.window;
}

/** The announced window is over: the next one opens now with the announced limit (no probe to wait for). */
function roll(bucket: Bucket, now: number): void {
	if (!bucket.window || now < bucket.window.resetAt) return;
	bucket.window = undefined;
	if (bucket.limit !== undefined && bucket.announces !== false) assume(bucket, bucket.limit, now);
}

/** How long a background request waits for its share of the window (backgroundShare.ts). */
function shareOf(bucket: Bucket, cap: number | undefined, now: number): Wait {
	roll(bucket, now);
	const w = bucket.window?.reset === bucket.overruled ? undefined : bucket.window;
	return shareWait({ limit: bucket.limit, room: w && w.base - bucket.sent, resetAt: w?.resetAt, inFlight: bucket.inFlight.size, cap, starts: bucket.starts }, now);
}

function waitFor(bucket: Bucket, cap: number | undefined, now: number): Wait {
	let ms = 0;
	let answer = false;
	if (bucket.blockedUntil !== undefined) {
		if (now < bucket.blockedUntil) ms = bucket.blockedUntil - now;
		else bucket.blockedUntil = undefined;
	}
	roll(bucket, now);
	let w = bucket.window;
	if (!w && bucket.probeAt !== undefined && bucket.inFlight.size > 0 && bucket.announces !== false) {
		// Unknown, and the probe is on its way: its answer tells the window, but it is waited for PROBE_WAIT_MS at most.
		const deadline = bucket.probeAt + PROBE_WAIT_MS;
		if (now < deadline) {
			ms = Math.max(ms, deadline - now);
			answer = true;
		} else {
			w = assume(bucket, Math.min(bucket.limit ?? SMALLEST_LIMIT, SMALLEST_LIMIT), now);
		}
	}
	if (w && w.base - bucket.sent <= 0 && w.reset !== bucket.overruled) {
		// Used up by this count: the reset, unless an answer shows room sooner.
		ms = Math.max(ms, w.resetAt - now);
		answer = bucket.inFlight.size > 0;
	}
	if (cap !== undefined && cap > 0) {
		while (bucket.starts.length && bucket.starts[0] <= now - MINUTE_MS) bucket.starts.shift();
		if (bucket.starts.length >= cap) ms = Math.max(ms, bucket.starts[bucket.starts.length - cap] + MINUTE_MS - now);
	}
	return { ms, answer };
}

function nextEnd(bucket: Bucket): Promise<void> {
	if (!bucket.nextEnd) {
		let settle!: () => void;
		const promise = new Promise<void>((resolve) => (settle = resolve));
		bucket.nextEnd = { promise, settle };
	}
	return bucket.nextEnd.promise;
}

/**
 * Sleeps `ms` (at most the longest wait), or less when an answer may allow the request sooner. Returns how long it
 * paused, at most the time planned (a stall of the process does not lengthen it).
 */
async function pause(bucket: Bucket, wait: Wait): Promise<number> {
	const ms = Math.min(wait.ms, MAX_PACING_WAIT_MS);
	const from = Date.now();
	if (!wait.answer) await sleep(ms);
	else {
		// The timer is cancelled when an answer comes first (n8n before 2.34 ignores the signal: the timer then just runs out).
		const timer = new AbortController();
		const timed = sleep(ms, timer.signal).catch(() => undefined);
		await Promise.race([timed, nextEnd(bucket)]);
		timer.abort();
	}
	return Math.min(ms, Date.now() - from);
}

/** Learns from an answer to request `request` (still counted in flight). */
function learn(bucket: Bucket, headers: Headers, request: number): void {
	const remaining = headerNumber(headers, 'X-RateLimit-Remaining');
	const reset = headerNumber(headers, 'X-RateLimit-Reset');
	bucket.announces = remaining !== undefined && reset !== undefined;
	if (remaining === undefined || reset === undefined) return;
	bucket.limit = headerNumber(headers, 'X-RateLimit-Limit') ?? Math.max(bucket.limit ?? 0, remaining + 1);
	const now = Date.now();
	const resetAt = announcedReset(headers, now) as number;
	const w = bucket.window;
	if (resetAt <= now) {
		// It names a window already over: it tells nothing of the window now, and a request held back from it in case
		// the server counted it there was counted in the old one, so its room comes back.
		if (w?.pending.delete(request)) w.base++;
		return;
	}
	if (request < bucket.newest && !w?.assumed) {
		// An older answer of the known window: if it was counted before the one that told the window, the room held
		// back for it comes back. Remaining only falls within a window: as of the request, each request has its own, so
		// a higher one was counted earlier; as of the answer, an equal one too (nothing was counted between the two).
		if (w && w.reset === reset && w.pending.delete(request) && remaining >= w.reported) w.base++;
		return;
	}
	const older = [...bucket.inFlight].filter((other) => other < request);
	bucket.newest = request;
	bucket.probeAt = undefined;
	bucket.window = {
		assumed: false,
		reset,
		resetAt,
		from: request,
		reported: remaining,
		base: remaining + request - older.length,
		pending: new Set(older),
	};
}

export interface PacingTicket {
	/** The request is over without an answer. */
	done(): void;
	/** The request was answered: learns the announced window from its headers. */
	observe(headers: Headers): void;
	/** After a 429: holds every request of the credential as the server asks; returns the wait. */
	refused(headers: Headers, attempt: number): number;
	/** How long the pacer held it for the limit: its own pauses and those of the requests ahead of it in the queue. */
	readonly heldMs: number;
}

/** Thrown by acquire when the wait would end past the caller's deadline (nothing was counted as sent). */
class PacingDeadline extends Error {
	readonly pacingDeadline = true;
}

export const isPacingDeadline = (error: unknown): boolean => (error as { pacingDeadline?: unknown } | null)?.pacingDeadline === true;

/**
 * The soonest the next request of the credential can go, as far as is known without an answer: after a 429's hold,
 * at the reset of a used-up window no answer can give room back in (nothing in flight), once the cap allows.
 */
function soonest(bucket: Bucket, cap: number | undefined, now: number): number {
	let at = Math.max(now, bucket.blockedUntil ?? 0);
	const w = bucket.window;
	if (w && now < w.resetAt && w.base - bucket.sent <= 0 && w.reset !== bucket.overruled && bucket.inFlight.size === 0) at = Math.max(at, w.resetAt);
	if (cap !== undefined && cap > 0 && bucket.starts.length >= cap) at = Math.max(at, bucket.starts[bucket.starts.length - cap] + MINUTE_MS);
	return at;
}

/**
 * Waits for the turn behind the requests queued before this one (another execution may be waiting for the next
 * window), but not past the deadline: a turn that cannot come in time (the queue waits for a window that ends after
 * it) is not waited for at all, and a turn that does not come in time is given up when the deadline comes.
 */
async function turnBefore(bucket: Bucket, previous: Promise<void>, cap: number | undefined, deadline: number): Promise<void> {
	const now = Date.now();
	if (bucket.waiting > 1 && soonest(bucket, cap, now) >= deadline) throw new PacingDeadline('the requests queued before this one wait past the deadline');
	const timer = new AbortController();
	const timedOut = sleep(Math.max(0, deadline - now), timer.signal).then(
		() => true,
		() => false,
	);
	const late = await Promise.race([previous.then(() => false), timedOut]);
	timer.abort();
	if (late) throw new PacingDeadline('the requests queued before this one did not go in time');
}

/**
 * Waits until one more request with this credential stays within the announced limit and the optional cap (requests
 * per minute), then counts it as sent. With a `deadline` (epoch ms), a wait that would end past it is not started: it
 * throws instead (isPacingDeadline). A `background` request keeps to its share of each window (backgroundShare.ts):
 * it waits for it outside the queue, and gives its turn up to wait again when the share was used meanwhile.
 */
export async function acquire(key: string, cap?: number, deadline?: number, background = false): Promise<PacingTicket> {
	const held = { ms: 0 };
	for (;;) {
		const bucket = bucketOf(key);
		const share = background && (await shareTurn(bucket, cap, deadline, held));
		const request = await take(bucket, cap, deadline, share, held);
		if (request !== undefined) return ticketOf(bucket, request, held.ms);
	}
}

/** Waits for a background request's share of the window; false when a wait past MAX_PACING_WAIT_MS was not believed. */
async function shareTurn(bucket: Bucket, cap: number | undefined, deadline: number | undefined, held: { ms: number }): Promise<boolean> {
	for (;;) {
		const wait = shareOf(bucket, cap, Date.now());
		if (wait.ms <= 0) return true;
		if (deadline !== undefined && Date.now() + wait.ms >= deadline) throw new PacingDeadline('the pacing wait would end past the deadline');
		held.ms += await pause(bucket, wait);
		if (!wait.answer && wait.ms > MAX_PACING_WAIT_MS) return false;
	}
}

/** Takes the turn in the queue and counts the request as sent; undefined when a background request's share is gone. */
async function take(bucket: Bucket, cap: number | undefined, deadline: number | undefined, share: boolean, held: { ms: number }): Promise<number | undefined> {
	const [previous, paused, entered] = [bucket.queue, bucket.paused, Date.now()];
	let release!: () => void;
	bucket.queue = new Promise<void>((resolve) => (release = resolve));
	bucket.waiting++;
	let turn = false;
	try {
		if (deadline === undefined) await previous;
		else await turnBefore(bucket, previous, cap, deadline);
		turn = true;
		for (;;) {
			const wait = waitFor(bucket, cap, Date.now());
			if (share && shareOf(bucket, cap, Date.now()).ms > 0) return undefined;
			if (wait.ms <= 0 && !wait.answer) break;
			if (deadline !== undefined && Date.now() + wait.ms >= deadline) throw new PacingDeadline('the pacing wait would end past the deadline');
			bucket.paused += await pause(bucket, wait);
			if (!wait.answer && wait.ms > MAX_PACING_WAIT_MS) {
				// An announced reset this far away is not waited out: let the server decide.
				bucket.window = undefined;
				bucket.blockedUntil = undefined;
			}
		}
		if (cap !== undefined && cap > 0) {
			bucket.starts.push(Date.now());
			if (bucket.starts.length > cap) bucket.starts.splice(0, bucket.starts.length - cap);
		} else if (bucket.starts.length) {
			bucket.starts = [];
		}
		// The first request sent into an unknown window is its probe (again when nothing else is on its way).
		if (!bucket.window && (bucket.probeAt === undefined || bucket.inFlight.size === 0)) bucket.probeAt = Date.now();
		const request = ++bucket.sent;
		bucket.inFlight.add(request);
		return request;
	} finally {
		// Pauses at the head of the queue while this one waited held it too (counted within the time it waited).
		held.ms += Math.min(bucket.paused - paused, Date.now() - entered);
		bucket.waiting--;
		// Left the queue before its turn (out of time): the next in line still waits for the ones ahead of this one.
		if (turn) release();
		else void previous.then(release);
	}
}

function ticketOf(bucket: Bucket, request: number, heldMs: number): PacingTicket {
	const done = () => {
		if (!bucket.inFlight.delete(request)) return;
		bucket.window?.pending.delete(request);
		const waiting = bucket.nextEnd;
		bucket.nextEnd = undefined;
		waiting?.settle();
	};
	return {
		heldMs,
		done,
		// Learn first, then end: whoever waits for this answer sees what it said.
		observe(headers) {
			if (bucket.inFlight.has(request)) learn(bucket, headers, request);
			done();
		},
		refused(headers, attempt) {
			const now = Date.now();
			const wait = waitAfter429(headers, attempt, now);
			// The server's wait replaces what its window said: a far reset is not waited for when Retry-After is short,
			// neither now nor when other answers of that window arrive.
			bucket.window = undefined;
			bucket.probeAt = undefined;
			bucket.overruled = wait.basis === 'reset' ? undefined : headerNumber(headers, 'X-RateLimit-Reset');
			bucket.blockedUntil = Math.max(bucket.blockedUntil ?? 0, now + wait.ms);
			done();
			return wait.ms;
		},
	};
}

/** After a 429: no request with this credential before `waitMs` from now. */
export function block(key: string, waitMs: number): void {
	const bucket = bucketOf(key);
	bucket.blockedUntil = Math.max(bucket.blockedUntil ?? 0, Date.now() + waitMs);
}
