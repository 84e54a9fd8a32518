import { randomBytes } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

/**
 * What the trigger remembers about its Lofty webhook subscriptions, in the node's static data (saved by
 * n8n in its database, so it survives restarts and is shared by every n8n process of one database):
 *
 * - `secret`: 32 random bytes (hex), made at activation; the callback URL carries it as `?token=`. Deactivating
 *   retires it (a new one is made at the next activation: how a user rotates it); the retired one is still
 *   accepted until `previousSecret.until`, for the retries of deliveries already under way;
 * - `subscriptions`: `{ <webhook URL>: { <listId>: StoredSubscription } }`, by URL so that the test URL
 *   and the production URL of one node never overwrite each other's ids.
 *
 * Earlier versions stored `{ <listId>: "<subscribeId>" }`; such entries are read as subscriptions whose
 * settings are not known (presumed to be the current ones).
 */

export interface StoredSubscription {
	subscribeId: string;
	/** the batch size and delivery scope it was made with (unknown for entries of earlier versions) */
	limit?: number;
	permissionMode?: number;
	/**
	 * When an activation first found it missing from `GET /v1.0/webhooks`, which lists active subscriptions
	 * only: presumed disabled since (Lofty keeps its events and pings it), until it is listed again.
	 */
	unlistedSince?: number;
	/** The last ping or delivery it sent here: it still exists in Lofty. */
	lastSignAt?: number;
}

export type StoredByList = Record<string, StoredSubscription>;

export function ensureSecret(staticData: IDataObject): string {
	if (typeof staticData.secret !== 'string' || staticData.secret.length < 32) {
		staticData.secret = randomBytes(32).toString('hex');
	}
	return staticData.secret;
}

/** Lofty retries a delivery for 48 hours; a ping follows within 6. */
const RETIRED_SECRET_MS = 54 * 60 * 60 * 1000;

/** Deactivation: the next activation makes a new secret; this one is accepted a while longer. */
export function retireSecret(staticData: IDataObject, now = Date.now()): void {
	if (typeof staticData.secret !== 'string') return;
	staticData.previousSecret = { value: staticData.secret, until: now + RETIRED_SECRET_MS };
	delete staticData.secret;
}

/** The secrets a delivery may carry now: the current one, and a retired one until it expires. */
export function acceptedSecrets(staticData: IDataObject, now = Date.now()): string[] {
	const accepted = typeof staticData.secret === 'string' ? [staticData.secret] : [];
	const previous = staticData.previousSecret as { value?: unknown; until?: unknown } | undefined;
	if (previous && typeof previous.value === 'string' && Number(previous.until) > now) accepted.push(previous.value);
	return accepted;
}

export function callbackUrlOf(webhookUrl: string, secret: string): string {
	return `${webhookUrl}${webhookUrl.includes('?') ? '&' : '?'}token=${secret}`;
}

function allStored(staticData: IDataObject): Record<string, StoredByList> {
	const all = (staticData.subscriptions ?? {}) as Record<string, Record<string, StoredSubscription | string>>;
	staticData.subscriptions = all as unknown as IDataObject;
	for (const byList of Object.values(all)) {
		for (const [listId, entry] of Object.entries(byList)) {
			if (typeof entry === 'string' || typeof entry === 'number') byList[listId] = { subscribeId: String(entry) };
		}
	}
	return all as Record<string, StoredByList>;
}

/** The remembered subscriptions of one webhook URL (created empty when there are none). */
export function storedFor(staticData: IDataObject, webhookUrl: string): StoredByList {
	const all = allStored(staticData);
	all[webhookUrl] ??= {};
	return all[webhookUrl];
}

/** Webhook URLs other than `webhookUrl` with the same path: this node at an address it no longer has. */
export function formerUrls(staticData: IDataObject, webhookUrl: string): string[] {
	const path = pathOf(webhookUrl);
	return Object.keys(allStored(staticData)).filter((url) => url !== webhookUrl && pathOf(url) === path);
}

export function forgetUrl(staticData: IDataObject, webhookUrl: string): void {
	delete allStored(staticData)[webhookUrl];
}

export function forgetIfEmpty(staticData: IDataObject, webhookUrl: string): void {
	const all = allStored(staticData);
	if (all[webhookUrl] && Object.keys(all[webhookUrl]).length === 0) delete all[webhookUrl];
}

/** The path of a URL without its query (n8n makes `/webhook/<webhookId>/webhook` unique per node). */
export function pathOf(url: string): string | undefined {
	try {
		return new URL(url).pathname.replace(/\/+$/, '');
	} catch {
		return undefined;
	}
}

/** Records that Lofty reached this URL for a subscription (a ping names its id, a delivery its list). */
export function recordSign(staticData: IDataObject, webhookUrl: string, sign: { subscribeId?: string; listId?: number }, now: number): boolean {
	const byList = allStored(staticData)[webhookUrl];
	if (!byList) return false;
	for (const [listId, entry] of Object.entries(byList)) {
		if ((sign.subscribeId !== undefined && entry.subscribeId === sign.subscribeId) || (sign.listId !== undefined && Number(listId) === sign.listId)) {
			entry.lastSignAt = now;
			return true;
		}
	}
	return false;
}

/**
 * Failed activations in this process, by webhook URL. After checkExists or create fails, n8n removes the
 * webhook again and calls delete(): that call must not delete what Lofty may still hold (the activation
 * failed before it could tell which subscriptions are stale). Kept for a few minutes, used once.
 */
const failedActivations = new Map<string, number>();
const FAILED_ACTIVATION_MEMORY_MS = 5 * 60 * 1000;

export function noteFailedActivation(webhookUrl: string, now = Date.now()): void {
	failedActivations.set(webhookUrl, now);
	for (const [url, at] of failedActivations) if (now - at > FAILED_ACTIVATION_MEMORY_MS) failedActivations.delete(url);
}

export function takeFailedActivation(webhookUrl: string, now = Date.now()): boolean {
	const at = failedActivations.get(webhookUrl);
	failedActivations.delete(webhookUrl);
	return at !== undefined && now - at <= FAILED_ACTIVATION_MEMORY_MS;
}

/** Forgets the failed activations of this process (a test's stand-in for a new n8n process). */
export function forgetFailedActivations(): void {
	failedActivations.clear();
}
