#!/usr/bin/env node
/**
 * What the npm tarball holds (`npm run pack:check`; the "package" step of .ci/run).
 *
 *  1. The file list of `npm pack --dry-run --json`, against the allow-list below: what n8n loads (the compiled
 *     nodes and credentials, the nodes' codex .node.json files, the icons) and what npm shows (package.json,
 *     README.md, LICENSE, the `main` file). Every dist/ file must come from a source in the repository, so the
 *     output of a deleted source fails too. No tests, sandbox, TypeScript, declarations or source maps.
 *  2. What must be there: every file of package.json's "n8n" section, the `main` file, and every icon the
 *     compiled code points at with `file:`.
 *  3. With `--out DIR`: packs for real into DIR (emptied first), checks that the tarball holds exactly the
 *     checked list, and writes `<tarball>.json` beside it (npm's pack entry plus sha256). The smoke and e2e
 *     harnesses install that file when LOFTY_PACKAGE_TARBALL names it; the release workflow publishes it.
 *
 * Needs `npm run build` first. Plain Node.js, no dependencies.
 */
'use strict';

const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const ROOT = path.resolve(__dirname, '..');

const fromDist = (f) => f.replace(/^dist\//, '');

/** The allow-list: each published file matches one entry; `source` names the repository file it is built from. */
const ALLOWED = [
	{ pattern: /^package\.json$/ },
	{ pattern: /^README\.md$/ },
	{ pattern: /^LICENSE$/ },
	{ pattern: /^index\.js$/ },
	{ pattern: /^dist\/(nodes|credentials)\/[\w./-]+\.js$/, source: (f) => fromDist(f).replace(/\.js$/, '.ts') },
	{ pattern: /^dist\/nodes\/[\w./-]+\.node\.json$/, source: fromDist },
	{ pattern: /^dist\/icons\/[\w.-]+\.svg$/, source: fromDist },
];

/**
 * Problems with a file list (paths relative to the package root). `read(file)` returns a listed file's text
 * (for the icon references), `exists(file)` whether a repository file exists.
 */
function checkFiles(files, { pkg, read, exists }) {
	const problems = [];
	const listed = new Set(files);
	for (const file of files) {
		const rule = ALLOWED.find((r) => r.pattern.test(file));
		if (!rule) problems.push(`${file}: not on the allow-list (scripts/pack-check.js)`);
		else if (rule.source && !exists(rule.source(file))) problems.push(`${file}: built from ${rule.source(file)}, which does not exist (stale build output: npm run build)`);
	}
	const required = ['package.json', 'README.md', 'LICENSE', pkg.main, ...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])].filter(Boolean);
	for (const file of required) if (!listed.has(file)) problems.push(`${file}: required (package.json "main"/"n8n", README, LICENSE) but not in the tarball`);
	for (const file of files.filter((f) => f.endsWith('.js'))) {
		for (const m of read(file).matchAll(/["'`]file:([^"'`]+)["'`]/g)) {
			const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1]));
			if (!listed.has(target)) problems.push(`${file}: points at file:${m[1]} (${target}), which is not in the tarball`);
		}
	}
	return problems;
}

function npmPack(args) {
	const r = spawnSync('npm', ['pack', '--ignore-scripts', '--json', ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26 });
	if (r.status !== 0) throw new Error(`npm pack ${args.join(' ')} failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
	return JSON.parse(r.stdout.slice(r.stdout.indexOf('[')))[0];
}

function listTarball(tarball) {
	const r = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8', maxBuffer: 1 << 26 });
	if (r.status !== 0) throw new Error(`tar -tzf ${tarball} failed: ${r.stderr}`);
	return r.stdout.split('\n').filter((l) => l && !l.endsWith('/')).map((l) => l.replace(/^package\//, '')).sort();
}

function main() {
	const outIndex = process.argv.indexOf('--out');
	const outDir = outIndex > 0 ? path.resolve(process.argv[outIndex + 1] ?? '') : null;
	// A tarball from an earlier run must not outlive a failed check.
	if (outDir) fs.rmSync(outDir, { recursive: true, force: true });
	const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
	const dry = npmPack(['--dry-run']);
	const files = dry.files.map((f) => f.path).sort();
	const problems = checkFiles(files, {
		pkg,
		read: (f) => fs.readFileSync(path.join(ROOT, f), 'utf8'),
		exists: (f) => fs.existsSync(path.join(ROOT, f)),
	});
	const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
	process.stdout.write(`npm pack --dry-run: ${dry.name}@${dry.version}, ${files.length} files, ${kb(dry.size)} packed, ${kb(dry.unpackedSize)} unpacked\n`);
	if (problems.length) {
		const shown = problems.slice(0, 40).map((p) => `  - ${p}`);
		if (problems.length > shown.length) shown.push(`  ... and ${problems.length - shown.length} more`);
		process.stdout.write(`❌ tarball file list: ${problems.length} problem(s)\n${shown.join('\n')}\n`);
		process.exit(1);
	}
	process.stdout.write('✅ every file is on the allow-list and built from a current source; the "n8n" entries, main and icons are there\n');
	if (!outDir) return;

	fs.mkdirSync(outDir, { recursive: true });
	const packed = npmPack(['--pack-destination', outDir]);
	const tarball = path.join(outDir, packed.filename);
	const inside = listTarball(tarball);
	if (JSON.stringify(inside) !== JSON.stringify(files)) {
		process.stdout.write(`❌ ${packed.filename} does not hold the checked list:\n  tarball: ${inside.join(', ')}\n  checked: ${files.join(', ')}\n`);
		process.exit(1);
	}
	const sha256 = crypto.createHash('sha256').update(fs.readFileSync(tarball)).digest('hex');
	fs.writeFileSync(`${tarball}.json`, `${JSON.stringify({ ...packed, sha256 }, null, 2)}\n`);
	process.stdout.write(`✅ packed ${path.relative(ROOT, tarball)} (sha256 ${sha256}); it holds exactly the checked list\n`);
}

module.exports = { ALLOWED, checkFiles };

if (require.main === module) {
	try {
		main();
	} catch (e) {
		process.stderr.write(`pack-check: ${e.stack || e.message}\n`);
		process.exit(1);
	}
}
