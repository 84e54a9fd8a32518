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
const http = require('http');
const crypto = require('crypto');
const { ensureN8n, cleanEnv } = require('./n8n-runtime');
const H = require('./n8n-harness');

const ROOT = H.ROOT;
const ARGS = new Set(process.argv.slice(2));
const VERIFY = ARGS.has('--verify');
const VERBOSE = ARGS.has('--verbose');
const N8N_VERSION = process.env.LOFTY_N8N_VERSION || '2.41.1';
const DIR = path.resolve(process.env.LOFTY_TRYOUT_DIR || path.join(ROOT, '.tryout'));
const USER_FOLDER = DIR; // n8n keeps its data in <DIR>/.n8n
const N8N_DIR = path.join(USER_FOLDER, '.n8n');
const LOG_DIR = path.join(DIR, 'logs');
const STATE_FILE = path.join(DIR, 'state.json');
const PID_FILE = path.join(DIR, 'start.pid');
const EXAMPLES_DIR = path.join(ROOT, 'examples');

const PKG = H.readPackageJson();
const NODE_FILE = 'dist/nodes/Lofty/Lofty.node.js';
const TRIGGER_FILE = 'dist/nodes/LoftyTrigger/LoftyTrigger.node.js';
const TRIGGER_TYPE = `${PKG.name}.loftyTrigger`;
const CREDENTIAL = { id: 'LoftySandboxCred', name: 'Lofty API (sandbox)', type: 'loftyApi' };
/** n8n's own Bearer Auth credential for the sandbox's tool server (MCP), the only kind n8n's MCP Client Tool takes. */
const MCP_CREDENTIAL = { id: 'LoftyToolServerCred', name: 'Lofty tool server (sandbox, Bearer)', type: 'httpBearerAuth' };
const MCP_PATH = '/mcp';
/**
 * OAuth2 credentials made ready for the sandbox's demo app, one per grant type, named for it (n8n would name each
 * new one "Lofty account", "Lofty account 2", ...). Client Credentials works at once; the other two need Connect.
 */
const OAUTH_CREDENTIALS = [
	{ id: 'LoftySandboxOAuthCC', name: 'Lofty OAuth2 (sandbox): Client Credentials', grantType: 'clientCredentials' },
	{ id: 'LoftySandboxOAuthCode', name: 'Lofty OAuth2 (sandbox): Authorization Code', grantType: 'authorizationCode' },
	{ id: 'LoftySandboxOAuthPkce', name: 'Lofty OAuth2 (sandbox): PKCE', grantType: 'pkce' },
];
/** The sandbox keeps the subscriptions n8n made in this file, so published triggers still fire after a restart. */
const WEBHOOKS_FILE = path.join(DIR, 'sandbox-webhooks.json');
const OWNER = {
	email: process.env.LOFTY_TRYOUT_EMAIL || 'demo@example.com',
	password: process.env.LOFTY_TRYOUT_PASSWORD || 'LoftyDemo1',
	firstName: 'Demo',
	lastName: 'Owner',
};
/** Examples published at start (their trigger is live): the web-form webhook. */
const PUBLISH = new Set(['LoftyExample0001']);
const WEBHOOK_PATH = 'lofty-lead-intake';

const procs = new H.ProcessSet();
const t0 = Date.now();
let stopping = null;
let server = null; // the `n8n start` child

function log(msg) {
	process.stdout.write(`[start +${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}\n`);
}

function readState() {
	try {
		return JSON.parse(fs.readFileSync(STATE_FILE, 'utf8'));
	} catch {
		return {};
	}
}

function writeState(state) {
	fs.writeFileSync(STATE_FILE, JSON.stringify(state, null, 2) + '\n');
}

