/**
 * n8n's community-node lint rules newer than the installable @n8n/eslint-plugin-community-nodes (0.32.0), checked
 * on the built node descriptions until a release with them can be installed. Read from the rule docs in n8n's
 * repository (packages/@n8n/eslint-plugin-community-nodes/docs/rules/): single-credential-per-node,
 * require-param-default, hint-max-length, no-duplicate-param-options, no-asterisk-in-option-names,
 * no-emoji-in-options, valid-node-categories, require-community-node-keyword, no-hardcoded-ids, icon-contrast.
 * Not checked here, and why: non-required-fields-in-collection (a warning; Return All, Limit, Simplify and the
 * `top` fields stand at the top level as in n8n's own nodes, and moving a field changes its parameter path in
 * saved workflows).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INodeProperties, INodePropertyCollection, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

import { Lofty } from '../../nodes/Lofty/Lofty.node';
import { LoftyTrigger } from '../../nodes/LoftyTrigger/LoftyTrigger.node';
import { LoftyPollingTrigger } from '../../nodes/LoftyPollingTrigger/LoftyPollingTrigger.node';
import { LoftyApi } from '../../credentials/LoftyApi.credentials';
import { LoftyOAuth2Api } from '../../credentials/LoftyOAuth2Api.credentials';

const ROOT = join(__dirname, '..', '..');
const NODES: Array<[string, INodeTypeDescription]> = [
	['Lofty', new Lofty().description],
	['LoftyTrigger', new LoftyTrigger().description],
	['LoftyPollingTrigger', new LoftyPollingTrigger().description],
];

/** Every parameter of a description with where it stands: top level, in collections, in fixedCollection groups. */
function parameters(properties: INodeProperties[], at = ''): Array<{ where: string; p: INodeProperties }> {
	return properties.flatMap((p) => {
		const where = `${at}${p.name}`;
		const nested =
			p.type === 'collection'
				? parameters((p.options ?? []) as INodeProperties[], `${where}.`)
				: p.type === 'fixedCollection'
					? ((p.options ?? []) as INodePropertyCollection[]).flatMap((group) => parameters(group.values, `${where}.${group.name}.`))
					: [];
		return [{ where, p }, ...nested];
	});
}
const all = NODES.flatMap(([node, d]) => parameters(d.properties).map((x) => ({ ...x, where: `${node}: ${x.where}` })));
const choices = all.filter(({ p }) => p.type === 'options' || p.type === 'multiOptions');
const optionsOf = (p: INodeProperties) => (p.options ?? []) as INodePropertyOptions[];

