#!/usr/bin/env node
/**
 * Smoke test in a real n8n (`npm run test:smoke`).
 *
 *  1. n8n from the cache (scripts/n8n-runtime.js; installs once: 5-8 min and ~4.4 GB RAM on a new machine).
 *  2. `npm run build` if dist/ is missing or older than the sources; `npm pack` into a temp dir.
 *  3. A fresh n8n user folder with the tarball unpacked at .n8n/nodes/node_modules/<package>,
 *     as a community-node install leaves it, and .n8n/nodes/package.json listing it.
 *  4. The Lofty sandbox (`node .build/sandbox/cli.js`, compiled with tsconfig.dev.json when stale)
 *     on a free port; its URL and demo API key are read from its stdout.
 *  5. `n8n import:credentials` (loftyApi: {apiKey, baseUrl}), `n8n import:workflow`
 *     (Manual Trigger -> Lofty lead getAll, limit 5), `n8n execute --id --rawOutput`.
 *  6. Asserts the Lofty node returned exactly 5 items, each with a string `leadId`.
 *
 * Environment: LOFTY_N8N_VERSION (default 2.41.1; 2.8.4 runs on the system Node 20),
 * LOFTY_SMOKE_KEEP=1 keeps the temp folders, LOFTY_SMOKE_VERBOSE=1 streams n8n's output.
 * Exit 0 on success; non-zero with a message saying what failed.
 */
'use strict';

const fs = require('fs');
const os = require('os');
const net = require('net');
const path = require('path');
const crypto = require('crypto');
const { spawn, spawnSync } = require('child_process');
const { ensureN8n, cleanEnv } = require('./n8n-runtime');

// ---- names that may change while the node is written: keep them here ------------------------
const ROOT = path.resolve(__dirname, '..');
const PKG = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const PACKAGE_NAME = PKG.name; // n8n-nodes-lofty
const NODE_FILE = 'dist/nodes/Lofty/Lofty.node.js';
const NODE_TYPE = `${PACKAGE_NAME}.lofty`; // <package>.<description.name>
const NODE_TYPE_VERSION = 1;
const NODE_NAME = 'Lofty'; // node name in the workflow
const CREDENTIAL_TYPE = 'loftyApi';
const CREDENTIAL_ID = 'LoftySmokeCred01';
const CREDENTIAL_NAME = 'Lofty sandbox (smoke)';
const WORKFLOW_ID = 'LoftySmokeWf0001';
const TRIGGER_NAME = 'Manual Trigger';
const NODE_PARAMETERS = { authentication: 'apiKey', resource: 'lead', operation: 'getAll', returnAll: false, limit: 5 };
const EXPECTED_ITEMS = 5;
const ITEM_ID_FIELD = 'leadId';
const SANDBOX_CLI = '.build/sandbox/cli.js';
const SANDBOX_SOURCES = ['sandbox', 'nodes', 'credentials'];
const SANDBOX_PORT_ENV = 'LOFTY_SANDBOX_PORT';
const SANDBOX_URL_VAR = 'LOFTY_SANDBOX_URL'; // printed by the sandbox as KEY=value lines
const SANDBOX_KEY_VAR = 'LOFTY_API_KEY';
const N8N_VERSION = process.env.LOFTY_N8N_VERSION || '2.41.1';
const STEP_TIMEOUT_MS = 300_000; // per n8n command; normally 4-15 s, far more on a loaded machine
// -----------------------------------------------------------------------------------------------

const VERBOSE = process.env.LOFTY_SMOKE_VERBOSE === '1';
const KEEP = process.env.LOFTY_SMOKE_KEEP === '1';
const children = new Set();
const groups = new Set(); // process-group ids of everything started (detached children)
const tempDirs = [];
let interrupted = false;
const t0 = Date.now();

class SmokeError extends Error {}

function log(msg) {
	process.stdout.write(`[smoke +${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}\n`);
}

function fail(msg) {
	throw new SmokeError(msg);
}

