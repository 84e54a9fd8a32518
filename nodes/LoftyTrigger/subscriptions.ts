import type { IDataObject, IHookFunctions, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { loftyRequest } from '../Lofty/transport/request';
import { listName } from './events';
import { DEFAULT_TIMING, type TriggerSettings, type TriggerTiming } from './settings';
import {
	type StoredByList,
	type StoredSubscription,
	callbackUrlOf,
	ensureSecret,
	forgetIfEmpty,
	forgetUrl,
	formerUrls,
	noteFailedActivation,
	pathOf,
	retireSecret,
	storedFor,
	takeFailedActivation,
} from './subscriptionState';

/**
 * The trigger's Lofty webhook subscriptions (n8n's checkExists, create and delete): one per chosen event
 * list, all pointing to this node's webhook URL plus `?token=<secret>`.
 *
 * api-spec.md, States and transitions: Lofty disables a subscription whose deliveries keep failing, keeps
 * its events up to 48 hours, pings it about every 6 hours and, on the first 2xx, re-enables it and delivers
 * everything pending. "GET /v1.0/webhooks lists active subscriptions." So a remembered subscription that
 * is not listed is presumed disabled, not gone: it is kept (its pings are answered, Lofty re-enables it and
 * flushes its queue), unless the trigger's lists or settings or its address changed. Deleting it would
 * delete the queue of an outage.
 *
 * - A subscription is "ours" when its callback URL has this node's webhook path (unique per node).
 * - Nothing is ever deleted on a failed or unreadable `GET /v1.0/webhooks`: checkExists keeps a complete
 *   set of remembered subscriptions as it is (a failed activation would make n8n unregister the webhook,
 *   and Lofty discards deliveries answered 404), otherwise activation fails with a clear message.
 * - Deleting happens on deactivation and when the settings really changed; each deletion is logged with its reason.
 * - A remembered subscription unlisted for longer than GHOST_AFTER_MS with no ping or delivery since is
 *   presumed deleted in Lofty and replaced: had it still existed, it would have been pinged, and any event
 *   it held has expired (48 hours).
 */

export interface Subscription {
	subscribeId: string;
	listId: number;
	callbackUrl: string;
	limit?: number;
	permissionMode?: number;
}

const HOUR = 60 * 60 * 1000;
/** 48 hours of event lifetime plus one ping interval (6 hours). */
export const GHOST_AFTER_MS = 54 * HOUR;

const SCOPE_HINT =
	"The OAuth app behind this credential is not granted Lofty's webhook endpoints. In Lofty's developer portal, add POST /v1.0/webhook, GET /v1.0/webhooks and DELETE /v1.0/webhook/{subscribeId} to the app's scopes, then reconnect the credential.";

function hints(webhookUrl: string): Record<string, string> {
	return {
		WEBHOOK_CALLBACK_URL_INVALID: `Lofty only sends webhooks to an HTTPS address it can reach, and this n8n's webhook address is ${webhookUrl}. Make n8n reachable over HTTPS (for example behind a reverse proxy or tunnel with a certificate) and set the WEBHOOK_URL environment variable to that public https:// address, restart n8n, then activate the workflow again.`,
		WEBHOOK_EXCEED_LIMIT:
			'The Lofty account already holds the most webhook subscriptions Lofty allows (each event chosen under "Trigger On" takes one). Free a slot: deactivate another workflow that uses a Lofty Trigger, delete subscriptions you no longer need with the Lofty node (Webhook > Get Many, then Webhook > Delete), or choose fewer events here.',
		WEBHOOK_TYPE_ERROR: 'Lofty does not know one of the chosen event types. Choose the events again from the "Trigger On" list.',
		'200100': SCOPE_HINT,
		VENDOR_HAS_NO_PERMISSION: SCOPE_HINT,
	};
}

const log = (ctx: IHookFunctions, message: string) => ctx.logger.info(`Lofty Trigger: ${message}`);

function toSubscription(raw: unknown): Subscription | undefined {
	if (!raw || typeof raw !== 'object') return undefined;
	const r = raw as IDataObject;
	const subscribeId = r.subscribeId ?? r.id;
	const listId = Number(r.listId);
	if ((typeof subscribeId !== 'string' && typeof subscribeId !== 'number' && typeof subscribeId !== 'bigint') || !Number.isInteger(listId) || typeof r.callbackUrl !== 'string') {
		return undefined;
	}
	const num = (v: unknown) => (v === undefined || v === null || Number.isNaN(Number(v)) ? undefined : Number(v));
	return { subscribeId: String(subscribeId), listId, callbackUrl: r.callbackUrl, limit: num(r.limit), permissionMode: num(r.permissionMode) };
}

function listedArray(response: unknown): unknown[] | undefined {
	if (Array.isArray(response)) return response;
	if (response && typeof response === 'object') {
		for (const key of ['data', 'webhooks', 'subscriptions', 'list']) {
			const inner = (response as IDataObject)[key];
			if (Array.isArray(inner)) return inner;
		}
	}
	return undefined;
}

/** Why Lofty's list of subscriptions could not be used. */
interface ListingFailed {
	failed: string;
	description?: string;
}

const isFailure = (value: Subscription[] | ListingFailed): value is ListingFailed => !Array.isArray(value);

/** Lofty's active subscriptions, or why they could not be read whole (an error, or an answer not fully readable). */
export async function listSubscriptions(ctx: IHookFunctions, webhookUrl: string, timing: TriggerTiming = DEFAULT_TIMING): Promise<Subscription[] | ListingFailed> {
	let response: unknown;
	try {
		// Every wait (the pacer's queue included) ends within the time its tries may take.
		const deadline = Date.now() + timing.listTimeoutMs * (timing.listRetries + 1);
		response = await loftyRequest(ctx, { method: 'GET', path: '/v1.0/webhooks', hints: hints(webhookUrl), timeout: timing.listTimeoutMs, readRetries: timing.listRetries, deadline });
	} catch (error) {
		return { failed: (error as Error).message, description: (error as { description?: string }).description ?? undefined };
	}
	const entries = listedArray(response);
	if (!entries) return { failed: 'Lofty answered GET /v1.0/webhooks with something that is not a list of subscriptions' };
	const subs = entries.map(toSubscription);
	const unreadable = subs.filter((s) => s === undefined).length;
	// A subscription we cannot read might be one of ours: deciding without it could duplicate or delete.
	if (unreadable) return { failed: `${unreadable} of the ${entries.length} subscriptions Lofty listed could not be read (no subscribeId, listId or callbackUrl)` };
	return subs as Subscription[];
}

function listingError(ctx: IHookFunctions, cause: ListingFailed): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), `Could not read the Lofty webhook subscriptions (GET /v1.0/webhooks): ${cause.failed}`, {
		description: `${cause.description ? `${cause.description} ` : ''}The trigger needs that list to tell which of its subscriptions Lofty still holds, so it changed nothing: no subscription was created or deleted. Activate the workflow again once Lofty answers (n8n also retries on its own after a restart).`,
	});
}

