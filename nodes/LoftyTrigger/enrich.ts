import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { loftyRequest } from '../Lofty/transport/request';

/**
 * "Fetch Full Record": each event item gains `record`, the full record it is about, read with the
 * node's credential through `loftyRequest`. Calls, emails and texts are looked up with the V2
 * single-record endpoints by `timelineId` (api-spec.md: `callId`, `emailId`, `textId` are not
 * interchangeable ids). A lookup that fails sets `recordError` on that item only; the batch goes on.
 * Deleted records are not looked up (`record: null`); listing alerts have no lookup.
 */

interface Lookup {
	/** the item field holding the id */
	idField: string;
	path: (ids: Record<string, string>) => string;
	/** the record sits under this key in some answers */
	unwrap?: string;
	/** other ids the path needs */
	needs?: string[];
}

const enc = encodeURIComponent;

const LOOKUPS: Record<number, Lookup> = {
	1: { idField: 'agentUserId', path: (i) => `/v1.0/users/${enc(i.agentUserId)}` },
	2: { idField: 'leadId', path: (i) => `/v1.0/leads/${enc(i.leadId)}`, unwrap: 'lead' },
	3: { idField: 'leadId', path: (i) => `/v1.0/leads/${enc(i.leadId)}`, unwrap: 'lead' },
	5: {
		idField: 'transactionId',
		needs: ['leadId'],
		path: (i) => `/v1.0/leads/${enc(i.leadId)}/transaction/${enc(i.transactionId)}`,
	},
	6: { idField: 'timelineId', path: (i) => `/v2.0/communication/call/${enc(i.timelineId)}` },
	7: { idField: 'timelineId', path: (i) => `/v2.0/communication/email/${enc(i.timelineId)}` },
	8: { idField: 'timelineId', path: (i) => `/v2.0/communication/text/${enc(i.timelineId)}` },
	9: { idField: 'noteId', path: (i) => `/v1.0/notes/${enc(i.noteId)}`, unwrap: 'note' },
	10: { idField: 'taskId', path: (i) => `/v2.0/tasks/${enc(i.taskId)}`, unwrap: 'task' },
	11: { idField: 'apptId', path: (i) => `/v2.0/tasks/${enc(i.apptId)}`, unwrap: 'task' },
	12: { idField: 'leadId', path: (i) => `/v1.0/leads/${enc(i.leadId)}`, unwrap: 'lead' },
};

/** Whether events of a list can be enriched. */
export function hasLookup(listId: number): boolean {
	return LOOKUPS[listId] !== undefined;
}

function unwrap(response: unknown, key: string | undefined): unknown {
	if (key && response && typeof response === 'object' && !Array.isArray(response)) {
		const inner = (response as IDataObject)[key];
		if (inner && typeof inner === 'object') return inner;
	}
	return response;
}

function errorInfo(error: unknown): IDataObject {
	const e = error as Error & { description?: string | null; httpCode?: string | null; errorResponse?: IDataObject };
	const info: IDataObject = { message: e.message };
	if (e.description) info.description = e.description;
	if (e.httpCode) info.httpCode = e.httpCode;
	const code = e.errorResponse?.code;
	if (code !== undefined) info.code = code as IDataObject[string];
	return info;
}

export async function fetchFullRecords(ctx: IWebhookFunctions, items: IDataObject[]): Promise<void> {
	const cache = new Map<string, Promise<unknown>>();
	for (const item of items) {
		const lookup = LOOKUPS[Number(item.listId)];
		if (!lookup) continue;
		if (item.action === 'deleted') {
			item.record = null;
			continue;
		}
		const ids: Record<string, string> = {};
		const missing: string[] = [];
		for (const field of [lookup.idField, ...(lookup.needs ?? [])]) {
			if (typeof item[field] === 'string' && item[field] !== '') ids[field] = item[field] as string;
			else missing.push(field);
		}
		if (missing.length) {
			item.recordError = { message: `The event has no ${missing.join(' and ')} to look the record up by` };
			continue;
		}
		const path = lookup.path(ids);
		let pending = cache.get(path);
		if (!pending) {
			pending = loftyRequest(ctx, { method: 'GET', path });
			// a failure is handled per item below; keep the cached promise from rejecting unobserved
			pending.catch(() => undefined);
			cache.set(path, pending);
		}
		try {
			item.record = unwrap(await pending, lookup.unwrap) as IDataObject;
		} catch (error) {
			item.recordError = errorInfo(error);
		}
	}
}
