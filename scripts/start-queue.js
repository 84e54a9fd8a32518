/**
 * `npm start -- --queue`: the try-out in n8n's queue mode, as a team runs n8n when one process is not enough.
 *
 *   Postgres + Redis (Debian's packages, on loopback, data in temp folders)   scripts/queue-services.js
 *   n8n main (editor, API, trigger activation), 2 workers, 2 webhook processes  scripts/queue-stack.js
 *   a round-robin proxy in front of the webhook processes (n8n's WEBHOOK_URL)   scripts/webhook-proxy.js
 *   the Lofty sandbox, the "Lofty API (sandbox)" credential and the example workflows, as `npm start` has them
 *
 * Every start is fresh: a new database, the examples imported again, the web-form webhook published. Ctrl-C
 * stops everything and checks that no process is left. Options: --verify (run the examples on the workers, and
 * the webhook example through the webhook processes, then stop; exit 1 when one fails), --verbose.
 * Environment: LOFTY_TRYOUT_DIR (data under <dir>/queue), LOFTY_SANDBOX_PORT, LOFTY_QUEUE_WORKERS (2),
 * LOFTY_QUEUE_WEBHOOKS (2), and the login of `npm start` (LOFTY_TRYOUT_EMAIL / LOFTY_TRYOUT_PASSWORD).
 */
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { ensureN8n } = require('./n8n-runtime');
const H = require('./n8n-harness');
const T = require('./start');
const { QueueStack } = require('./queue-stack');
const { missingServices } = require('./queue-services');

const ARGS = new Set(process.argv.slice(2));
const DIR = path.join(T.DIR, 'queue');
const PID_FILE = path.join(DIR, 'start.pid');
const PKG = H.readPackageJson();
const t0 = Date.now();
const procs = new H.ProcessSet({ verbose: ARGS.has('--verbose') });
let stack = null;
let stopping = null;

function log(msg) {
	process.stdout.write(`[start --queue +${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}\n`);
}

/** Manual examples run as the editor's "Execute workflow" does (on a worker), read back with an API key. */
async function runExample(base, headers, wf) {
	const run = await T.httpRequest('POST', `${base}/rest/workflows/${wf.id}/run`, { triggerToStartFrom: { name: 'Manual Trigger' } }, headers.cookie);
	const id = (run.json?.data ?? run.json)?.executionId;
	if (!id) return { error: `run answered ${run.status}: ${run.text.slice(0, 300)}` };
	for (const deadline = Date.now() + 120_000; Date.now() < deadline; await H.sleep(250)) {
		const ex = (await T.httpRequest('GET', `${base}/api/v1/executions/${id}?includeData=true`, undefined, headers.apiKey)).json;
		if (!ex || ['new', 'running', 'waiting'].includes(ex.status) || !(ex.finished || ex.stoppedAt)) continue;
		const last = wf.nodes[wf.nodes.length - 1].name;
		const out = H.itemsOf(ex, last);
		return { id: String(id), status: ex.status, last, ...out };
	}
	return { error: `execution ${id} did not finish within 120 s` };
}

