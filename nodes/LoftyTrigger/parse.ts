import type { IDataObject } from 'n8n-workflow';

import { ENTITY_BY_LIST } from './events';

/**
 * Lofty webhook payloads (api-spec.md, Events > Payloads) turned into one item per event.
 *
 * A payload is `{teamId, listId, <action><Subject>: [...]}`: `createdLead[]`, `updatedLead[]`,
 * `finishedTask[]`, `updatedLeadstage[]` and so on, several at once. Array keys are read generically
 * (every array is a list of events; its action is the lower-case head of its name), so keys Lofty adds
 * later still arrive. Notes send `updatedNote` and `deletedNote` as single objects; object values under a
 * key that starts with a known action are read as one event. A listing alert (list 4) carries only
 * `alertId`: a payload without event keys but with other fields is one event. A ping is
 * `{eventType: "ping", webhookId}`.
 *
 * Nothing an authenticated sender delivered is refused for its shape (a 4xx makes Lofty discard the
 * event): other top-level fields travel on every item as `extra`; an entry that is not an object, a body
 * without a listId or one that is not an object at all becomes an item whose `raw` holds it.
 */

export interface ParsedEvent {
	json: IDataObject;
	action: string;
	/** listId + key + ids + updateTime: the same event delivered twice has the same key */
	dedupeKey: string;
	/** whether the event has its own time (only then does its content identify it) */
	timed: boolean;
}

export type ParseResult =
	| { kind: 'ping'; webhookId?: string }
	/** `listId` undefined: the body named no list (its items carry the body as `raw`) */
	| { kind: 'events'; listId?: number; teamId?: string; events: ParsedEvent[] };

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

/** JSON with object keys sorted: the same content gives the same text whatever order Lofty wrote it in. */
function canonical(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
	if (isPlainObject(value)) {
		const keys = Object.keys(value).sort();
		return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
	}
	return typeof value === 'bigint' ? value.toString() : (JSON.stringify(value) ?? 'null');
}

/** What an event says changed: two changes of one record in one millisecond (Hot, then Under Contract) are two events. */
const CHANGE_FIELDS = ['changeInfo', 'updatedField', 'updatedFields'];

function eventKeyOf(listId: number, key: string, ids: Array<[string, string]>, updateTime: number | undefined, fields: IDataObject): string {
	const idPart = ids
		.slice()
		.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
		.map(([k, v]) => `${k}=${v}`)
		.join(',');
	const change = CHANGE_FIELDS.filter((f) => fields[f] !== undefined && fields[f] !== null).map((f) => `${f}=${canonical(fields[f])}`);
	return `${listId}|${key}|${idPart}|${updateTime ?? ''}${change.length ? `|${change.join('|')}` : ''}`;
}

function buildEvent(
	listId: number | undefined,
	teamId: string | undefined,
	key: string,
	action: string,
	raw: unknown,
	deliveryId: string | undefined,
): ParsedEvent {
	const entity = (listId !== undefined ? ENTITY_BY_LIST[listId] : undefined) ?? (key.replace(/^[a-z]+/, '').replace(/^./, (c) => c.toLowerCase()) || 'unknown');
	const json: IDataObject = {
		event: `${entity}.${action}`,
		listId: listId ?? null,
		teamId: teamId ?? null,
		action,
	};
	const fields = isPlainObject(raw) ? raw : {};
	const ids = idsOf(fields);
	for (const [field, id] of ids) json[field] = id;
	const updateTime = toEpochMs(fields.updateTime);
	json.updateTime = updateTime ?? null;
	json.updateTimeIso = updateTime === undefined ? null : new Date(updateTime).toISOString();
	if (typeof fields.communicationType === 'string') json.communicationType = fields.communicationType;
	if (typeof fields.noteType === 'string') json.noteType = fields.noteType;
	const changeInfo = fields.changeInfo;
	if (isPlainObject(changeInfo)) {
		json.oldStage = (changeInfo.oldstage ?? changeInfo.oldStage ?? null) as IDataObject[string];
		json.newStage = (changeInfo.newstage ?? changeInfo.newStage ?? null) as IDataObject[string];
	}
	if (Array.isArray(fields.updatedFields)) json.updatedFields = fields.updatedFields;
	json.eventKey = key;
	json.deliveryId = deliveryId ?? null;
	json.raw = raw as IDataObject;
	return { json, action, ...contentKeyOf(listId, key, raw) };
}

function idsOf(fields: IDataObject): Array<[string, string]> {
	const ids: Array<[string, string]> = [];
	for (const [field, value] of Object.entries(fields)) {
		if (!ID_KEY.test(field)) continue;
		const id = asIdString(value);
		if (id !== undefined) ids.push([field, id]);
	}
	return ids;
}

/** The content key of one delivered event (its list, payload key and entry as Lofty sent it) and whether it has its own time. */
export function contentKeyOf(listId: number | undefined, key: string, raw: unknown): { dedupeKey: string; timed: boolean } {
	const fields = isPlainObject(raw) ? raw : {};
	const updateTime = toEpochMs(fields.updateTime);
	return { dedupeKey: eventKeyOf(listId ?? 0, key, idsOf(fields), updateTime, fields), timed: updateTime !== undefined && isPlainObject(raw) };
}

export function parsePayload(body: unknown, deliveryId?: string): ParseResult {
	if (isPlainObject(body) && typeof body.eventType === 'string' && body.eventType.toLowerCase() === 'ping') {
		return { kind: 'ping', webhookId: asIdString(body.webhookId) };
	}
	const listId = isPlainObject(body) ? listIdOf(body.listId) : undefined;
	if (!isPlainObject(body) || listId === undefined) {
		// Not a payload we know: one item that carries it, unless there is nothing at all.
		const empty = body === undefined || body === null || (isPlainObject(body) && Object.keys(body).length === 0);
		const teamId = isPlainObject(body) ? asIdString(body.teamId) : undefined;
		return { kind: 'events', teamId, events: empty ? [] : [buildEvent(undefined, teamId, 'unknown', 'unknown', body, deliveryId)] };
	}
	const teamId = asIdString(body.teamId);

	const events: ParsedEvent[] = [];
	const extra: IDataObject = {};
	for (const [key, value] of Object.entries(body)) {
		if (RESERVED.has(key)) continue;
		if (Array.isArray(value)) {
			for (const entry of value) events.push(buildEvent(listId, teamId, key, actionOf(key), entry, deliveryId));
		} else if (isPlainObject(value) && KNOWN_ACTIONS.includes(actionOf(key))) {
			events.push(buildEvent(listId, teamId, key, actionOf(key), value, deliveryId));
		} else {
			extra[key] = value as IDataObject[string];
		}
	}
	// A listing alert (`{listId: 4, teamId, alertId}`) and other payloads without event keys: one event.
	if (events.length === 0 && Object.keys(extra).length > 0) {
		return { kind: 'events', listId, teamId, events: [buildEvent(listId, teamId, Object.keys(extra)[0], 'triggered', extra, deliveryId)] };
	}
	if (Object.keys(extra).length > 0) for (const event of events) event.json.extra = extra;
	return { kind: 'events', listId, teamId, events };
}
