/**
 * Shared pieces for running this package inside a real n8n, used by scripts/smoke-n8n.js
 * (`npm run test:smoke`) and scripts/start.js (`npm start`, the try-out):
 *
 *   - build freshness (mtime of outputs against their sources) and `npm run build` / the sandbox's tsc build
 *   - `npm pack` and unpacking the tarball into <userFolder>/.n8n/nodes/node_modules/<package>, the way a
 *     community-node install leaves it, plus a probe that the node loads with n8n's own n8n-workflow
 *   - child processes in their own process groups (n8n starts a task runner), with a cleanup that leaves none
 *   - the sandbox (`node .build/sandbox/cli.js`) and its KEY=value lines
 *   - the quiet, offline n8n environment and `n8n execute --rawOutput` parsing
 *
 * Plain Node.js, no dependencies.
 */
'use strict';

const fs = require('fs');
const os = require('os');
const net = require('net');
const path = require('path');
const { spawn, spawnSync } = require('child_process');
const { cleanEnv } = require('./n8n-runtime');

const ROOT = path.resolve(__dirname, '..');
const SANDBOX_CLI = '.build/sandbox/cli.js';
const SANDBOX_SOURCES = ['sandbox', 'nodes', 'credentials'];
const SANDBOX_PORT_ENV = 'LOFTY_SANDBOX_PORT';
const SANDBOX_URL_VAR = 'LOFTY_SANDBOX_URL'; // printed by the sandbox as KEY=value lines
const SANDBOX_KEY_VAR = 'LOFTY_API_KEY';
const BUILD_SOURCES = ['nodes', 'credentials', 'icons'];

/** A failed step: the message says what failed (no stack trace needed). */
class StepError extends Error {}

function fail(msg) {
	throw new StepError(msg);
}

function readPackageJson() {
	return JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
}

/** A free TCP port on 127.0.0.1; `preferred` first when it is free. */
function freePort(preferred) {
	const tryPort = (port) =>
		new Promise((resolve, reject) => {
			const srv = net.createServer();
			srv.unref();
			srv.on('error', reject);
			srv.listen(port, '127.0.0.1', () => {
				const got = srv.address().port;
				srv.close(() => resolve(got));
			});
		});
	if (preferred) return tryPort(preferred).catch(() => tryPort(0));
	return tryPort(0);
}

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

/**
 * `npm pack` into `destDir`: { tarball, info } (info: npm pack --json entry). When LOFTY_PACKAGE_TARBALL names a
 * tarball made by `scripts/pack-check.js --out` (CI and the release workflow), that very file is used instead,
 * so what the suites install is what gets published.
 */
function packPackage(destDir) {
	const given = process.env.LOFTY_PACKAGE_TARBALL;
	if (given) {
		const info = JSON.parse(fs.readFileSync(`${given}.json`, 'utf8'));
		if (info.version !== readPackageJson().version) fail(`LOFTY_PACKAGE_TARBALL ${given} is version ${info.version}, package.json says ${readPackageJson().version}`);
		return { tarball: path.resolve(given), info };
	}
	fs.mkdirSync(destDir, { recursive: true });
	const out = runNpm(['pack', '--ignore-scripts', '--json', '--pack-destination', destDir], 'npm pack');
	const info = JSON.parse(out.slice(out.indexOf('[')))[0];
	return { tarball: path.join(destDir, info.filename), info };
}

/**
 * Unpack the tarball at <userFolder>/.n8n/nodes/node_modules/<package> (replacing what was there), with
 * .n8n/nodes/package.json listing it, as n8n's community-node install leaves it. Returns the package folder.
 */
