import { randomBytes } from 'crypto';
import type { IDataObject, IHookFunctions, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { loftyRequest } from '../Lofty/transport/request';
import { listName } from './events';

/**
 * The trigger's Lofty webhook subscriptions: one per chosen event list, all pointing to this node's
 * webhook URL plus `?token=<secret>`.
 *
 * Static data of the node:
 * - `secret`: 32 random bytes (hex), made once; a request without it is refused (401);
 * - `subscriptions`: `{ <webhook URL>: { <listId>: <subscribeId> } }`, by URL so the test URL and the
 *   production URL of the same node never overwrite each other's ids.
 *
 * A subscription is "ours" when its callback URL, without the query, is this node's webhook URL
 * (n8n makes that path unique per node). It "matches" when the whole callback URL (token included),
 * the list, the batch limit and the permission mode are what the node asks for.
 */

export interface TriggerSettings {
	listIds: number[];
	limit: number;
	permissionMode: 0 | 1;
}

export interface Subscription {
	subscribeId: string;
	listId: number;
	callbackUrl: string;
	limit?: number;
	permissionMode?: number;
}

type StoredIds = Record<string, Record<string, string>>;

export function ensureSecret(staticData: IDataObject): string {
	if (typeof staticData.secret !== 'string' || staticData.secret.length < 32) {
		staticData.secret = randomBytes(32).toString('hex');
	}
	return staticData.secret;
}

export function callbackUrlOf(webhookUrl: string, secret: string): string {
	return `${webhookUrl}${webhookUrl.includes('?') ? '&' : '?'}token=${secret}`;
}

function withoutQuery(url: string): string {
	const at = url.indexOf('?');
	return at < 0 ? url : url.slice(0, at);
}

function storedIds(staticData: IDataObject, webhookUrl: string): Record<string, string> {
	const all = (staticData.subscriptions ?? {}) as StoredIds;
	staticData.subscriptions = all as unknown as IDataObject;
	all[webhookUrl] ??= {};
	return all[webhookUrl];
}

function forgetIfEmpty(staticData: IDataObject, webhookUrl: string): void {
	const all = (staticData.subscriptions ?? {}) as StoredIds;
	if (all[webhookUrl] && Object.keys(all[webhookUrl]).length === 0) delete all[webhookUrl];
}

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

function asList(response: unknown): IDataObject[] {
	if (Array.isArray(response)) return response as IDataObject[];
	if (response && typeof response === 'object') {
		for (const key of ['data', 'webhooks', 'subscriptions', 'list']) {
			const inner = (response as IDataObject)[key];
			if (Array.isArray(inner)) return inner as IDataObject[];
		}
	}
	return [];
}

function toSubscription(raw: IDataObject): Subscription | undefined {
	const subscribeId = raw.subscribeId ?? raw.id;
	const listId = Number(raw.listId);
	if ((typeof subscribeId !== 'string' && typeof subscribeId !== 'number') || !Number.isInteger(listId) || typeof raw.callbackUrl !== 'string') {
		return undefined;
	}
	return {
		subscribeId: String(subscribeId),
		listId,
		callbackUrl: raw.callbackUrl,
		limit: raw.limit === undefined || raw.limit === null ? undefined : Number(raw.limit),
		permissionMode: raw.permissionMode === undefined || raw.permissionMode === null ? undefined : Number(raw.permissionMode),
	};
}

export async function listSubscriptions(ctx: IHookFunctions, webhookUrl: string): Promise<Subscription[]> {
	const response = await loftyRequest(ctx, { method: 'GET', path: '/v1.0/webhooks', hints: hints(webhookUrl) });
	return asList(response)
		.map(toSubscription)
		.filter((s): s is Subscription => s !== undefined);
}

function matches(sub: Subscription, callbackUrl: string, listId: number, settings: TriggerSettings): boolean {
	return (
		sub.callbackUrl === callbackUrl &&
		sub.listId === listId &&
		(sub.limit === undefined || Number.isNaN(sub.limit) || sub.limit === settings.limit) &&
		(sub.permissionMode === undefined || Number.isNaN(sub.permissionMode) || sub.permissionMode === settings.permissionMode)
	);
}

/** Throws a caught error again as the n8n error it is (re-wrapping returns the same object). */
function rethrow(node: INode, error: unknown): never {
	if (error instanceof NodeApiError) throw new NodeApiError(node, error as unknown as JsonObject);
	throw new NodeOperationError(node, error as Error);
}

/** Lofty's code of a failed request, when it had one. */
function codeOf(error: unknown): string | undefined {
	const code = (error as { errorResponse?: IDataObject })?.errorResponse?.code;
	return code === undefined || code === null ? undefined : String(code);
}

/**
 * checkExists: true when every chosen list has a matching subscription (their ids are then kept).
 * Deletes nothing.
 */
export async function subscriptionsExist(ctx: IHookFunctions, webhookUrl: string, settings: TriggerSettings): Promise<boolean> {
	const staticData = ctx.getWorkflowStaticData('node');
	if (typeof staticData.secret !== 'string') return false;
	const callbackUrl = callbackUrlOf(webhookUrl, staticData.secret);
	const listed = await listSubscriptions(ctx, webhookUrl);
	const found: Record<string, string> = {};
	for (const listId of settings.listIds) {
		const sub = listed.find((s) => matches(s, callbackUrl, listId, settings));
		if (!sub) return false;
		found[String(listId)] = sub.subscribeId;
	}
	const stored = storedIds(staticData, webhookUrl);
	for (const key of Object.keys(stored)) delete stored[key];
	Object.assign(stored, found);
	return true;
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
 * create: one subscription per chosen list. Matching ones are kept (a restart or a lost checkExists
 * never makes duplicates); our own stale ones (old token, other settings, lists no longer chosen,
 * ids remembered but no longer listed) are deleted first. When a creation fails, the subscriptions
 * made by this call are deleted again and the error is explained.
 */
export async function createSubscriptions(ctx: IHookFunctions, webhookUrl: string, settings: TriggerSettings): Promise<boolean> {
	const staticData = ctx.getWorkflowStaticData('node');
	const secret = ensureSecret(staticData);
	const callbackUrl = callbackUrlOf(webhookUrl, secret);
	const stored = storedIds(staticData, webhookUrl);
	const listed = await listSubscriptions(ctx, webhookUrl);

	const keep: Record<string, string> = {};
	for (const listId of settings.listIds) {
		const sub = listed.find((s) => matches(s, callbackUrl, listId, settings));
		if (sub) keep[String(listId)] = sub.subscribeId;
	}
	const kept = new Set(Object.values(keep));
	const stale = new Set<string>();
	for (const sub of listed) if (withoutQuery(sub.callbackUrl) === webhookUrl && !kept.has(sub.subscribeId)) stale.add(sub.subscribeId);
	for (const id of Object.values(stored)) if (!kept.has(id)) stale.add(id);
	for (const id of stale) {
		try {
			await deleteOne(ctx, id, webhookUrl);
		} catch (error) {
			// Not fatal for activation: a stale subscription only reaches this URL with an old token (refused).
			ctx.logger.warn(`Lofty Trigger: could not delete the stale webhook subscription ${id}: ${(error as Error).message}`);
		}
	}
	for (const key of Object.keys(stored)) delete stored[key];
	Object.assign(stored, keep);

	const created: string[] = [];
	for (const listId of settings.listIds) {
		if (keep[String(listId)]) continue;
		try {
			const response = (await loftyRequest(ctx, {
				method: 'POST',
				path: '/v1.0/webhook',
				body: { listId, callbackUrl, limit: settings.limit, permissionMode: settings.permissionMode },
				hints: hints(webhookUrl),
			})) as IDataObject | undefined;
			const id = response?.subscribeId ?? response?.id ?? (response?.data as IDataObject | undefined)?.subscribeId;
			if (typeof id !== 'string' && typeof id !== 'number') {
				throw new NodeOperationError(ctx.getNode(), `Lofty created the ${listName(listId)} subscription but returned no subscribeId`);
			}
			stored[String(listId)] = String(id);
			created.push(String(id));
		} catch (error) {
			for (const id of created) {
				try {
					await deleteOne(ctx, id, webhookUrl);
					for (const [key, value] of Object.entries(stored)) if (value === id) delete stored[key];
				} catch {
					// the original error matters more; the id stays stored and is retried on deactivation
				}
			}
			if (error instanceof NodeApiError) {
				error.message = `Could not subscribe to ${listName(listId)} events: ${error.message}`;
			}
			rethrow(ctx.getNode(), error);
		}
	}
	return true;
}

/**
 * delete: removes this node's subscriptions only (the remembered ids and any listed one whose callback
 * path is this node's). WEBHOOK_DELETE_NOT_EXIST counts as done; any other failure is reported after
 * trying the rest, and the failed ids stay remembered.
 */
export async function deleteSubscriptions(ctx: IHookFunctions, webhookUrl: string): Promise<boolean> {
	const staticData = ctx.getWorkflowStaticData('node');
	const stored = storedIds(staticData, webhookUrl);
	const ids = new Set(Object.values(stored));
	let listingError: Error | undefined;
	try {
		for (const sub of await listSubscriptions(ctx, webhookUrl)) if (withoutQuery(sub.callbackUrl) === webhookUrl) ids.add(sub.subscribeId);
	} catch (error) {
		listingError = error as Error;
	}
	const failures: Array<{ id: string; error: Error }> = [];
	for (const id of ids) {
		try {
			await deleteOne(ctx, id, webhookUrl);
			for (const [key, value] of Object.entries(stored)) if (value === id) delete stored[key];
		} catch (error) {
			failures.push({ id, error: error as Error });
		}
	}
	forgetIfEmpty(staticData, webhookUrl);
	if (failures.length > 0) {
		const first = failures[0].error as Error & { description?: string };
		const list = failures.map((f) => `${f.id} (${f.error.message})`).join('; ');
		throw new NodeOperationError(ctx.getNode(), `Could not delete ${failures.length} Lofty webhook subscription(s): ${list}`, {
			description: `${first.description ? `${first.description} ` : ''}Until they are deleted, Lofty keeps sending events to this workflow's URL (they are refused). Fix the cause and deactivate again, or delete them with the Lofty node (Webhook > Delete).`,
		});
	}
	if (listingError && ids.size === 0) rethrow(ctx.getNode(), listingError);
	return true;
}