const sameSettings = (s: { limit?: number; permissionMode?: number }, settings: TriggerSettings) =>
	(s.limit === undefined || s.limit === settings.limit) && (s.permissionMode === undefined || s.permissionMode === settings.permissionMode);

interface Plan {
	/** the subscriptions to remember, by list */
	keep: StoredByList;
	/** lists that need a new subscription */
	create: number[];
	/** ids to delete, with the reason logged */
	remove: Array<{ subscribeId: string; why: string }>;
}

/** Which subscriptions to keep, create and delete, from Lofty's list and what was remembered. */
function plan(listed: Subscription[], stored: StoredByList, settings: TriggerSettings, webhookUrl: string, callbackUrl: string, now: number): Plan {
	const path = pathOf(webhookUrl);
	const ours = listed.filter((s) => pathOf(s.callbackUrl) === path);
	const listedIds = new Set(listed.map((s) => s.subscribeId));
	const result: Plan = { keep: {}, create: [], remove: [] };
	const kept = new Set<string>();
	for (const listId of settings.listIds) {
		const active = ours.find((s) => s.listId === listId && s.callbackUrl === callbackUrl && sameSettings(s, settings));
		const entry = stored[String(listId)];
		if (active) {
			const same = entry?.subscribeId === active.subscribeId;
			result.keep[String(listId)] = { subscribeId: active.subscribeId, limit: settings.limit, permissionMode: settings.permissionMode, lastSignAt: same ? entry.lastSignAt : undefined };
		} else if (entry && !listedIds.has(entry.subscribeId) && sameSettings(entry, settings)) {
			const since = entry.unlistedSince ?? now;
			if (now - Math.max(since, entry.lastSignAt ?? 0) > GHOST_AFTER_MS) {
				result.remove.push({ subscribeId: entry.subscribeId, why: `not listed by Lofty for ${Math.round((now - since) / HOUR)} hours and no ping since: presumed deleted in Lofty (any event it held has expired after 48 hours); replaced` });
				result.create.push(listId);
			} else {
				// presumed disabled: Lofty keeps its events and re-enables it on the first answered ping
				result.keep[String(listId)] = { ...entry, unlistedSince: since };
			}
		} else {
			result.create.push(listId);
		}
		if (result.keep[String(listId)]) kept.add(result.keep[String(listId)].subscribeId);
	}
	const why = (s: Subscription): string => {
		if (!settings.listIds.includes(s.listId)) return `${listName(s.listId)} is no longer chosen under "Trigger On"`;
		if (pathOf(s.callbackUrl) === path && s.callbackUrl.split('?')[0] !== webhookUrl) return `its callback address ${s.callbackUrl.split('?')[0]} is not this n8n's webhook address any more`;
		if (s.callbackUrl !== callbackUrl) return 'its callback carries an old token';
		if (sameSettings(s, settings)) return `a second ${listName(s.listId)} subscription to this address (each event would arrive twice)`;
		return `its batch size or delivery scope (${s.limit}, ${s.permissionMode}) differs from the trigger's (${settings.limit}, ${settings.permissionMode})`;
	};
	for (const s of ours) if (!kept.has(s.subscribeId)) result.remove.push({ subscribeId: s.subscribeId, why: why(s) });
	for (const [listId, entry] of Object.entries(stored)) {
		if (kept.has(entry.subscribeId) || result.remove.some((r) => r.subscribeId === entry.subscribeId)) continue;
		// listed but not ours by path: not ours to delete
		if (listedIds.has(entry.subscribeId)) continue;
		const reason = settings.listIds.includes(Number(listId))
			? `the trigger's batch size or delivery scope changed (it was made with ${entry.limit}, ${entry.permissionMode})`
			: `${listName(Number(listId))} is no longer chosen under "Trigger On"`;
		result.remove.push({ subscribeId: entry.subscribeId, why: `${reason} (it was not listed: disabled, or already gone)` });
	}
	return result;
}