function installPackage({ tarball, userFolder, packageName, version }) {
	const pkg = readPackageJson();
	const runtimeDeps = Object.keys(pkg.dependencies ?? {});
	if (runtimeDeps.length) fail(`the package has runtime dependencies (${runtimeDeps.join(', ')}); community nodes must not`);
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const pkgDir = path.join(nodesDir, 'node_modules', packageName);
	fs.rmSync(pkgDir, { recursive: true, force: true });
	fs.mkdirSync(pkgDir, { recursive: true });
	runSync('tar', ['-xzf', tarball, '-C', pkgDir, '--strip-components=1'], 'tar -x');
	fs.writeFileSync(
		path.join(nodesDir, 'package.json'),
		JSON.stringify({ name: 'installed-nodes', private: true, dependencies: { [packageName]: version } }, null, 2),
	);
	if (fs.existsSync(path.join(pkgDir, 'node_modules'))) fail('the unpacked package carries its own node_modules');
	return pkgDir;
}

/**
 * Load the installed node file the way n8n does (n8n puts its own module paths on NODE_PATH before it
 * loads community packages, so n8n-workflow comes from n8n). Returns { wf, wfVersion, name, version }.
 */
function probeInstalledNode({ rt, pkgDir, nodeFile }) {
	const n8nPkgDir = path.dirname(path.dirname(rt.n8nBin));
	const n8nPaths = require('module')._nodeModulePaths(path.join(n8nPkgDir, 'dist'));
	const probe = spawnSync(
		rt.nodeBin,
		[
			'-e',
			`const wf = require.resolve('n8n-workflow');
			const mod = require(${JSON.stringify(path.join(pkgDir, nodeFile))});
			const Cls = Object.values(mod).find((v) => typeof v === 'function');
			const d = new Cls().description;
			console.log(JSON.stringify({ wf, wfVersion: require('n8n-workflow/package.json').version, name: d.name, version: d.version }));`,
		],
		{ cwd: os.tmpdir(), encoding: 'utf8', env: { ...cleanEnv(), NODE_PATH: n8nPaths.join(path.delimiter) } },
	);
	if (probe.status !== 0) fail(`the packed node does not load with n8n's module paths:\n${probe.stderr}`);
	const info = JSON.parse(probe.stdout.trim().split('\n').pop());
	if (!info.wf.startsWith(path.dirname(n8nPkgDir) + path.sep)) fail(`n8n-workflow resolved outside n8n: ${info.wf}`);
	return info;
}

/**
 * Child processes, each detached into its own process group so that a signal reaches its whole tree
 * (n8n starts a task runner) and a terminal's Ctrl-C reaches only the parent, which then stops them in order.
 */
class ProcessSet {
	constructor({ verbose = false } = {}) {
		this.verbose = verbose;
		this.children = new Set();
		this.groups = new Set();
	}

