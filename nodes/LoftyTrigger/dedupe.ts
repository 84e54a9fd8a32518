import { createHash } from 'crypto';
import { sleep } from 'n8n-workflow';
import type { IDataObject, INode } from 'n8n-workflow';

/**
 * Exactly once: the one owner of the marks that say an event was started or run. A delivery or a catch-up asks
 * `claim` whether its events start an execution; the trigger's first step (runOnce.ts) asks `alreadyRan` whether an
 * execution passes an event, and notes what it passes (`noteRan`). Nothing is remembered before its execution exists.
 *
 * The rule, from api-spec.md (Events > Delivery rules):
 * 1. "Each delivery carries header `Service-Webhook-Id`, unique per event and stable across retries; use it
 *    to deduplicate." A delivery whose id was seen starts nothing.
 * 2. The content of an event (listId, payload key, ids, `updateTime`, what changed) is a fallback key only where it
 *    identifies one event: "Times are epoch ms in `updateTime`", so an event with a time is one change of
 *    one record; the same event re-sent under another id (for example by a second subscription to this
 *    address) or without the header starts nothing. An event without a time is never deduplicated by its
 *    content: a listing alert is only `{teamId, listId: 4, alertId}` and every alert of one saved search
 *    looks the same, so two alerts under two delivery ids are two events.
 * 3. "Up to 9 attempts within 48 hours": entries are kept 48 hours, at most MAX_DELIVERIES delivery ids and
 *    MAX_EVENT_KEYS event keys (oldest dropped first), stored as 16-character hashes: the record in the
 *    node's static data stays under about 0.4 MB however busy the account is.
 *
 * Where the marks live:
 * - In the node's static data (`seen`), which n8n loads for each request and saves after the node answered and,
 *   when an execution starts, after n8n has created it and before it answers Lofty. A delivery's keys are written
 *   there only once it is handled (`commit`: its filters and lookups done, its answer a 2xx), a run mark (`ran|…`)
 *   once an execution's first step passed the event. So a stored entry means its execution exists.
 * - In this process, per webhook: the marks confirmed in the last hour, and the pending ones (claimed by a request
 *   still in progress; confirmed when it answered 2xx, dropped otherwise, so a delivery whose execution never came
 *   to be is accepted again when Lofty retries it; a retry arriving meanwhile is answered "busy").
 * - n8n saves each request's own copy of the static data whole, and the last save wins. So every copy a request
 *   of this webhook holds is tracked (`track`) from its start until shortly after its answer, and every mark this
 *   process confirms is written into each of them: whatever request saves last, its copy holds every mark confirmed
 *   before, and a new process (restart) loads them. A request that commits also writes its keys, as held, into the
 *   other copies, and into those tracked later until its answer: one saved after it and before its answer keeps them,
 *   and a catch-up skips held events (a delivery does not: if the execution failed, Lofty's retry must run).
 */

export const DEDUPE_WINDOW_MS = 48 * 60 * 60 * 1000;
export const MAX_DELIVERIES = 5000;
export const MAX_EVENT_KEYS = 5000;
/** A claim whose request never reported back (should not happen) stops blocking after this long. */
export const PENDING_MAX_MS = 10 * 60 * 1000;
/**
 * How long this process keeps confirmed entries: long enough to outlast any request that could have loaded
 * the static data before them and saved after them, and Lofty's first retries of an answer it missed.
 */
export const MEMORY_MS = 60 * 60 * 1000;
/** How long a request's copy is still written into after its answer went out (n8n saves it after that). */
export const TRACK_AFTER_ANSWER_MS = 30_000;
/** Webhooks whose memory this process keeps (least recently used dropped first). */
export const MAX_SCOPES = 500;

/** The stored form (static data is JSON): `{deliveries: {"d:<hash>": firstSeenMs}, events: {"e:<hash>": ms}}`, oldest first. */
export interface DedupeState {
	/** `d:<hash of Service-Webhook-Id>` -> first seen (epoch ms), in time order */
	deliveries: Record<string, number>;
	/** `e:<hash of the event's content, record or run key>` -> first seen */
	events: Record<string, number>;
	/** event keys another request had committed and not yet answered when this copy was written: a catch-up skips them */
	held?: Record<string, number>;
}

export interface DedupeEvent {
	/** the content key; only used when `timed` */
	key: string;
	/** whether the event has its own time (`updateTime`) */
	timed: boolean;
	/**
	 * Other keys under which the same event may have been remembered (a delivered event: the key its catch-up
	 * would have, its run key; a caught-up one: the key its delivery left, its run key), and other keys to remember
	 * it under. Used like `key`: only when `timed`.
	 */
	seenAs?: string[];
	marks?: string[];
}

const hash = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 16);
export const deliveryKey = (id: string) => `d:${hash(id)}`;
export const eventKey = (key: string) => `e:${hash(key)}`;