function sha(text) {
	return crypto.createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** Fingerprint of what `npm pack` would ship: every dist/ file (path, size, mtime) and package.json. */
function distFingerprint() {
	const parts = [fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')];
	const walk = (p) => {
		for (const e of fs.readdirSync(p, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
			const f = path.join(p, e.name);
			if (e.isDirectory()) walk(f);
			else {
				const st = fs.statSync(f);
				parts.push(`${path.relative(ROOT, f)}:${st.size}:${st.mtimeMs}`);
			}
		}
	};
	walk(path.join(ROOT, 'dist'));
	return sha(parts.join('\n'));
}

/** Only one try-out per folder: n8n's SQLite database is not shared. */
function claimFolder(dir = DIR, pidFile = PID_FILE) {
	fs.mkdirSync(dir, { recursive: true });
	try {
		const pid = Number(fs.readFileSync(pidFile, 'utf8'));
		if (pid && pid !== process.pid) {
			process.kill(pid, 0);
			H.fail(`another try-out (pid ${pid}) is running in ${dir}; stop it first (Ctrl-C in its terminal)`);
		}
	} catch (e) {
		if (e instanceof H.StepError) throw e;
	}
	fs.writeFileSync(pidFile, String(process.pid));
}

function bcryptHash(rt, password, state) {
	if (state.owner?.email === OWNER.email && state.owner?.passwordSha === sha(password) && state.owner?.hash) return state.owner.hash;
	const n8nModules = path.dirname(path.dirname(path.dirname(rt.n8nBin))); // .../node_modules
	const bcrypt = require(require.resolve('bcryptjs', { paths: [n8nModules] }));
	const hash = bcrypt.hashSync(password, 10);
	state.owner = { email: OWNER.email, passwordSha: sha(password), hash };
	return hash;
}

function httpRequest(method, url, body, headers = {}) {
	return new Promise((resolve, reject) => {
		const data = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
		const req = http.request(
			url,
			{ method, headers: { ...(data !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } : {}), ...headers }, timeout: 60_000 },
			(res) => {
				let text = '';
				res.setEncoding('utf8');
				res.on('data', (d) => (text += d));
				res.on('end', () => {
					let json;
					try {
						json = JSON.parse(text);
					} catch {
						/* not JSON */
					}
					resolve({ status: res.statusCode, text, json, headers: res.headers });
				});
			},
		);
		req.on('timeout', () => req.destroy(new Error('timed out')));
		req.on('error', reject);
		if (data !== undefined) req.write(data);
		req.end();
	});
}

function tail(file, n = 40) {
	try {
		return fs.readFileSync(file, 'utf8').split('\n').slice(-n).join('\n');
	} catch {
		return '';
	}
}

/** Append a child's output to a log file (and to the terminal with --verbose). */
function pipeToLog(child, file, prefix) {
	const out = fs.createWriteStream(file, { flags: 'a' });
	for (const s of [child.stdout, child.stderr]) {
		s.on('data', (d) => {
			out.write(d);
			if (VERBOSE) process.stdout.write(String(d).replace(/^(?=.)/gm, prefix));
		});
	}
	child.on('close', () => out.end());
}

/**
 * Whether the installed package ships the Lofty Trigger: its file exists and package.json's "n8n" section
 * lists it (n8n loads only the listed nodes). Returns null, or why not.
 */
function triggerMissing(pkgDir) {
	if (!fs.existsSync(path.join(pkgDir, TRIGGER_FILE))) return `the built package has no ${TRIGGER_FILE}`;
	const listed = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).n8n?.nodes ?? [];
	if (!listed.includes(TRIGGER_FILE)) return `package.json "n8n.nodes" does not list ${TRIGGER_FILE} yet`;
	return null;
}

/** The examples to import: examples/*.json, without the Lofty Trigger one while the package has no trigger node. */
function loadExamples(pkgDir) {
	const why = triggerMissing(pkgDir);
	const hasTrigger = why === null;
	const list = [];
	const skipped = [];
	for (const f of fs.readdirSync(EXAMPLES_DIR).filter((n) => n.endsWith('.json')).sort()) {
		const text = fs.readFileSync(path.join(EXAMPLES_DIR, f), 'utf8');
		const wf = JSON.parse(text);
		if (!hasTrigger && wf.nodes.some((n) => n.type === TRIGGER_TYPE)) {
			skipped.push({ file: f, wf, why });
			continue;
		}
		list.push({ file: f, wf, hash: sha(text) });
	}
	return { list, skipped };
}

/** An example's MCP Client Tool nodes get this run's tool-server address (the sandbox's port may differ from 4010). */
function pointAtToolServer(example, url) {
	const nodes = example.wf.nodes.filter((n) => n.type === '@n8n/n8n-nodes-langchain.mcpClientTool' && n.parameters.endpointUrl !== url);
	if (!nodes.length) return;
	for (const n of nodes) n.parameters.endpointUrl = url;
	example.hash = sha(`${example.hash} ${url}`);
}

async function waitReady(url, child, logFile, timeoutMs = 180_000) {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (child.exitCode !== null || child.signalCode !== null)
			H.fail(`n8n exited during start-up (code ${child.exitCode}, ${child.signalCode ?? 'no signal'}). Last lines of ${logFile}:\n${tail(logFile)}`);
		try {
			const r = await httpRequest('GET', url);
			if (r.status === 200) return;
		} catch {
			/* not listening yet */
		}
		await H.sleep(300);
	}
	H.fail(`n8n was not ready within ${timeoutMs / 1000}s. Last lines of ${logFile}:\n${tail(logFile)}`);
}

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
	//    WEBHOOKS_FILE, as Lofty keeps them: n8n started again with its database does not subscribe again)
	const sandboxPort = await H.freePort(Number(process.env.LOFTY_SANDBOX_PORT) || state.sandboxPort || 4010);
	const sandboxLog = path.join(LOG_DIR, 'sandbox.log');
	fs.writeFileSync(sandboxLog, '');
	if (!fs.existsSync(path.join(N8N_DIR, 'database.sqlite'))) fs.rmSync(WEBHOOKS_FILE, { force: true }); // a new n8n subscribes anew
	const sandbox = await H.startSandbox(procs, {
		env: { ...cleanEnv(), LOFTY_SANDBOX_WEBHOOKS_FILE: WEBHOOKS_FILE },
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
		const cred = [
			{ ...CREDENTIAL, data: { apiKey: sandbox.apiKey, baseUrl: sandbox.url } },
			{ ...MCP_CREDENTIAL, data: { token: sandbox.apiKey } },
		];
		const credText = JSON.stringify(cred, null, 2);
		if (state.imports.credential !== sha(credText)) {
			const f = path.join(inputDir, 'credentials.json');
			fs.writeFileSync(f, credText); // plain text only in a temp file; n8n encrypts it on import
			await n8n(['import:credentials', `--input=${f}`]);
			state.imports.credential = sha(credText);
			writeState(state);
		}

		await importOAuthCredentials({ n8n, inputDir, sandbox, state });

		const { list: examples, skipped } = loadExamples(pkgDir);
		for (const e of examples) pointAtToolServer(e, `${sandbox.url}${MCP_PATH}`);
		for (const s of skipped)
			log(`examples/${s.file}: not imported (it needs the ${TRIGGER_TYPE} node): ${s.why}`);
		const changed = examples.filter((e) => state.imports[`workflow:${e.wf.id}`] !== e.hash);
		if (changed.length) {
			const wfDir = path.join(inputDir, 'workflows');
			fs.mkdirSync(wfDir);
			for (const e of changed) fs.writeFileSync(path.join(wfDir, `${e.wf.id}.json`), JSON.stringify(e.wf));
			await n8n(['import:workflow', '--separate', `--input=${wfDir}`]);
			for (const e of changed) {
				if (PUBLISH.has(e.wf.id)) await n8n(['publish:workflow', `--id=${e.wf.id}`]);
				state.imports[`workflow:${e.wf.id}`] = e.hash;
			}
			writeState(state);
			log(`imported ${changed.map((e) => e.file).join(', ')}`);
		} else log('examples unchanged since the last run: not re-imported');
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
			const ok = await verify({ rt, base, env, ports, sandbox, examples });
			await shutdown(ok ? 0 : 1);
		}
	} finally {
		fs.rmSync(inputDir, { recursive: true, force: true });
	}
}

