import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { recordRoute, unwrapRecord } from '../Lofty/resources/webhook';
import { isDeadlineReached, loftyRequest } from '../Lofty/transport/request';

/**
 * "Fetch Full Record" of the trigger, kept for workflows that use it: each item gains `record`, read
 * before n8n creates the execution, so Lofty gets its answer only after the lookups. They are bounded by
 * `budgetMs` in all (5 s; every wait counts: the pacer, 429s, the answers), so that the answer stays well inside
 * Lofty's wait: an item not looked up in time
 * gets `recordError` (code NOT_LOOKED_UP) and its workflow can read it with the Lofty node (Webhook > Get
 * Event Record), which is the recommended way (the lookups then run inside the execution).
 * A lookup that fails sets `recordError` on that item only; deleted records are not looked up (`record: null`).
 */
function errorInfo(error: unknown): IDataObject {
	const e = error as Error & { description?: string | null; httpCode?: string | null; errorResponse?: IDataObject };
	const info: IDataObject = { message: e.message };
	if (e.description) info.description = e.description;
	if (e.httpCode) info.httpCode = e.httpCode;
	const code = e.errorResponse?.code;
	if (code !== undefined) info.code = code as IDataObject[string];
	return info;
}

const NOT_LOOKED_UP = {
	message: 'Not looked up: the trigger reads records for a few seconds per delivery at most, so that Lofty gets its answer in time.',
	description: 'Read the record inside the workflow instead: add the Lofty node after the trigger with Webhook > Get Event Record, and switch off Fetch Full Record.',
	code: 'NOT_LOOKED_UP',
};

export async function fetchFullRecords(ctx: IWebhookFunctions, items: IDataObject[], budgetMs: number): Promise<void> {
	const deadline = Date.now() + budgetMs;
	const cache = new Map<string, Promise<unknown>>();
	for (const item of items) {
		const route = recordRoute(item);
		if ('none' in route) {
			if (route.none === 'deleted') item.record = null;
			continue;
		}
		if ('missing' in route) {
			item.recordError = { message: `The event has no ${route.missing.join(' and ')} to look the record up by` };
			continue;
		}
		const left = deadline - Date.now();
		let pending = cache.get(route.path);
		if (!pending) {
			if (left <= 0) {
				item.recordError = { ...NOT_LOOKED_UP };
				continue;
			}
			pending = loftyRequest(ctx, { method: 'GET', path: route.path, deadline, readRetries: 0 });
			// a failure is handled per item below; keep the cached promise from rejecting unobserved
			pending.catch(() => undefined);
			cache.set(route.path, pending);
		}
		try {
			item.record = unwrapRecord(await pending, route.unwrap);
		} catch (error) {
			// Out of time before Lofty answered (a pacer wait, a 429): not looked up, like the items after it.
			item.recordError = isDeadlineReached(error) ? { ...NOT_LOOKED_UP } : errorInfo(error);
		}
	}
}
