import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { paginate } from '../Lofty/transport/pagination';
import { loftyRequest } from '../Lofty/transport/request';
import { transactionFields } from '../Lofty/resources/transaction';
import type { ParsedEvent } from './parse';

/**
 * The trigger's content filters: "Only When Stage Changes To / From" (Pipeline Change, list 12) and "Only When
 * These Fields Changed" (Transaction updates, list 5). Empty means no filtering.
 *
 * The payload shapes are loose (api-spec.md, Events: `changeInfo {oldstage (string), newstage (string)}`, nullable
 * `updatedField` (object) and `updatedFields` (array), no more), so each is read under every plausible reading:
 * - a stage is its name or its ID; names are compared ignoring case and spacing, an ID is turned into its name
 *   through Lofty's lead pipeline list (read only when an ID is met, kept a few minutes per credential);
 * - `updatedFields` holds names or objects (`fieldName`, `name`, `field`, `key`, `fieldId`, `id`); `updatedField`
 *   is one such object or a map of changed fields; names are compared ignoring case, spaces and underscores;
 * - an update that says nothing about its fields (both null or absent) passes: it may be one the user wants,
 *   and a filter never drops what it cannot tell apart. A change listed only as `customFields` passes a filter
 *   on any custom field (it does not say which).
 */

export interface EventFilters {
	toStages: string[];
	fromStages: string[];
	fields: string[];
}