function tempDir(prefix) {
	const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
	tempDirs.push(d);
	return d;
}

function freePort() {
	return new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.unref();
		srv.on('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = srv.address();
			srv.close(() => resolve(port));
		});
	});
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
		} else if (/\.(ts|json|svg)$/.test(p)) newest = Math.max(newest, st.mtimeMs);
	};
	for (const d of dirs) walk(path.join(ROOT, d));
	return newest;
}

function isStale(output, sourceDirs) {
	if (!fs.existsSync(path.join(ROOT, output))) return true;
	return fs.statSync(path.join(ROOT, output)).mtimeMs < newestMtime(sourceDirs);
}

function runSync(cmd, args, label, opts = {}) {
	const r = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 28, ...opts });
	if (r.status !== 0) fail(`${label} failed (exit ${r.status}):\n${(r.stdout || '').slice(-4000)}\n${(r.stderr || '').slice(-4000)}`);
	return r.stdout;
}

/** Kill a detached child and its whole process group (n8n starts a task runner). */
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

function startChild(cmd, args, opts) {
	const child = spawn(cmd, args, { ...opts, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
	children.add(child);
	if (child.pid) groups.add(child.pid);
	child.on('exit', () => children.delete(child));
	return child;
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


/** Run a command to completion (with a timeout) and collect its output. */
function runAsync(cmd, args, { label, env, cwd = ROOT, timeoutMs = STEP_TIMEOUT_MS }) {
	return new Promise((resolve, reject) => {
		const started = Date.now();
		const child = startChild(cmd, args, { cwd, env });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d) => {
			stdout += d;
			if (VERBOSE) process.stdout.write(d);
		});
		child.stderr.on('data', (d) => {
			stderr += d;
			if (VERBOSE) process.stderr.write(d);
		});
		const timer = setTimeout(() => {
			killTree(child, 'SIGKILL');
			reject(new SmokeError(`${label} timed out after ${timeoutMs / 1000}s\n${stdout.slice(-3000)}\n${stderr.slice(-3000)}`));
		}, timeoutMs);
		child.on('error', (e) => {
			clearTimeout(timer);
			reject(new SmokeError(`${label} could not start: ${e.message}`));
		});
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			killGroup(child.pid, 'SIGTERM'); // leftovers of a finished command
			const secs = ((Date.now() - started) / 1000).toFixed(1);
			resolve({ code, signal, stdout, stderr, secs });
		});
	});
}

