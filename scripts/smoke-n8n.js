#!/usr/bin/env node
/**
 * Smoke test in a real n8n (`npm run test:smoke`).
 *
 *  1. n8n from the cache (scripts/n8n-runtime.js; installs once: 5-8 min and ~4.4 GB RAM on a new machine).
 *  2. `npm run build` if dist/ is missing or older than the sources; `npm pack` into a temp dir (or the tarball
 *     LOFTY_PACKAGE_TARBALL names: .ci/run's "package" step packs once for smoke, e2e and publishing).
 *  3. A fresh n8n user folder with the tarball unpacked at .n8n/nodes/node_modules/<package>,
 *     as a community-node install leaves it, and .n8n/nodes/package.json listing it.
 *  4. The Lofty sandbox (`node .build/sandbox/cli.js`, compiled with tsconfig.dev.json when stale)
 *     on a free port; its URL and demo API key are read from its stdout.
 *  5. `n8n import:credentials` (loftyApi: {apiKey, baseUrl}), `n8n import:workflow`
 *     (Manual Trigger -> Lofty lead getAll, limit 5), `n8n execute --id --rawOutput`.
 *  6. Asserts the Lofty node returned exactly 5 items, each with a string `leadId`.
 *  7. Secret scan: nothing n8n printed and no file of its user folder (database, event log) holds the API key.
 *
 * Environment: LOFTY_N8N_VERSION (default 2.41.1; 2.8.4 runs on the system Node 20, 1.123.81 on Node 24),
 * LOFTY_SMOKE_KEEP=1 keeps the temp folders, LOFTY_SMOKE_VERBOSE=1 streams n8n's output.
 * Exit 0 on success; non-zero with a message saying what failed.
 */
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { spawnSync } = require('child_process');
const { ensureN8n, cleanEnv } = require('./n8n-runtime');
const H = require('./n8n-harness');
const { findSecrets, scanFiles, formatHits } = require('./secret-scan');

// ---- names that may change while the node is written: keep them here ------------------------
const ROOT = H.ROOT;
const PKG = H.readPackageJson();
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
const N8N_VERSION = process.env.LOFTY_N8N_VERSION || '2.41.1';
const STEP_TIMEOUT_MS = 300_000; // per n8n command; normally 4-15 s, far more on a loaded machine
// -----------------------------------------------------------------------------------------------

const VERBOSE = process.env.LOFTY_SMOKE_VERBOSE === '1';
const KEEP = process.env.LOFTY_SMOKE_KEEP === '1';
const procs = new H.ProcessSet({ verbose: VERBOSE });
const tempDirs = [];
let interrupted = false;
const t0 = Date.now();

const SmokeError = H.StepError;
const fail = H.fail;
const { freePort, parseRawOutput, itemsOf } = H;

function log(msg) {
	process.stdout.write(`[smoke +${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}\n`);
}

function tempDir(prefix) {
	const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
	tempDirs.push(d);
	return d;
}

function runAsync(cmd, args, { label, env, cwd = ROOT, timeoutMs = STEP_TIMEOUT_MS }) {
	return procs.run(cmd, args, { label, env, cwd, timeoutMs });
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

async function main() {
	// 1. n8n
	const rt = ensureN8n({ version: N8N_VERSION });
	log(`n8n ${rt.version} on ${spawnSync(rt.nodeBin, ['--version'], { encoding: 'utf8' }).stdout.trim()} (${path.dirname(path.dirname(rt.n8nBin))})`);

	// 2. build + pack
	await H.ensureBuild({ log, nodeFile: NODE_FILE });
	const { tarball, info: packInfo } = H.packPackage(tempDir('lofty-smoke-pack-'));
	const how = packInfo.sha256 ? `using LOFTY_PACKAGE_TARBALL ${packInfo.filename} (sha256 ${packInfo.sha256}, ` : `packed ${packInfo.filename} (`;
	log(`${how}${packInfo.files.length} files, ${(packInfo.size / 1024).toFixed(1)} kB)`);

	// 3. fresh user folder with the package installed as a community node
	const userFolder = tempDir('lofty-smoke-n8n-');
	const pkgDir = H.installPackage({ tarball, userFolder, packageName: PACKAGE_NAME, version: packInfo.version });
	// n8n-workflow must come from n8n itself. n8n puts its own module paths on NODE_PATH before it
	// loads community packages (load-nodes-and-credentials.js); do the same and load the node file.
	const info = H.probeInstalledNode({ rt, pkgDir, nodeFile: NODE_FILE });
	if (`${PACKAGE_NAME}.${info.name}` !== NODE_TYPE) fail(`the node's description.name is "${info.name}", expected type ${NODE_TYPE}`);
	log(`installed at ${path.relative(userFolder, pkgDir)}; node "${info.name}" v${info.version} loads with n8n-workflow ${info.wfVersion} from n8n`);

	// 4. sandbox
	await H.ensureSandboxBuild({ log });
	const sandbox = await H.startSandbox(procs, { env: cleanEnv(), onData: VERBOSE ? (d) => process.stdout.write(`[sandbox] ${d}`) : undefined });
	log(`sandbox at ${sandbox.url} (API key ${sandbox.apiKey.slice(0, 4)}…)`);

	// 5. import + execute
	const ports = { http: await freePort(), broker: await freePort() };
	const env = H.n8nEnv({ userFolder, ports, version: N8N_VERSION, encryptionKey: crypto.randomBytes(24).toString('hex') });
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
	const printed = [];
	const run = async (args, label) => {
		const r = await n8n(args, label);
		printed.push(...findSecrets(r.stdout, `${label} stdout`), ...findSecrets(r.stderr, `${label} stderr`));
		return r;
	};
	check(await run(['import:credentials', `--input=${credFile}`], 'n8n import:credentials'), 'n8n import:credentials');
	check(await run(['import:workflow', '--separate', `--input=${wfDir}`], 'n8n import:workflow'), 'n8n import:workflow');

	const ex = await run(['execute', `--id=${WORKFLOW_ID}`, '--rawOutput'], 'n8n execute');
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

	// 7. secret scan (the credential file it was imported from is outside the user folder)
	const stored = scanFiles([userFolder]);
	const hits = [...printed, ...stored.hits];
	if (hits.length) fail(`secrets in what n8n printed or stored:\n${formatHits(hits)}`);
	log(`secret scan: no secret in n8n's output or the ${stored.files} files of its user folder (${(stored.bytes / 1024 / 1024).toFixed(1)} MB)`);
	return items.map((it) => it.json[ITEM_ID_FIELD]);
}

async function cleanup() {
	await procs.stopAll(10_000);
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
