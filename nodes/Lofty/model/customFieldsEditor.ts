import type {
	FieldType,
	IDataObject,
	ILoadOptionsFunctions,
	INodeProperties,
	INodePropertyOptions,
	ResourceMapperField,
	ResourceMapperFields,
} from 'n8n-workflow';

import { loftyRequest } from '../transport/request';
import type { CustomFieldDefinition, CustomFieldSource, OperationDef } from './types';

/**
 * The editor's custom-field fields of the writes: Custom Fields (n8n's resource mapper, an input that fits each field's
 * type), Multi-Choice Custom Fields (the multi-choice fields' choices by name) and, on writes to an existing record,
 * Multi-Choice Values (add to the record's choices or replace them).
 *
 * None of them has loadOptionsDependsOn. n8n 2.41.1's mapper empties its value whenever the joined values of the
 * parameters it depends on change, and it computes them from the node the panel shows at that moment: a person who
 * clicked the input node on the panel's edge (to edit its mock data) and came back found every field set there
 * removed, and the saved workflow held `value: {}` (issue 46). n8n drops no value for that reason when nothing is
 * depended on. So the lists load when the field appears (the panel opens, the operation shows it), and what a list
 * gives never removes a field that holds a value: the fields set in the node are listed even when Lofty does not list
 * them (yet, or any more), marked so, and Lofty's failure is an error that leaves the values alone.
 */

/** From this node version: transaction fields under names of their own, and Multi-Choice Values. */
export const CUSTOM_FIELDS_VERSION = 1.4;

/** The parameter names before 1.4 (both families), and of the lead fields in every version. */
export const MAPPER_PARAM = 'customFieldValues';
export const CHOICES_PARAM = 'customFieldChoices';
/** Add to the record's current choices or replace them (from 1.4, on writes to an existing record). */
export const CHOICES_MODE_PARAM = 'multiChoiceMode';

/** The parameters holding a family's values in a node of `version`. */
export function paramsOf(source: CustomFieldSource, version: number): { mapper: string; choices: string } {
	return version >= CUSTOM_FIELDS_VERSION && source.ownParams ? source.ownParams : { mapper: MAPPER_PARAM, choices: CHOICES_PARAM };
}

/** Whether the operation may write to a record that has custom-field values already: an update by ID, or Create or Update. */
export const updatesRecord = (op: OperationDef): boolean => op.method === 'PUT' || op.value === 'upsert';

/**
 * The label of a multi-choice field in the mapper: short, so that n8n does not cut it ("Must-Haves (Several, Com…"
 * was cut on n8n 2.41.1). Its choices are picked by name in Multi-Choice Custom Fields (a dropdown); in the mapper they
 * are given as a list (comma-separated text or an array), for expressions.
 */
export function choicesLabel(field: CustomFieldDefinition): string {
	return `${field.name} (List)`;
}

/** What the mapper's label says of a field that holds a value and that Lofty does not list. */
const NOT_LISTED = '(Not in Lofty)';

const TYPES: Record<CustomFieldDefinition['kind'], FieldType> = { text: 'string', number: 'number', date: 'dateTime', choice: 'options', choices: 'string' };

/**
 * The mapper field of one custom field. n8n's mapper keeps only text, numbers and booleans as values (a list picked
 * in a multi-select would be dropped, and an `options` field refuses a second choice at run time), so a
 * multi-choice field takes its choices as a list in text. A field the node holds a value for is shown.
 */
function mapperField(field: CustomFieldDefinition, isSet: boolean): ResourceMapperField {
	return {
		id: field.key,
		displayName: field.kind === 'choices' ? choicesLabel(field) : field.name,
		required: false,
		defaultMatch: false,
		canBeUsedToMatch: false,
		display: true,
		removed: !isSet,
		type: TYPES[field.kind],
		...(field.kind === 'choice' ? { options: field.options?.map((o) => ({ name: o.name, value: o.value })) } : {}),
	};
}

