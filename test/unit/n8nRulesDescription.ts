/**
 * n8n's community-node rules newer than the installable @n8n/eslint-plugin-community-nodes 0.32.0 that concern the
 * node descriptions, codex files, credential classes and package.json, ported from their docs in n8n's repository
 * (packages/@n8n/eslint-plugin-community-nodes/docs/rules/<name>.md; where a doc names a list it does not give, the
 * list is the rule's own, from src/utils/codex-taxonomy.ts and src/rules/valid-node-categories.ts). Each rule gives
 * the places that break it, "<file>: <parameter path>" or "<file>: <what>"; [] when none. They read the built
 * descriptions (what n8n loads), so derived fields and nested ones are checked too. The rules that read source
 * files are in n8nRulesSource.ts.
 */
import { basename } from 'node:path';
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { type Json, type NodeFacts, type PackageFacts, allParameters } from './n8nRulesPackage';

export interface Rule {
	name: string;
	check: (pkg: PackageFacts) => string[];
}

const optionsOf = (p: INodeProperties) => (p.options ?? []) as INodePropertyOptions[];
const choices = (pkg: PackageFacts) => allParameters(pkg).filter(({ p }) => p.type === 'options' || p.type === 'multiOptions');
const file = (n: { file: string }) => basename(n.file);
const twice = (list: string[]) => [...new Set(list.filter((x, i) => list.indexOf(x) !== i))];

/** The codex n8n uses for a node: the description's own when it has one (the .node.json is then not read), else the file. */
const codexOf = (n: NodeFacts): { codex: Json; where: string } | undefined =>
	(n.description as Json).codex ? { codex: (n.description as Json).codex, where: file(n) } : n.codex ? { codex: n.codex, where: file(n).replace(/\.ts$/, '.json') } : undefined;
