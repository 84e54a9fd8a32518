import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InvalidValue } from './params';
import type { OperationDef } from './types';

/**
 * The Output choice of operations on large records (n8n's guideline for tools: an agent's context is not flooded):
 * Simplified, Raw or Selected Fields. Node version 1 kept its Simplify switch (on by default), so workflows saved
 * with it run as before; version 1.1 shows the Output choice instead.
 */

export const OUTPUT_VERSION = 1.1;

const V1 = { '@version': [1] };
const FROM_OUTPUT_VERSION = { '@version': [{ _cnd: { gte: OUTPUT_VERSION } }] };

/** Record fields that identify something are kept by every output. */
const isIdentifier = (key: string): boolean => /^(id|ids)$|[a-z](Id|Ids)$/.test(key);

export function outputProperties(op: OperationDef, show: { show: Record<string, unknown[]> }): INodeProperties[] {
	if (!op.simplify) return [];
	const properties: INodeProperties[] = [];
	if (!op.simplifyFrom) {
		properties.push({
			displayName: 'Simplify',
			name: 'simplify',
			type: 'boolean',
			default: true,
			description: 'Whether to return only the most used fields instead of the full record',
			displayOptions: { show: { ...show.show, ...V1 } },
		});
	}
	properties.push(
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			default: 'simplified',
			options: [
				{ name: 'Raw', value: 'raw', description: 'The full record as Lofty returns it' },
				{ name: 'Selected Fields', value: 'selected', description: 'Only the fields you name, and the IDs' },
				{ name: 'Simplified', value: 'simplified', description: `The most used fields: ${op.simplify.join(', ')}, and the IDs` },
			],
			displayOptions: { show: { ...show.show, ...FROM_OUTPUT_VERSION } },
		},
		{
			displayName: 'Fields',
			name: 'outputFields',
			type: 'string',
			default: '',
			required: true,
			placeholder: `e.g. ${op.simplify.slice(0, 3).join(', ')}`,
			description: 'Comma-separated names of the record fields to return; the IDs are always included',
			displayOptions: { show: { ...show.show, ...FROM_OUTPUT_VERSION, output: ['selected'] } },
		},
	);
	return properties;
}

/** What the user chose for one item: the fields to keep, or undefined for the full record. */
export function outputFieldsFor(ctx: IExecuteFunctions, op: OperationDef, itemIndex: number): string[] | undefined {
	if (!op.simplify) return undefined;
	if (ctx.getNode().typeVersion < OUTPUT_VERSION) {
		if (op.simplifyFrom) return undefined;
		return (ctx.getNodeParameter('simplify', itemIndex, true) as boolean) ? op.simplify : undefined;
	}
	const output = ctx.getNodeParameter('output', itemIndex, 'simplified') as string;
	if (output === 'raw') return undefined;
	if (output === 'selected') {
		const raw = ctx.getNodeParameter('outputFields', itemIndex, '') as string | string[];
		const fields = (Array.isArray(raw) ? raw : String(raw).split(',')).map((f) => String(f).trim()).filter(Boolean);
		if (fields.length === 0) throw new InvalidValue('Fields', 'name at least one field to return (or choose another Output)');
		return fields;
	}
	if (output !== 'simplified') throw new InvalidValue('Output', `must be Simplified, Raw or Selected Fields, got ${JSON.stringify(output)}`);
	return op.simplify;
}

/** Lofty's "unset" for a number; IDs reach the output as strings, so "-1" too. */
const isMinusOne = (value: unknown): boolean => value === -1 || value === '-1';

/** A copy of a kept value with -1 replaced by null at the given paths inside it (an array: in each entry). */
function unsetInside(value: unknown, paths: string[]): unknown {
	if (paths.length === 0 || value === null || typeof value !== 'object') return value;
	if (Array.isArray(value)) return value.map((entry) => unsetInside(entry, paths));
	const out: IDataObject = { ...(value as IDataObject) };
	for (const path of paths) {
		const [head, ...rest] = path.split('.');
		if (!(head in out)) continue;
		out[head] = (rest.length ? unsetInside(out[head], [rest.join('.')]) : isMinusOne(out[head]) ? null : out[head]) as IDataObject;
	}
	return out;
}

/**
 * Keeps the chosen fields (and every identifier) of a record. `unset`: fields (dots for nested ones) where Lofty's -1
 * means "not set": shown as null, as when Lofty answers null, so that "is empty" in an IF node holds for both.
 */
export function pickFields(record: IDataObject, fields: string[], unset: string[] = []): IDataObject {
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(record)) {
		if (!(fields.includes(key) || isIdentifier(key))) continue;
		const inner = unset.filter((path) => path.startsWith(`${key}.`)).map((path) => path.slice(key.length + 1));
		out[key] = (unset.includes(key) && isMinusOne(value) ? null : unsetInside(value, inner)) as IDataObject;
	}
	return out;
}

/**
 * A record as a tool gives it to a model: each tag by its name (Lofty's tag objects repeat the lead's ID, the tag's,
 * two times and the creator, some 40 tokens a tag). Tags without a name, and other fields, are kept as they are.
 */
export function tagsByName(record: IDataObject): IDataObject {
	const tags = record.tags;
	if (!Array.isArray(tags) || !tags.some((t) => t !== null && typeof t === 'object' && typeof (t as IDataObject).tagName === 'string')) return record;
	const names = tags.map((t) => (t !== null && typeof t === 'object' && typeof (t as IDataObject).tagName === 'string' ? (t as IDataObject).tagName : t));
	return { ...record, tags: names as IDataObject[] };
}

/** The values a write returns as sent (OperationDef `returnsSent`), for those the answer does not give itself. */
export function sentFacts(op: OperationDef, values: IDataObject, record: IDataObject): IDataObject {
	const out: IDataObject = {};
	for (const name of op.returnsSent ?? []) {
		if (values[name] !== undefined && record[name] === undefined) out[name] = values[name];
	}
	return out;
}
