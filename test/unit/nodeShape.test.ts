/**
 * The node keeps the sandbox's shape (issue 31): a folder per resource under nodes/Lofty/resources/, named as in
 * sandbox/resources/, with the table in its index.ts; code outside a resource's folder reaches it only through that
 * index.ts; no source file of the repository is over MAX_LINES lines.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { findCycle, importSpecifiers, resolveImport, sourceFiles } from '../harness/sourceGraph';

const ROOT = path.resolve(__dirname, '../..');
const NODES = path.join(ROOT, 'nodes');
const RESOURCES = path.join(NODES, 'Lofty', 'resources');
const MAX_LINES = 420;

const folders = (dir: string) =>
	fs
		.readdirSync(dir, { withFileTypes: true })
		.filter((e) => e.isDirectory())
		.map((e) => e.name)
		.sort();

const posix = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');

describe('nodes/Lofty/resources/', () => {
	test('one folder per resource, named as in sandbox/resources/, each with its table in index.ts', () => {
		const node = folders(RESOURCES);
		expect(node).toEqual(folders(path.join(ROOT, 'sandbox', 'resources')));
		expect(node).toHaveLength(25);
		for (const name of node) expect(fs.existsSync(path.join(RESOURCES, name, 'index.ts'))).toBe(true);
		const loose = fs.readdirSync(RESOURCES, { withFileTypes: true }).filter((e) => e.isFile() && e.name !== 'index.ts');
		expect(loose.map((e) => e.name)).toEqual([]);
	});

	test("code outside a resource's folder imports only the folder's index.ts", () => {
		const wrong: string[] = [];
		for (const file of sourceFiles(NODES)) {
			for (const spec of importSpecifiers(fs.readFileSync(file, 'utf8'))) {
				const target = resolveImport(file, spec, ROOT);
				if (!target?.startsWith(RESOURCES + path.sep)) continue;
				const [folder, ...rest] = path.relative(RESOURCES, target).split(path.sep);
				if (rest.length === 0) continue;
				const inside = file.startsWith(path.join(RESOURCES, folder) + path.sep);
				if (!inside && rest.join('/') !== 'index.ts') wrong.push(`${posix(file)} -> ${posix(target)}`);
			}
		}
		expect(wrong).toEqual([]);
	});

	test('no import cycle between resource folders', () => {
		const graph = new Map<string, string[]>();
		for (const file of sourceFiles(RESOURCES)) {
			const from = path.relative(RESOURCES, file).split(path.sep)[0];
			const to = importSpecifiers(fs.readFileSync(file, 'utf8'))
				.map((spec) => resolveImport(file, spec, ROOT))
				.filter((t): t is string => t !== undefined && t.startsWith(RESOURCES + path.sep))
				.map((t) => path.relative(RESOURCES, t).split(path.sep)[0])
				.filter((folder) => folder !== from && folder !== 'index.ts');
			graph.set(from, [...new Set([...(graph.get(from) ?? []), ...to])]);
		}
		expect(findCycle(graph)).toBeUndefined();
	});
});

test(`no source file of the repository has more than ${MAX_LINES} lines`, () => {
	const dirs = ['nodes', 'credentials', 'sandbox', 'scripts', 'test', 'bench'].map((d) => path.join(ROOT, d));
	const long = dirs
		.flatMap((dir) => sourceFiles(dir, /\.(ts|js|mjs)$/))
		.map((f) => ({ file: posix(f), lines: fs.readFileSync(f, 'utf8').replace(/\n$/, '').split('\n').length }))
		.filter((f) => f.lines > MAX_LINES);
	expect(long).toEqual([]);
});