/** A multiOptions value: a list, or one text (an expression) of comma-separated names. */
function namesOf(value: unknown): string[] {
	const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : value === undefined || value === null ? [] : [value];
	return list.map((v) => (typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint' ? String(v).trim() : '')).filter((v) => v !== '');
}

export function filtersOf(options: IDataObject): EventFilters {
	return { toStages: namesOf(options.stageTo), fromStages: namesOf(options.stageFrom), fields: namesOf(options.changedFields) };
}

export const hasFilters = (f: EventFilters) => f.toStages.length + f.fromStages.length + f.fields.length > 0;

const stageKey = (s: string) => s.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
const fieldKey = (s: string) => s.normalize('NFKC').replace(/[\s_\-.]+/g, '').toLowerCase();
const isId = (s: string) => /^\d+$/.test(s.trim());

/** Transaction fields of the node's Update operation (one source: the Lofty node's table), plus name and address. */
export const STANDARD_TRANSACTION_FIELDS: Array<{ name: string; label: string }> = [
	{ name: 'transactionName', label: 'Transaction Name' },
	...transactionFields(true)
		.filter((p) => p.name !== 'extraBody' && p.name !== 'customFields')
		.map((p) => ({ name: p.name, label: p.label.replace(/ \((?:JSON|%)\)$/, '') })),
];
const STANDARD_KEYS = new Set(STANDARD_TRANSACTION_FIELDS.map((f) => fieldKey(f.name)));
const CUSTOM_FIELDS_KEY = fieldKey('customFields');

/** The names (and IDs) of the fields an update changed, or undefined when it does not say. */
export function changedFieldsOf(raw: unknown): string[] | undefined {
	if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
	const { updatedFields, updatedField } = raw as IDataObject;
	const names: string[] = [];
	const fromEntry = (entry: unknown) => {
		if (typeof entry === 'string' || typeof entry === 'number') names.push(String(entry));
		else if (entry && typeof entry === 'object' && !Array.isArray(entry)) {
			const o = entry as IDataObject;
			const named = ['fieldName', 'name', 'field', 'key', 'fieldId', 'id'].filter((k) => typeof o[k] === 'string' || typeof o[k] === 'number');
			if (named.length) for (const k of named) names.push(String(o[k]));
			else names.push(...Object.keys(o)); // a map of changed fields: {homePrice: 500000}
		}
	};
	let told = false;
	if (Array.isArray(updatedFields)) {
		told = true;
		updatedFields.forEach(fromEntry);
	}
	if (updatedField && typeof updatedField === 'object') {
		told = true;
		if (Array.isArray(updatedField)) updatedField.forEach(fromEntry);
		else fromEntry(updatedField);
	}
	return told ? names : undefined;
}

function fieldsMatch(chosen: string[], raw: unknown): boolean {
	const changed = changedFieldsOf(raw);
	if (changed === undefined) return true;
	const keys = new Set(changed.map(fieldKey));
	return chosen.some((name) => {
		const key = fieldKey(name);
		return keys.has(key) || (!STANDARD_KEYS.has(key) && keys.has(CUSTOM_FIELDS_KEY));
	});
}

/** Stage ID -> name, per credential scope, read from GET /v1.0/teamFeatures/lead-pipelines. */
const stageCache = new Map<string, { at: number; names: Map<string, string> }>();
export const STAGE_CACHE_MS = 5 * 60 * 1000;

export function forgetStageNames(): void {
	stageCache.clear();
}

async function stageNames(ctx: IWebhookFunctions, scope: string, ids: string[], now: number, deadline?: number): Promise<Map<string, string>> {
	const cached = stageCache.get(scope);
	if (cached && now - cached.at < STAGE_CACHE_MS && ids.every((id) => cached.names.has(id))) return cached.names;
	const stages = (await paginate(
		{ style: 'page', pageParam: 'currPage', sizeParam: 'pageSize', firstPage: 0, maxPageSize: 100, itemsKey: 'pipelines', totalKey: '_metadata.total' },
		async (qs) => await loftyRequest(ctx, { method: 'GET', path: '/v1.0/teamFeatures/lead-pipelines', qs, deadline }),
		Infinity,
	)) as IDataObject[];
	const names = new Map<string, string>();
	for (const stage of stages) {
		const id = stage.id === undefined || stage.id === null ? '' : String(stage.id);
		if (id && typeof stage.name === 'string') names.set(id, stage.name);
	}
	stageCache.set(scope, { at: now, names });
	if (stageCache.size > 500) stageCache.delete(stageCache.keys().next().value as string);
	return names;
}

const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint' ? String(v).trim() : '');

/**
 * The events that pass the filters, in their order. Reads Lofty's stage list only when a stage ID has to be
 * told by name, within `deadline` (every wait included); if that read fails the error reaches n8n (a 5xx: Lofty
 * sends the delivery again), so a matching event is never dropped for want of the list.
 */
export async function applyFilters(ctx: IWebhookFunctions, scope: string, filters: EventFilters, events: ParsedEvent[], now: number, deadline?: number): Promise<ParsedEvent[]> {
	if (!hasFilters(filters)) return events;
	const stageEvents = events.filter((e) => e.json.listId === 12 && (filters.toStages.length || filters.fromStages.length));
	const literal = (chosen: string[], value: string) => chosen.some((c) => stageKey(c) === stageKey(value));
	// IDs that must be named: an event's stage ID no chosen value names literally, or a chosen ID
	const unresolved = new Set<string>();
	for (const e of stageEvents) {
		for (const [chosen, value] of [[filters.toStages, text(e.json.newStage)], [filters.fromStages, text(e.json.oldStage)]] as const) {
			if (chosen.length && isId(value) && !literal(chosen, value)) unresolved.add(value);
		}
	}
	if (stageEvents.length) for (const c of [...filters.toStages, ...filters.fromStages]) if (isId(c)) unresolved.add(c.trim());
	const names = unresolved.size ? await stageNames(ctx, scope, [...unresolved], now, deadline) : new Map<string, string>();
	const canonical = (v: string) => stageKey(isId(v) ? (names.get(v.trim()) ?? v) : v);
	const stageMatch = (chosen: string[], value: string) =>
		chosen.length === 0 || literal(chosen, value) || chosen.some((c) => canonical(c) === canonical(value));

	return events.filter((e) => {
		// a stage change that names no stages cannot be told apart: it passes
		if (e.json.listId === 12) return !('newStage' in e.json) || (stageMatch(filters.toStages, text(e.json.newStage)) && stageMatch(filters.fromStages, text(e.json.oldStage)));
		if (e.json.listId === 5 && e.action === 'updated' && filters.fields.length) return fieldsMatch(filters.fields, e.json.raw);
		return true;
	});
}