/** The memory scope of a trigger node: its webhook and secret; test (manual) requests have their own. */
export function eventScope(node: INode, secret: string | undefined, test: boolean): string {
	return `${test ? 'test' : 'live'}|${node.webhookId ?? node.id ?? node.name}|${secret ?? ''}`;
}

/** Entries in time order (a Map keeps insertion order). */
type Entries = Map<string, number>;

interface Answerable {
	statusCode?: number;
	once?: (event: string, listener: () => void) => unknown;
}

interface ScopeMemory {
	confirmed: Entries;
	/** key -> claimed at */
	pending: Entries;
	/** the copies of the static data requests hold -> written into until then */
	copies: Map<IDataObject, number>;
	/** keys of deliveries and catch-ups committed and not yet answered -> committed at */
	committed: Entries;
}

const memory = new Map<string, ScopeMemory>();

/**
 * The scope without its secret (`live|<webhook>|`): that of an execution without the workflow's static data. n8n 2.41
 * runs the executions it had created as it stopped at its next start, before it activates the workflow (regular mode:
 * EnqueuedExecutionRecoveryService), and a queue-mode worker runs every execution, with the workflow as the execution
 * stored it, which holds no static data. The marks of such executions are shared with the webhook's scopes in this
 * process: each scope takes those there when it is made (scopeMemory), noteRan writes them into the scopes there, and
 * alreadyRan reads the marks of all of them for such an execution (sharing). No one waits for a scope to come.
 */
const withoutSecret = (scope: string) => scope.slice(0, scope.lastIndexOf('|') + 1);

function scopeMemory(scope: string, now: number): ScopeMemory {
	let found = memory.get(scope);
	if (found) memory.delete(scope);
	else {
		found = { confirmed: new Map(), pending: new Map(), copies: new Map(), committed: new Map() };
		const bare = withoutSecret(scope) === scope ? undefined : memory.get(withoutSecret(scope));
		if (bare) for (const [key, at] of bare.confirmed) found.confirmed.set(key, at);
	}
	memory.set(scope, found);
	if (memory.size > MAX_SCOPES) memory.delete(memory.keys().next().value as string);
	prune(found.confirmed, MAX_DELIVERIES + MAX_EVENT_KEYS, now, MEMORY_MS);
	for (const [copy, until] of found.copies) if (until < now) found.copies.delete(copy);
	return found;
}

/** The memories a scope's marks are read from and noted in: its own; without a secret, also the webhook's scopes with one. */
function sharing(scope: string, now: number): ScopeMemory[] {
	const own = scopeMemory(scope, now);
	if (withoutSecret(scope) !== scope) return [own];
	const others = [...memory.keys()].filter((key) => key !== scope && key.startsWith(scope));
	return [own, ...others.map((key) => scopeMemory(key, now))];
}

/** Forgets what this process remembers (a test's stand-in for a new n8n process). */
export function forgetProcessMemory(): void {
	memory.clear();
}

function entriesOf(value: unknown): Entries {
	const map: Entries = new Map();
	if (value && typeof value === 'object' && !Array.isArray(value)) {
		for (const [key, at] of Object.entries(value as Record<string, unknown>)) if (typeof at === 'number') map.set(key, at);
	}
	return map;
}

/** Drops entries older than `maxAgeMs` (or from the future), then the oldest beyond `max`. */
function prune(entries: Entries, max: number, now: number, maxAgeMs = DEDUPE_WINDOW_MS): void {
	let excess = entries.size - max;
	for (const [key, at] of entries) {
		const stale = !(now - at < maxAgeMs) || at > now + maxAgeMs;
		if (excess <= 0 && !stale) break; // insertion order is time order: the rest is younger
		entries.delete(key);
		excess--;
	}
}

/** Adds the entries of `from` that `into` lacks, keeping time order; `into` itself when it lacks none. */
function merge(into: Entries, from: Entries): Entries {
	const missing = [...from].filter(([key]) => !into.has(key));
	if (missing.length === 0) return into;
	return new Map([...into, ...missing].sort((a, b) => a[1] - b[1]));
}

function add(entries: Entries, key: string, now: number): void {
	entries.delete(key);
	entries.set(key, now);
}

interface Stored {
	deliveries: Entries;
	events: Entries;
	/** event keys another request of this process had committed, not yet answered, when this copy got them (see commit) */
	held: Entries;
}

/** The marks a copy of the static data holds, without those past DEDUPE_WINDOW_MS. */
function stored(staticData: IDataObject, now: number): Stored {
	const current = (staticData.seen ?? {}) as Partial<DedupeState>;
	const marks = { deliveries: entriesOf(current.deliveries), events: entriesOf(current.events), held: entriesOf(current.held) };
	prune(marks.deliveries, MAX_DELIVERIES, now);
	prune(marks.events, MAX_EVENT_KEYS, now);
	prune(marks.held, MAX_EVENT_KEYS, now);
	return marks;
}