/** What the sandbox printed besides URL and key: the try-out page, the OAuth app, the subscriptions it kept. */
function sandboxExtras(output) {
	const value = (name) => output.match(new RegExp(`^${name}=(.*)$`, 'm'))?.[1]?.trim();
	return {
		page: value('LOFTY_SANDBOX_PAGE'),
		oauth: {
			clientId: value('LOFTY_OAUTH_CLIENT_ID'),
			clientSecret: value('LOFTY_OAUTH_CLIENT_SECRET'),
			authUrl: value('LOFTY_OAUTH_AUTHORIZE_URL'),
			tokenUrl: value('LOFTY_OAUTH_TOKEN_URL'),
		},
		webhooksKept: value('LOFTY_SANDBOX_WEBHOOKS_KEPT'),
	};
}

/** The OAuth2 credentials of OAUTH_CREDENTIALS, imported when they changed (the sandbox's port, or new ones). */
async function importOAuthCredentials({ n8n, inputDir, sandbox, state }) {
	const { clientId, clientSecret, authUrl, tokenUrl } = sandbox.oauth;
	if (!clientId || !clientSecret) return log('warning: the sandbox printed no OAuth client: OAuth2 credentials not made');
	const creds = OAUTH_CREDENTIALS.map(({ grantType, ...c }) => ({
		...c,
		type: 'loftyOAuth2Api',
		data: {
			grantType,
			clientId,
			...(grantType === 'pkce' ? {} : { clientSecret, authentication: 'header' }),
			...(grantType === 'clientCredentials' ? { customerApiKey: sandbox.apiKey } : { authUrl }),
			accessTokenUrl: tokenUrl,
			baseUrl: sandbox.url,
		},
	}));
	const text = JSON.stringify(creds, null, 2);
	if (state.imports.oauthCredentials === sha(text)) return;
	const f = path.join(inputDir, 'oauth-credentials.json');
	fs.writeFileSync(f, text); // plain text only in a temp file; n8n encrypts it on import
	await n8n(['import:credentials', `--input=${f}`]);
	state.imports.oauthCredentials = sha(text);
	writeState(state);
}

