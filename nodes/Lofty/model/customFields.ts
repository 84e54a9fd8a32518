import type { IDataObject, IExecuteFunctions, ResourceMapperField, ResourceMapperValue } from 'n8n-workflow';

import { CHOICES_MODE_PARAM, CUSTOM_FIELDS_VERSION, paramsOf } from './customFieldsEditor';
import { readDate, workflowZone } from './dates';
import { InvalidValue, show } from './invalid';
import type { CustomFieldDefinition, CustomFieldSource, OperationContext, OperationDef, ParamDef } from './types';
import { itemRead } from './itemRead';

/**
 * Custom fields by name: the editor lists the team's fields (customFieldsEditor.ts); a run checks the values against
 * the fields Lofty lists at that moment and sends Lofty's shape. Reads can turn the record's values into plain
 * `name: value` keys under `customFields`.
 */

/** The read option, placed under Options of Get and Get Many. */
export const CUSTOM_FIELDS_BY_NAME: ParamDef = {
	name: 'customFieldsByName',
	label: 'Custom Fields By Name',
	type: 'boolean',
	in: 'local',
	group: 'options',
	description: 'Whether to add the custom field values as plain "name: value" keys under customFields, so the next node can map them',
};

/** The item's picked choices by field key; an entry that is no field's choice is refused naming the field. */
function pickedChoices(ctx: IExecuteFunctions, itemIndex: number, fields: CustomFieldDefinition[], source: CustomFieldSource): Map<string, string[]> {
	const raw = ctx.getNodeParameter(paramsOf(source, ctx.getNode().typeVersion).choices, itemIndex, []) as unknown;
	const byField = new Map<string, string[]>();
	for (const entry of Array.isArray(raw) ? raw : typeof raw === 'string' && raw.trim() ? [raw] : []) {
		let pair: unknown;
		try {
			pair = JSON.parse(String(entry));
		} catch {
			pair = undefined;
		}
		const [key, choice] = Array.isArray(pair) ? pair.map(String) : [];
		const field = fields.find((f) => f.key === key && f.kind === 'choices');
		if (!field || choice === undefined) {
			const known = fields.filter((f) => f.kind === 'choices').map((f) => f.name).join(', ') || 'none';
			throw new InvalidValue('Multi-Choice Custom Fields', `${show(entry)} is not a choice of a multi-choice ${source.what} custom field (the team's: ${known}); pick it from the list`);
		}
		byField.set(field.key, [...(byField.get(field.key) ?? []), pickOption(field, `Custom Field ${field.name}`, choice)]);
	}
	return byField;
}

/** One list of definitions per execution and source, shared by all items (also when they run concurrently). */
const cache = new WeakMap<object, Map<string, Promise<CustomFieldDefinition[]>>>();

export async function definitionsOf(ctx: IExecuteFunctions, source: CustomFieldSource, itemIndex: number): Promise<CustomFieldDefinition[]> {
	let bySource = cache.get(ctx);
	if (!bySource) cache.set(ctx, (bySource = new Map()));
	let found = bySource.get(source.listPath);
	if (!found) {
		found = itemRead(ctx, itemIndex, { method: 'GET', path: source.listPath }).then((r) => source.definitions(r));
		// A failed listing is not remembered: the next item asks again.
		found.catch(() => bySource?.delete(source.listPath));
		bySource.set(source.listPath, found);
	}
	return await found;
}

const isBlank = (value: unknown): boolean =>
	value === undefined || value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);

function pickOption(field: CustomFieldDefinition, label: string, value: unknown): string {
	const text = String(value).trim().toLowerCase();
	const found = field.options?.find((o) => o.value.toLowerCase() === text || o.name.toLowerCase() === text);
	if (!found) throw new InvalidValue(label, `must be one of ${(field.options ?? []).map((o) => o.name).join(', ')}, got ${show(value)}`);
	return found.value;
}

/** A list given as an array, a JSON array text or comma-separated text. */
function asList(label: string, value: unknown): unknown[] {
	if (Array.isArray(value)) return value;
	if (typeof value === 'string') {
		const text = value.trim();
		if (text.startsWith('[')) {
			try {
				const parsed: unknown = JSON.parse(text);
				if (Array.isArray(parsed)) return parsed;
			} catch {
				// read as comma-separated below
			}
		}
		return text.split(',').map((v) => v.trim()).filter((v) => v !== '');
	}
	throw new InvalidValue(label, `must be a list of choices, got ${show(value)}`);
}

