import type { IDataObject } from 'n8n-workflow';

/**
 * What the trigger owes a catch-up, kept in the node's static data (`catchUp`), on n8n's clock:
 *
 * - `since`: when this trigger began to listen with catch-up (its first activation, or the first after a
 *   deactivation). Nothing before it is ever caught up: deliveries handled before it left no catch-up keys.
 * - `listenedAt`: the last time the trigger was known to listen: its last handled delivery or activation.
 * - `owed`: per event list, the time range still to read back (`to` absent: up to the moment of reading).
 *   An activation, and the first delivery a new n8n process handles where no activation runs at n8n's start, owe, for
 *   every chosen list that can be read back, from `listenedAt` less CATCH_UP_MARGIN_MS
 *   (events whose deliveries were still being retried then), never before `since` nor more than
 *   CATCH_UP_MAX_BACK_MS back. A catch-up pays it off (all of it, or the part its budget allowed).
 * - `activatedAt`: the last activation by this version of the trigger. Since it has trigger(), n8n runs its
 *   activation at every start (2.41 too, for a workflow published with it): the activation owes what a start missed,
 *   and the first delivery of a new process owes nothing. In queue mode that process is an `n8n webhook` process,
 *   which never activates and whose start is no gap in listening (main and the other processes listened); a catch-up
 *   it started read back what another process was delivering, whose marks the copy of the static data it loaded may
 *   lack (the last save wins, across processes too): those events ran twice (queue e2e). Without `activatedAt` (a
 *   workflow published with an older version, which n8n 2.41 does not activate at start) the first delivery owes.
 * - `stoppedAt`: when delete() ran (a deactivation, or n8n replacing the trigger on a re-publish). An activation
 *   within RESUME_AFTER_STOP_MS of it goes on from where the trigger was (a re-publish deletes and re-creates the
 *   subscriptions: events in between were never sent); a later one starts afresh (the user had turned it off).
 */

/** The event lists Lofty lets a client read back by time, with what the read is (catchUp.ts). */
export const CATCH_UP_LISTS: Readonly<Record<number, 'lead' | 'call' | 'email' | 'text'>> = { 2: 'lead', 6: 'call', 7: 'email', 8: 'text' };

export const CATCH_UP_MARGIN_MS = 60 * 60 * 1000;
export const CATCH_UP_MAX_BACK_MS = 24 * 60 * 60 * 1000;
export const RESUME_AFTER_STOP_MS = 5 * 60 * 1000;

export interface OwedRange {
	from: number;
	to?: number;
}

export interface CatchUpState {
	since?: number;
	listenedAt?: number;
	stoppedAt?: number;
	activatedAt?: number;
	teamId?: string;
	/** Lofty's clock minus n8n's, as last measured */
	skewMs?: number;
	owed?: Record<string, OwedRange>;
}

const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** The state in the static data (made when absent); unreadable parts are dropped. */
export function catchUpStateOf(staticData: IDataObject): CatchUpState {
	const raw = staticData.catchUp;
	if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
		staticData.catchUp = {};
		return staticData.catchUp as CatchUpState;
	}
	return raw as CatchUpState;
}

/** The owed ranges that are readable, by list. */
export function owedOf(state: CatchUpState): Record<string, OwedRange> {
	const owed: Record<string, OwedRange> = {};
	for (const [list, range] of Object.entries(state.owed ?? {})) {
		const from = num((range as OwedRange | undefined)?.from);
		if (from === undefined || !(Number(list) in CATCH_UP_LISTS)) continue;
		const to = num(range.to);
		owed[list] = to === undefined ? { from } : { from, to };
	}
	return owed;
}

/** Adds `range` to what a list owes: the union of both (a range up to now wins over one with an end). */
function addOwed(owed: Record<string, OwedRange>, list: string, range: OwedRange): void {
	const before = owed[list];
	if (!before) {
		owed[list] = { ...range };
		return;
	}
	const from = Math.min(before.from, range.from);
	owed[list] = before.to === undefined || range.to === undefined ? { from } : { from, to: Math.max(before.to, range.to) };
}

/** A delivery was handled: the trigger listened at `now` (the first time with catch-up, when no activation ran since). */
export function noteListened(staticData: IDataObject, now: number, teamId?: string): void {
	const state = catchUpStateOf(staticData);
	if (state.since === undefined) state.since = now;
	state.listenedAt = Math.max(num(state.listenedAt) ?? 0, now);
	if (teamId !== undefined) state.teamId = teamId;
}

/** delete() ran. */
export function noteStopped(staticData: IDataObject, now: number): void {
	const state = catchUpStateOf(staticData);
	if (state.since !== undefined) state.stoppedAt = now;
}

/**
 * An activation: what it owes for the chosen `lists` (also stored). A first activation, or one long after a
 * deactivation, owes nothing and starts listening.
 */
export function oweOnActivation(staticData: IDataObject, lists: number[], now: number): Record<string, OwedRange> {
	const state = catchUpStateOf(staticData);
	const since = num(state.since);
	const stoppedAt = num(state.stoppedAt);
	if (since === undefined || (stoppedAt !== undefined && now - stoppedAt > RESUME_AFTER_STOP_MS)) {
		staticData.catchUp = { since: now, listenedAt: now, activatedAt: now, ...(state.teamId ? { teamId: state.teamId } : {}) };
		return {};
	}
	delete state.stoppedAt;
	state.activatedAt = now;
	return oweSinceListened(state, since, lists, now);
}

/**
 * The first request a new n8n process handles for this trigger: what it owes since it last listened, as an activation
 * would (also stored), only where no activation runs at n8n's start (no `activatedAt`: see above).
 */
export function oweOnFirstRequest(staticData: IDataObject, lists: number[], now: number): Record<string, OwedRange> {
	const state = catchUpStateOf(staticData);
	const since = num(state.since);
	return since === undefined || num(state.activatedAt) !== undefined ? {} : oweSinceListened(state, since, lists, now);
}

function oweSinceListened(state: CatchUpState, since: number, lists: number[], now: number): Record<string, OwedRange> {
	const from = Math.max(since, (num(state.listenedAt) ?? since) - CATCH_UP_MARGIN_MS, now - CATCH_UP_MAX_BACK_MS);
	const owed = owedOf(state);
	for (const list of Object.keys(owed)) if (!lists.includes(Number(list))) delete owed[list];
	const added: Record<string, OwedRange> = {};
	for (const list of lists) {
		if (!(list in CATCH_UP_LISTS)) continue;
		addOwed(owed, String(list), { from });
		added[String(list)] = owed[String(list)];
	}
	state.owed = owed;
	state.listenedAt = now;
	return added;
}

/**
 * Adds what a catch-up request brought (what the activation, a delivery or the last catch-up left owed, as this
 * process knows it: the stored copy may have lost it to another request's save):
 * only chosen lists that can be read back, never before `since` nor more than CATCH_UP_MAX_BACK_MS back.
 */
export function mergeOwed(staticData: IDataObject, brought: unknown, lists: number[], now: number): void {
	if (!brought || typeof brought !== 'object' || Array.isArray(brought)) return;
	const state = catchUpStateOf(staticData);
	const since = num(state.since);
	if (since === undefined) return;
	const owed = owedOf(state);
	for (const [list, range] of Object.entries(owedOf({ owed: brought as Record<string, OwedRange> }))) {
		if (!lists.includes(Number(list))) continue;
		const from = Math.max(range.from, since, now - CATCH_UP_MAX_BACK_MS);
		addOwed(owed, list, range.to === undefined ? { from } : { from, to: range.to });
	}
	state.owed = owed;
}
