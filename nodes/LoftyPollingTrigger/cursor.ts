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
 * - `backlog` (leads): a read the poll's time budget cut short. Leads are listed newest first, so what was read is
 *   everything newer than `to`; the leads in [from, to] are read by the next polls, going on at `offset` / `scrollId`.
 *   Calls, texts and emails are listed oldest first: a cut read simply leaves the cursor at the last one read.
 *
 * The first poll of an activation with no state is a baseline: it reads the last `lookBack` and only remembers, so
 * the trigger starts from "now". With a start date, the first poll emits everything since that date instead.
 */

export interface Backlog {
	from: number;
	to: number;
	offset: number;
	scrollId?: string;
}

export interface SourceState {
	cursor: number;
	seen: Record<string, number>;
	backlog?: Backlog;
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
	/** The leads still to read after this poll (their overlap with `seen` is kept). */
	backlog?: Backlog;
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
	const { lookBackMs, backlog } = options;
	// Only the overlaps of the next reads need remembering: the next window's, and while a backlog is read, the
	// leads at its boundary and those seen before it began. Beyond MAX_SEEN the oldest go first.
	const needed = (time: number) =>
		time >= cursor - lookBackMs || (backlog !== undefined && (time === backlog.to || (time >= backlog.from && time <= backlog.from + lookBackMs)));
	const keep = Object.entries(seen)
		.filter(([, time]) => needed(time))
		.sort((a, b) => b[1] - a[1])
		.slice(0, MAX_SEEN);
	const next: SourceState = { cursor, seen: Object.fromEntries(keep) };
	if (backlog) next.backlog = backlog;
	return { fresh, next };
}