/** Checks one value against its field and gives the text Lofty stores; undefined leaves the field out. */
/** `zone`: the workflow's time zone, in which a date without a UTC offset is read. */
export function wireValue(source: CustomFieldSource, field: CustomFieldDefinition, value: unknown, zone?: string): string | undefined {
	if (isBlank(value)) return undefined;
	const label = `Custom Field ${field.name}`;
	switch (field.kind) {
		case 'text':
			if (typeof value === 'object') throw new InvalidValue(label, `must be text, got ${show(value)}`);
			return String(value);
		case 'number': {
			const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : NaN;
			if (!Number.isFinite(number)) throw new InvalidValue(label, `must be a number (${field.loftyType}), got ${show(value)}`);
			return String(number);
		}
		case 'date': {
			const date = readDate(label, value, zone);
			return source.dateFormat === 'epochMs' ? String(date.toMillis()) : date.toFormat('MMM d, yyyy', { locale: 'en-US' });
		}
		case 'choice':
			return pickOption(field, label, value);
		case 'choices': {
			const picked = asList(label, value).map((v) => pickOption(field, label, v));
			return picked.length ? JSON.stringify([...new Set(picked)]) : undefined;
		}
	}
}

/** The values set in the mapper for one item: field key to raw value (removed fields are null). */
function mappedValues(ctx: IExecuteFunctions, itemIndex: number, source: CustomFieldSource): { values: IDataObject; schema: ResourceMapperField[] } {
	const raw = ctx.getNodeParameter(paramsOf(source, ctx.getNode().typeVersion).mapper, itemIndex, null) as ResourceMapperValue | null;
	const values = (raw?.value ?? {}) as IDataObject;
	return { values, schema: raw?.schema ?? [] };
}

/** Whether the operation's write replaces every custom-field value, so that mapped values join the record's current ones. */
export const keepsCurrentEntries = (op: OperationDef): boolean => op.customFields?.fullCoverage === true && op.method === 'PUT';

/** Whether the operation may read the record's current values before its write (a read, then a write of what it read). */
export const readsCurrentEntries = (op: OperationDef): boolean => op.customFields !== undefined && op.method === 'PUT';

/**
 * Whether the choices given for a multi-choice field join those the record has: Multi-Choice Values (node version
 * 1.4); before, `before` (Create or Update's Only Fill Empty Fields added them, every other write replaced them).
 */
export function addsChoices(ctx: IExecuteFunctions, itemIndex: number, before: boolean): boolean {
	if (ctx.getNode().typeVersion < CUSTOM_FIELDS_VERSION) return before;
	return ctx.getNodeParameter(CHOICES_MODE_PARAM, itemIndex, 'add') !== 'replace';
}

/** The choices of a multi-choice value: a JSON list, its text, or comma-separated text. */
export function choicesIn(value: unknown): string[] {
	if (value === null || value === undefined || value === '') return [];
	try {
		return asList('', value).map(String);
	} catch {
		return [String(value)];
	}
}

/** `given` after the choices of `current` it lacks (compared without case), as Lofty stores a multi-choice value. */
export function joinedChoices(current: unknown, given: string): string {
	const had = choicesIn(current);
	const known = new Set(had.map((v) => v.toLowerCase()));
	return JSON.stringify([...had, ...choicesIn(given).filter((v) => !known.has(v.toLowerCase()))]);
}

/**
 * Mapped custom fields into the operation's values: checked against the team's fields as Lofty lists them now,
 * joined to the entries of the JSON or by-ID input (a mapped field replaces the same field there). Where a write
 * replaces all values, the record's current values are kept for the fields not given; where an update by ID adds
 * choices, a multi-choice field's current choices are kept before the given ones.
 */
