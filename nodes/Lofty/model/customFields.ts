import type {
	FieldType,
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INodeProperties,
	INodePropertyOptions,
	ResourceMapperField,
	ResourceMapperFields,
	ResourceMapperValue,
} from 'n8n-workflow';

import { loftyRequest } from '../transport/request';
import { readDate, workflowZone } from './dates';
import { InvalidValue, show } from './invalid';
import type { CustomFieldDefinition, CustomFieldSource, OperationContext, OperationDef, ParamDef } from './types';
import { itemRead } from './itemRead';

/**
 * Custom fields by name: the editor lists the team's fields (n8n's resource mapper) with an input that fits each
 * field's type; a run checks the values against the fields Lofty lists at that moment and sends Lofty's shape.
 * Reads can turn the record's values into plain `name: value` keys under `customFields`.
 */

/** Name of the mapper parameter of the write operations. */
export const MAPPER_PARAM = 'customFieldValues';

/** The read option, placed under Options of Get and Get Many. */
export const CUSTOM_FIELDS_BY_NAME: ParamDef = {
	name: 'customFieldsByName',
	label: 'Custom Fields By Name',
	type: 'boolean',
	in: 'local',
	group: 'options',
	description: 'Whether to add the custom field values as plain "name: value" keys under customFields, so the next node can map them',
};

/**
 * The label of a multi-choice field in the mapper: short, so that n8n does not cut it. Its choices are picked by name
 * in Multi-Choice Custom Fields (a dropdown); in the mapper they are typed separated by commas (for expressions).
 */
export function choicesLabel(field: CustomFieldDefinition): string {
	return `${field.name} (Several, Comma-Separated)`;
}

/**
 * The mapper field of one custom field. n8n's mapper keeps only text, numbers and booleans as values (a list picked
 * in a multi-select would be dropped, and an `options` field refuses a second choice at run time), so a
 * multi-choice field takes its choices as comma-separated text, its label listing them.
 */
function mapperField(field: CustomFieldDefinition): ResourceMapperField {
	const types: Record<CustomFieldDefinition['kind'], FieldType> = { text: 'string', number: 'number', date: 'dateTime', choice: 'options', choices: 'string' };
	return {
		id: field.key,
		displayName: field.kind === 'choices' ? choicesLabel(field) : field.name,
		required: false,
		defaultMatch: false,
		canBeUsedToMatch: false,
		display: true,
		removed: true,
		type: types[field.kind],
		...(field.kind === 'choice' ? { options: field.options?.map((o) => ({ name: o.name, value: o.value })) } : {}),
	};
}

/** The editor property of the mapper on a write operation. */
export function mapperProperty(source: CustomFieldSource, show: INodeProperties['displayOptions']): INodeProperties {
	return {
		displayName: 'Custom Fields',
		name: MAPPER_PARAM,
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		description: `The team's ${source.what} custom fields, listed from Lofty: add the ones to set`,
		typeOptions: {
			loadOptionsDependsOn: ['resource', 'operation', 'authentication'],
			resourceMapper: {
				resourceMapperMethod: source.mapperMethod,
				mode: 'add',
				valuesLabel: 'Custom Fields',
				fieldWords: { singular: 'custom field', plural: 'custom fields' },
				addAllFields: false,
				supportAutoMap: false,
				noFieldsError: `The team has no ${source.what} custom fields in Lofty`,
			},
		},
		displayOptions: show,
	};
}

/** The dropdown of the multi-choice fields' choices: one entry per field and choice, sent as that field's list. */
export const CHOICES_PARAM = 'customFieldChoices';

export function choicesProperty(source: CustomFieldSource, show: INodeProperties['displayOptions']): INodeProperties {
	return {
		displayName: 'Multi-Choice Custom Fields',
		name: CHOICES_PARAM,
		type: 'multiOptions',
		default: [],
		typeOptions: { loadOptionsMethod: source.choicesMethod, loadOptionsDependsOn: ['resource', 'operation', 'authentication'] },
		description: `The choices to set in the team's multi-choice ${source.what} custom fields, listed from Lofty as "Field: Choice". Choices of one field together make its value (they replace the field's current choices); a field also set in Custom Fields gets both.`,
		displayOptions: show,
	};
}