const importsAiSdk = (n: NodeFacts) => /from\s+['"]@n8n\/ai-node-sdk['"]/.test(n.source);

// From src/utils/codex-taxonomy.ts (valid-codex-categories) and src/rules/valid-node-categories.ts.
const KNOWN_CATEGORIES = ['AI', 'Analytics', 'Communication', 'Core Nodes', 'Data & Storage', 'Developer Tools', 'Development', 'ECM', 'Finance & Accounting', 'HITL', 'Marketing & Content', 'Miscellaneous', 'Productivity', 'Sales', 'Utility'];
const KNOWN_SUBCATEGORIES = ['Data Transformation', 'Files', 'Flow', 'Helpers', 'Other Trigger Nodes', 'Human in the Loop', 'Agents', 'Chains', 'Document Loaders', 'Embeddings', 'Language Models', 'Memory', 'Miscellaneous', 'Model Context Protocol', 'Output Parsers', 'Rerankers', 'Retrievers', 'Root Nodes', 'Text Splitters', 'Tools', 'Vector Stores'];
const COMMUNITY_CATEGORIES = ['Data & Storage', 'Finance & Accounting', 'Marketing & Content', 'Productivity', 'Miscellaneous', 'Sales', 'Development', 'Analytics', 'Communication', 'Utility'];
const AI_SUBCATEGORIES = ['Agents', 'Chains', 'Language Models', 'Memory', 'Output Parsers', 'Tools', 'Vector Stores', 'Retrievers', 'Embeddings', 'Document Loaders', 'Text Splitters', 'Other Tools', 'Root Nodes', 'Model Context Protocol', 'Human in the Loop', 'Miscellaneous', 'Rerankers', 'Evaluation'];
const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** valid-node-categories, for one codex. */
function nodeCategoryProblems(codex: Json): string[] {
	const { categories, subcategories } = codex;
	if (categories === undefined && subcategories === undefined) return [];
	const problems: string[] = [];
	let ai = false;
	if (categories !== undefined) {
		if (!Array.isArray(categories) || categories.length === 0) return ['"categories" must be a non-empty array'];
		for (const c of categories) {
			if (typeof c !== 'string') problems.push(`category ${JSON.stringify(c)} is not a string`);
			else if (c === 'AI') ai = true;
			else if (!COMMUNITY_CATEGORIES.includes(c)) problems.push(`"${c}" is not a community node category`);
		}
	}
	if (subcategories !== undefined && !isMap(subcategories)) return [...problems, 'subcategories must be an object with an AI category'];
	const aiSubs = isMap(subcategories) ? subcategories.AI : undefined;
	if (ai && aiSubs === undefined) problems.push('the "AI" category requires subcategories.AI');
	if (aiSubs !== undefined && !ai) problems.push('subcategories.AI requires "AI" in categories');
	if (subcategories !== undefined && !ai && aiSubs === undefined) problems.push('subcategories must be an object with an AI category');
	if (aiSubs !== undefined) {
		if (!Array.isArray(aiSubs) || aiSubs.length === 0) problems.push('subcategories.AI must be a non-empty array');
		else for (const s of aiSubs) if (typeof s !== 'string' || !AI_SUBCATEGORIES.includes(s)) problems.push(`"${String(s)}" is not a supported AI subcategory`);
	}
	return problems;
}

/** valid-codex-categories, for one codex of a node whose description gives `outputs`. */
function codexTaxonomyProblems(codex: Json, outputs: unknown): string[] {
	const problems: string[] = [];
	const categories: unknown[] = Array.isArray(codex.categories) ? codex.categories : [];
	for (const c of categories) if (typeof c === 'string' && !KNOWN_CATEGORIES.includes(c)) problems.push(`unknown category "${c}"`);
	const subs = codex.subcategories;
	if (Array.isArray(subs)) return [...problems, 'subcategories is a plain array, not a map of category to subcategories'];
	if (isMap(subs)) {
		for (const [key, values] of Object.entries(subs)) {
			if (!KNOWN_CATEGORIES.includes(key)) problems.push(`"${key}" is not a category, so not a subcategories key`);
			if (Array.isArray(values)) for (const v of values) if (typeof v === 'string' && !KNOWN_SUBCATEGORIES.includes(v)) problems.push(`unknown subcategory "${v}"`);
		}
	}
	const main = Array.isArray(outputs) && outputs.some((o) => o === 'main');
	const rootNode = isMap(subs) && Array.isArray(subs.AI) && subs.AI.includes('Root Nodes');
	if (categories.includes('AI') && main && !rootNode) problems.push('"AI" with a main output but without "Root Nodes" in subcategories.AI (hidden from the node search)');
	return problems;
}

/** WCAG contrast of the icon's paints against a background, as icon-contrast reads them. */
export function bestContrast(svg: string, background: string): number | undefined {
	const paints: string[] = [];
	let hasFill = false;
	const add = (property: string, value: string) => {
		if (property.toLowerCase() === 'fill') hasFill = true;
		paints.push(value.trim());
	};
	for (const m of svg.matchAll(/\s(fill|stroke|stop-color)\s*=\s*["']([^"']*)["']/gi)) add(m[1], m[2]);
	const styles = [...svg.matchAll(/\sstyle\s*=\s*["']([^"']*)["']/gi), ...svg.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/gi)].map((m) => m[1]);
	for (const style of styles) for (const m of style.matchAll(/(?:^|[;{])\s*(fill|stroke|stop-color)\s*:\s*([^;}]+)/gi)) add(m[1], m[2]);
	if (/<image\b/i.test(svg) || (paints.some((p) => /url\(/i.test(p)) && !/<stop\b/i.test(svg))) return undefined;
	const colors = paints.map(rgba).filter((c): c is number[] => c !== undefined);
	if (!hasFill) colors.push([0, 0, 0, 1]);
	const bg = rgba(background)!;
	return Math.max(...colors.map((c) => ratio(c.slice(0, 3).map((v, i) => v * c[3] + bg[i] * (1 - c[3])), bg)));
}

const NAMED: Record<string, string> = { black: '#000', white: '#fff', red: '#f00', green: '#008000', blue: '#00f', gray: '#808080', grey: '#808080', silver: '#c0c0c0', orange: '#ffa500', yellow: '#ff0' };
/** r, g, b in 0..1 and alpha, or undefined for no paint (none, transparent, url()). */
function rgba(value: string): number[] | undefined {
	const v = value.trim().toLowerCase();
	if (v === 'currentcolor') return [0, 0, 0, 1];
	const variable = /^var\(\s*--[^,()]+(?:,\s*(.+))?\)$/s.exec(v);
	if (variable) return rgba(variable[1] ?? '#000');
	if (NAMED[v]) return rgba(NAMED[v]);
	const hex = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(v)?.[1];
	if (hex) {
		const full = hex.length <= 4 ? [...hex].map((c) => c + c).join('') : hex;
		const [r, g, b, a = 255] = [0, 2, 4, 6].map((i) => (i < full.length ? parseInt(full.slice(i, i + 2), 16) : undefined)).filter((x) => x !== undefined) as number[];
		return [r / 255, g / 255, b / 255, a / 255];
	}
	const fn = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:[\s,/]+([\d.]+))?\s*\)$/.exec(v);
	return fn ? [Number(fn[1]) / 255, Number(fn[2]) / 255, Number(fn[3]) / 255, fn[4] === undefined ? 1 : Number(fn[4])] : undefined;
}
function ratio(a: number[], b: number[]): number {
	const lum = (c: number[]) => {
		const [r, g, bl] = c.map((x) => (x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4));
		return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
	};
	const [x, y] = [lum(a), lum(b)].sort((m, n) => n - m);
	return (x + 0.05) / (y + 0.05);
}