	start(cmd, args, opts) {
		const child = spawn(cmd, args, { ...opts, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
		this.children.add(child);
		if (child.pid) this.groups.add(child.pid);
		child.on('exit', () => this.children.delete(child));
		return child;
	}

	/** Run a command to completion (with a timeout) and collect its output: { code, signal, stdout, stderr, secs }. */
	run(cmd, args, { label, env, cwd = ROOT, timeoutMs = 300_000 }) {
		return new Promise((resolve, reject) => {
			const started = Date.now();
			const child = this.start(cmd, args, { cwd, env });
			let stdout = '';
			let stderr = '';
			child.stdout.on('data', (d) => {
				stdout += d;
				if (this.verbose) process.stdout.write(d);
			});
			child.stderr.on('data', (d) => {
				stderr += d;
				if (this.verbose) process.stderr.write(d);
			});
			const timer = setTimeout(() => {
				killTree(child, 'SIGKILL');
				reject(new StepError(`${label} timed out after ${timeoutMs / 1000}s\n${stdout.slice(-3000)}\n${stderr.slice(-3000)}`));
			}, timeoutMs);
			child.on('error', (e) => {
				clearTimeout(timer);
				reject(new StepError(`${label} could not start: ${e.message}`));
			});
			child.on('close', (code, signal) => {
				clearTimeout(timer);
				killGroup(child.pid, 'SIGTERM'); // leftovers of a finished command
				this.groups.delete(child.pid);
				const secs = ((Date.now() - started) / 1000).toFixed(1);
				resolve({ code, signal, stdout, stderr, secs });
			});
		});
	}

	/** Stop one child's process group: SIGTERM, then SIGKILL after `graceMs`. */
	async stop(child, graceMs = 10_000) {
		if (!child?.pid) return;
		killGroup(child.pid, 'SIGTERM');
		for (let waited = 0; waited < graceMs && killGroup(child.pid, 0); waited += 100) await sleep(100);
		killGroup(child.pid, 'SIGKILL');
		this.groups.delete(child.pid);
	}

	/** Stop everything started (SIGTERM, then SIGKILL after `graceMs`); resolves when no group is left. */
	async stopAll(graceMs = 10_000) {
		for (const c of this.children) killTree(c, 'SIGTERM');
		let alive = [...this.groups].filter((g) => killGroup(g, 'SIGTERM'));
		// Poll asynchronously so the event loop reaps exited children (a zombie still counts as alive).
		for (let waited = 0; waited < graceMs && alive.length; waited += 100) {
			await sleep(100);
			alive = alive.filter((g) => killGroup(g, 0));
		}
		for (const g of alive) killGroup(g, 'SIGKILL');
		for (let i = 0; i < 20 && alive.some((g) => killGroup(g, 0)); i++) await sleep(100);
		this.groups.clear();
		return alive.length; // groups that needed SIGKILL
	}
}

function sleep(ms) {
	return new Promise((r) => setTimeout(r, ms));
}

/** Kill a detached child and its whole process group. */
function killTree(child, signal = 'SIGTERM') {
	if (!child || child.exitCode !== null || child.signalCode !== null) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		try {
			child.kill(signal);
		} catch {
			/* gone */
		}
	}
}

/** Signal a whole process group (a leader that exited may leave e.g. n8n's task runner behind). */
function killGroup(pgid, signal) {
	try {
		process.kill(-pgid, signal);
		return true;
	} catch {
		return false; // no process left in the group
	}
}

/**
 * Start the sandbox (`node .build/sandbox/cli.js`) and wait for its URL and demo API key on stdout:
 * { child, port, url, apiKey, output() }. `onData(text)` sees everything it prints.
 */
async function startSandbox(procs, { env = cleanEnv(), port, onData } = {}) {
	const p = port ?? (await freePort());
	const child = procs.start(process.execPath, [path.join(ROOT, SANDBOX_CLI)], {
		cwd: ROOT,
		env: { ...env, [SANDBOX_PORT_ENV]: String(p) },
	});
	let out = '';
	let err = '';
	return new Promise((resolve, reject) => {
		let done = false;
		const timer = setTimeout(() => {
			done = true;
			reject(new StepError(`sandbox did not print its URL and API key within 20s. stdout:\n${out}\nstderr:\n${err}`));
		}, 20_000);
		const check = () => {
			if (done) return;
			// Contract: KEY=value lines (LOFTY_SANDBOX_URL=..., LOFTY_API_KEY=...); looser formats as a fallback.
			const url = out.match(new RegExp(`^${SANDBOX_URL_VAR}=(\\S+)`, 'm'))?.[1] ?? out.match(/https?:\/\/127\.0\.0\.1:\d+[^\s'"`,)]*/)?.[0];
			const key = out.match(new RegExp(`^${SANDBOX_KEY_VAR}=(\\S+)`, 'm'))?.[1] ?? parseApiKey(out);
			if (url && key) {
				done = true;
				clearTimeout(timer);
				resolve({ child, port: p, url: url.replace(/\/+$/, ''), apiKey: key, output: () => out + err });
			}
		};
		child.stdout.on('data', (d) => {
			out += d;
			onData?.(String(d));
			check();
		});
		child.stderr.on('data', (d) => {
			err += d;
			onData?.(String(d));
		});
		child.on('exit', (code) => {
			if (done) return;
			done = true;
			clearTimeout(timer);
			reject(new StepError(`sandbox exited early (code ${code}). stdout:\n${out}\nstderr:\n${err}`));
		});
	});
}

/** The demo key: a JSON field, or a line like "API key: xxx" / "apiKey=xxx". */
function parseApiKey(text) {
	for (const line of text.split('\n')) {
		try {
			const j = JSON.parse(line);
			const k = j.apiKey ?? j.api_key ?? j.demoApiKey ?? j.key;
			if (typeof k === 'string' && k) return k;
		} catch {
			/* not JSON */
		}
		const m = line.match(/api[ _-]?key\b[^:=]*[:=]\s*["'`]?([A-Za-z0-9._~+\/=-]{8,})/i);
		if (m) return m[1];
	}
	return null;
}

/**
 * n8n's environment: nothing n8n-related from the caller's environment, only local, quiet and offline
 * settings (see /work/shared/reference/n8n-runtime-notes.md). `extra` is merged last.
 */
function n8nEnv({ userFolder, ports, version, encryptionKey, extra = {} }) {
	const base = cleanEnv();
	for (const k of Object.keys(base)) if (/^(N8N_|DB_|EXECUTIONS_|QUEUE_|GENERIC_TIMEZONE)/.test(k)) delete base[k];
	const env = Object.assign(base, {
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: encryptionKey,
		N8N_HOST: '127.0.0.1',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_PORT: String(ports.http),
		N8N_RUNNERS_BROKER_PORT: String(ports.broker),
		N8N_WEBHOOK_URL: `http://127.0.0.1:${ports.http}/`,
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${ports.http}/`,
		N8N_SECURE_COOKIE: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
		N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
		N8N_AI_ENABLED: 'false',
		N8N_LOG_LEVEL: 'info',
		N8N_LOG_OUTPUT: 'console',
		DB_TYPE: 'sqlite',
	});
	// 2.8.x refuses to start with an unknown module name.
	if (/^2\.(4\d|[5-9]\d)\./.test(version)) env.N8N_DISABLED_MODULES = 'mcp-registry';
	return Object.assign(env, extra);
}

/** The JSON document `n8n execute --rawOutput` prints after its log lines: from the first line that is exactly "{". */
function parseRawOutput(stdout) {
	const lines = stdout.split('\n');
	const start = lines.findIndex((l) => l.trim() === '{');
	if (start < 0) return null;
	const end = lines.map((l) => l.trim()).lastIndexOf('}');
	try {
		return JSON.parse(lines.slice(start, end + 1).join('\n'));
	} catch {
		return null;
	}
}

/** The items a node output in an execution result: { items } or { error }. */
function itemsOf(result, nodeName, output = 0) {
	const runData = result?.data?.resultData?.runData ?? result?.resultData?.runData ?? result?.runData;
	if (!runData) return { error: `no runData in the result (keys: ${Object.keys(result ?? {}).join(', ')})` };
	const runs = runData[nodeName];
	if (!runs) return { error: `node "${nodeName}" did not run (ran: ${Object.keys(runData).join(', ')})` };
	const last = runs[runs.length - 1];
	if (last.error) return { error: `node "${nodeName}" failed: ${last.error.message ?? JSON.stringify(last.error)}` };
	return { items: last.data?.main?.[output] ?? [] };
}

module.exports = {
	ROOT,
	SANDBOX_CLI,
	StepError,
	fail,
	readPackageJson,
	freePort,
	newestMtime,
	isStale,
	runSync,
	runNpm,
	ensureBuild,
	ensureSandboxBuild,
	packPackage,
	installPackage,
	probeInstalledNode,
	ProcessSet,
	killGroup,
	killTree,
	sleep,
	startSandbox,
	parseApiKey,
	n8nEnv,
	parseRawOutput,
	itemsOf,
};
