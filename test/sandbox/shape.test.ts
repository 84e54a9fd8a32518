/**
 * The sandbox keeps the node's shape: a folder per resource, no file over MAX_LINES lines, no import cycle
 * (type-only imports count too). The import statements are read with a small parser of our own.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const SANDBOX = path.resolve(__dirname, '../../sandbox');
const MAX_LINES = 400;

/** Every `.ts` file below `dir`. */
function sourceFiles(dir: string): string[] {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
		const p = path.join(dir, e.name);
		if (e.isDirectory()) return sourceFiles(p);
		return e.name.endsWith('.ts') ? [p] : [];
	});
}

/** Module specifiers of `import ... from`, `export ... from`, `import '...'`, `import('...')` and `require('...')`. */
export function importSpecifiers(source: string): string[] {
	const patterns = [
		/(?:^|[\n;])\s*(?:import|export)\s+(?:type\s+)?[\w\s{},*$]*?\bfrom\s*['"]([^'"\n]+)['"]/g,
		/(?:^|[\n;])\s*import\s*['"]([^'"\n]+)['"]/g,
		/\b(?:import|require)\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g,
	];
	return patterns.flatMap((re) => [...source.matchAll(re)].map((m) => m[1]));
}

/** The file a relative specifier names (`x.ts` or `x/index.ts`), or undefined for packages and Node built-ins. */
function resolve(from: string, spec: string): string | undefined {
	if (!spec.startsWith('.')) return undefined;
	const base = path.resolve(path.dirname(from), spec);
	for (const candidate of [`${base}.ts`, path.join(base, 'index.ts'), base]) {
		if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
	}
	throw new Error(`${path.relative(SANDBOX, from)}: cannot resolve import '${spec}'`);
}

/** One import cycle of the graph as a path that ends where it starts, or undefined. */
export function findCycle(graph: Map<string, string[]>): string[] | undefined {
	const state = new Map<string, 'open' | 'done'>();
	const stack: string[] = [];
	const visit = (node: string): string[] | undefined => {
		if (state.get(node) === 'done') return undefined;
		if (state.get(node) === 'open') return [...stack.slice(stack.indexOf(node)), node];
		state.set(node, 'open');
		stack.push(node);
		for (const next of graph.get(node) ?? []) {
			const cycle = visit(next);
			if (cycle) return cycle;
		}
		stack.pop();
		state.set(node, 'done');
		return undefined;
	};
	for (const node of graph.keys()) {
		const cycle = visit(node);
		if (cycle) return cycle;
	}
	return undefined;
}

describe('the parser and the cycle finder', () => {
	test('read every form of import and export', () => {
		const source = [
			"import { a } from './a';",
			'import {',
			'\ttype B,',
			'\tc,',
			"} from '../b';",
			"import type { D } from './d';",
			"export * from './e';",
			"export { f } from './f';",
			"import './g';",
			"const h = require('./h');",
			"const url = 'https://example.com/x from y'; // import { z } from './not-an-import'",
		].join('\n');
		expect(importSpecifiers(source)).toEqual(['./a', '../b', './d', './e', './f', './g', './h']);
	});

	test('find a cycle, and none where there is none', () => {
		expect(findCycle(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']]]))).toEqual(['a', 'b', 'c', 'a']);
		expect(findCycle(new Map([['a', ['b', 'c']], ['b', ['c']], ['c', []]]))).toBeUndefined();
	});
});

describe('sandbox/', () => {
	const files = sourceFiles(SANDBOX);

	test(`no file has more than ${MAX_LINES} lines`, () => {
		const long = files
			.map((f) => ({ file: path.relative(SANDBOX, f), lines: fs.readFileSync(f, 'utf8').replace(/\n$/, '').split('\n').length }))
			.filter((f) => f.lines > MAX_LINES);
		expect(long).toEqual([]);
	});

	const graph = new Map<string, string[]>();
	for (const file of files) {
		const targets = importSpecifiers(fs.readFileSync(file, 'utf8'))
			.map((spec) => resolve(file, spec))
			.filter((t): t is string => t !== undefined && t.startsWith(SANDBOX + path.sep));
		graph.set(path.relative(SANDBOX, file).split(path.sep).join('/'), targets.map((t) => path.relative(SANDBOX, t).split(path.sep).join('/')));
	}

	test('no import cycle', () => {
		expect(graph.size).toBeGreaterThan(50);
		expect(findCycle(graph)).toBeUndefined();
	});

	test("core/ imports no resource; only resources/index.ts imports a resource's index.ts", () => {
		const wrong = [...graph].flatMap(([from, targets]) =>
			targets
				.filter((to) => (from.startsWith('core/') && to.startsWith('resources/')) || (/^resources\/[^/]+\/index\.ts$/.test(to) && from !== 'resources/index.ts'))
				.map((to) => `${from} -> ${to}`),
		);
		expect(wrong).toEqual([]);
	});
});
