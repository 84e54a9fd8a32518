/**
 * The endpoints the node must reach: every operation of the vendor's OpenAPI, every row of the
 * spec's endpoint index, and every endpoint the spec names in prose ("Further endpoints by name").
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const REFERENCE = join(__dirname, '..', '..', '..', 'shared', 'reference');
export const FIXTURE = join(__dirname, 'endpoints.json');

export interface Endpoints {
	/** `METHOD /path` from lofty-openapi.json */
	openapi: string[];
	/** `METHOD /path` named with their method in api-spec.md */
	spec: string[];
	/** paths api-spec.md names without a method: any method on them counts */
	specPaths: string[];
}

/** `{leadId}` and `{id}` are the same slot: compare paths with their parameters blanked. */
export const normalise = (endpoint: string) => endpoint.replace(/\{[^}]+\}/g, '{}');

export function fromOpenApi(openapi: { paths: Record<string, Record<string, unknown>> }): string[] {
	return Object.entries(openapi.paths)
		.flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`))
		.sort();
}

export function fromSpec(spec: string): { spec: string[]; specPaths: string[] } {
	const named = new Set<string>();
	const pathsOnly = new Set<string>();
	for (const m of spec.matchAll(/^\| (GET|POST|PUT|DELETE) \| (\/v\d\.\d\/[^\s|]+) \|/gm)) named.add(`${m[1]} ${m[2]}`);
	for (const m of spec.matchAll(/^### (GET|POST|PUT|DELETE) (\/v\d\.\d\/\S+)(?: and (\/\S+))?/gm)) {
		named.add(`${m[1]} ${m[2]}`);
		if (m[3]) named.add(`${m[1]} ${m[3].startsWith('/v') ? m[3] : m[2].replace(/\/[^/]+$/, m[3])}`);
	}
	const further = spec.split('### Further endpoints by name')[1]?.split('\n## ')[0] ?? '';
	// "POST and GET /v1.0/logType", "GET /v1.0/me", or a bare path inherit nothing: bare paths match any method.
	for (const m of further.matchAll(/(?:((?:GET|POST|PUT|DELETE)(?: and (?:GET|POST|PUT|DELETE))*) )?(\/v\d\.\d\/[\w\-/{}]+)/g)) {
		const path = m[2].replace(/[.,]$/, '');
		if (m[1]) for (const method of m[1].split(' and ')) named.add(`${method} ${path}`);
		else pathsOnly.add(path);
	}
	return { spec: [...named].sort(), specPaths: [...pathsOnly].sort() };
}

/** Reads the reference files when they are beside the repository, else the committed copy of their endpoint lists. */
export function loadEndpoints(): { endpoints: Endpoints; fromReference: boolean } {
	if (existsSync(join(REFERENCE, 'lofty-openapi.json'))) {
		const openapi = JSON.parse(readFileSync(join(REFERENCE, 'lofty-openapi.json'), 'utf8'));
		const spec = fromSpec(readFileSync(join(REFERENCE, 'api-spec.md'), 'utf8'));
		return { endpoints: { openapi: fromOpenApi(openapi), ...spec }, fromReference: true };
	}
	return { endpoints: JSON.parse(readFileSync(FIXTURE, 'utf8')) as Endpoints, fromReference: false };
}
