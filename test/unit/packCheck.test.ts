/**
 * The tarball allow-list of scripts/pack-check.js (.ci/run's "package" step), on made-up file lists: what it
 * lets through and each kind of file it refuses. The real list is checked by that step on every CI run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { checkFiles } = require('../../scripts/pack-check') as {
	checkFiles: (files: string[], opts: { pkg: unknown; read: (f: string) => string; exists: (f: string) => boolean }) => string[];
};

const ROOT = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

const node = 'dist/nodes/Lofty/Lofty.node.js';
const good = [
	'package.json',
	'README.md',
	'LICENSE',
	'index.js',
	...pkg.n8n.nodes,
	...pkg.n8n.credentials,
	'dist/credentials/common.js',
	'dist/nodes/Lofty/Lofty.node.json',
	'dist/icons/lofty.svg',
	'dist/icons/lofty.dark.svg',
];
const code: Record<string, string> = { [node]: "icon: { light: 'file:../../icons/lofty.svg', dark: 'file:../../icons/lofty.dark.svg' }" };
const check = (files: string[], read = (f: string) => code[f] ?? '') => checkFiles(files, { pkg, read, exists: (f) => existsSync(join(ROOT, f)) });

describe('tarball allow-list (scripts/pack-check.js)', () => {
	it('lets the compiled nodes, credentials, codex files, icons, README, LICENSE and package.json through', () => {
		expect(check(good)).toEqual([]);
	});

	it.each([
		['a source map', 'dist/nodes/Lofty/Lofty.node.js.map'],
		['a type declaration', 'dist/nodes/Lofty/Lofty.node.d.ts'],
		['a TypeScript source', 'nodes/Lofty/Lofty.node.ts'],
		['a test', 'test/node/lead.test.ts'],
		['the sandbox', 'dist/sandbox/server.js'],
		['a tarball', 'n8n-nodes-lofty-0.1.0.tgz'],
	])('refuses %s', (_what, file) => {
		expect(check([...good, file])).toEqual([`${file}: not on the allow-list (scripts/pack-check.js)`]);
	});

	it('refuses compiled output whose source is gone (a stale build)', () => {
		expect(check([...good, 'dist/nodes/Lofty/resources/removed.js'])).toEqual([
			'dist/nodes/Lofty/resources/removed.js: built from nodes/Lofty/resources/removed.ts, which does not exist (stale build output: npm run build)',
		]);
	});

	it('requires every file of the "n8n" section, and the icons the code points at', () => {
		const withoutTrigger = good.filter((f) => f !== 'dist/nodes/LoftyTrigger/LoftyTrigger.node.js' && f !== 'dist/icons/lofty.dark.svg');
		expect(check(withoutTrigger)).toEqual([
			'dist/nodes/LoftyTrigger/LoftyTrigger.node.js: required (package.json "main"/"n8n", README, LICENSE) but not in the tarball',
			`${node}: points at file:../../icons/lofty.dark.svg (dist/icons/lofty.dark.svg), which is not in the tarball`,
		]);
	});
});
