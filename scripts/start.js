#!/usr/bin/env node
/**
 * The one-command try-out (`npm start`): a real n8n on localhost with this package installed as a
 * community node, the Lofty sandbox API with demo data, a Lofty API credential pointing at the sandbox,
 * and the example workflows of examples/.
 *
 *   1. n8n 2.41.1 and Node 24 from the cache outside the repository (scripts/n8n-runtime.js; the first
 *      time on a machine this installs them: several minutes).
 *   2. `npm run build` when dist/ is older than the sources; `npm pack` and unpack into the n8n user
 *      folder (.tryout/.n8n/nodes/node_modules/n8n-nodes-lofty) when the build changed.
 *   3. The sandbox (`node .build/sandbox/cli.js`, port 4010 when free), built with tsc when stale.
 *   4. `n8n import:credentials` / `import:workflow` for what changed since the last run (the webhook
 *      example is published so its production URL answers), then `n8n start` with an owner account
 *      set through N8N_INSTANCE_OWNER_* variables.
 *   5. Prints the editor URL and the login; Ctrl-C stops n8n (and its task runner) and the sandbox.
 *
 * Its parts live in scripts/tryout/: config.js (flags, folders, names), logs.js, folder.js (state, claim,
 * fingerprint), http.js, owner.js (the owner's password hash), sandbox.js (what the sandbox prints),
 * credentials.js (OAuth2, then API key and MCP Bearer imports), examples.js (loading and importing the examples),
 * banner.js and verify.js (--verify). This file runs the steps in order and stops everything on exit.
 *
 * Options:
 *   --verify   after start-up, run the examples (n8n execute on a copy of the user folder, and two POSTs
 *              to the webhook), print the results and stop; exit code 1 when one fails
 *   --reset    delete the try-out folder first (a fresh n8n database)
 *   --verbose  stream n8n's and the sandbox's output (otherwise in <folder>/logs/)
 *   --queue    n8n's queue mode instead: Postgres, Redis, main, 2 workers, 2 webhook processes (scripts/start-queue.js)
 * Environment: LOFTY_TRYOUT_DIR (default <repo>/.tryout), LOFTY_TRYOUT_PORT (n8n, default 5678),
 *   LOFTY_SANDBOX_PORT (default 4010), LOFTY_N8N_VERSION (default 2.41.1),
 *   LOFTY_TRYOUT_EMAIL / LOFTY_TRYOUT_PASSWORD (the n8n login; defaults printed at start).
 */
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { ensureN8n, cleanEnv } = require('./n8n-runtime');
const H = require('./n8n-harness');
const {
	ARGS,
	VERIFY,
	VERBOSE,
	N8N_VERSION,
	DIR,
	USER_FOLDER,
	N8N_DIR,
	LOG_DIR,
	PID_FILE,
	PKG,
	NODE_FILE,
	CREDENTIAL,
	WEBHOOKS_FILE,
	IDS_FILE,
	OWNER,
	PUBLISH,
	WEBHOOK_PATH,
} = require('./tryout/config');
const { t0, log, tail, pipeToLog } = require('./tryout/logs');
const { readState, writeState, distFingerprint, claimFolder } = require('./tryout/folder');
const { httpRequest, waitReady } = require('./tryout/http');
const { bcryptHash } = require('./tryout/owner');
const { sandboxExtras } = require('./tryout/sandbox');
const { importCredentials } = require('./tryout/credentials');
const { loadExamples, importExamples } = require('./tryout/examples');
const { banner } = require('./tryout/banner');
const { checkLeadIntake, verify } = require('./tryout/verify');

const procs = new H.ProcessSet();
let stopping = null;
let server = null; // the `n8n start` child

