import type { IDataObject } from 'n8n-workflow';

import { ENTITY_BY_LIST } from './events';

/**
 * Lofty webhook payloads (api-spec.md, Events > Payloads) turned into one item per event.
 *
 * A payload is `{teamId, listId, <action><Subject>: [...]}`: `createdLead[]`, `updatedLead[]`,
 * `finishedTask[]`, `updatedLeadstage[]` and so on, several at once. Array keys are read generically
 * (any array of objects is a list of events; its action is the lower-case head of its name), so keys
 * Lofty adds later still arrive. Notes send `updatedNote` and `deletedNote` as single objects; object
 * values under a key that starts with a known action are read as one event. A listing alert (list 4)
 * carries only `alertId`: a payload without event keys but with other fields is one event.
 * A ping is `{eventType: "ping", webhookId}`.
 */

export interface ParsedEvent {
	json: IDataObject;
	action: string;
	/** listId + key + ids + updateTime: the same event delivered twice has the same key */
	dedupeKey: string;
}

export type ParseResult =
	| { kind: 'ping'; webhookId?: string }
	| { kind: 'events'; listId: number; teamId?: string; events: ParsedEvent[] }
	| { kind: 'invalid'; reason: string };

const RESERVED = new Set(['listId', 'teamId', 'eventType', 'webhookId']);
const KNOWN_ACTIONS = ['created', 'updated', 'deleted', 'finished'];
const ID_KEY = /^(?:id|[a-z][A-Za-z0-9]*(?:Id|ID))$/;

function isPlainObject(value: unknown): value is IDataObject {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function asIdString(value: unknown): string | undefined {
	if (typeof value === 'string' && value.trim() !== '') return value.trim();
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value === 'bigint') return value.toString();
	return undefined;
}

function listIdOf(value: unknown): number | undefined {
	const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
	return typeof n === 'number' && Number.isInteger(n) && n >= 1 ? n : undefined;
}

/** `updateTime` as epoch milliseconds: a number, digits, or a date string. */
/** JavaScript dates end at ±8.64e15 ms; a time beyond that is no time at all. */
const MAX_DATE_MS = 8.64e15;

export function toEpochMs(value: unknown): number | undefined {
	let ms: number | undefined;
	if (typeof value === 'number') ms = value;
	else if (typeof value === 'string' && value.trim() !== '') {
		const text = value.trim();
		ms = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
	}
	return ms !== undefined && Number.isFinite(ms) && Math.abs(ms) <= MAX_DATE_MS ? ms : undefined;
}

/** `createdLead` -> created; `updatedLeadstage` -> updated; a name without a lower-case head is its own action. */
export function actionOf(key: string): string {
	const match = /^([a-z]+)[A-Z0-9_]/.exec(key);
	return match ? match[1] : key;
}

function eventKeyOf(listId: number, key: string, ids: Array<[string, string]>, updateTime: number | undefined): string {
	const idPart = ids
		.slice()
		.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
		.map(([k, v]) => `${k}=${v}`)
		.join(',');
	return `${listId}|${key}|${idPart}|${updateTime ?? ''}`;
}

function buildEvent(
	listId: number,
	teamId: string | undefined,
	key: string,
	action: string,
	raw: IDataObject,
	deliveryId: string | undefined,
): ParsedEvent {
	const entity = ENTITY_BY_LIST[listId] ?? key.replace(/^[a-z]+/, '').replace(/^./, (c) => c.toLowerCase());
	const json: IDataObject = {
		event: `${entity}.${action}`,
		listId,
		teamId: teamId ?? null,
		action,
	};
	const ids: Array<[string, string]> = [];
	for (const [field, value] of Object.entries(raw)) {
		if (!ID_KEY.test(field)) continue;
		const id = asIdString(value);
		if (id === undefined) continue;
		json[field] = id;
		ids.push([field, id]);
	}
	const updateTime = toEpochMs(raw.updateTime);
	json.updateTime = updateTime ?? null;
	json.updateTimeIso = updateTime === undefined ? null : new Date(updateTime).toISOString();
	if (typeof raw.communicationType === 'string') json.communicationType = raw.communicationType;
	if (typeof raw.noteType === 'string') json.noteType = raw.noteType;
	const changeInfo = raw.changeInfo;
	if (isPlainObject(changeInfo)) {
		json.oldStage = (changeInfo.oldstage ?? changeInfo.oldStage ?? null) as IDataObject[string];
		json.newStage = (changeInfo.newstage ?? changeInfo.newStage ?? null) as IDataObject[string];
	}
	if (Array.isArray(raw.updatedFields)) json.updatedFields = raw.updatedFields;
	json.eventKey = key;
	json.deliveryId = deliveryId ?? null;
	json.raw = raw;
	return { json, action, dedupeKey: eventKeyOf(listId, key, ids, updateTime) };
}

export function parsePayload(body: unknown, deliveryId?: string): ParseResult {
	if (!isPlainObject(body)) return { kind: 'invalid', reason: 'The body must be a JSON object' };
	if (typeof body.eventType === 'string' && body.eventType.toLowerCase() === 'ping') {
		return { kind: 'ping', webhookId: asIdString(body.webhookId) };
	}
	const listId = listIdOf(body.listId);
	if (listId === undefined) return { kind: 'invalid', reason: 'The body has no listId (a positive integer)' };
	const teamId = asIdString(body.teamId);

	const events: ParsedEvent[] = [];
	const scalars: IDataObject = {};
	for (const [key, value] of Object.entries(body)) {
		if (RESERVED.has(key)) continue;
		if (Array.isArray(value)) {
			for (const [index, entry] of value.entries()) {
				if (!isPlainObject(entry)) return { kind: 'invalid', reason: `${key}[${index}] is not an object` };
				events.push(buildEvent(listId, teamId, key, actionOf(key), entry, deliveryId));
			}
		} else if (isPlainObject(value) && KNOWN_ACTIONS.includes(actionOf(key))) {
			events.push(buildEvent(listId, teamId, key, actionOf(key), value, deliveryId));
		} else {
			scalars[key] = value;
		}
	}
	// A listing alert (`{listId: 4, teamId, alertId}`) and other payloads without event keys: one event.
	if (events.length === 0 && Object.keys(scalars).length > 0) {
		events.push(buildEvent(listId, teamId, Object.keys(scalars)[0], 'triggered', scalars, deliveryId));
	}
	return { kind: 'events', listId, teamId, events };
}
