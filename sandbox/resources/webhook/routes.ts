/**
 * Webhook subscriptions (api-spec.md "Webhook subscription endpoints", WebhookRequest/Response):
 * - POST   /v1.0/webhook                 create: listId 1..12, HTTPS callbackUrl, limit 1..5000 (default 100),
 *                                        permissionMode 0 (default) or 1;
 * - GET    /v1.0/webhooks                the team's active subscriptions, a bare array of WebhookResponse;
 * - DELETE /v1.0/webhook/{subscribeId}   empty body; WEBHOOK_DELETE_NOT_EXIST / WEBHOOK_DELETE_NO_AUTHORITY.
 *
 * Errors (400): WEBHOOK_TYPE_ERROR (listId missing or not 1..12, OpenAPI), WEBHOOK_CALLBACK_URL_INVALID
 * (missing, unparsable or not https), WEBHOOK_EXCEED_LIMIT (the team holds MAX_WEBHOOK_SUBSCRIPTIONS;
 * the real maximum is "not shown"), INVALID_PARAMETER 20012 (limit or permissionMode out of range).
 * Delete: a subscription of another user (api-spec.md: "owned by another caller") or of another team
 * (OpenAPI) is WEBHOOK_DELETE_NO_AUTHORITY; an unknown one WEBHOOK_DELETE_NOT_EXIST.
 *
 * Delivery: `./delivery` (started by this resource's seed) sends the events of sandbox writes to
 * these subscriptions. HTTPS is required as by Lofty; the sandbox option `allowHttpCallbacks`
 * (`configureDelivery(store, {allowHttpCallbacks: true})`, off by default) also accepts
 * `http://` callbacks on loopback hosts, for a local n8n in tests.
 */
import { ApiError, Codes, invalidParam } from '../../core/errors';
import { toInt64 } from '../../core/json';
import { asObject, pathId } from '../../core/params';
import { truncateIntegers } from '../../core/readings';
import type { Route } from '../../core/router';
import { deliveryOptions } from './delivery/engine';
import { isLoopbackUrl } from './delivery/post';
import { MAX_WEBHOOK_SUBSCRIPTIONS, WEBHOOK_EVENTS, WEBHOOK_LIMIT_DEFAULT, WEBHOOK_LIMIT_MAX, type WebhookSubscription, vendorIdOf, webhookState } from './state';

const view = (s: WebhookSubscription) => ({
	subscribeId: s.subscribeId,
	teamId: s.teamId,
	listId: s.listId,
	vendorId: s.vendorId,
	callbackUrl: s.callbackUrl,
	limit: s.limit,
	permissionMode: s.permissionMode,
});

function isHttpsUrl(v: unknown): v is string {
	if (typeof v !== 'string' || v.trim() === '') return false;
	try {
		const url = new URL(v.trim());
		return url.protocol === 'https:' && url.hostname !== '';
	} catch {
		return false;
	}
}

function intField(o: Record<string, unknown>, name: string): number | undefined | null {
	const v = toInt64(o[name]);
	if (v === undefined) return undefined;
	if (v === null || v > 2_147_483_647n || v < -2_147_483_648n) return null;
	return Number(v);
}

export const webhookRoutes: Route[] = [
	{
		method: 'POST',
		pattern: '/v1.0/webhook',
		body: 'json',
		handler: ({ body, store, user, caller, now }) => {
			const o = asObject(body);
			const listId = intField(o, 'listId');
			if (listId === undefined || listId === null || !WEBHOOK_EVENTS[listId]) {
				throw new ApiError(400, 'WEBHOOK_TYPE_ERROR', `listId must be an event type from 1 to 12, got ${JSON.stringify(o.listId ?? null)}`);
			}
			// `allowHttpCallbacks` (a sandbox option, off by default) also accepts http:// on loopback hosts for tests.
			const loopbackHttp =
				deliveryOptions(store).allowHttpCallbacks === true &&
				typeof o.callbackUrl === 'string' &&
				o.callbackUrl.trim().startsWith('http://') &&
				isLoopbackUrl(o.callbackUrl.trim());
			if (!isHttpsUrl(o.callbackUrl) && !loopbackHttp) {
				throw new ApiError(400, 'WEBHOOK_CALLBACK_URL_INVALID', 'callbackUrl must be a valid HTTPS URL');
			}
			truncateIntegers(store, o, ['limit']);
			const limit = intField(o, 'limit');
			if (limit === null || (limit !== undefined && (limit < 1 || limit > WEBHOOK_LIMIT_MAX))) {
				throw invalidParam(`'limit' must be between 1 and ${WEBHOOK_LIMIT_MAX}, got ${JSON.stringify(o.limit)}`);
			}
			const mode = intField(o, 'permissionMode');
			if (mode === null || (mode !== undefined && mode !== 0 && mode !== 1)) {
				throw invalidParam(`'permissionMode' must be 0 or 1, got ${JSON.stringify(o.permissionMode)}`);
			}
			const state = webhookState(store);
			const held = [...state.subscriptions.values()].filter((s) => s.teamId === user.teamId).length;
			if (held >= MAX_WEBHOOK_SUBSCRIPTIONS) {
				throw new ApiError(400, 'WEBHOOK_EXCEED_LIMIT', `The account already holds the maximum of ${MAX_WEBHOOK_SUBSCRIPTIONS} webhook subscriptions`);
			}
			const appId = caller?.appId ?? 'anonymous';
			const sub: WebhookSubscription = {
				subscribeId: state.nextId++,
				teamId: user.teamId,
				ownerUserId: user.userId,
				appId,
				vendorId: vendorIdOf(appId),
				listId,
				callbackUrl: (o.callbackUrl as string).trim(),
				limit: limit ?? WEBHOOK_LIMIT_DEFAULT,
				permissionMode: (mode ?? 0) as 0 | 1,
				createdAt: now,
				active: true,
			};
			state.subscriptions.set(sub.subscribeId.toString(), sub);
			return { body: view(sub) };
		},
	},
	{
		method: 'GET',
		pattern: '/v1.0/webhooks',
		handler: ({ store, user }) => ({
			body: [...webhookState(store).subscriptions.values()].filter((s) => s.active && s.teamId === user.teamId).map(view),
		}),
	},
	{
		method: 'DELETE',
		pattern: '/v1.0/webhook/{subscribeId}',
		handler: ({ params, headers, store, user }) => {
			// The OpenAPI requires Content-Type on this DELETE; live DELETEs answer 400 without it (api-notes.md).
			if (!String(headers['content-type'] ?? '').toLowerCase().includes('application/json')) {
				throw new ApiError(400, Codes.CONTENT_TYPE, 'Content-type must be: application/json');
			}
			const id = pathId(params.subscribeId, 'subscribeId');
			const state = webhookState(store);
			const sub = state.subscriptions.get(id.toString());
			if (!sub) throw new ApiError(400, 'WEBHOOK_DELETE_NOT_EXIST', `Webhook subscription ${id} does not exist`);
			if (sub.teamId !== user.teamId || sub.ownerUserId !== user.userId) {
				throw new ApiError(400, 'WEBHOOK_DELETE_NO_AUTHORITY', `Webhook subscription ${id} belongs to another user`);
			}
			state.subscriptions.delete(id.toString());
			return { raw: '' };
		},
	},
];
