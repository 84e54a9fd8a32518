/**
 * Build freshness and builds for the n8n harness (scripts/n8n-harness.js): mtime of outputs against their
 * sources, synchronous and asynchronous commands, npm of the running Node, `npm run build` and the sandbox's
 * tsc build.
 */
'use strict';

const fs = require('fs');
const path = require('path');
const { spawn, spawnSync } = require('child_process');
const { ROOT, SANDBOX_CLI, fail, readPackageJson } = require('./core');

const SANDBOX_SOURCES = ['sandbox', 'nodes', 'credentials'];
const BUILD_SOURCES = ['nodes', 'credentials', 'icons'];

function newestMtime(dirs) {
	let newest = 0;
	const walk = (p) => {
		let st;
		try {
			st = fs.statSync(p);
		} catch {
			return;
		}
		if (st.isDirectory()) {
			for (const e of fs.readdirSync(p)) if (e !== 'node_modules') walk(path.join(p, e));
		} else if (/\.(ts|json|svg|png)$/.test(p)) newest = Math.max(newest, st.mtimeMs);
	};
	for (const d of dirs) walk(path.join(ROOT, d));
	return newest;
}

/** Whether `output` (relative to the repository) is missing or older than any source under `sourceDirs`. */
function isStale(output, sourceDirs) {
	if (!fs.existsSync(path.join(ROOT, output))) return true;
	return fs.statSync(path.join(ROOT, output)).mtimeMs < newestMtime(sourceDirs);
}

function runSync(cmd, args, label, opts = {}) {
	const r = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 28, ...opts });
	if (r.error) fail(`${label} could not start: ${r.error.message}`);
	if (r.status !== 0) fail(`${label} failed (exit ${r.status}):\n${(r.stdout || '').slice(-4000)}\n${(r.stderr || '').slice(-4000)}`);
	return r.stdout;
}

/** npm of the Node that runs this script (works also outside `npm run`, where `npm` may not be on PATH). */
function npmCommand() {
	const cli = [
		path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
		path.join(path.dirname(process.execPath), 'node_modules', 'npm', 'bin', 'npm-cli.js'),
	].find((c) => fs.existsSync(c));
	return cli ? [process.execPath, [cli]] : ['npm', []];
}

function runNpm(args, label) {
	const [cmd, pre] = npmCommand();
	return runSync(cmd, [...pre, ...args], label);
}

/** Like runSync, without blocking the event loop (so two builds can run side by side): resolves { code, stdout, stderr }. */
function runAsync(cmd, args, opts = {}) {
	return new Promise((resolve, reject) => {
		const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], ...opts });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d) => (stdout += d));
		child.stderr.on('data', (d) => (stderr += d));
		child.on('error', reject);
		child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
	});
}

/**
 * `npm run build` when dist/ is missing or older than nodes/, credentials/ or icons/. Resolves whether it
 * built. Then checks every file of package.json's "n8n" section exists.
 */
async function ensureBuild({ log, nodeFile, force = false }) {
	let built = false;
	if (force || isStale(nodeFile, BUILD_SOURCES)) {
		log('dist/ missing or older than the sources: npm run build');
		const [cmd, pre] = npmCommand();
		const r = await runAsync(cmd, [...pre, 'run', 'build']);
		if (r.code !== 0) fail(`npm run build failed (exit ${r.code}):\n${r.stdout.slice(-4000)}\n${r.stderr.slice(-4000)}`);
		built = true;
	}
	const pkg = readPackageJson();
	for (const f of [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])])
		if (!fs.existsSync(path.join(ROOT, f))) fail(`${f} (package.json "n8n" section) does not exist after the build`);
	return built;
}

/**
 * The sandbox's JS (`tsc -p tsconfig.dev.json` into .build/) when missing or stale; resolves whether it
 * built. tsc still writes its output on type errors (e.g. a test being edited): then only a missing sandbox
 * CLI is fatal.
 */
async function ensureSandboxBuild({ log }) {
	if (!isStale(SANDBOX_CLI, SANDBOX_SOURCES)) return false;
	log(`${SANDBOX_CLI} missing or stale: tsc -p tsconfig.dev.json`);
	const tsc = require.resolve('typescript/bin/tsc', { paths: [ROOT] });
	const r = await runAsync(process.execPath, [tsc, '-p', 'tsconfig.dev.json']);
	if (r.code !== 0) {
		if (!fs.existsSync(path.join(ROOT, SANDBOX_CLI))) fail(`tsc -p tsconfig.dev.json failed (exit ${r.code}):\n${r.stdout.slice(-4000)}`);
		log(`tsc -p tsconfig.dev.json reported errors (output written anyway):\n${r.stdout.split('\n').slice(0, 10).join('\n')}`);
	}
	return true;
}

module.exports = { newestMtime, isStale, runSync, runNpm, runAsync, ensureBuild, ensureSandboxBuild };
