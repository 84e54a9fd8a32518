/**
 * The sandbox keeps the node's shape: a folder per resource, no file over MAX_LINES lines, no import cycle
 * (type-only imports count too). The import statements are read with a small parser of our own.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { findCycle, importSpecifiers, resolveImport, sourceFiles } from '../harness/sourceGraph';

const SANDBOX = path.resolve(__dirname, '../../sandbox');
const MAX_LINES = 400;

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
			.map((spec) => resolveImport(file, spec, SANDBOX))
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