function banner({ base, sandbox, examples, skipped }) {
	const secs = ((Date.now() - t0) / 1000).toFixed(1);
	const rel = (p) => path.relative(process.cwd(), p) || p;
	const lines = [
		'',
		`  Lofty try-out is running (n8n ${N8N_VERSION} with n8n-nodes-lofty, Lofty sandbox with demo data), ready in ${secs}s`,
		'',
		`  n8n editor:  ${base}/`,
		`  Login:       email     ${OWNER.email}`,
		`               password  ${OWNER.password}`,
		'',
		`  Sandbox API: ${sandbox.url}  (API key ${sandbox.apiKey})`,
		`  Credential:  "${CREDENTIAL.name}" (Lofty API) already points at the sandbox`,
		`  Tool server: ${sandbox.url}${MCP_PATH}  (MCP, HTTP Streamable; credential "${MCP_CREDENTIAL.name}" is n8n's Bearer Auth with the API key)`,
		'',
		...(sandbox.page
			? [
					`  Make events: ${sandbox.page}`,
					'               the team\'s leads: change a stage, call (recorded), text, email, add a lead; published',
					'               Lofty Trigger workflows get the events (also after Ctrl-C and npm start again)',
					'',
				]
			: []),
		...(sandbox.oauth?.clientSecret
			? [
					'  OAuth2:      the sandbox\'s demo app, for a Lofty OAuth2 API credential of your own',
					`               Client ID      ${sandbox.oauth.clientId}`,
					`               Client Secret  ${sandbox.oauth.clientSecret}`,
					`               Authorization URL  ${sandbox.oauth.authUrl}`,
					`               Access Token URL   ${sandbox.oauth.tokenUrl}`,
					`               Base URL       ${sandbox.url}    Customer Key (Client Credentials): the API key above`,
					`               Made for you: ${OAUTH_CREDENTIALS.map((c) => `"${c.name}"`).join(', ')}`,
					'               (Client Credentials works at once; open the other two and click Connect my account)',
					'',
				]
			: []),
		'  Example workflows:',
		...examples.map((e) => `    ${base}/workflow/${e.wf.id}  ${e.wf.name}${PUBLISH.has(e.wf.id) ? '  [active]' : ''}`),
		...skipped.map((s) => `    (not imported: examples/${s.file}, it needs the Lofty Trigger node: ${s.why})`),
		'',
		'  Send a web-form lead to the active webhook workflow:',
		`    curl -X POST ${base}/webhook/${WEBHOOK_PATH} -H 'Content-Type: application/json' \\`,
		`      -d '{"firstName":"Ada","lastName":"Lovelace","email":"ada@example.com","phone":"4155550123","source":"Website"}'`,
		'',
		`  Logs: ${rel(path.join(LOG_DIR, 'n8n.log'))}, ${rel(path.join(LOG_DIR, 'sandbox.log'))}   Data: ${rel(DIR)} (delete it, or --reset, to start over)`,
		VERIFY ? '  --verify: running the examples now, then stopping.' : '  Press Ctrl-C to stop n8n and the sandbox.',
		'',
	];
	process.stdout.write(lines.join('\n') + '\n');
}