async function main() {
	if (ARGS.has('--reset')) {
		log(`--reset: deleting ${DIR}`);
		fs.rmSync(DIR, { recursive: true, force: true });
	}
	claimFolder();
	fs.mkdirSync(LOG_DIR, { recursive: true });
	const state = readState();

	// 1. n8n and Node 24 (cached outside the repository)
	const rt = ensureN8n({ version: N8N_VERSION });
	log(`n8n ${rt.version} (${path.dirname(path.dirname(rt.n8nBin))})`);

	// 2. build, and install into the user folder when the build changed
	// The package build, then the sandbox's build, each only when stale (one after the other: side by side
	// was slower on a 2-core machine).
	await H.ensureBuild({ log, nodeFile: NODE_FILE });
	await H.ensureSandboxBuild({ log });
	const pkgDir = path.join(N8N_DIR, 'nodes', 'node_modules', PKG.name);
	const fingerprint = distFingerprint();
	if (state.installed !== fingerprint || !fs.existsSync(path.join(pkgDir, NODE_FILE))) {
		const packDir = path.join(DIR, 'pack');
		fs.rmSync(packDir, { recursive: true, force: true });
		const { tarball, info } = H.packPackage(packDir);
		H.installPackage({ tarball, userFolder: USER_FOLDER, packageName: PKG.name, version: info.version });
		const probe = H.probeInstalledNode({ rt, pkgDir, nodeFile: NODE_FILE });
		state.installed = fingerprint;
		writeState(state);
		log(`installed ${info.filename} (${info.files.length} files) as a community node; "${probe.name}" v${probe.version} loads with n8n's n8n-workflow ${probe.wfVersion}`);
	} else log('package unchanged since the last run: installed copy reused');

	// 3. sandbox (in memory: fresh demo data on every start; the webhook subscriptions n8n made are kept in
	//    WEBHOOKS_FILE, as Lofty keeps them: n8n started again with its database does not subscribe again; new records
	//    get IDs no earlier start handed out, counted in IDS_FILE)
	const sandboxPort = await H.freePort(Number(process.env.LOFTY_SANDBOX_PORT) || state.sandboxPort || 4010);
	const sandboxLog = path.join(LOG_DIR, 'sandbox.log');
	fs.writeFileSync(sandboxLog, '');
	if (!fs.existsSync(path.join(N8N_DIR, 'database.sqlite'))) fs.rmSync(WEBHOOKS_FILE, { force: true }); // a new n8n subscribes anew
	const sandbox = await H.startSandbox(procs, {
		env: { ...cleanEnv(), LOFTY_SANDBOX_WEBHOOKS_FILE: WEBHOOKS_FILE, LOFTY_SANDBOX_IDS_FILE: IDS_FILE },
		port: sandboxPort,
		onData: (d) => {
			fs.appendFileSync(sandboxLog, d);
			if (VERBOSE) process.stdout.write(d.replace(/^(?=.)/gm, '[sandbox] '));
		},
	});
	watchUnexpectedExit(sandbox.child, 'the sandbox', sandboxLog);
	// The KEY=value lines come in one write; wait for the last one (a slow pipe may split them).
	for (const until = Date.now() + 5000; !/^LOFTY_DEMO_USER_ID=/m.test(sandbox.output()) && Date.now() < until; ) await H.sleep(50);
	Object.assign(sandbox, sandboxExtras(sandbox.output()));
	log(`sandbox at ${sandbox.url}${sandbox.webhooksKept ? `; ${sandbox.webhooksKept}` : ''}`);

	// 4. n8n: imports of what changed, then start
	const ports = { http: await H.freePort(Number(process.env.LOFTY_TRYOUT_PORT) || 5678) };
	ports.broker = await H.freePort(ports.http === 5678 ? 5679 : undefined);
	if (ports.broker === ports.http) ports.broker = await H.freePort();
	if (!state.encryptionKey) state.encryptionKey = crypto.randomBytes(24).toString('hex');
	const env = H.n8nEnv({
		userFolder: USER_FOLDER,
		ports,
		version: N8N_VERSION,
		encryptionKey: state.encryptionKey,
		extra: { N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10' },
	});
	const n8n = async (args) => {
		const label = `n8n ${args[0]}`;
		const r = await procs.run(rt.nodeBin, [rt.n8nBin, ...args], { label, env, cwd: USER_FOLDER });
		if (r.code !== 0) H.fail(`${label} failed (exit ${r.code}${r.signal ? `, ${r.signal}` : ''}):\n${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`);
		log(`${label}: ok (${r.secs}s)`);
		return r;
	};

	if (!fs.existsSync(path.join(N8N_DIR, 'database.sqlite'))) state.imports = {};
	state.imports ??= {};
	const inputDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lofty-tryout-import-'));
	try {
		await importCredentials({ n8n, inputDir, sandbox, state });

		const { examples, skipped } = await importExamples({ n8n, inputDir, pkgDir, sandbox, state });
		state.sandboxPort = sandbox.port;
		writeState(state);

		// Owner account without the UI (2.41.x): applied by `n8n start` from these variables.
		const ownerEnv = {
			N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
			N8N_INSTANCE_OWNER_EMAIL: OWNER.email,
			N8N_INSTANCE_OWNER_FIRST_NAME: OWNER.firstName,
			N8N_INSTANCE_OWNER_LAST_NAME: OWNER.lastName,
			N8N_INSTANCE_OWNER_PASSWORD_HASH: bcryptHash(rt, OWNER.password, state),
		};
		writeState(state);
		const n8nLog = path.join(LOG_DIR, 'n8n.log');
		fs.writeFileSync(n8nLog, '');
		server = procs.start(rt.nodeBin, [rt.n8nBin, 'start'], { cwd: USER_FOLDER, env: { ...env, ...ownerEnv } });
		pipeToLog(server, n8nLog, '[n8n] ');
		log(`n8n starting on port ${ports.http} (log: ${path.relative(process.cwd(), n8nLog) || n8nLog})`);
		const base = `http://127.0.0.1:${ports.http}`;
		await waitReady(`${base}/healthz/readiness`, server, n8nLog);
		watchUnexpectedExit(server, 'n8n', n8nLog);

		const login = await httpRequest('POST', `${base}/rest/login`, { emailOrLdapLoginId: OWNER.email, password: OWNER.password });
		if (login.status !== 200) log(`warning: logging in as ${OWNER.email} answered ${login.status}: ${login.text.slice(0, 300)}`);

		banner({ base, sandbox, examples, skipped });
		if (VERIFY) {
			const ok = await verify({ procs, rt, base, env, ports, sandbox, examples });
			await shutdown(ok ? 0 : 1);
		}
	} finally {
		fs.rmSync(inputDir, { recursive: true, force: true });
	}
}

function watchUnexpectedExit(child, what, logFile) {
	child.on('exit', (code, signal) => {
		if (stopping) return;
		process.stderr.write(`\n[start] ${what} stopped unexpectedly (code ${code}, ${signal ?? 'no signal'}). Last lines of ${logFile}:\n${tail(logFile)}\n`);
		shutdown(1);
	});
}

async function shutdown(code) {
	if (stopping) return stopping;
	stopping = (async () => {
		process.stdout.write('\n[start] stopping n8n and the sandbox...\n');
		// n8n first: on shutdown it calls delete() of active triggers (a Lofty Trigger unsubscribes in the sandbox).
		if (server) await procs.stop(server, 20_000);
		const killed = await procs.stopAll(10_000);
		try {
			if (Number(fs.readFileSync(PID_FILE, 'utf8')) === process.pid) fs.rmSync(PID_FILE);
		} catch {
			/* not ours */
		}
		process.stdout.write(`[start] stopped${killed ? ` (${killed} process group(s) needed SIGKILL)` : ''}.\n`);
		process.exit(code);
	})();
	return stopping;
}

module.exports = { DIR, OWNER, CREDENTIAL, PUBLISH, WEBHOOK_PATH, N8N_VERSION, NODE_FILE, claimFolder, bcryptHash, httpRequest, loadExamples, checkLeadIntake };

if (require.main === module && ARGS.has('--queue')) {
	// n8n's queue mode: Postgres, Redis, main, workers, webhook processes (scripts/start-queue.js).
	require('./start-queue').run();
} else if (require.main === module) {
	let signals = 0;
	for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
		process.on(sig, () => {
			signals += 1;
			if (signals > 1) {
				// A second Ctrl-C: no more waiting.
				for (const g of procs.groups) H.killGroup(g, 'SIGKILL');
				process.exit(130);
			}
			shutdown(sig === 'SIGINT' ? 0 : 143);
		});
	}

	main().catch(async (e) => {
		process.stderr.write(`\n[start] FAILED after ${((Date.now() - t0) / 1000).toFixed(1)}s: ${e instanceof H.StepError ? e.message : e.stack}\n`);
		await shutdown(1);
	});
}