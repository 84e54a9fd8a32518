/**
 * What the tool server knows about the API: every operation of the vendor's OpenAPI (catalog.json, written by
 * buildCatalog.js) and every other route the sandbox serves (named in api-spec.md, shapes "not shown").
 * `search_apis` ranks them by the words of a query; `describe_api` gives one of them whole.
 */
import type { Route } from '../core/router';
import vendor from './catalog.json';

export interface ApiParameter {
	name: string;
	in: string;
	required: boolean;
	type: string;
	description: string;
}

export interface ApiOperation {
	method: string;
	path: string;
	tag: string;
	summary: string;
	description: string;
	parameters: ApiParameter[];
	body?: { type: string; fields: Array<{ name: string; type: string; required: boolean; description: string }> };
}

/** The vendor's operations, as buildCatalog.js wrote them. */
function vendorOperations(): ApiOperation[] {
	return (vendor as { operations: ApiOperation[] }).operations;
}

const blank = (p: string) => p.replace(/\{[^}]+\}/g, '{}');

/** The vendor's operations and the sandbox's other routes (OAuth routes excluded). */
export function catalog(routes: Route[]): ApiOperation[] {
	const vendor = vendorOperations();
	const known = new Set(vendor.map((o) => `${o.method} ${blank(o.path)}`));
	const others = routes
		.filter((r) => !r.public && !known.has(`${r.method} ${blank(r.pattern)}`))
		.map(
			(r): ApiOperation => ({
				method: r.method,
				path: r.pattern,
				tag: r.pattern.split('/')[2] ?? '',
				summary: `${r.method} ${r.pattern}`,
				description: 'Named in the API spec; request and response shapes are not shown there.',
				parameters: [...r.pattern.matchAll(/\{([^}]+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, type: 'string', description: '' })),
			}),
		);
	return [...vendor, ...others];
}

const words = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

/** Operations ranked by how many of the query's words (or their stems) their summary, tag, path and description hold. */
export function searchOperations(all: ApiOperation[], query: string, limit: number): ApiOperation[] {
	const wanted = [...new Set(words(query))].map((w) => (w.length > 4 && w.endsWith('s') ? w.slice(0, -1) : w));
	if (wanted.length === 0) return all.slice(0, limit);
	const scored = all.map((op, index) => {
		const title = words(`${op.summary} ${op.tag} ${op.path}`).join(' ');
		const text = words(op.description).join(' ');
		let score = 0;
		for (const w of wanted) {
			if (title.includes(w)) score += 3;
			else if (text.includes(w)) score += 1;
		}
		return { op, score, index };
	});
	return scored
		.filter((s) => s.score > 0)
		.sort((a, b) => b.score - a.score || a.index - b.index)
		.slice(0, limit)
		.map((s) => s.op);
}

/** The operation at `method` and `path`; the path may be a template (`/v1.0/leads/{leadId}`) or a concrete one. */
export function findApi(all: ApiOperation[], method: string, apiPath: string): ApiOperation | undefined {
	const m = method.toUpperCase();
	const parts = apiPath.split('?')[0].split('/').filter(Boolean);
	return all.find((op) => {
		if (op.method !== m) return false;
		const segs = op.path.split('/').filter(Boolean);
		return segs.length === parts.length && segs.every((s, i) => s.startsWith('{') || s === parts[i] || blank(s) === blank(parts[i]));
	});
}
