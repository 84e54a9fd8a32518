/**
 * The shape tests' reading of the source: files, their relative imports (read with a small parser of our own) and
 * import cycles. Used by test/sandbox/shape.test.ts and test/unit/nodeShape.test.ts.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Every `.ts` file below `dir`. */
export function sourceFiles(dir: string, ends: RegExp = /\.ts$/): string[] {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
		const p = path.join(dir, e.name);
		if (e.isDirectory()) return e.name === 'node_modules' ? [] : sourceFiles(p, ends);
		return ends.test(e.name) ? [p] : [];
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
export function resolveImport(from: string, spec: string, root: string): string | undefined {
	if (!spec.startsWith('.')) return undefined;
	const base = path.resolve(path.dirname(from), spec);
	for (const candidate of [`${base}.ts`, `${base}.js`, path.join(base, 'index.ts'), path.join(base, 'index.js'), base]) {
		if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
	}
	throw new Error(`${path.relative(root, from)}: cannot resolve import '${spec}'`);
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