/** Start the sandbox and wait for its URL and demo API key on stdout. */
async function startSandbox(nodeEnv) {
	const port = await freePort();
	const child = startChild(process.execPath, [path.join(ROOT, SANDBOX_CLI)], {
		cwd: ROOT,
		env: { ...nodeEnv, [SANDBOX_PORT_ENV]: String(port) },
	});
	let out = '';
	let err = '';
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => {
			reject(new SmokeError(`sandbox did not print its URL and API key within 20s. stdout:\n${out}\nstderr:\n${err}`));
		}, 20_000);
		const check = () => {
			// Contract: KEY=value lines (LOFTY_SANDBOX_URL=..., LOFTY_API_KEY=...); looser formats as a fallback.
			const url = out.match(new RegExp(`^${SANDBOX_URL_VAR}=(\\S+)`, 'm'))?.[1] ?? out.match(/https?:\/\/127\.0\.0\.1:\d+[^\s'"`,)]*/)?.[0];
			const key = out.match(new RegExp(`^${SANDBOX_KEY_VAR}=(\\S+)`, 'm'))?.[1] ?? parseApiKey(out);
			if (url && key) {
				clearTimeout(timer);
				resolve({ child, port, url: url.replace(/\/+$/, ''), apiKey: key, output: () => out + err });
			}
		};
		child.stdout.on('data', (d) => {
			out += d;
			if (VERBOSE) process.stdout.write(`[sandbox] ${d}`);
			check();
		});
		child.stderr.on('data', (d) => {
			err += d;
			if (VERBOSE) process.stderr.write(`[sandbox] ${d}`);
		});
		child.on('exit', (code) => {
			clearTimeout(timer);
			reject(new SmokeError(`sandbox exited early (code ${code}). stdout:\n${out}\nstderr:\n${err}`));
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

function n8nEnv(userFolder, ports) {
	// Nothing n8n-related from the caller's environment: only the settings below.
	const base = cleanEnv();
	for (const k of Object.keys(base)) if (/^(N8N_|DB_|EXECUTIONS_|QUEUE_|GENERIC_TIMEZONE)/.test(k)) delete base[k];
	const env = Object.assign(base, {
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: crypto.randomBytes(24).toString('hex'),
		N8N_HOST: '127.0.0.1',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_PORT: String(ports.http),
		N8N_RUNNERS_BROKER_PORT: String(ports.broker),
		N8N_WEBHOOK_URL: `http://127.0.0.1:${ports.http}/`,
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
	if (/^2\.(4\d|[5-9]\d)\./.test(N8N_VERSION)) env.N8N_DISABLED_MODULES = 'mcp-registry';
	return env;
}

function workflowJson(credName) {
	return {
		id: WORKFLOW_ID,
		name: 'Lofty smoke: list 5 leads',
		active: false,
		nodes: [
			{
				id: crypto.randomUUID(),
				name: TRIGGER_NAME,
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: crypto.randomUUID(),
				name: NODE_NAME,
				type: NODE_TYPE,
				typeVersion: NODE_TYPE_VERSION,
				position: [240, 0],
				parameters: NODE_PARAMETERS,
				credentials: { [CREDENTIAL_TYPE]: { id: CREDENTIAL_ID, name: credName } },
			},
		],
		connections: { [TRIGGER_NAME]: { main: [[{ node: NODE_NAME, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}

/** The JSON document n8n prints after its log lines: from the first line that is exactly "{". */
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

function itemsOf(result, nodeName) {
	const runData = result?.data?.resultData?.runData ?? result?.resultData?.runData ?? result?.runData;
	if (!runData) return { error: `no runData in the result (keys: ${Object.keys(result ?? {}).join(', ')})` };
	const runs = runData[nodeName];
	if (!runs) return { error: `node "${nodeName}" did not run (ran: ${Object.keys(runData).join(', ')})` };
	const last = runs[runs.length - 1];
	if (last.error) return { error: `node "${nodeName}" failed: ${last.error.message ?? JSON.stringify(last.error)}` };
	return { items: last.data?.main?.[0] ?? [] };
}

async function main() {
	// 1. n8n
	const rt = ensureN8n({ version: N8N_VERSION });
	log(`n8n ${rt.version} on ${spawnSync(rt.nodeBin, ['--version'], { encoding: 'utf8' }).stdout.trim()} (${path.dirname(path.dirname(rt.n8nBin))})`);

	// 2. build + pack
	if (isStale(NODE_FILE, ['nodes', 'credentials'])) {
		log('dist/ missing or older than the sources: npm run build');
		runSync('npm', ['run', 'build'], 'npm run build');
	}
	for (const f of [...(PKG.n8n?.nodes ?? []), ...(PKG.n8n?.credentials ?? [])])
		if (!fs.existsSync(path.join(ROOT, f))) fail(`${f} (package.json "n8n" section) does not exist after the build`);
	const packDir = tempDir('lofty-smoke-pack-');
	const packOut = runSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', packDir], 'npm pack');
	const packInfo = JSON.parse(packOut.slice(packOut.indexOf('[')))[0];
	const tarball = path.join(packDir, packInfo.filename);
	log(`packed ${packInfo.filename} (${packInfo.files.length} files, ${(packInfo.size / 1024).toFixed(1)} kB)`);

	// 3. fresh user folder with the package installed as a community node
	const userFolder = tempDir('lofty-smoke-n8n-');
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const pkgDir = path.join(nodesDir, 'node_modules', PACKAGE_NAME);
	fs.mkdirSync(pkgDir, { recursive: true });
	runSync('tar', ['-xzf', tarball, '-C', pkgDir, '--strip-components=1'], 'tar -x');
	fs.writeFileSync(
		path.join(nodesDir, 'package.json'),
		JSON.stringify({ name: 'installed-nodes', private: true, dependencies: { [PACKAGE_NAME]: packInfo.version } }, null, 2),
	);
	const runtimeDeps = Object.keys(PKG.dependencies ?? {});
	if (runtimeDeps.length) fail(`the package has runtime dependencies (${runtimeDeps.join(', ')}); community nodes must not`);
	if (fs.existsSync(path.join(pkgDir, 'node_modules'))) fail('the unpacked package carries its own node_modules');
	// n8n-workflow must come from n8n itself. n8n puts its own module paths on NODE_PATH before it
	// loads community packages (load-nodes-and-credentials.js); do the same and load the node file.
	const n8nPkgDir = path.dirname(path.dirname(rt.n8nBin));
	const n8nPaths = require('module')._nodeModulePaths(path.join(n8nPkgDir, 'dist'));
	const probe = spawnSync(
		rt.nodeBin,
		[
			'-e',
			`const wf = require.resolve('n8n-workflow');
			const mod = require(${JSON.stringify(path.join(pkgDir, NODE_FILE))});
			const Cls = Object.values(mod).find((v) => typeof v === 'function');
			const d = new Cls().description;
			console.log(JSON.stringify({ wf, wfVersion: require('n8n-workflow/package.json').version, name: d.name, version: d.version }));`,
		],
		{ cwd: os.tmpdir(), encoding: 'utf8', env: { ...cleanEnv(), NODE_PATH: n8nPaths.join(path.delimiter) } },
	);
	if (probe.status !== 0) fail(`the packed node does not load with n8n's module paths:\n${probe.stderr}`);
	const info = JSON.parse(probe.stdout.trim().split('\n').pop());
	if (!info.wf.startsWith(path.dirname(n8nPkgDir) + path.sep)) fail(`n8n-workflow resolved outside n8n: ${info.wf}`);
	if (`${PACKAGE_NAME}.${info.name}` !== NODE_TYPE) fail(`the node's description.name is "${info.name}", expected type ${NODE_TYPE}`);
	log(`installed at ${path.relative(userFolder, pkgDir)}; node "${info.name}" v${info.version} loads with n8n-workflow ${info.wfVersion} from n8n`);

	// 4. sandbox
	if (isStale(SANDBOX_CLI, SANDBOX_SOURCES)) {
		log(`${SANDBOX_CLI} missing or stale: tsc -p tsconfig.dev.json`);
		runSync(process.execPath, [require.resolve('typescript/bin/tsc', { paths: [ROOT] }), '-p', 'tsconfig.dev.json'], 'tsc -p tsconfig.dev.json');
	}
	const sandbox = await startSandbox(cleanEnv());
	log(`sandbox at ${sandbox.url} (API key ${sandbox.apiKey.slice(0, 4)}…)`);

	// 5. import + execute
	const ports = { http: await freePort(), broker: await freePort() };
	const env = n8nEnv(userFolder, ports);
	const n8n = (args, label, timeoutMs) => runAsync(rt.nodeBin, [rt.n8nBin, ...args], { label, env, cwd: userFolder, timeoutMs });
	const inputDir = tempDir('lofty-smoke-input-');
	const credFile = path.join(inputDir, 'credentials.json');
	fs.writeFileSync(
		credFile,
		JSON.stringify([{ id: CREDENTIAL_ID, name: CREDENTIAL_NAME, type: CREDENTIAL_TYPE, data: { apiKey: sandbox.apiKey, baseUrl: sandbox.url } }], null, 2),
	);
	const wfDir = path.join(inputDir, 'workflows');
	fs.mkdirSync(wfDir);
	fs.writeFileSync(path.join(wfDir, `${WORKFLOW_ID}.json`), JSON.stringify(workflowJson(CREDENTIAL_NAME), null, 2));

	const check = (r, label) => {
		if (r.code !== 0) fail(`${label} failed (exit ${r.code}${r.signal ? `, ${r.signal}` : ''}):\n${r.stdout.slice(-4000)}\n${r.stderr.slice(-4000)}`);
		log(`${label}: ok (${r.secs}s)`);
	};
	check(await n8n(['import:credentials', `--input=${credFile}`], 'n8n import:credentials'), 'n8n import:credentials');
	check(await n8n(['import:workflow', '--separate', `--input=${wfDir}`], 'n8n import:workflow'), 'n8n import:workflow');

	const ex = await n8n(['execute', `--id=${WORKFLOW_ID}`, '--rawOutput'], 'n8n execute');
	const result = parseRawOutput(ex.stdout);
	const context = () => `\n--- n8n stdout (tail) ---\n${ex.stdout.slice(-4000)}\n--- n8n stderr (tail) ---\n${ex.stderr.slice(-4000)}\n--- sandbox (tail) ---\n${sandbox.output().slice(-2000)}`;
	if (!result) fail(`n8n execute (exit ${ex.code}) printed no JSON result${context()}`);
	const { items, error } = itemsOf(result, NODE_NAME);
	if (error) fail(`${error}${context()}`);
	if (ex.code !== 0) fail(`n8n execute exited ${ex.code}${context()}`);
	log(`n8n execute: ok (${ex.secs}s)`);

	// 6. assertions
	if (items.length !== EXPECTED_ITEMS) fail(`expected ${EXPECTED_ITEMS} items from "${NODE_NAME}", got ${items.length}: ${JSON.stringify(items).slice(0, 1500)}`);
	const bad = items.filter((it) => typeof it?.json?.[ITEM_ID_FIELD] !== 'string' || it.json[ITEM_ID_FIELD] === '');
	if (bad.length) fail(`${bad.length} of ${items.length} items lack a string "${ITEM_ID_FIELD}": ${JSON.stringify(bad[0]).slice(0, 1000)}`);
	return items.map((it) => it.json[ITEM_ID_FIELD]);
}

async function cleanup() {
	for (const c of children) killTree(c, 'SIGTERM');
	let alive = [...groups].filter((g) => killGroup(g, 'SIGTERM'));
	// Poll asynchronously so the event loop reaps exited children (a zombie still counts as alive).
	for (let i = 0; i < 100 && alive.length; i++) {
		await new Promise((r) => setTimeout(r, 100));
		alive = alive.filter((g) => killGroup(g, 0));
	}
	for (const g of alive) killGroup(g, 'SIGKILL');
	if (!KEEP) for (const d of tempDirs) fs.rmSync(d, { recursive: true, force: true });
	else if (tempDirs.length) log(`kept: ${tempDirs.join(' ')}`);
}

for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
	process.on(sig, () => {
		interrupted = true;
		process.stderr.write(`smoke: interrupted (${sig}), cleaning up\n`);
		cleanup().finally(() => process.exit(130));
	});
}

main().then(
	async (ids) => {
		await cleanup();
		const secs = ((Date.now() - t0) / 1000).toFixed(1);
		process.stdout.write(`SMOKE PASS: n8n ${N8N_VERSION} ran ${NODE_TYPE} lead getAll -> ${ids.length} items (${ITEM_ID_FIELD}s ${ids.join(', ')}) in ${secs}s\n`);
		process.exit(0);
	},
	async (e) => {
		if (interrupted) return; // the signal handler cleans up and exits
		await cleanup();
		const secs = ((Date.now() - t0) / 1000).toFixed(1);
		process.stderr.write(`SMOKE FAIL after ${secs}s: ${e instanceof SmokeError ? e.message : e.stack}\n`);
		process.exit(1);
	},
);