function remember(stored: StoredByList, keep: StoredByList): void {
	for (const key of Object.keys(stored)) delete stored[key];
	Object.assign(stored, keep);
}

/**
 * checkExists: true when every chosen list has its subscription, active or presumed disabled (their ids
 * are then remembered). Deletes nothing, creates nothing.
 */
export async function subscriptionsExist(ctx: IHookFunctions, webhookUrl: string, settings: TriggerSettings, timing: TriggerTiming = DEFAULT_TIMING): Promise<boolean> {
	const staticData = ctx.getWorkflowStaticData('node');
	if (typeof staticData.secret !== 'string') return false;
	const stored = storedFor(staticData, webhookUrl);
	const listed = await listSubscriptions(ctx, webhookUrl, timing);
	if (isFailure(listed)) {
		const complete = settings.listIds.every((listId) => stored[String(listId)] && sameSettings(stored[String(listId)], settings));
		if (complete) {
			ctx.logger.warn(
				`Lofty Trigger: could not read the webhook subscriptions (${listed.failed}); kept the remembered ones (${settings.listIds.map((l) => stored[String(l)].subscribeId).join(', ')}) as they are`,
			);
			return true;
		}
		noteFailedActivation(webhookUrl);
		throw listingError(ctx, listed);
	}
	const p = plan(listed, stored, settings, webhookUrl, callbackUrlOf(webhookUrl, staticData.secret), Date.now());
	if (p.create.length || p.remove.length || formerUrls(staticData, webhookUrl).length) return false;
	for (const [listId, entry] of Object.entries(p.keep)) {
		if (entry.unlistedSince !== undefined && stored[listId]?.unlistedSince === undefined) {
			log(ctx, `the ${listName(Number(listId))} subscription ${entry.subscribeId} is not listed by Lofty: presumed disabled, kept (Lofty holds its events and re-enables it on the next answered ping)`);
		}
	}
	remember(stored, p.keep);
	return true;
}

