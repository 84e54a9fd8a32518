/**
 * Where a polled source stopped, kept in the workflow's static data (n8n saves it with the execution the poll
 * starts; 2.41 commits it together with that execution, 2.8 right before it):
 *
 * - `cursor`: the newest record time seen (Lofty's clock, epoch ms). Each poll reads from `cursor - lookBack` to now,
 *   so a record that Lofty shows only a while after its time (it persists asynchronously), or that was written while
 *   the previous poll ran, is still read.
 * - `seen`: the IDs read in that overlap, with their times: a record is emitted once, also when several share one
 *   time, or when a restart repeats a poll. Entries older than the overlap are dropped (bounded by MAX_SEEN).
 *
 * The first poll of an activation with no state is a baseline: it reads the last `lookBack` and only remembers, so
 * the trigger starts from "now". With a start date, the first poll emits everything since that date instead.
 */

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

/** The window a poll reads for one source, and whether it only sets the baseline. */
export function windowOf(state: SourceState | undefined, now: number, lookBackMs: number, startFrom?: number): { from: number; baseline: boolean } {
	if (state) return { from: state.cursor - lookBackMs, baseline: false };
	if (startFrom !== undefined) return { from: Math.min(startFrom, now), baseline: false };
	return { from: now - lookBackMs, baseline: true };
}

/** The records not emitted before (oldest first), and the state after this poll. */
export function advance<T>(
	state: SourceState | undefined,
	found: Array<Found<T>>,
	options: { baseline: boolean; now: number; lookBackMs: number; startFrom?: number },
): { fresh: Array<Found<T>>; next: SourceState } {
	const seen: Record<string, number> = { ...(state?.seen ?? {}) };
	const fresh: Array<Found<T>> = [];
	const sorted = [...found].sort((a, b) => a.time - b.time || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
	for (const f of sorted) {
		if (f.id in seen) continue;
		seen[f.id] = f.time;
		if (!options.baseline) fresh.push(f);
	}
	const start = state?.cursor ?? (options.baseline ? options.now : (options.startFrom ?? options.now));
	const cursor = Math.max(start, ...sorted.map((f) => f.time));
	// Only the overlap of the next poll needs remembering; beyond MAX_SEEN the oldest go first.
	const keep = Object.entries(seen)
		.filter(([, time]) => time >= cursor - options.lookBackMs)
		.sort((a, b) => b[1] - a[1])
		.slice(0, MAX_SEEN);
	return { fresh, next: { cursor, seen: Object.fromEntries(keep) } };
}