/**
 * Writes `marks` into a copy of the static data (as held: into `held`); nothing is written (nor marked changed) when
 * it holds them all.
 */
function writeInto(staticData: IDataObject, marks: Entries, now: number, asHeld = false): void {
	const before = stored(staticData, now);
	const only = (prefix: string) => new Map([...marks].filter(([key]) => key.startsWith(prefix)));
	const after: Stored = asHeld
		? { ...before, held: merge(before.held, only('e:')) }
		: { ...before, deliveries: merge(before.deliveries, only('d:')), events: merge(before.events, only('e:')) };
	if (after.deliveries === before.deliveries && after.events === before.events && after.held === before.held) return;
	prune(after.deliveries, MAX_DELIVERIES, now);
	prune(after.events, MAX_EVENT_KEYS, now);
	prune(after.held, MAX_EVENT_KEYS, now);
	const seen: IDataObject = { deliveries: Object.fromEntries(after.deliveries), events: Object.fromEntries(after.events) };
	if (after.held.size > 0) seen.held = Object.fromEntries(after.held);
	staticData.seen = seen;
}

/** Marks confirmed: remembered in this process and written into every copy a request of this webhook holds. */
function confirm(mem: ScopeMemory, keys: Iterable<string>, now: number): void {
	const marks: Entries = new Map();
	for (const key of keys) {
		add(mem.confirmed, key, now);
		marks.set(key, now);
	}
	if (marks.size > 0) for (const copy of mem.copies.keys()) writeInto(copy, marks, now);
}

/**
 * Tracks a request's copy of the static data (call before the request writes anything into it): what this process
 * confirmed is written into it now and whenever it confirms more, until TRACK_AFTER_ANSWER_MS after its answer.
 */
export function track(scope: string, staticData: IDataObject, res: Answerable | undefined, now = Date.now()): void {
	const mem = scopeMemory(scope, now);
	writeInto(staticData, mem.confirmed, now);
	// committed, not yet answered: as held (this copy, loaded before their save, may be saved after it)
	for (const [key, at] of mem.committed) if (now - at > PENDING_MAX_MS) mem.committed.delete(key);
	if (mem.committed.size > 0) writeInto(staticData, mem.committed, now, true);
	mem.copies.set(staticData, now + PENDING_MAX_MS);
	if (typeof res?.once !== 'function') return;
	const answered = () => {
		if (mem.copies.has(staticData)) mem.copies.set(staticData, Date.now() + TRACK_AFTER_ANSWER_MS);
	};
	res.once('finish', answered);
	res.once('close', answered);
}

export type Decision =
	| { kind: 'seen' }
	| { kind: 'busy' }
	/**
	 * `fresh`: indexes of the events to start; `commit()`: call once the delivery is handled and will be answered 2xx
	 * (writes its keys into the request's static data); `settle(ok)`: call once the request answered (ok: 2xx).
	 */
	| { kind: 'new'; fresh: number[]; commit: () => void; settle: (ok: boolean) => void };

/**
 * Decides what one delivery starts and claims it in this process: its id and the keys of its timed events are
 * held as pending here (a duplicate arriving meanwhile is answered "busy"). Nothing of it is written into the
 * static data before `commit()`: work that fails after the claim (a filter's read, Fetch Full Record) leaves no
 * trace that would make Lofty's retry a duplicate, even where n8n saves the static data of a failed request.
 */