describe("n8n's newer community-node rules", () => {
	it('require-param-default: every parameter, nested ones and notices included, declares a default', () => {
		expect(all.filter(({ p }) => !('default' in p)).map((x) => x.where)).toEqual([]);
	});

	it('hint-max-length: no hint is longer than 120 characters', () => {
		expect(all.filter(({ p }) => (p.hint ?? '').length > 120).map(({ where, p }) => `${where} (${p.hint!.length})`)).toEqual([]);
	});

	it('no-duplicate-param-options: no two options of one parameter share a name or a value', () => {
		const repeats = choices.flatMap(({ where, p }) => {
			const names = optionsOf(p).map((o) => o.name);
			const values = optionsOf(p).map((o) => JSON.stringify(o.value));
			const twice = (list: string[]) => list.filter((x, i) => list.indexOf(x) !== i);
			return [...twice(names), ...twice(values)].map((x) => `${where}: ${x}`);
		});
		expect(repeats).toEqual([]);
	});

	it('no-asterisk-in-option-names and no-emoji-in-options: option names are plain text', () => {
		const emoji = /\p{Extended_Pictographic}/u;
		const bad = choices.flatMap(({ where, p }) => optionsOf(p).filter((o) => o.name.includes('*') || emoji.test(o.name) || emoji.test(o.description ?? '')).map((o) => `${where}: ${o.name}`));
		expect(bad).toEqual([]);
	});

	it.each(NODES)('single-credential-per-node (%s): each two credentials are shown for different values of one single-choice field', (_name, d) => {
		const multi = new Set(d.properties.filter((p) => p.type === 'multiOptions').map((p) => p.name));
		const creds = d.credentials ?? [];
		for (let i = 0; i < creds.length; i++) {
			for (let j = i + 1; j < creds.length; j++) {
				const [a, b] = [creds[i].displayOptions?.show ?? {}, creds[j].displayOptions?.show ?? {}];
				const exclusive = Object.keys(a).some((key) => !multi.has(key) && Array.isArray(b[key]) && (a[key] as unknown[]).every((v) => !(b[key] as unknown[]).includes(v)));
				expect({ pair: [creds[i].name, creds[j].name], exclusive }).toEqual({ pair: [creds[i].name, creds[j].name], exclusive: true });
			}
		}
	});

	it('valid-node-categories: the codex categories are from the community node category list', () => {
		const valid = ['Data & Storage', 'Finance & Accounting', 'Marketing & Content', 'Productivity', 'Miscellaneous', 'Sales', 'Development', 'Analytics', 'Communication', 'Utility'];
		for (const [name] of NODES) {
			const codex = JSON.parse(readFileSync(join(ROOT, 'nodes', name, `${name}.node.json`), 'utf8')) as { categories?: unknown[]; subcategories?: unknown };
			if (codex.categories === undefined) continue;
			expect({ name, categories: codex.categories.length > 0 && codex.categories.every((c) => typeof c === 'string' && valid.includes(c)) }).toEqual({ name, categories: true });
			expect({ name, subcategories: codex.subcategories }).toEqual({ name, subcategories: undefined });
		}
	});

	it('require-community-node-keyword: package.json has the keyword n8n-community-node-package', () => {
		const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { keywords?: string[] };
		expect(pkg.keywords).toContain('n8n-community-node-package');
	});

	it('no-hardcoded-ids: no partner, affiliate, reseller, account, tenant, customer or client ID is a string literal in a .node.ts file', () => {
		const fixed = /\b["']?(partner|affiliate|reseller|account|tenant|customer|client)_?id["']?\s*[:=]\s*["'`]/i;
		const files = NODES.map(([name]) => join('nodes', name, `${name}.node.ts`));
		const found = files.flatMap((file) => readFileSync(join(ROOT, file), 'utf8').split('\n').filter((line) => fixed.test(line)).map((line) => `${file}: ${line.trim()}`));
		expect(found).toEqual([]);
	});

	describe('icon-contrast: each themed icon stands out from its background (WCAG ratio at least 1.5)', () => {
		const luminance = (hex: string) => {
			const full = hex.length === 4 ? hex.replace(/^#(.)(.)(.)$/, '#$1$1$2$2$3$3') : hex;
			const [r, g, b] = [1, 3, 5].map((i) => parseInt(full.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
			return 0.2126 * r + 0.7152 * g + 0.0722 * b;
		};
		const ratio = (a: string, b: string) => {
			const [x, y] = [luminance(a), luminance(b)].sort((m, n) => n - m);
			return (x + 0.05) / (y + 0.05);
		};
		const NAMED: Record<string, string> = { white: '#ffffff', black: '#000000', none: '' };
		const paints = (svg: string) => {
			const found = [...svg.matchAll(/(?:fill|stroke|stop-color)\s*[=:]\s*["']?\s*(#[0-9a-f]{6}|#[0-9a-f]{3}|[a-z]+)/gi)].map((m) => (m[1].startsWith('#') ? m[1] : NAMED[m[1].toLowerCase()] ?? '#000000')).filter(Boolean);
			return found.length ? found : ['#000000'];
		};
		const icons = [...NODES.map(([name, d]) => [name, d.icon] as const), ['LoftyApi', new LoftyApi().icon] as const, ['LoftyOAuth2Api', new LoftyOAuth2Api().icon] as const];
		it.each(icons)('%s', (_name, icon) => {
			const themes = typeof icon === 'object' && icon !== null && 'light' in icon ? [['light', icon.light, '#ffffff'], ['dark', icon.dark, '#2b2b2b']] : [];
			expect(themes).toHaveLength(2);
			for (const [theme, file, background] of themes) {
				const svg = readFileSync(join(ROOT, 'icons', String(file).split('/').pop()!), 'utf8');
				const best = Math.max(...paints(svg).map((c) => ratio(c, background)));
				expect({ theme, best: best >= 1.5 }).toEqual({ theme, best: true });
			}
		});
	});

});
