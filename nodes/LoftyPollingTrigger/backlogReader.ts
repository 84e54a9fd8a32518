import { type IDataObject, type IPollFunctions, sleep } from 'n8n-workflow';

import { type Found, type Pass, keepSeen } from './cursor';
import { LEAD_PAGE } from './leadPages';
import { FRUITLESS_READS, PassRun, placeKey } from './passRun';

/**
 * A lead pass whose place lies deeper than one poll can read down to (Lofty pages leads only by scroll, the saved
 * scroll expired, the poll's budget ended before or soon after the place): the poll hands the pass, with its live
 * scroll, to a reader in this n8n process, one per trigger (workflow and node). The reader reads on without a
 * budget, paced by the transport to at most its share of each rate-limit window (the rest is left to the
 * credential's other requests: transport/backgroundShare.ts), and its scroll stays valid as it is used; a scroll
 * Lofty still refuses makes it read down to its place from the top again. It keeps the leads it reads in memory; the
 * trigger's next polls take them (`collect`), emit them and move the saved place (cursor.ts) down to the last one,
 * until the reader reaches the pass's end.
 *
 * - The reader sends its requests after the poll that started it returned: with a context of its own
 *   (readerContext.ts), as n8n's expression engine no longer signs the poll's requests then.
 * - A scroll refused before the read got past the place (the wait for its share outlived the scroll) makes the
 *   reader read down again with the whole window, not only its share. Refused `FRUITLESS_READS` times in a row
 *   without the place moving, the reader gives up (`stuck`): the next poll says so (unreachable.ts), keeps its
 *   place, and until `readerLimits.retryMs` later (doubling while the place stays, at most `maxRetryMs`) reads only
 *   the top of the list, for the leads that came in since the pass began; then it tries again.
 * - A reader hands over only to a poll whose saved place is the one it last handed over (or started from, or one
 *   handed over since with no leads): a poll that took leads and was not saved (it failed, or lost its turn) leaves
 *   the saved place above them; the reader is then dropped and the next poll reads from the saved place, so no lead
 *   is lost.
 * - Memory: at most `readerLimits.maxGathered` leads a reader (and the page in hand); it waits there until a poll takes them (its scroll
 *   may expire meanwhile: it then reads down to its place from the top again).
 * - A reader no poll came to for `readerLimits.idleMs` (15 minutes), or for twice the time between the trigger's
 *   last two polls if longer (a deactivated workflow, Poll Times hours apart), stops and forgets what it holds. A
 *   process restart loses the same: the saved place stands, and the next poll starts a reader again.
 * - The time of each trigger's last poll, and the places no reader could get past, are kept for the
 *   `readerLimits.maxPolled` triggers polled most recently.
 */

export const readerLimits = {
	/** The most leads a reader holds before a poll takes them. */
	maxGathered: 5000,
	/** A reader no poll came to for this long, or for `pollGaps` times the time between the trigger's polls if longer, stops. */
	idleMs: 15 * 60_000,
	pollGaps: 2,
	/** The most triggers whose last poll time is kept; past it the one polled least recently is forgotten. */
	maxPolled: 500,
	/** After a reader could not get past its place: how long polls read only the top, and the most that grows to. */
	retryMs: 15 * 60_000,
	maxRetryMs: 60 * 60_000,
};

interface Reader {
	run: PassRun;
	/**
	 * The places (placeKey) a poll may have saved: the one the reader last handed over (or started from), and
	 * those of the handovers before it since the last that carried leads (a poll that emits nothing may keep nothing).
	 */
	handed: Set<string>;
	status: 'reading' | 'full' | 'done' | 'failed' | 'stuck';
	error?: string;
	stopped: boolean;
	wake?: () => void;
	/** Ends the wait after which an idle reader stops. */
	idle?: AbortController;
	idleMs: number;
}

export interface Handover {
	fresh: Array<Found<IDataObject>>;
	/** The pass as far as the reader has read it. */
	pass: Pass;
	served?: number;
	/** The reader reached the pass's end. */
	done: boolean;
	/** Why the reader stopped before the end (it is dropped; the next poll reads on from the place). */
	error?: string;
	/**
	 * The reader could not get past the place (it is dropped): the most pages it read in a row, of `pageSize` leads,
	 * and whether its scrolls expired in waits for the rate limit (else before requests that did not wait).
	 */
	stuck?: { mostInRow: number; pageSize: number; rateLimited: boolean };
}

const readers = new Map<string, Reader>();
/** When each trigger last polled (n8n's clock), the one polled least recently first. */
const lastPoll = new Map<string, number>();
/** The place no reader of a trigger could get past, when polls try it again, and the wait before that. */
const unreachable = new Map<string, { place: string; retryAt: number; waitMs: number }>();

/** Forgets the least recently polled entries of `map` beyond `readerLimits.maxPolled`. */
function bound(map: Map<string, unknown>): void {
	while (map.size > readerLimits.maxPolled) map.delete(map.keys().next().value as string);
}

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function stop(key: string, reader: Reader): void {
	reader.stopped = true;
	reader.wake?.();
	reader.idle?.abort();
	if (readers.get(key) === reader) readers.delete(key);
}

function keepAlive(key: string, reader: Reader): void {
	reader.idle?.abort();
	const idle = new AbortController();
	reader.idle = idle;
	void sleep(reader.idleMs, idle.signal).then(
		() => stop(key, reader),
		() => undefined,
	);
}

