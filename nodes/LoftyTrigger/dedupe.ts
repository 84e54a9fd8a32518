import type { IDataObject } from 'n8n-workflow';

/**
 * Remembers what was already turned into items, in the node's static data, so that a retried or
 * duplicated delivery gives no second item (api-spec.md, Delivery rules 2 and 3: `Service-Webhook-Id`
 * is stable across retries; attempts span up to 48 hours).
 *
 * Two records, each `{key: firstSeenEpochMs}` in insertion order: delivery ids (`Service-Webhook-Id`)
 * and event keys (listId + action + ids + updateTime). Event keys are kept for every delivery, so a
 * delivery without the header, or the same event re-sent under another id (e.g. by a second
 * subscription to the same URL), is caught too. Entries older than 48 hours are dropped, and each
 * record holds at most MAX_ENTRIES (oldest dropped first): memory stays bounded.
 */

export const DEDUPE_WINDOW_MS = 48 * 60 * 60 * 1000;
export const MAX_ENTRIES = 10_000;

export interface DedupeState {
	deliveries: Record<string, number>;
	events: Record<string, number>;
}

/** Keys are prefixed so that digit-only ids keep insertion order in a JS object. */
const deliveryKey = (id: string) => `d:${id}`;
const eventKey = (key: string) => `e:${key}`;

export function dedupeState(staticData: IDataObject): DedupeState {
	const current = staticData.seen as Partial<DedupeState> | undefined;
	const state: DedupeState = {
		deliveries: current && typeof current.deliveries === 'object' && current.deliveries ? current.deliveries : {},
		events: current && typeof current.events === 'object' && current.events ? current.events : {},
	};
	staticData.seen = state as unknown as IDataObject;
	return state;
}

/**
 * The record of one webhook, also kept in this process. n8n reads a trigger's static data from its
 * database when a request arrives and writes it back after the node answered: of two deliveries
 * handled at once (one per subscribed event type, all to the same URL), the one written last drops
 * what the other remembered, and a retry of the dropped delivery would start a second run (seen in
 * n8n 2.41.1 with Lead Info and Pipeline Change subscribed). Kept here as well, per webhook URL and
 * secret, and merged with the stored record on every request, nothing is forgotten while this n8n
 * runs, and every write stores all that this process has seen. At most MAX_SCOPES webhooks are kept
 * (least recently used dropped first).
 */
const shared = new Map<string, DedupeState>();
export const MAX_SCOPES = 500;

/** `into`, or a copy in time order with the newer entries of `from` when it has any `into` lacks. */
function mergeRecord(into: Record<string, number>, from: Record<string, number>): Record<string, number> {
	const newer = Object.entries(from).filter(([key, at]) => typeof at === 'number' && !(into[key] >= at));
	if (newer.length === 0) return into;
	const all = { ...into };
	for (const [key, at] of newer) all[key] = at;
	return Object.fromEntries(Object.entries(all).sort((a, b) => a[1] - b[1]));
}

/** The dedupe record of one webhook (`scope`: its URL and secret): this process's merged with the stored one. */
export function sharedDedupeState(scope: string, staticData: IDataObject): DedupeState {
	const stored = dedupeState(staticData);
	const memory = shared.get(scope);
	const state = memory ? { deliveries: mergeRecord(memory.deliveries, stored.deliveries), events: mergeRecord(memory.events, stored.events) } : stored;
	shared.delete(scope);
	shared.set(scope, state);
	if (shared.size > MAX_SCOPES) shared.delete(shared.keys().next().value as string);
	staticData.seen = state as unknown as IDataObject;
	return state;
}

function prune(record: Record<string, number>, now: number): void {
	const keys = Object.keys(record);
	let excess = keys.length - MAX_ENTRIES;
	for (const key of keys) {
		const tooOld = now - record[key] >= DEDUPE_WINDOW_MS || record[key] > now + DEDUPE_WINDOW_MS;
		if (excess > 0 || tooOld) {
			delete record[key];
			excess--;
		} else if (excess <= 0) {
			// insertion order is time order: the rest is younger
			break;
		}
	}
}

export function seenDelivery(state: DedupeState, id: string | undefined, now: number): boolean {
	if (!id) return false;
	const at = state.deliveries[deliveryKey(id)];
	return at !== undefined && now - at < DEDUPE_WINDOW_MS;
}

export function seenEvent(state: DedupeState, key: string, now: number): boolean {
	const at = state.events[eventKey(key)];
	return at !== undefined && now - at < DEDUPE_WINDOW_MS;
}

/** Records a delivery and its events as seen, then prunes by age and size. */
export function remember(state: DedupeState, deliveryId: string | undefined, eventKeys: string[], now: number): void {
	if (deliveryId) {
		delete state.deliveries[deliveryKey(deliveryId)];
		state.deliveries[deliveryKey(deliveryId)] = now;
	}
	for (const key of eventKeys) {
		delete state.events[eventKey(key)];
		state.events[eventKey(key)] = now;
	}
	prune(state.deliveries, now);
	prune(state.events, now);
}