export async function applyMappedFields(op: OperationDef, context: OperationContext): Promise<void> {
	const source = op.customFields;
	if (!source) return;
	const { ctx, itemIndex, values } = context;
	const mapped = mappedValues(ctx, itemIndex, source);
	const keys = Object.keys(mapped.values).filter((key) => !isBlank(mapped.values[key]));
	const picking = ctx.getNodeParameter(paramsOf(source, ctx.getNode().typeVersion).choices, itemIndex, []) as unknown;
	if (keys.length === 0 && isBlank(picking)) return;
	const fields = await definitionsOf(ctx, source, itemIndex);
	const picked = pickedChoices(ctx, itemIndex, fields, source);
	const entries: IDataObject[] = [];
	const lists = new Set<string>();
	for (const [key, choices] of picked) {
		const field = fields.find((f) => f.key === key)!;
		const typed = keys.includes(key) ? asList(`Custom Field ${field.name}`, mapped.values[key]) : [];
		const text = wireValue(source, field, [...choices, ...typed], workflowZone(ctx));
		if (text !== undefined) entries.push(source.entry(field, text));
		lists.add(key);
	}
	for (const key of keys.filter((k) => !picked.has(k))) {
		const field = fields.find((f) => f.key === key);
		if (!field) {
			const name = mapped.schema.find((f) => f.id === key)?.displayName ?? key;
			const known = fields.map((f) => f.name).join(', ') || 'none';
			throw new InvalidValue(`Custom Field ${name}`, `Lofty has no ${source.what} custom field of this name (the team's fields: ${known}); refresh the field list`);
		}
		const text = wireValue(source, field, mapped.values[key], workflowZone(ctx));
		if (text !== undefined) entries.push(source.entry(field, text));
		if (field.kind === 'choices') lists.add(key);
	}
	if (entries.length === 0) return;
	const given = (values[source.param] as IDataObject[] | undefined) ?? [];
	// Create or Update adds choices to the lead it finds (lead/upsert.ts); an update by ID reads the record here.
	const adding = op.method === 'PUT' && entries.some((e) => lists.has(source.entryKey(e))) && addsChoices(ctx, itemIndex, false);
	const current = keepsCurrentEntries(op) || adding ? await source.currentEntries(context) : [];
	const sent = adding
		? entries.map((e) => {
				const had = current.find((c) => source.entryKey(c) === source.entryKey(e));
				return lists.has(source.entryKey(e)) && had ? { ...e, value: joinedChoices(had.value, String(e.value)) } : e;
			})
		: entries;
	const replaced = new Set([...given, ...sent].map(source.entryKey));
	const kept = keepsCurrentEntries(op) ? current.filter((e) => !replaced.has(source.entryKey(e))) : [];
	const mappedKeys = new Set(sent.map(source.entryKey));
	values[source.param] = [...kept, ...given.filter((e) => !mappedKeys.has(source.entryKey(e))), ...sent];
}

/** A stored value as a next node wants it: numbers as numbers, choices by their labels. */
function readable(field: CustomFieldDefinition | undefined, value: unknown): unknown {
	if (!field || value === null || value === undefined || value === '') return value;
	const label = (v: unknown) => field.options?.find((o) => o.value === String(v))?.name ?? v;
	switch (field.kind) {
		case 'number': {
			const number = Number(value);
			return Number.isFinite(number) ? number : value;
		}
		case 'choice':
			return label(value);
		case 'choices': {
			let list: unknown = value;
			if (typeof value === 'string') {
				try {
					list = JSON.parse(value);
				} catch {
					list = value.split(',').map((v) => v.trim());
				}
			}
			return Array.isArray(list) ? list.map(label) : value;
		}
		default:
			return value;
	}
}

/** Adds `customFields: {name: value}` to each record (replacing a raw `customFields` list). */
export async function withFieldsByName(op: OperationDef, context: OperationContext, records: IDataObject[]): Promise<IDataObject[]> {
	const source = op.customFields;
	if (!source || context.values[CUSTOM_FIELDS_BY_NAME.name] !== true) return records;
	const fields = await definitionsOf(context.ctx, source, context.itemIndex);
	return records.map((record) => {
		const list = record[source.recordKey];
		const named: IDataObject = {};
		for (const entry of Array.isArray(list) ? (list as IDataObject[]) : []) {
			const key = source.entryKey(entry);
			const field = fields.find((f) => f.key === key);
			named[field?.name ?? key] = readable(field, entry.value) as IDataObject;
		}
		return { ...record, customFields: named };
	});
}