/** What one entry of the dropdown stands for: a field's key and one of its choices. */
const choiceValue = (field: CustomFieldDefinition, choice: string): string => JSON.stringify([field.key, choice]);

/** Lists the multi-choice fields' choices for the dropdown. */
export async function choiceOptions(ctx: ILoadOptionsFunctions, source: CustomFieldSource): Promise<INodePropertyOptions[]> {
	const fields = source.definitions(await loftyRequest(ctx, { method: 'GET', path: source.listPath }));
	return fields
		.filter((f) => f.kind === 'choices')
		.flatMap((f) => (f.options ?? []).map((o) => ({ name: `${f.name}: ${o.name}`, value: choiceValue(f, o.value) })))
		.sort((a, b) => a.name.localeCompare(b.name));
}

/** The item's picked choices by field key; an entry that is no field's choice is refused naming the field. */
function pickedChoices(ctx: IExecuteFunctions, itemIndex: number, fields: CustomFieldDefinition[], source: CustomFieldSource): Map<string, string[]> {
	const raw = ctx.getNodeParameter(CHOICES_PARAM, itemIndex, []) as unknown;
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

/** Lists the fields for the editor's mapper. */
export async function mapperFields(ctx: ILoadOptionsFunctions, source: CustomFieldSource): Promise<ResourceMapperFields> {
	const fields = source.definitions(await loftyRequest(ctx, { method: 'GET', path: source.listPath }));
	return { fields: fields.map(mapperField).sort((a, b) => a.displayName.localeCompare(b.displayName)) };
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
function mappedValues(ctx: IExecuteFunctions, itemIndex: number): { values: IDataObject; schema: ResourceMapperField[] } {
	const raw = ctx.getNodeParameter(MAPPER_PARAM, itemIndex, null) as ResourceMapperValue | null;
	const values = (raw?.value ?? {}) as IDataObject;
	return { values, schema: raw?.schema ?? [] };
}

/** Whether the operation's write replaces every custom-field value, so that mapped values join the record's current ones. */
export const keepsCurrentEntries = (op: OperationDef): boolean => op.customFields?.currentEntries !== undefined && op.method === 'PUT';

/**
 * Mapped custom fields into the operation's values: checked against the team's fields as Lofty lists them now,
 * joined to the entries of the JSON or by-ID input (a mapped field replaces the same field there). Where a write
 * replaces all values, the record's current values are kept for the fields not given.
 */
export async function applyMappedFields(op: OperationDef, context: OperationContext): Promise<void> {
	const source = op.customFields;
	if (!source) return;
	const { ctx, itemIndex, values } = context;
	const mapped = mappedValues(ctx, itemIndex);
	const keys = Object.keys(mapped.values).filter((key) => !isBlank(mapped.values[key]));
	const picking = ctx.getNodeParameter(CHOICES_PARAM, itemIndex, []) as unknown;
	if (keys.length === 0 && isBlank(picking)) return;
	const fields = await definitionsOf(ctx, source, itemIndex);
	const picked = pickedChoices(ctx, itemIndex, fields, source);
	const entries: IDataObject[] = [];
	for (const [key, choices] of picked) {
		const field = fields.find((f) => f.key === key)!;
		const typed = keys.includes(key) ? asList(`Custom Field ${field.name}`, mapped.values[key]) : [];
		const text = wireValue(source, field, [...choices, ...typed], workflowZone(ctx));
		if (text !== undefined) entries.push(source.entry(field, text));
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
	}
	if (entries.length === 0) return;
	const given = (values[source.param] as IDataObject[] | undefined) ?? [];
	const current = keepsCurrentEntries(op) ? await source.currentEntries!(context) : [];
	const replaced = new Set([...given, ...entries].map(source.entryKey));
	const kept = current.filter((e) => !replaced.has(source.entryKey(e)));
	const mappedKeys = new Set(entries.map(source.entryKey));
	values[source.param] = [...kept, ...given.filter((e) => !mappedKeys.has(source.entryKey(e))), ...entries];
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
