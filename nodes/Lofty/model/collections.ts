import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { OperationDef, ParamDef } from './types';

/** Name of the collection parameter that holds an operation's optional fields. */
export function optionalCollection(op: OperationDef): { name: string; title: string } {
	const title = op.optionalTitle ?? (op.pagination ? 'Filters' : op.method === 'GET' ? 'Options' : 'Additional Fields');
	const name = title.charAt(0).toLowerCase() + title.slice(1).replace(/\s+/g, '');
	return { name, title };
}

/** The collection an optional parameter sits in: the operation's own, or Options for output settings. */
export function collectionOf(op: OperationDef, p: ParamDef): { name: string; title: string } {
	return p.group === 'options' ? { name: 'options', title: 'Options' } : optionalCollection(op);
}

/** What the item gives for a parameter, at the top or inside its collection, as n8n hands it over ('' when unset at the top). */
export function givenValue(ctx: IExecuteFunctions, op: OperationDef, p: ParamDef, itemIndex: number): unknown {
	if (p.required || p.top) return ctx.getNodeParameter(p.name, itemIndex, '');
	return (ctx.getNodeParameter(collectionOf(op, p).name, itemIndex, {}) as IDataObject)[p.name];
}

/** The optional parameters of an operation by collection: the operation's own first, Options (output settings) last. */
export function collectionsOf(op: OperationDef): Array<{ name: string; title: string; params: ParamDef[] }> {
	const collections: Array<{ name: string; title: string; params: ParamDef[] }> = [];
	for (const p of op.params.filter((param) => !param.required && !param.top)) {
		const { name, title } = collectionOf(op, p);
		let found = collections.find((c) => c.name === name);
		if (!found) collections.push((found = { name, title, params: [] }));
		found.params.push(p);
	}
	const own = optionalCollection(op).name;
	const rank = (c: { name: string }) => (c.name === own ? 0 : 1);
	return collections.sort((a, b) => rank(a) - rank(b));
}

/** "Other Fields (JSON)": a JSON object merged into the body, for fields Lofty accepts beyond those listed. */
export function mergedBodyJson(name: string, description: string): ParamDef {
	return { name, label: 'Other Fields (JSON)', type: 'json', in: 'body', key: '$merge', jsonShape: 'object', description };
}
