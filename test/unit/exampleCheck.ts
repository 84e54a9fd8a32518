/**
 * Checks a workflow's package nodes against the node descriptions the way n8n's editor reads a saved parameter:
 * which property a value belongs to (displayOptions and @version decide, as in NodeHelpers.displayParameterPath),
 * and whether the value has the shape that property's input shows correctly. Types are read from the description,
 * so a field that changes type (a string list becoming a dropdown) is checked by its new type without edits here.
 */
import type { INode, INodeParameters, INodeProperties, INodePropertyCollection, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

export interface PackageNode {
	description: INodeTypeDescription;
	/** Parameters n8n adds to the node's AI-tool variant (`<name>Tool`). */
	toolParameters?: string[];
}

/** The version a node added today gets: the editor's defaultVersion, else the highest listed. */
export function newestVersion(d: INodeTypeDescription): number {
	const versions = Array.isArray(d.version) ? d.version : [d.version];
	return d.defaultVersion ?? Math.max(...versions);
}

const isExpression = (v: unknown): boolean => typeof v === 'string' && v.startsWith('=');
const show = (v: unknown): string => JSON.stringify(v);
const isPlainObject = (v: unknown): v is INodeParameters => v !== null && typeof v === 'object' && !Array.isArray(v);

interface Ctx {
	node: INode;
	description: INodeTypeDescription;
	/** The node's parameters with the defaults filled in, as the editor holds them once the workflow is open. */
	root: INodeParameters;
	problems: string[];
}

function optionValues(p: INodeProperties): Array<string | number | boolean> | undefined {
	if (p.typeOptions?.loadOptionsMethod || p.typeOptions?.loadOptions) return undefined; // filled from Lofty at edit time
	return (p.options as INodePropertyOptions[] | undefined)?.map((o) => o.value);
}

/** One value against its (single-value) property type; `path` is the value's own path in the node's parameters. */
function checkValue(ctx: Ctx, p: INodeProperties, value: unknown, where: string, path: string): void {
	if (isExpression(value) && p.type !== 'collection' && p.type !== 'fixedCollection' && !p.noDataExpression) return;
	const fail = (rule: string): void => void ctx.problems.push(`${where}: ${rule}, got ${show(value)}`);
	switch (p.type) {
		case 'string':
		case 'dateTime':
		case 'color':
		case 'hidden':
			if (typeof value !== 'string') fail(`${p.type} expects text`);
			return;
		case 'number':
			if (typeof value !== 'number') fail('number expects a number');
			return;
		case 'boolean':
			if (typeof value !== 'boolean') fail('boolean expects true or false');
			return;
		case 'options': {
			const allowed = optionValues(p);
			if (allowed && !allowed.includes(value as string)) fail(`not one of the options ${show(allowed)}`);
			return;
		}
		case 'multiOptions': {
			if (!Array.isArray(value)) return fail('multiOptions expects a list (a text is shown one entry per letter)');
			const allowed = optionValues(p);
			for (const v of value) if (allowed && !isExpression(v) && !allowed.includes(v)) fail(`${show(v)} is not one of the options ${show(allowed)}`);
			return;
		}
		case 'resourceLocator': {
			if (!isPlainObject(value) || value.__rl !== true) return fail('resourceLocator expects {__rl: true, mode, value}');
			const modes = (p.modes ?? []).map((m) => m.name);
			if (!modes.includes(String(value.mode))) fail(`locator mode not one of ${show(modes)}`);
			return;
		}
		case 'resourceMapper':
			if (!isPlainObject(value) || typeof value.mappingMode !== 'string') fail('resourceMapper expects {mappingMode, value}');
			return;
		case 'collection':
			if (!isPlainObject(value)) return fail('collection expects an object');
			return checkLevel(ctx, (p.options ?? []) as INodeProperties[], value, `${where}.`, path);
		case 'fixedCollection': {
			if (!isPlainObject(value)) return fail('fixedCollection expects an object');
			const groups = (p.options ?? []) as INodePropertyCollection[];
			for (const [key, entry] of Object.entries(value)) {
				const group = groups.find((g) => g.name === key);
				if (!group) {
					ctx.problems.push(`${where}.${key}: unknown (the editor drops it; known: ${groups.map((g) => g.name).join(', ')})`);
					continue;
				}
				if (p.typeOptions?.multipleValues) {
					if (!Array.isArray(entry)) {
						ctx.problems.push(`${where}.${key}: expects a list of entries, got ${show(entry)}`);
						continue;
					}
					entry.forEach((e, i) =>
						isPlainObject(e) ? checkLevel(ctx, group.values, e, `${where}.${key}[${i}].`, `${path}.${key}[${i}]`) : ctx.problems.push(`${where}.${key}[${i}]: expects an object`),
					);
				} else if (isPlainObject(entry)) checkLevel(ctx, group.values, entry, `${where}.${key}.`, `${path}.${key}`);
				else ctx.problems.push(`${where}.${key}: expects an object, got ${show(entry)}`);
			}
			return;
		}
		default:
			return; // json, filter, assignmentCollection, notice ...: any stored shape is read as is
	}
}

/** The parameters of one level (the node, or inside a collection) against the properties of that level. */
function checkLevel(ctx: Ctx, properties: INodeProperties[], values: INodeParameters, prefix: string, path: string): void {
	const root = ctx.root;
	for (const [name, value] of Object.entries(values)) {
		const where = `${prefix}${name}`;
		const own = path ? `${path}.${name}` : name; // where n8n resolves the displayOptions of this value's children
		const named = properties.filter((p) => p.name === name);
		const shown = named.filter((p) => NodeHelpers.displayParameterPath(root, p, path, ctx.node, ctx.description));
		if (!shown.length) {
			ctx.problems.push(`${where}: ${named.length ? 'not shown for these settings (displayOptions)' : 'unknown parameter'}`);
			continue;
		}
		const p = shown[0];
		if (p.typeOptions?.multipleValues && p.type !== 'fixedCollection') {
			// n8n lists the entries of the stored value: a text is shown one entry per letter and saved back that way.
			if (!Array.isArray(value)) ctx.problems.push(`${where}: a multi-value ${p.type} expects a list (a text is shown one entry per letter), got ${show(value)}`);
			else value.forEach((v, i) => checkValue(ctx, p, v, `${where}[${i}]`, `${own}[${i}]`));
			continue;
		}
		checkValue(ctx, p, value, where, own);
	}
}

/** Problems of one workflow's nodes of `packageName` (empty when the editor reads every parameter as meant). */
export function checkWorkflow(workflow: { nodes: INode[] }, packageName: string, nodes: Record<string, PackageNode>): string[] {
	const problems: string[] = [];
	for (const node of workflow.nodes) {
		if (!node.type.startsWith(`${packageName}.`)) continue;
		const name = node.type.slice(packageName.length + 1);
		const tool = name.endsWith('Tool') && !nodes[name] ? nodes[name.slice(0, -'Tool'.length)] : undefined;
		const known = nodes[name] ?? tool;
		if (!known) {
			problems.push(`${node.name}: the package has no node ${node.type}`);
			continue;
		}
		const { description } = known;
		const newest = newestVersion(description);
		if (node.typeVersion !== newest) problems.push(`${node.name}: typeVersion ${node.typeVersion}, but a node added today is ${newest}`);
		const { ...params } = node.parameters;
		if (tool) for (const extra of known.toolParameters ?? []) delete params[extra];
		const root = NodeHelpers.getNodeParameters(description.properties, params, true, false, node, description) ?? params;
		const ctx: Ctx = { node, description, root, problems: [] };
		checkLevel(ctx, description.properties, params, '', '');
		problems.push(...ctx.problems.map((p) => `${node.name}: ${p}`));
	}
	return problems;
}