/** Throws a caught error again as the n8n error it is (re-wrapping returns the same object). */
function rethrow(node: INode, error: unknown): never {
	if (error instanceof NodeApiError) throw new NodeApiError(node, error as unknown as JsonObject);
	throw new NodeOperationError(node, error as Error);
}

function codeOf(error: unknown): string | undefined {
	const code = (error as { errorResponse?: IDataObject })?.errorResponse?.code;
	return code === undefined || code === null ? undefined : String(code);
}

/** Deletes one subscription; WEBHOOK_DELETE_NOT_EXIST counts as done. */
async function deleteOne(ctx: IHookFunctions, subscribeId: string, webhookUrl: string): Promise<void> {
	try {
		await loftyRequest(ctx, { method: 'DELETE', path: `/v1.0/webhook/${encodeURIComponent(subscribeId)}`, hints: hints(webhookUrl) });
	} catch (error) {
		if (codeOf(error) === 'WEBHOOK_DELETE_NOT_EXIST') return;
		rethrow(ctx.getNode(), error);
	}
}

/**
 * create: one subscription per chosen list. Active and presumed-disabled ones are kept; stale ones are
 * deleted first, each with its reason in the log. When a creation fails, the subscriptions made by this
 * call are deleted again and the error is explained.
 */
export async function createSubscriptions(ctx: IHookFunctions, webhookUrl: string, settings: TriggerSettings, timing: TriggerTiming = DEFAULT_TIMING): Promise<boolean> {
	const staticData = ctx.getWorkflowStaticData('node');
	const secret = ensureSecret(staticData);
	const callbackUrl = callbackUrlOf(webhookUrl, secret);
	const stored = storedFor(staticData, webhookUrl);
	const listed = await listSubscriptions(ctx, webhookUrl, timing);
	if (isFailure(listed)) {
		noteFailedActivation(webhookUrl);
		throw listingError(ctx, listed);
	}
	const p = plan(listed, stored, settings, webhookUrl, callbackUrl, Date.now());
	for (const url of formerUrls(staticData, webhookUrl)) {
		for (const entry of Object.values(storedFor(staticData, url))) {
			if (!p.remove.some((r) => r.subscribeId === entry.subscribeId)) p.remove.push({ subscribeId: entry.subscribeId, why: `it calls ${url}, which is not this n8n's webhook address any more` });
		}
		forgetUrl(staticData, url);
	}
	for (const { subscribeId, why } of p.remove) {
		try {
			await deleteOne(ctx, subscribeId, webhookUrl);
			log(ctx, `deleted the webhook subscription ${subscribeId}: ${why}`);
		} catch (error) {
			// Not fatal for activation: a stale subscription only reaches this URL with an old token (refused) or not at all.
			ctx.logger.warn(`Lofty Trigger: could not delete the stale webhook subscription ${subscribeId} (${why}): ${(error as Error).message}`);
		}
	}
	remember(stored, p.keep);

	const created: string[] = [];
	for (const listId of p.create) {
		try {
			const response = (await loftyRequest(ctx, {
				method: 'POST',
				path: '/v1.0/webhook',
				body: { listId, callbackUrl, limit: settings.limit, permissionMode: settings.permissionMode },
				hints: hints(webhookUrl),
			})) as IDataObject | undefined;
			const id = response?.subscribeId ?? response?.id ?? (response?.data as IDataObject | undefined)?.subscribeId;
			if (typeof id !== 'string' && typeof id !== 'number' && typeof id !== 'bigint') {
				throw new NodeOperationError(ctx.getNode(), `Lofty created the ${listName(listId)} subscription but returned no subscribeId`);
			}
			const entry: StoredSubscription = { subscribeId: String(id), limit: settings.limit, permissionMode: settings.permissionMode };
			stored[String(listId)] = entry;
			created.push(entry.subscribeId);
			log(ctx, `subscribed to ${listName(listId)} events (subscription ${entry.subscribeId})`);
		} catch (error) {
			for (const id of created) {
				try {
					await deleteOne(ctx, id, webhookUrl);
					for (const [key, value] of Object.entries(stored)) if (value.subscribeId === id) delete stored[key];
				} catch {
					// the original error matters more; the id stays remembered and is retried on deactivation
				}
			}
			noteFailedActivation(webhookUrl);
			if (error instanceof NodeApiError) error.message = `Could not subscribe to ${listName(listId)} events: ${error.message}`;
			rethrow(ctx.getNode(), error);
		}
	}
	return true;
}