/** Notes a poll of `key`; the time since its last poll (undefined for the first one this process saw). */
export function notePoll(key: string): number | undefined {
	const now = Date.now();
	const last = lastPoll.get(key);
	lastPoll.delete(key);
	lastPoll.set(key, now);
	// A trigger forgotten here polls again as a first poll: its reader stops after `readerLimits.idleMs`.
	bound(lastPoll);
	return last === undefined ? undefined : now - last;
}

/** Notes that no reader of `key` could get past the place of `pass`; the wait until polls try it again. */
export function noteUnreachable(key: string, pass: Pass): number {
	const place = placeKey(pass);
	const last = unreachable.get(key);
	const waitMs = last?.place === place ? Math.min(last.waitMs * 2, readerLimits.maxRetryMs) : readerLimits.retryMs;
	unreachable.delete(key);
	unreachable.set(key, { place, retryAt: Date.now() + waitMs, waitMs });
	bound(unreachable);
	return waitMs;
}

/** Whether polls of `key` read only the top of the list for now: no reader could get past the place of `pass`. */
export function waitsToRetry(key: string, pass: Pass): boolean {
	const entry = unreachable.get(key);
	if (entry && entry.place !== placeKey(pass)) unreachable.delete(key);
	return entry?.place === placeKey(pass) && Date.now() < entry.retryAt;
}

/**
 * Hands the pass `from` (as the poll stopped it, its pages with their live scroll) to a reader for `key`, which
 * sends its requests with `ctx` (readerContext.ts). The poll keeps its own pass: the reader reads a copy on.
 */
export function startReader(key: string, from: PassRun, gapMs: number | undefined, ctx: IPollFunctions): void {
	const old = readers.get(key);
	if (old) stop(key, old);
	const s = from.scope;
	const scope = { ...s, seen: new Map(s.seen), readNow: new Set<string>(), fresh: [], findDeadline: undefined };
	from.pages.deadline = undefined;
	from.pages.background = true;
	from.pages.ctx = ctx;
	const run = new PassRun(scope, copy(from.pass), from.pages, from.finding, from.reached);
	run.mostInRow = from.mostInRow;
	const reader: Reader = { run, handed: new Set([placeKey(from.pass)]), status: 'reading', stopped: false, idleMs: Math.max(readerLimits.idleMs, readerLimits.pollGaps * (gapMs ?? 0)) };
	readers.set(key, reader);
	keepAlive(key, reader);
	void read(reader);
}

async function read(reader: Reader): Promise<void> {
	const { run } = reader;
	while (!reader.stopped) {
		try {
			const outcome = await run.run(() => {
				// Its scroll expired in a wait for its share before it got past the place: the next read down takes the
				// whole window.
				if (run.fruitless > 0) run.pages.background = false;
				return reader.stopped || run.hopeless || run.scope.fresh.length >= readerLimits.maxGathered;
			});
			if (reader.stopped) return;
			if (outcome === 'done' || run.hopeless) {
				reader.status = outcome === 'done' ? 'done' : 'stuck';
				return;
			}
		} catch (error) {
			reader.status = 'failed';
			reader.error = (error as Error).message;
			return;
		}
		reader.status = 'full';
		await new Promise<void>((resolve) => (reader.wake = resolve));
		reader.wake = undefined;
		reader.status = 'reading';
	}
}

/**
 * What the reader of `key` read since it last handed over, when `saved` is the place it last handed over (else
 * the reader is dropped: undefined). The reader goes on with `ctx` (readerContext.ts, of the newest poll), from
 * where it stands.
 */
export function collect(key: string, saved: Pass, ctx: IPollFunctions): Handover | undefined {
	const reader = readers.get(key);
	if (!reader) return undefined;
	if (!reader.handed.has(placeKey(saved))) {
		stop(key, reader);
		return undefined;
	}
	const { run } = reader;
	const { scope } = run;
	const fresh = scope.fresh.splice(0);
	const pass = copy(run.pass);
	if (fresh.length) reader.handed.clear();
	reader.handed.add(placeKey(pass));
	// The reader's memory of IDs shrinks to what the saved place keeps.
	scope.seen = new Map(Object.entries(keepSeen(scope.seen, scope.cursor ?? 0, pass.at)));
	scope.readNow.clear();
	run.pages.ctx = ctx;
	const handover: Handover = { fresh, pass, served: scope.served, done: reader.status === 'done', error: reader.error };
	if (reader.status === 'stuck') handover.stuck = { mostInRow: run.mostInRow, pageSize: scope.served ?? LEAD_PAGE, rateLimited: run.fruitless >= FRUITLESS_READS };
	if (reader.status === 'failed' || reader.status === 'stuck') stop(key, reader);
	else keepAlive(key, reader);
	if (reader.status === 'full') reader.wake?.();
	return handover;
}

/** Whether any reader is reading (not done, stopped, or waiting for a poll to take what it holds). */
export function readerBusy(): boolean {
	return [...readers.values()].some((r) => r.status === 'reading');
}

/** The reader of `key`: reading, full (waits for a poll), done, failed, stuck; undefined when there is none. */
export function readerState(key: string): Reader['status'] | undefined {
	return readers.get(key)?.status;
}

/** How many triggers' poll times and readers are kept (tests of the bounds). */
export function backlogReaderCounts(): { polled: number; readers: number } {
	return { polled: lastPoll.size, readers: readers.size };
}

/** Stops every reader and forgets the polls' times (a process restart, in tests). */
export function forgetBacklogReaders(): void {
	for (const [key, reader] of [...readers]) stop(key, reader);
	lastPoll.clear();
	unreachable.clear();
}