function watchUnexpectedExit(child, what, logFile) {
	child.on('exit', (code, signal) => {
		if (stopping) return;
		process.stderr.write(`\n[start] ${what} stopped unexpectedly (code ${code}, ${signal ?? 'no signal'}). Last lines of ${logFile}:\n${tail(logFile)}\n`);
		shutdown(1);
	});
}

/**
 * The webhook example (published), through `base` (n8n, or the proxy in front of webhook processes): a new email
 * creates a lead, the same email again updates it. Resolves { ok, detail }.
 */
async function checkLeadIntake(base, sandbox) {
	const email = `tryout-${Date.now()}@example.com`;
	const body = { firstName: 'Ada', lastName: 'Lovelace', email, phone: '4155550123', source: 'Website' };
	try {
		const first = await httpRequest('POST', `${base}/webhook/${WEBHOOK_PATH}`, body);
		const second = await httpRequest('POST', `${base}/webhook/${WEBHOOK_PATH}`, body);
		const found = await httpRequest('GET', `${sandbox.url}/v1.0/leads?email=${encodeURIComponent(email)}`, undefined, { Authorization: `token ${sandbox.apiKey}` });
		const leads = found.json?.leads ?? [];
		const tags = (leads[0]?.tags ?? []).map((t) => t.tagName ?? t);
		const ok =
			first.status === 201 && first.json?.status === 'created' && second.status === 200 && second.json?.status === 'updated' && leads.length === 1 && tags.includes('Web Form');
		const detail = `1st POST ${first.status} ${first.text.slice(0, 120)}; 2nd POST ${second.status} ${second.text.slice(0, 120)}; sandbox has ${leads.length} lead(s) with ${email}, tags ${JSON.stringify(tags)}`;
		return { ok, detail };
	} catch (e) {
		return { ok: false, detail: e.message };
	}
}

/** Run the examples against the sandbox and report (the --verify option). Returns whether all passed. */
async function verify({ rt, base, env, ports, sandbox, examples }) {
	const results = [];
	const record = (name, ok, detail) => {
		results.push({ name, ok });
		log(`${ok ? 'PASS' : 'FAIL'} ${name}: ${detail}`);
	};
	// Manual-trigger examples: `n8n execute` on a copy of the user folder (the server keeps the original).
	const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'lofty-tryout-verify-'));
	try {
		fs.cpSync(N8N_DIR, path.join(copy, '.n8n'), { recursive: true });
		const execEnv = { ...env, N8N_USER_FOLDER: copy, N8N_PORT: String(await H.freePort()), N8N_RUNNERS_BROKER_PORT: String(await H.freePort()) };
		for (const e of examples) {
			if (!e.wf.nodes.some((n) => n.type === 'n8n-nodes-base.manualTrigger')) continue;
			const r = await procs.run(rt.nodeBin, [rt.n8nBin, 'execute', `--id=${e.wf.id}`, '--rawOutput'], { label: 'n8n execute', env: execEnv, cwd: copy });
			const result = H.parseRawOutput(r.stdout);
			const last = e.wf.nodes[e.wf.nodes.length - 1].name;
			const { items, error } = result ? H.itemsOf(result, last) : { error: `no JSON result (exit ${r.code}): ${(r.stdout + r.stderr).slice(-1500)}` };
			if (error || r.code !== 0) {
				record(e.file, false, error ?? `exit ${r.code}`);
				continue;
			}
			const sample = items.slice(0, 12).map((it) => JSON.stringify(it.json).slice(0, 160));
			record(e.file, items.length > 0, `${items.length} items from "${last}" in ${r.secs}s\n      ${sample.join('\n      ')}`);
		}
	} finally {
		fs.rmSync(copy, { recursive: true, force: true });
	}
	const intake = await checkLeadIntake(base, sandbox);
	record('lead-intake-webhook.json', intake.ok, intake.detail);
	const failed = results.filter((r) => !r.ok);
	log(`verify: ${results.length - failed.length}/${results.length} examples passed`);
	return failed.length === 0;
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