/**
 * delete: removes this node's subscriptions (the remembered ids and any listed one with this node's
 * webhook path), each logged. WEBHOOK_DELETE_NOT_EXIST counts as done; any other failure is reported after
 * trying the rest, and the failed ids stay remembered. Right after a failed activation in this process,
 * n8n's clean-up call deletes nothing (see takeFailedActivation).
 */
export async function deleteSubscriptions(ctx: IHookFunctions, webhookUrl: string, timing: TriggerTiming = DEFAULT_TIMING): Promise<boolean> {
	const staticData = ctx.getWorkflowStaticData('node');
	const stored = storedFor(staticData, webhookUrl);
	if (takeFailedActivation(webhookUrl)) {
		const ids = Object.values(stored).map((s) => s.subscribeId);
		log(ctx, `the activation failed, so n8n removes the trigger again; its Lofty subscriptions${ids.length ? ` (${ids.join(', ')})` : ''} are kept so that no event Lofty holds for them is lost`);
		forgetIfEmpty(staticData, webhookUrl);
		return true;
	}
	const ids = new Set(Object.values(stored).map((s) => s.subscribeId));
	const listed = await listSubscriptions(ctx, webhookUrl, timing);
	const path = pathOf(webhookUrl);
	if (!isFailure(listed)) for (const sub of listed) if (pathOf(sub.callbackUrl) === path) ids.add(sub.subscribeId);
	const failures: Array<{ id: string; error: Error }> = [];
	for (const id of ids) {
		try {
			await deleteOne(ctx, id, webhookUrl);
			log(ctx, `deleted the webhook subscription ${id}: the workflow was deactivated, or n8n is replacing its trigger`);
			for (const [key, value] of Object.entries(stored)) if (value.subscribeId === id) delete stored[key];
		} catch (error) {
			failures.push({ id, error: error as Error });
		}
	}
	forgetIfEmpty(staticData, webhookUrl);
	// Every subscription with the secret is gone: the next activation subscribes with a new one (rotation).
	if (failures.length === 0 && !(isFailure(listed) && ids.size === 0)) retireSecret(staticData);
	if (failures.length > 0) {
		const first = failures[0].error as Error & { description?: string };
		const list = failures.map((f) => `${f.id} (${f.error.message})`).join('; ');
		throw new NodeOperationError(ctx.getNode(), `Could not delete ${failures.length} Lofty webhook subscription(s): ${list}`, {
			description: `${first.description ? `${first.description} ` : ''}Until they are deleted, Lofty keeps sending events to this workflow's URL (they are refused). Fix the cause and deactivate again, or delete them with the Lofty node (Webhook > Delete).`,
		});
	}
	if (isFailure(listed) && ids.size === 0) throw listingError(ctx, listed);
	return true;
}