function mapperProperty(source: CustomFieldSource, name: string, show: INodeProperties['displayOptions']): INodeProperties {
	return {
		displayName: 'Custom Fields',
		name,
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		description: `The team's ${source.what} custom fields, listed from Lofty: add the ones to set`,
		typeOptions: {
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

/** What Multi-Choice Custom Fields does to the choices a record has, in the words of the node's version. */
function choicesWords(source: CustomFieldSource, op: OperationDef, current: boolean): string {
	const value = 'The choices picked for one field, with those typed for it under Custom Fields, make its value';
	if (!updatesRecord(op)) return value;
	if (current) return `${value}; Multi-Choice Values says whether they join the choices the ${source.what} has or replace them`;
	return op.value === 'upsert'
		? `${value}: with Options > When the Lead Exists "Update All Given Fields" they replace the field's current choices; with "Only Fill Empty Fields" the choices the lead lacks are added`
		: `${value}: they replace the field's current choices`;
}

function choicesProperty(source: CustomFieldSource, op: OperationDef, name: string, show: INodeProperties['displayOptions'], current: boolean): INodeProperties {
	return {
		displayName: 'Multi-Choice Custom Fields',
		name,
		type: 'multiOptions',
		default: [],
		typeOptions: { loadOptionsMethod: source.choicesMethod },
		description: `The choices to set in the team's multi-choice ${source.what} custom fields, listed from Lofty as "Field: Choice". ${choicesWords(source, op, current)}.`,
		...(current && updatesRecord(op) ? { hint: 'Added to or replacing the current choices: see Multi-Choice Values below' } : {}),
		displayOptions: show,
	};
}

function choicesModeProperty(source: CustomFieldSource, show: INodeProperties['displayOptions']): INodeProperties {
	return {
		displayName: 'Multi-Choice Values',
		name: CHOICES_MODE_PARAM,
		type: 'options',
		options: [
			{ name: 'Add to the Current Choices', value: 'add', description: `The choices given join those the ${source.what} has; none is removed` },
			{ name: 'Replace the Current Choices', value: 'replace', description: 'A multi-choice field given ends up with exactly the choices given' },
		],
		default: 'add',
		description: `What the choices given for a multi-choice custom field (above, or typed under Custom Fields) do to the choices the ${source.what} already has`,
		displayOptions: show,
	};
}


/** The custom-field fields of a write operation, for each node version. */
export function customFieldProperties(op: OperationDef, show: INodeProperties['displayOptions']): INodeProperties[] {
	const source = op.customFields as CustomFieldSource;
	const before = { ...show, show: { ...show?.show, '@version': [{ _cnd: { lt: CUSTOM_FIELDS_VERSION } }] } };
	const from = { ...show, show: { ...show?.show, '@version': [{ _cnd: { gte: CUSTOM_FIELDS_VERSION } }] } };
	const old = paramsOf(source, 1);
	const now = paramsOf(source, CUSTOM_FIELDS_VERSION);
	return [
		...(old.mapper === now.mapper ? [mapperProperty(source, now.mapper, show)] : [mapperProperty(source, old.mapper, before), mapperProperty(source, now.mapper, from)]),
		choicesProperty(source, op, old.choices, before, false),
		choicesProperty(source, op, now.choices, from, true),
		...(updatesRecord(op) ? [choicesModeProperty(source, from)] : []),
	];
}

/** The values and field list the node holds for the mapper (the editor sends the node's parameters with the request). */
function heldMapper(ctx: ILoadOptionsFunctions, source: CustomFieldSource): { set: Set<string>; schema: ResourceMapperField[] } {
	const name = paramsOf(source, ctx.getNode().typeVersion).mapper;
	let held: unknown;
	try {
		held = ctx.getCurrentNodeParameter(name);
	} catch {
		held = undefined;
	}
	const mapper = (held ?? {}) as { value?: IDataObject | null; schema?: ResourceMapperField[] };
	const values = mapper.value ?? {};
	const set = new Set(Object.keys(values).filter((key) => values[key] !== null && values[key] !== undefined && values[key] !== ''));
	return { set, schema: Array.isArray(mapper.schema) ? mapper.schema : [] };
}

/**
 * The fields of the editor's mapper: Lofty's list when `definitions` is given, and every field the node holds a value
 * for (as the node last listed it; marked when Lofty answered without it), so that no list removes a set field.
 */
export function mapperFieldsOf(ctx: ILoadOptionsFunctions, source: CustomFieldSource, definitions?: CustomFieldDefinition[]): ResourceMapperField[] {
	const { set, schema } = heldMapper(ctx, source);
	const fields = (definitions ?? []).map((f) => mapperField(f, set.has(f.key)));
	for (const key of set) {
		if (fields.some((f) => f.id === key)) continue;
		const before = schema.find((f) => f.id === key);
		const label = before?.displayName ?? key;
		fields.push({
			...(before ?? { id: key, required: false, defaultMatch: false, canBeUsedToMatch: false, type: 'string' as FieldType }),
			displayName: definitions && !label.endsWith(NOT_LISTED) ? `${label} ${NOT_LISTED}` : label,
			display: true,
			removed: false,
		});
	}
	return fields.sort((a, b) => a.displayName.localeCompare(b.displayName));
}

/** Lists the fields for the editor's mapper; Lofty's failure is the list's error (n8n then keeps the values as they are). */
export async function mapperFields(ctx: ILoadOptionsFunctions, source: CustomFieldSource): Promise<ResourceMapperFields> {
	const definitions = source.definitions(await loftyRequest(ctx, { method: 'GET', path: source.listPath }));
	return { fields: mapperFieldsOf(ctx, source, definitions) };
}

/** What one entry of the dropdown stands for: a field's key and one of its choices. */
export const choiceValue = (field: CustomFieldDefinition, choice: string): string => JSON.stringify([field.key, choice]);

/** Lists the multi-choice fields' choices for the dropdown. */
export async function choiceOptions(ctx: ILoadOptionsFunctions, source: CustomFieldSource): Promise<INodePropertyOptions[]> {
	const fields = source.definitions(await loftyRequest(ctx, { method: 'GET', path: source.listPath }));
	return fields
		.filter((f) => f.kind === 'choices')
		.flatMap((f) => (f.options ?? []).map((o) => ({ name: `${f.name}: ${o.name}`, value: choiceValue(f, o.value) })))
		.sort((a, b) => a.name.localeCompare(b.name));
}