async function verify(sandbox, examples) {
	const base = stack.main.base;
	const login = await T.httpRequest('POST', `${base}/rest/login`, { emailOrLdapLoginId: T.OWNER.email, password: T.OWNER.password });
	const cookie = { cookie: [].concat(login.headers?.['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; '), 'browser-id': 'tryout-verify' };
	const scopes = (await T.httpRequest('GET', `${base}/rest/api-keys/scopes`, undefined, cookie)).json?.data ?? [];
	const key = await T.httpRequest('POST', `${base}/rest/api-keys`, { label: 'verify', scopes, expiresAt: null }, cookie);
	const headers = { cookie, apiKey: { 'X-N8N-API-KEY': (key.json?.data ?? key.json)?.rawApiKey ?? '' } };
	let failed = 0;
	const record = (name, ok, detail) => {
		if (!ok) failed++;
		log(`${ok ? 'PASS' : 'FAIL'} ${name}: ${detail}`);
	};
	for (const e of examples.filter((x) => x.wf.nodes.some((n) => n.type === 'n8n-nodes-base.manualTrigger'))) {
		const r = await runExample(base, headers, e.wf);
		const worker = r.id ? stack.executionsByWorker()[r.id]?.join(', ') : undefined;
		record(e.file, !r.error && r.items.length > 0 && Boolean(worker), r.error ?? `${r.items.length} items from "${r.last}", execution ${r.id} ran on ${worker ?? 'no worker'}`);
	}
	const sent = stack.proxy.log.length;
	const intake = await T.checkLeadIntake(stack.webhookUrl, sandbox);
	const targets = stack.proxy.log.slice(sent).map((x) => stack.webhooks.find((w) => w.base === x.target)?.name);
	record('lead-intake-webhook.json', intake.ok, `${intake.detail}; the two POSTs went to ${targets.join(' and ')}`);
	return failed === 0;
}

async function main() {
	const missing = missingServices();
	if (missing.length) H.fail(`queue mode needs ${missing.join(' and ')}: apt-get install -y postgresql redis-server`);
	T.claimFolder(DIR, PID_FILE);
	const rt = ensureN8n({ version: T.N8N_VERSION });
	await H.ensureBuild({ log, nodeFile: T.NODE_FILE });
	await H.ensureSandboxBuild({ log });
	const { tarball, info } = H.packPackage(path.join(DIR, 'pack'));

	const sandboxLog = path.join(DIR, 'sandbox.log');
	fs.writeFileSync(sandboxLog, '');
	const sandbox = await H.startSandbox(procs, {
		port: await H.freePort(Number(process.env.LOFTY_SANDBOX_PORT) || 4010),
		onData: (d) => fs.appendFileSync(sandboxLog, d),
	});
	log(`sandbox at ${sandbox.url}`);

	const state = {};
	stack = new QueueStack({
		dir: path.join(DIR, 'stack'),
		rt,
		version: T.N8N_VERSION,
		pkg: { tarball, packageName: PKG.name, version: info.version },
		workers: Number(process.env.LOFTY_QUEUE_WORKERS) || 2,
		webhooks: Number(process.env.LOFTY_QUEUE_WEBHOOKS) || 2,
		mainEnv: {
			N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
			N8N_INSTANCE_OWNER_EMAIL: T.OWNER.email,
			N8N_INSTANCE_OWNER_FIRST_NAME: T.OWNER.firstName,
			N8N_INSTANCE_OWNER_LAST_NAME: T.OWNER.lastName,
			N8N_INSTANCE_OWNER_PASSWORD_HASH: T.bcryptHash(rt, T.OWNER.password, state),
		},
		verbose: ARGS.has('--verbose'),
		log,
	});
	let examples = [];
	await stack.start({
		// The fresh database gets the credential and the examples before main starts (it activates the published one).
		beforeMain: async () => {
			const input = fs.mkdtempSync(path.join(os.tmpdir(), 'lofty-queue-import-'));
			try {
				fs.writeFileSync(path.join(input, 'credentials.json'), JSON.stringify([{ ...T.CREDENTIAL, data: { apiKey: sandbox.apiKey, baseUrl: sandbox.url } }]));
				await stack.cli(['import:credentials', `--input=${path.join(input, 'credentials.json')}`]);
				const loaded = T.loadExamples(path.join(stack.main.userFolder, '.n8n', 'nodes', 'node_modules', PKG.name));
				examples = loaded.list;
				for (const s of loaded.skipped) log(`examples/${s.file}: not imported: ${s.why}`);
				fs.mkdirSync(path.join(input, 'workflows'));
				for (const e of examples) fs.writeFileSync(path.join(input, 'workflows', `${e.wf.id}.json`), JSON.stringify(e.wf));
				await stack.cli(['import:workflow', '--separate', `--input=${path.join(input, 'workflows')}`]);
				for (const e of examples) if (T.PUBLISH.has(e.wf.id)) await stack.cli(['publish:workflow', `--id=${e.wf.id}`]);
				log(`imported the credential and ${examples.map((e) => e.file).join(', ')}`);
			} finally {
				fs.rmSync(input, { recursive: true, force: true });
			}
		},
	});

	const base = stack.main.base;
	const lines = [
		'',
		`  Lofty try-out in n8n's queue mode, ready in ${((Date.now() - t0) / 1000).toFixed(1)}s`,
		'',
		`  n8n editor (main):   ${base}/     login ${T.OWNER.email} / ${T.OWNER.password}`,
		`  Webhooks:            ${stack.webhookUrl}/webhook/...  (round robin over ${stack.webhooks.map((w) => `${w.name} ${w.base}`).join(', ')})`,
		`  Workers:             ${stack.workers.map((w) => w.name).join(', ')} (every execution runs on one of them, manual runs too)`,
		`  Postgres ${stack.postgres.port}, Redis ${stack.redis.port} (fresh on every start; nothing kept after Ctrl-C)`,
		`  Sandbox API:         ${sandbox.url}  (credential "${T.CREDENTIAL.name}")`,
		`  Logs:                ${path.relative(process.cwd(), stack.logDir) || stack.logDir}/<process>.log`,
		'',
		`  Send a web-form lead:  curl -X POST ${stack.webhookUrl}/webhook/${T.WEBHOOK_PATH} -H 'Content-Type: application/json' \\`,
		`    -d '{"firstName":"Ada","lastName":"Lovelace","email":"ada@example.com","phone":"4155550123","source":"Website"}'`,
		'',
		ARGS.has('--verify') ? '  --verify: running the examples now, then stopping.' : '  Press Ctrl-C to stop everything.',
		'',
	];
	process.stdout.write(lines.join('\n') + '\n');
	if (ARGS.has('--verify')) await shutdown((await verify(sandbox, examples)) ? 0 : 1);
}

async function shutdown(code) {
	if (stopping) return stopping;
	stopping = (async () => {
		process.stdout.write('\n[start --queue] stopping webhook processes, workers, main, Redis, Postgres and the sandbox...\n');
		const left = stack ? await stack.stop() : [];
		await procs.stopAll(10_000);
		try {
			if (Number(fs.readFileSync(PID_FILE, 'utf8')) === process.pid) fs.rmSync(PID_FILE);
		} catch {
			/* not ours */
		}
		if (left.length) process.stdout.write(`[start --queue] still running after stop: ${left.map((p) => `${p.pid} ${p.command}`).join('; ')}\n`);
		else process.stdout.write('[start --queue] stopped; no process left.\n');
		process.exit(left.length ? 1 : code);
	})();
	return stopping;
}

function run() {
	let signals = 0;
	for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
		process.on(sig, () => {
			if (++signals > 1) {
				for (const g of [...procs.groups, ...(stack?.procs.groups ?? [])]) H.killGroup(g, 'SIGKILL');
				process.exit(130);
			}
			shutdown(sig === 'SIGINT' ? 0 : 143);
		});
	}
	main().catch(async (e) => {
		process.stderr.write(`\n[start --queue] FAILED after ${((Date.now() - t0) / 1000).toFixed(1)}s: ${e instanceof H.StepError ? e.message : e.stack}\n`);
		await shutdown(1);
	});
}

module.exports = { run };
if (require.main === module) run();
