import type { IDataObject } from 'n8n-workflow';

import { encodeComponent } from '../../transport/request';

/**
 * Where the record a webhook event is about is read, by the event's `listId` (api-spec.md, Events >
 * Payloads). Lofty's events carry only IDs. Calls, emails and texts are read with the V2 single-record
 * endpoints by `timelineId` ("Pass `timelineId` as `communicationId` to the single-record GET
 * endpoints"; `callId`, `emailId`, `textId` are not interchangeable ids). Listing alerts have no lookup.
 *
 * Used by the Lofty node's Webhook > Get Event Record and by the Lofty Trigger's Fetch Full Record.
 */
export interface RecordLookup {
	/** the event field holding the record's id */
	idField: string;
	/** other event fields the path needs */
	needs?: string[];
	/** the path, with the event fields it needs as `{placeholders}` */
	path: string;
	/** the record sits under this key in some answers */
	unwrap?: string;
}

export const RECORD_LOOKUPS: Record<number, RecordLookup> = {
	1: { idField: 'agentUserId', path: '/v1.0/users/{agentUserId}' },
	2: { idField: 'leadId', path: '/v1.0/leads/{leadId}', unwrap: 'lead' },
	3: { idField: 'leadId', path: '/v1.0/leads/{leadId}', unwrap: 'lead' },
	5: { idField: 'transactionId', needs: ['leadId'], path: '/v1.0/leads/{leadId}/transaction/{transactionId}' },
	6: { idField: 'timelineId', path: '/v2.0/communication/call/{timelineId}' },
	7: { idField: 'timelineId', path: '/v2.0/communication/email/{timelineId}' },
	8: { idField: 'timelineId', path: '/v2.0/communication/text/{timelineId}' },
	9: { idField: 'noteId', path: '/v1.0/notes/{noteId}', unwrap: 'note' },
	10: { idField: 'taskId', path: '/v2.0/tasks/{taskId}', unwrap: 'task' },
	11: { idField: 'apptId', path: '/v2.0/tasks/{apptId}', unwrap: 'task' },
	12: { idField: 'leadId', path: '/v1.0/leads/{leadId}', unwrap: 'lead' },
};

/** Every path an event's record may be read at, as templates (Get Event Record's `routes`), each endpoint once. */
export const RECORD_PATHS: string[] = Object.values(RECORD_LOOKUPS)
	.map((lookup) => lookup.path)
	.filter((path, i, all) => all.findIndex((other) => other.replace(/\{\w+\}/g, '{}') === path.replace(/\{\w+\}/g, '{}')) === i);

/** What reading an event's record takes: a path, nothing (deleted or no lookup), or a reason it cannot be read. */
export type RecordRoute = { path: string; unwrap?: string } | { none: 'deleted' | 'no lookup' } | { missing: string[] };

function idOf(value: unknown): string | undefined {
	if (typeof value === 'string' && /^\d+$/.test(value.trim())) return value.trim();
	if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return String(value);
	if (typeof value === 'bigint' && value > 0n) return value.toString();
	return undefined;
}

/** The request that reads the record of one event (an item of the Lofty Trigger). */
export function recordRoute(event: IDataObject): RecordRoute {
	const lookup = RECORD_LOOKUPS[Number(event.listId)];
	if (!lookup) return { none: 'no lookup' };
	// The record of a deletion is gone; looking it up would only fail.
	if (event.action === 'deleted') return { none: 'deleted' };
	const ids: Record<string, string> = {};
	const missing: string[] = [];
	for (const field of [lookup.idField, ...(lookup.needs ?? [])]) {
		const id = idOf(event[field]);
		if (id === undefined) missing.push(field);
		else ids[field] = id;
	}
	if (missing.length) return { missing };
	const path = lookup.path.replace(/\{(\w+)\}/g, (_, field: string) => encodeComponent(ids[field]));
	return { path, unwrap: lookup.unwrap };
}

/** The record inside an answer (`{lead: {...}}` or bare). */
export function unwrapRecord(response: unknown, key: string | undefined): IDataObject | null {
	if (key && response && typeof response === 'object' && !Array.isArray(response)) {
		const inner = (response as IDataObject)[key];
		if (inner && typeof inner === 'object') return inner as IDataObject;
	}
	return response && typeof response === 'object' ? (response as IDataObject) : null;
}
