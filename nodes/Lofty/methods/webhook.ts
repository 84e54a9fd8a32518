import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { WEBHOOK_EVENTS, redactCallbackUrl } from '../resources/webhook';
import { loftyRequest } from '../transport/request';
import type { MethodSet } from './types';

/** Active webhook subscriptions of the team for dropdowns: "Event → callback URL" (its secret redacted), valued by subscription ID. */
export async function getWebhookSubscriptions(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const response = await loftyRequest(this, { method: 'GET', path: '/v1.0/webhooks' });
	const subscriptions = Array.isArray(response) ? (response as IDataObject[]) : [];
	return subscriptions
		.filter((s) => s.subscribeId !== undefined && s.subscribeId !== null)
		.map((s) => {
			const event = WEBHOOK_EVENTS.find((e) => String(e.value) === String(s.listId))?.name ?? `Event ${String(s.listId)}`;
			return { name: `${event} → ${String(redactCallbackUrl(s.callbackUrl ?? ''))}`, value: String(s.subscribeId) };
		})
		.sort((a, b) => a.name.localeCompare(b.name));
}

/** List searches (resource locators) and dropdowns of the Webhook resource. */
export const webhookMethods: MethodSet = { listSearch: {}, loadOptions: { getWebhookSubscriptions } };
