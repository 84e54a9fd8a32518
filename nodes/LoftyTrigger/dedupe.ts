import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

/**
 * Exactly once: what was already turned into an execution is remembered so that a retried or duplicated
 * delivery starts nothing, and nothing is remembered before its execution exists.
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
 * Where it lives:
 * - Confirmed entries sit in the node's static data (`seen`), which n8n loads for each request and saves
 *   after the node answered and, when an execution starts, after n8n has created it and before it
 *   answers Lofty. They are written there only once the delivery is handled (`commit`: its filters and
 *   lookups done, its answer a 2xx). So a stored entry means its execution exists.
 * - This process also keeps each webhook's entries confirmed in the last hour (n8n saves each request's own
 *   copy of the static data and the last save wins: merging them into every request's copy keeps concurrent
 *   deliveries from forgetting each other) and
 *   its pending ones: claimed by a request still in progress. A pending entry becomes confirmed when the
 *   request answered 2xx (its execution exists) and is dropped otherwise, so a delivery whose execution
 *   never came to be (n8n failed or stopped first) is accepted again when Lofty retries it. A retry that
 *   arrives while its first attempt is still in progress is answered 503 (Lofty retries it later).
 * - A request that committed and is not answered yet may be saved after one that was answered meanwhile (its
 *   execution took longer to create): when a request is confirmed, its entries are written into the copies of the
 *   static data such requests still hold, so the last save has them too.
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
/** Webhooks whose memory this process keeps (least recently used dropped first). */
export const MAX_SCOPES = 500;

/** The stored form (static data is JSON): `{deliveries: {"d:<hash>": firstSeenMs}, events: {"e:<hash>": ms}}`, oldest first. */
export interface DedupeState {
	/** `d:<hash of Service-Webhook-Id>` -> first seen (epoch ms), in time order */
	deliveries: Record<string, number>;
	/** `e:<hash of the event's content>` -> first seen */
	events: Record<string, number>;
}

export interface DedupeEvent {
	/** the content key; only used when `timed` */
	key: string;
	/** whether the event has its own time (`updateTime`) */
	timed: boolean;
	/**
	 * Other keys under which the same event may have been remembered (a delivered event: the key its catch-up
	 * would have; a caught-up one: the key its delivery left), and other keys to remember it under. Used
	 * like `key`: only when `timed`.
	 */
	seenAs?: string[];
	marks?: string[];
}

const hash = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 16);
export const deliveryKey = (id: string) => `d:${hash(id)}`;
export const eventKey = (key: string) => `e:${hash(key)}`;

/** Entries in time order (a Map keeps insertion order). */
type Entries = Map<string, number>;

interface ScopeMemory {
	confirmed: Entries;
	/** key -> claimed at */
	pending: Entries;
	/** requests whose committed copy of the static data n8n has yet to save: rewrites it with what is confirmed -> committed at */
	open: Map<() => void, number>;
}

const memory = new Map<string, ScopeMemory>();

function scopeMemory(scope: string): ScopeMemory {
	let found = memory.get(scope);
	if (found) memory.delete(scope);
	else found = { confirmed: new Map(), pending: new Map(), open: new Map() };
	memory.set(scope, found);
	if (memory.size > MAX_SCOPES) memory.delete(memory.keys().next().value as string);
	return found;
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

/** Adds the entries of `from` that `into` lacks, keeping time order. */
function merge(into: Entries, from: Entries): Entries {
	const missing = [...from].filter(([key]) => !into.has(key));
	if (missing.length === 0) return into;
	return new Map([...into, ...missing].sort((a, b) => a[1] - b[1]));
}

function add(entries: Entries, key: string, now: number): void {
	entries.delete(key);
	entries.set(key, now);
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
export function claim(scope: string, staticData: IDataObject, deliveryId: string | undefined, events: DedupeEvent[], now: number): Decision {
	const mem = scopeMemory(scope);
	const current = (staticData.seen ?? {}) as Partial<DedupeState>;
	let deliveries = entriesOf(current.deliveries);
	let seenEvents = entriesOf(current.events);
	for (const [key, at] of mem.pending) {
		// stored by its own request, so its execution exists; or abandoned
		const saved = deliveries.get(key) ?? seenEvents.get(key);
		if (saved !== undefined || now - at > PENDING_MAX_MS) mem.pending.delete(key);
		if (saved !== undefined) add(mem.confirmed, key, saved);
	}
	prune(mem.confirmed, MAX_DELIVERIES + MAX_EVENT_KEYS, now, MEMORY_MS);
	for (const [rewrite, at] of mem.open) if (now - at > PENDING_MAX_MS) mem.open.delete(rewrite);
	deliveries = merge(deliveries, new Map([...mem.confirmed].filter(([key]) => key.startsWith('d:'))));
	seenEvents = merge(seenEvents, new Map([...mem.confirmed].filter(([key]) => key.startsWith('e:'))));
	prune(deliveries, MAX_DELIVERIES, now);
	prune(seenEvents, MAX_EVENT_KEYS, now);
	const store = () => {
		staticData.seen = { deliveries: Object.fromEntries(deliveries), events: Object.fromEntries(seenEvents) } as unknown as IDataObject;
	};

	const dKey = deliveryId ? deliveryKey(deliveryId) : undefined;
	if (dKey && deliveries.has(dKey)) {
		store();
		return { kind: 'seen' };
	}
	if (dKey && mem.pending.has(dKey)) return { kind: 'busy' };
	const fresh: number[] = [];
	const keys = new Set<string>();
	for (const [index, event] of events.entries()) {
		if (!event.timed) {
			fresh.push(index);
			continue;
		}
		const key = eventKey(event.key);
		const known = [key, ...(event.seenAs ?? []).map(eventKey)];
		if (known.some((k) => mem.pending.has(k))) return { kind: 'busy' };
		if (known.some((k) => seenEvents.has(k) || keys.has(k))) continue;
		for (const k of [key, ...(event.marks ?? []).map(eventKey)]) keys.add(k);
		fresh.push(index);
	}
	const claimed = dKey ? [dKey, ...keys] : [...keys];
	for (const key of claimed) mem.pending.set(key, now);
	let settled = false;
	const withConfirmed = () => {
		deliveries = merge(deliveries, new Map([...mem.confirmed].filter(([key]) => key.startsWith('d:'))));
		seenEvents = merge(seenEvents, new Map([...mem.confirmed].filter(([key]) => key.startsWith('e:'))));
		prune(deliveries, MAX_DELIVERIES, now);
		prune(seenEvents, MAX_EVENT_KEYS, now);
		store();
	};
	return {
		kind: 'new',
		fresh,
		commit: () => {
			// Written into the request's static data, which n8n saves with the execution's creation, before it answers;
			// with what other requests confirmed meanwhile (the last save wins).
			for (const key of claimed) add(key.startsWith('d:') ? deliveries : seenEvents, key, now);
			withConfirmed();
			if (!settled) mem.open.set(withConfirmed, now);
		},
		settle: (ok) => {
			if (settled) return;
			settled = true;
			mem.open.delete(withConfirmed);
			for (const key of claimed) {
				if (!mem.pending.has(key)) continue;
				mem.pending.delete(key);
				if (ok) add(mem.confirmed, key, now);
			}
			// A request that committed before this one was answered may be saved after it: its copy gets these keys now.
			if (ok) for (const rewrite of mem.open.keys()) rewrite();
		},
	};
}