export function claim(scope: string, staticData: IDataObject, deliveryId: string | undefined, events: DedupeEvent[], now: number, catchUp = false): Decision {
	const mem = scopeMemory(scope, now);
	if (!mem.copies.has(staticData)) track(scope, staticData, undefined, now);
	const known = stored(staticData, now);
	for (const [key, at] of mem.pending) {
		// stored by its own request, so its execution exists; or abandoned
		const saved = known.deliveries.get(key) ?? known.events.get(key);
		if (saved !== undefined || now - at > PENDING_MAX_MS) mem.pending.delete(key);
		if (saved !== undefined) confirm(mem, [key], saved);
	}
	// a catch-up also skips what another request held committed (if its execution failed, Lofty retries that delivery)
	const has = (key: string) => known.deliveries.has(key) || known.events.has(key) || mem.confirmed.has(key) || (catchUp && known.held.has(key));

	const dKey = deliveryId ? deliveryKey(deliveryId) : undefined;
	if (dKey && has(dKey)) return { kind: 'seen' };
	if (dKey && mem.pending.has(dKey)) return { kind: 'busy' };
	const fresh: number[] = [];
	const keys = new Set<string>();
	for (const [index, event] of events.entries()) {
		if (!event.timed) {
			fresh.push(index);
			continue;
		}
		const key = eventKey(event.key);
		const alias = [key, ...(event.seenAs ?? []).map(eventKey)];
		if (alias.some((k) => mem.pending.has(k))) return { kind: 'busy' };
		if (alias.some((k) => has(k) || keys.has(k))) continue;
		for (const k of [key, ...(event.marks ?? []).map(eventKey)]) keys.add(k);
		fresh.push(index);
	}
	const claimed = dKey ? [dKey, ...keys] : [...keys];
	for (const key of claimed) mem.pending.set(key, now);
	let settled = false;
	return {
		kind: 'new',
		fresh,
		// Written into the request's static data, which n8n saves with the execution's creation, before it answers; and,
		// as held, into the other copies: one saved after this one and before the answer confirms these keys keeps them
		// for a catch-up (a restart in between would otherwise bring the events back).
		commit: () => {
			const marks = new Map(claimed.map((key) => [key, now]));
			writeInto(staticData, marks, now);
			for (const copy of mem.copies.keys()) if (copy !== staticData) writeInto(copy, marks, now, true);
			for (const key of claimed) mem.committed.set(key, now);
		},
		settle: (ok) => {
			if (settled) return;
			settled = true;
			for (const key of claimed) mem.committed.delete(key);
			const done = claimed.filter((key) => mem.pending.delete(key));
			if (ok) confirm(mem, done, now);
		},
	};
}

/** Whether an execution of this webhook already passed the event with this run key (stored, or in this process). */
export function alreadyRan(scope: string, staticData: IDataObject, runKey: string): boolean {
	const key = eventKey(runKey);
	const now = Date.now();
	return stored(staticData, now).events.has(key) || sharing(scope, now).some((mem) => mem.confirmed.has(key));
}

/** An execution passed these events: their run keys are confirmed (see confirm()), in each memory `sharing` gives. */
export function noteRan(scope: string, runKeys: string[], now = Date.now()): void {
	for (const mem of sharing(scope, now)) confirm(mem, runKeys.map(eventKey), now);
}

/**
 * Whether the mark a delivery or catch-up leaves for an event (its content or record key) is known: in a copy of the
 * static data, or in this process (claimed by a request in progress, or confirmed). n8n 2.41 loads an execution's
 * static data before the request that started it saves its own: that execution finds the mark here in memory.
 */
export function knowsMark(scope: string, staticData: IDataObject, key: string): boolean {
	const now = Date.now();
	const mark = eventKey(key);
	const mem = scopeMemory(scope, now);
	return mem.pending.has(mark) || mem.confirmed.has(mark) || stored(staticData, now).events.has(mark);
}

/**
 * Asked by an execution that does not know its event's own mark (one n8n recovered at its start, or one on another
 * process): of these run keys, those no execution of this webhook passed, now marked as passed (written
 * into the asking request's copy, which n8n saves before it answers).
 */
export function claimRuns(scope: string, staticData: IDataObject, runKeys: string[], now = Date.now()): string[] {
	const mem = scopeMemory(scope, now);
	if (!mem.copies.has(staticData)) track(scope, staticData, undefined, now);
	const known = stored(staticData, now);
	const fresh = [...new Set(runKeys)].filter((key) => !known.events.has(eventKey(key)) && !mem.confirmed.has(eventKey(key)));
	confirm(mem, fresh.map(eventKey), now);
	return fresh;
}

/** The longest the memory is kept marked changed while n8n creates the execution (it answers after that). */
export const MARK_CHANGED_MAX_MS = 30_000;

/**
 * Keeps the node's static data marked as changed until the answer went out, so that the marks claim() wrote reach
 * n8n's database. n8n saves a webhook's static data only when its change flag is set, after it created the
 * execution and before it answers; but n8n 2.41 clears that flag in between (creating the execution wraps the same
 * static data in a new Workflow: WorkflowRunner.establishContextForPersistence), so what claim() wrote was never
 * stored (seen in a real n8n 2.41.1, one process or queue mode). Creating the execution takes database (and queue)
 * round trips; re-marking every millisecond lands in between. Harmless where the flag is kept (2.8.x).
 */
export async function markChangedUntilAnswered(staticData: IDataObject, res: Answerable): Promise<void> {
	let answered = false;
	if (typeof res.once === 'function') {
		res.once('finish', () => (answered = true));
		res.once('close', () => (answered = true));
	}
	const until = Date.now() + MARK_CHANGED_MAX_MS;
	while (!answered && Date.now() < until) {
		await sleep(1);
		// A write through n8n's observed object sets the workflow's change flag again (same content).
		const seen = staticData.seen;
		if (seen && typeof seen === 'object') staticData.seen = { ...(seen as IDataObject) };
	}
}
