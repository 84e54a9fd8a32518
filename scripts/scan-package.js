#!/usr/bin/env node
/**
 * Offline run of n8n's community-package scanner (@n8n/scan-community-package), as `npm run lint:scan`.
 *
 * The published CLI (`npx @n8n/scan-community-package <name>`) needs the npm registry's provenance
 * attestations and GitHub, so it cannot run here. It then runs two passes of its exported
 * `analyzePackage()`; this script runs the same two passes against the local package:
 *   1. source leg: the repository itself, with the scanner's SOURCE_FILE_PATTERNS
 *      (package.json and {nodes,credentials}/**\/*.{js,ts,json});
 *   2. tarball leg: the `npm pack` output of the built package (or the tarball LOFTY_PACKAGE_TARBALL names),
 *      unpacked, with ['**\/*.js', 'package.json'].
 * Exits non-zero on any finding (the scanner reports errors only; warnings do not fail it).
 *
 * Needs `npm run build` first (dist/ goes into the tarball); builds it if dist/ is missing.
 * Options: --no-pack  skip the tarball leg (source only).
 */
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { pathToFileURL } = require('url');

const ROOT = path.resolve(__dirname, '..');

function npm(args, opts = {}) {
	const r = spawnSync('npm', args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26, ...opts });
	if (r.status !== 0) throw new Error(`npm ${args.join(' ')} failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
	return r.stdout;
}

/** npm pack into a temp dir and unpack it the way npm installs it. Returns the package folder. */
function packAndUnpack(tmp) {
	const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
	for (const entry of Object.values(pkg.n8n?.nodes ?? []).concat(pkg.n8n?.credentials ?? [])) {
		if (!fs.existsSync(path.join(ROOT, entry))) {
			process.stdout.write(`${entry} missing: running npm run build\n`);
			npm(['run', 'build'], { stdio: 'inherit', encoding: undefined });
			break;
		}
	}
	// The tarball .ci/run's "package" step made (LOFTY_PACKAGE_TARBALL), else a fresh `npm pack`.
	const given = process.env.LOFTY_PACKAGE_TARBALL;
	let info;
	let tarball;
	if (given) {
		info = [JSON.parse(fs.readFileSync(`${given}.json`, 'utf8'))];
		tarball = path.resolve(given);
	} else {
		const out = npm(['pack', '--ignore-scripts', '--json', '--pack-destination', tmp]);
		info = JSON.parse(out.slice(out.indexOf('[')));
		tarball = path.join(tmp, info[0].filename);
	}
	const dir = path.join(tmp, 'package');
	fs.mkdirSync(dir, { recursive: true });
	const t = spawnSync('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1'], { encoding: 'utf8' });
	if (t.status !== 0) throw new Error(`tar failed: ${t.stderr}`);
	return { dir, files: info[0].files.length, name: `${info[0].name}@${info[0].version}` };
}

async function main() {
	const t0 = Date.now();
	const scannerPath = require.resolve('@n8n/scan-community-package/scanner/scanner.mjs', { paths: [ROOT] });
	const scanner = await import(pathToFileURL(scannerPath).href);
	const { analyzePackage, SOURCE_FILE_PATTERNS } = scanner;
	const scanVersion = JSON.parse(fs.readFileSync(path.join(path.dirname(scannerPath), '..', 'package.json'), 'utf8')).version;

	const legs = [{ label: 'source (repository)', dir: ROOT, patterns: SOURCE_FILE_PATTERNS }];
	let tmp = null;
	if (!process.argv.includes('--no-pack')) {
		tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lofty-scan-'));
		const packed = packAndUnpack(tmp);
		legs.push({ label: `tarball (${packed.name}, ${packed.files} files)`, dir: packed.dir, patterns: ['**/*.js', 'package.json'] });
	}

	let failed = false;
	try {
		for (const leg of legs) {
			const result = await analyzePackage(leg.dir, leg.patterns);
			if (result.passed) {
				process.stdout.write(`✅ scan ${leg.label}: passed${result.message ? ` (${result.message})` : ''}\n`);
			} else {
				failed = true;
				process.stdout.write(`❌ scan ${leg.label}: ${result.message}\n`);
				if (result.details) process.stdout.write(`${result.details}\n`);
			}
		}
	} finally {
		if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
	}
	const secs = ((Date.now() - t0) / 1000).toFixed(1);
	process.stdout.write(`@n8n/scan-community-package ${scanVersion} analyzePackage(): ${failed ? 'FAILED' : 'passed'} in ${secs}s\n`);
	process.exit(failed ? 1 : 0);
}

main().catch((e) => {
	process.stderr.write(`scan-package: ${e.stack || e.message}\n`);
	process.exit(1);
});
