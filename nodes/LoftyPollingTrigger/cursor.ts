/**
 * Where a polled source stopped, kept in the workflow's static data (n8n saves it with the execution the poll
 * starts; 2.41 commits it together with that execution, 2.8 right before it):
 *
 * - `cursor`: the newest record time seen (Lofty's clock, epoch ms), never past Lofty's clock at that poll: a record
 *   dated in the future (an import, a local time read as UTC) is emitted but does not move the cursor, so the
 *   records written before that date are still read. Each poll reads from `cursor - lookBack` to Lofty's now, so a
 *   record that Lofty shows only a while after its time, or that was written while the previous poll ran, is read.
 * - `seen`: the IDs read in that overlap, with their times: a record is emitted once, also when several share one
 *   time, or when a restart repeats a poll. Entries older than the overlap are dropped (bounded by MAX_SEEN).
 * - Calls, texts and emails are listed oldest first: a read the poll's budget cut short simply leaves the cursor at
 *   the last one read. (Leads are listed newest first: their place is a LeadPlace, below.)
 *
 * The first poll of an activation with no state is a baseline: it reads the last `lookBack` and only remembers, so
 * the trigger starts from "now". With a start date, the first poll emits everything since that date instead.
 */

/** What an earlier version saved of a lead read the budget cut: leads in [from, to] still to read. */
interface Backlog {
	from: number;
	to: number;
	offset: number;
	scrollId?: string;
}

export interface SourceState {
	cursor: number;
	seen: Record<string, number>;
}

export interface Found<T> {
	id: string;
	time: number;
	record: T;
}

export const MAX_SEEN = 10_000;

/** The window a poll reads for one source (on Lofty's clock), and whether it only sets the baseline. */
export function windowOf(state: SourceState | undefined, loftyNow: number, lookBackMs: number, startFrom?: number): { from: number; baseline: boolean } {
	// A cursor saved past Lofty's clock (by a version before the clamp) is brought back to it.
	if (state) return { from: Math.min(state.cursor, loftyNow) - lookBackMs, baseline: false };
	if (startFrom !== undefined) return { from: Math.min(startFrom, loftyNow), baseline: false };
	return { from: loftyNow - lookBackMs, baseline: true };
}

export interface AdvanceOptions {
	baseline: boolean;
	/** Lofty's now at this poll: the cursor never passes it. */
	now: number;
	lookBackMs: number;
	startFrom?: number;
	/** A read cut short in time order: the cursor stays at or before this time (the last record read). */
	readUpTo?: number;
}

/** The records not emitted before (oldest first), and the state after this poll. */
export function advance<T>(state: SourceState | undefined, found: Array<Found<T>>, options: AdvanceOptions): { fresh: Array<Found<T>>; next: SourceState } {
	const seen: Record<string, number> = { ...(state?.seen ?? {}) };
	const fresh: Array<Found<T>> = [];
	const sorted = [...found].sort((a, b) => a.time - b.time || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
	for (const f of sorted) {
		if (f.id in seen) continue;
		seen[f.id] = f.time;
		if (!options.baseline) fresh.push(f);
	}
	const start = state?.cursor ?? (options.baseline ? options.now : (options.startFrom ?? options.now));
	const upTo = options.baseline ? Infinity : (options.readUpTo ?? Infinity);
	const newest = Math.max(start, ...sorted.filter((f) => f.time <= upTo).map((f) => f.time));
	const cursor = Math.min(newest, options.now);
	// Only the next window's overlap needs remembering; beyond MAX_SEEN the oldest go first.
	const needed = (time: number) => time >= cursor - options.lookBackMs;
	const keep = Object.entries(seen)
		.filter(([, time]) => needed(time))
		.sort((a, b) => b[1] - a[1])
		.slice(0, MAX_SEEN);
	return { fresh, next: { cursor, seen: Object.fromEntries(keep) } };
}

/**
 * New Lead's place (leads.ts reads it): leads are listed newest first and read in passes from the top down.
 *
 * - `cursor`: the newest create time the last finished pass read (never past Lofty's clock then): the next pass
 *   reads every lead newer than it, then re-checks a few below it within Look Back.
 * - `seen`: the newest IDs read, with their times (at most MAX_LEAD_SEEN, plus those at the pass's place): a lead is
 *   emitted once, also when several share a time or a pass re-checks it.
 * - `pass`: a pass the poll's budget cut, to go on with first. Where a reader in the process reads it on past the
 *   poll (backlogReader.ts), the polls that take its leads move `pass` down: the saved place stays here.
 * - `served`: the most leads Lofty serves in a page (25 where it serves no more than that).
 */
export interface Pass {
	/** The newest time of this pass: the cursor once it is done (set by its first page). */
	top?: number;
	/** The cursor when it began: below it, only a re-check. */
	floor?: number;
	/** The re-check goes no lower than this. */
	recheckFrom?: number;
	/** Leads re-checked so far (at most RECHECK_LEADS). */
	rechecked?: number;
	/** The time of the last lead read: everything above it is read. */
	at?: number;
	/** Leads of the list above the next page when it was cut, and Lofty's scroll to go on. */
	offset: number;
	scrollId?: string;
	/** How many leads Lofty listed when the pass began (its first page's total). */
	listed?: number;
	/** Leads of the pass (below its top, above its floor) emitted so far. */
	taken?: number;
}

export interface LeadPlace {
	cursor: number;
	seen: Record<string, number>;
	pass?: Pass;
	served?: number;
	/**
	 * How many leads Lofty listed when the pass that set the cursor began: every one of them was read by it, so the
	 * next pass's leads are about its own `listed` less this (the size of a backlog it could not read to its end).
	 */
	listed?: number;
}

export const MAX_LEAD_SEEN = 1000;

/** The stored lead state, also as an earlier version left it (`backlog` [from, to]: read on from `to` down to `from`). */
export function placeOf(stored: unknown): LeadPlace | undefined {
	const s = stored as (LeadPlace & { backlog?: Backlog }) | undefined;
	if (!s || typeof s.cursor !== 'number') return undefined;
	const place: LeadPlace = { cursor: s.cursor, seen: s.seen ?? {}, pass: s.pass, served: s.served, listed: s.listed };
	if (s.backlog && !s.pass) {
		const b = s.backlog;
		place.pass = { top: s.cursor, floor: b.from, recheckFrom: b.from, at: b.to, offset: b.offset, scrollId: b.scrollId };
	}
	return place;
}

/**
 * What the next polls need of `seen`: the IDs newer than the cursor (read ahead of the next pass; at most MAX_SEEN),
 * the newest MAX_LEAD_SEEN at or below it (what a re-check reads again), and every ID at the pass's place (`at`).
 */
export function keepSeen(seen: Map<string, number>, cursor: number, at: number | undefined): Record<string, number> {
	const sorted = [...seen].sort((a, b) => b[1] - a[1]);
	const ahead = sorted.filter(([, time]) => time > cursor).slice(0, MAX_SEEN);
	const below = sorted.filter(([, time]) => time <= cursor);
	const kept = [...ahead, ...below.slice(0, MAX_LEAD_SEEN)];
	if (at !== undefined) for (const entry of below.slice(MAX_LEAD_SEEN)) if (entry[1] === at) kept.push(entry);
	return Object.fromEntries(kept);
}