export const DESCRIPTION_RULES: Rule[] = [
	{ name: 'require-param-default', check: (pkg) => allParameters(pkg).filter(({ p }) => !('default' in p)).map((x) => x.where) },
	{ name: 'hint-max-length', check: (pkg) => allParameters(pkg).filter(({ p }) => (p.hint ?? '').length > 120).map(({ where, p }) => `${where} (${p.hint!.length} characters)`) },
	{
		name: 'no-duplicate-param-options',
		check: (pkg) => choices(pkg).flatMap(({ where, p }) => [...twice(optionsOf(p).map((o) => o.name)), ...twice(optionsOf(p).map((o) => JSON.stringify(o.value)))].map((x) => `${where}: ${x}`)),
	},
	{
		// option names of options arrays, collection options and fixedCollection groups included
		name: 'no-asterisk-in-option-names',
		check: (pkg) =>
			allParameters(pkg).flatMap(({ where, p }) => ((p.options ?? []) as Array<{ name: string }>).filter((o) => typeof o.name === 'string' && o.name.includes('*')).map((o) => `${where}: ${o.name}`)),
	},
	{
		// type 'options' (the doc: resource, operation and any other dropdown), case-insensitive and locale-aware
		name: 'options-sorted-alphabetically',
		check: (pkg) =>
			allParameters(pkg)
				.filter(({ p }) => p.type === 'options' && optionsOf(p).length > 1)
				.filter(({ p }) => {
					const names = optionsOf(p).map((o) => o.name);
					const sorted = [...names].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' }));
					return names.some((n, i) => n !== sorted[i]);
				})
				.map(({ where }) => where),
	},
	{
		name: 'non-required-fields-in-collection',
		check: (pkg) =>
			pkg.nodes.flatMap((n) =>
				n.description.properties
					.filter((p) => p.required !== true && !['collection', 'fixedCollection', 'notice', 'callout', 'hidden', 'curlImport'].includes(p.type))
					.filter((p) => !['resource', 'operation', 'authentication'].includes(p.name))
					.map((p) => `${file(n)}: ${p.name}`),
			),
	},
	{ name: 'open-ended-node-fields', check: (pkg) => pkg.nodes.flatMap((n) => n.description.properties.filter((p) => p.type === 'json' && p.required !== true).map((p) => `${file(n)}: ${p.name}`)) },
	{ name: 'node-class-description-name-camelcase', check: (pkg) => pkg.nodes.filter((n) => !/^[a-z][a-zA-Z0-9]*$/.test(n.description.name)).map((n) => `${file(n)}: ${n.description.name}`) },
	{
		name: 'node-class-description-non-core-color',
		check: (pkg) =>
			pkg.nodes.flatMap((n) => [(n.description.defaults as Json)?.color, (n.description as Json).color].filter((c) => typeof c === 'string' && c.toLowerCase() === '#ff6d5a').map((c) => `${file(n)}: ${c}`)),
	},
	{
		// each two credentials shown for different values of one single-value field; none without a condition
		name: 'single-credential-per-node',
		check: (pkg) =>
			pkg.nodes.flatMap((n) => {
				const multi = new Set(n.description.properties.filter((p) => p.type === 'multiOptions').map((p) => p.name));
				const creds = n.description.credentials ?? [];
				return creds.flatMap((a, i) =>
					creds.slice(i + 1).flatMap((b) => {
						const [x, y] = [a.displayOptions?.show ?? {}, b.displayOptions?.show ?? {}];
						const exclusive = Object.keys(x).some((key) => !multi.has(key) && Array.isArray(x[key]) && Array.isArray(y[key]) && (x[key] as unknown[]).every((v) => !(y[key] as unknown[]).includes(v)));
						return exclusive ? [] : [`${file(n)}: ${a.name} and ${b.name}`];
					}),
				);
			}),
	},
	{ name: 'valid-node-categories', check: (pkg) => pkg.nodes.flatMap((n) => (n.codex ? nodeCategoryProblems(n.codex).map((p) => `${file(n).replace(/\.ts$/, '.json')}: ${p}`) : [])) },
	{
		name: 'valid-codex-categories',
		check: (pkg) =>
			pkg.nodes.flatMap((n) => {
				const c = codexOf(n);
				return c ? codexTaxonomyProblems(c.codex, n.description.outputs).map((p) => `${c.where}: ${p}`) : [];
			}),
	},
	{
		name: 'no-ai-codex-category',
		check: (pkg) =>
			pkg.nodes.flatMap((n) => {
				const c = codexOf(n);
				return c && !importsAiSdk(n) && Array.isArray(c.codex.categories) && c.codex.categories.includes('AI') ? [`${c.where}: "AI" without @n8n/ai-node-sdk`] : [];
			}),
	},
	{
		name: 'no-codex-subcategories',
		check: (pkg) =>
			pkg.nodes.flatMap((n) => {
				const c = codexOf(n);
				return c && !importsAiSdk(n) && c.codex.subcategories !== undefined ? [`${c.where}: subcategories without @n8n/ai-node-sdk`] : [];
			}),
	},
	{
		name: 'no-logic-or-flow-nodes',
		check: (pkg) =>
			pkg.nodes.flatMap((n) => {
				if (!n.codex) return [];
				const subs = isMap(n.codex.subcategories) ? Object.values(n.codex.subcategories).flatMap((v) => (Array.isArray(v) ? v : [])) : [];
				return [...(Array.isArray(n.codex.categories) ? n.codex.categories : []), ...subs].filter((c) => c === 'Logic' || c === 'Flow').map((c) => `${file(n).replace(/\.ts$/, '.json')}: ${c}`);
			}),
	},
	{ name: 'require-community-node-keyword', check: (pkg) => (Array.isArray(pkg.packageJson.keywords) && pkg.packageJson.keywords.includes('n8n-community-node-package') ? [] : ['package.json: keywords']) },
	{ name: 'require-mit-license', check: (pkg) => (pkg.packageJson.license === 'MIT' ? [] : [`package.json: license ${JSON.stringify(pkg.packageJson.license)}`]) },
	{ name: 'no-monorepo', check: (pkg) => (pkg.packageJson.repository?.directory === undefined ? [] : [`package.json: repository.directory ${pkg.packageJson.repository.directory}`]) },
	{ name: 'cred-class-name-suffix', check: (pkg) => pkg.credentials.filter((c) => !c.className.endsWith('Api')).map((c) => `${file(c)}: class ${c.className}`) },
	{ name: 'cred-class-name-field-conventions', check: (pkg) => pkg.credentials.filter((c) => !/^[a-z]/.test(c.name) || !c.name.endsWith('Api')).map((c) => `${file(c)}: name ${c.name}`) },
	{ name: 'cred-filename-against-convention', check: (pkg) => pkg.credentials.filter((c) => file(c) !== `${c.className}.credentials.ts`).map((c) => `${file(c)}: class ${c.className}`) },
	{
		// named after description.name with its first letter upper-cased; a version suffix (V2, V3) allowed
		name: 'node-filename-against-convention',
		check: (pkg) => pkg.nodes.filter((n) => !new RegExp(`^${n.description.name.replace(/^./, (c) => c.toUpperCase())}(V\\d+)?\\.node\\.ts$`).test(file(n))).map((n) => `${file(n)}: ${n.description.name}`),
	},
	{
		// a single SVG against both node backgrounds; a { light, dark } pair each against its own; at least 1.5:1
		name: 'icon-contrast',
		check: (pkg) =>
			[...pkg.nodes.map((n) => ({ where: file(n), icon: n.description.icon as unknown })), ...pkg.credentials.map((c) => ({ where: file(c), icon: c.icon }))].flatMap(({ where, icon }) => {
				const themed = typeof icon === 'object' && icon !== null && 'light' in icon ? (icon as { light: string; dark: string }) : undefined;
				const pairs: Array<[string, string]> = themed ? [[themed.light, '#ffffff'], [themed.dark, '#2b2b2b']] : typeof icon === 'string' ? [[icon, '#ffffff'], [icon, '#2b2b2b']] : [];
				return pairs.flatMap(([path, background]) => {
					if (!path.startsWith('file:') || !path.endsWith('.svg')) return [];
					const best = bestContrast(pkg.svg(path), background);
					return best !== undefined && best < 1.5 ? [`${where}: ${basename(path)} on ${background} (${best.toFixed(2)}:1)`] : [];
				});
			}),
	},
];
