/**
 * n8n in queue mode on loopback, the way a team runs it when one process is not enough: Postgres and Redis
 * (scripts/queue-services.js), one main process (`n8n start`: editor, API, activation of triggers, the queue),
 * `n8n worker` processes (they take executions from Redis, manual runs included) and `n8n webhook` processes
 * (production webhooks, behind a round-robin proxy that n8n's WEBHOOK_URL points at: scripts/webhook-proxy.js).
 *
 * Every n8n process has its own user folder with this package unpacked at .n8n/nodes/node_modules/<package>
 * (each process loads community nodes from its own folder), one encryption key, and its own ports: HTTP (main,
 * webhook), a health port (worker) and a task-runner broker port (each n8n process that runs Code nodes starts a
 * task runner with its own broker). Main starts first (it migrates the fresh database), then the others at once.
 *
 * Stopping stops webhook processes and workers, then main, the proxy, Redis and Postgres, and then looks for any
 * process still carrying this run's marker (scripts/queue-stack.js leftovers()): there must be none.
 *
 * Plain Node.js, no dependencies.
 */
'use strict';

const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const http = require('http');
const H = require('./n8n-harness');
const S = require('./queue-services');
const { startWebhookProxy } = require('./webhook-proxy');

/** Marker in the environment of every process of a run (n8n passes DEPLOYMENT_NAME on to its task runners). */
const MARKER_VAR = 'LOFTY_QUEUE_RUN';

function get(url) {
	return new Promise((resolve) => {
		const req = http.get(url, { timeout: 5000 }, (res) => {
			res.resume();
			res.on('end', () => resolve(res.statusCode));
		});
		req.on('timeout', () => req.destroy());
		req.on('error', () => resolve(0));
	});
}

/** Processes (pid, command) whose environment or command line holds `marker`: what a stopped run must not leave. */
function leftovers(marker) {
	const found = [];
	for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
		if (Number(pid) === process.pid) continue;
		try {
			const environ = fs.readFileSync(`/proc/${pid}/environ`, 'latin1');
			const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1');
			if (environ.includes(marker) || cmdline.includes(marker)) {
				const state = fs.readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1]?.[0];
				if (state !== 'Z') found.push({ pid: Number(pid), command: cmdline.replace(/\0/g, ' ').trim().slice(0, 200) });
			}
		} catch {
			/* gone, or not ours to read */
		}
	}
	return found;
}

class QueueStack {
	/**
	 * @param {object} o
	 * @param {string} o.dir run folder (user folders under it, logs in <dir>/logs); wiped at start
	 * @param {{nodeBin: string, n8nBin: string}} o.rt n8n from scripts/n8n-runtime.js
	 * @param {string} o.version n8n version
	 * @param {{tarball: string, packageName: string, version: string} | null} o.pkg the packed package, unpacked into
	 *   each process's user folder; null: none (n8n installs it from a registry)
	 * @param {number} [o.workers] number of `n8n worker` processes (2)
	 * @param {number} [o.webhooks] number of `n8n webhook` processes (2)
	 * @param {number} [o.workerConcurrency] executions one worker runs at once (n8n's default: 10)
	 * @param {object} [o.env] more n8n variables for every process; [o.mainEnv] for main only
	 * @param {(msg: string) => void} [o.log]
	 */
	constructor(o) {
		Object.assign(this, { workerCount: 2, webhookCount: 2, env: {}, mainEnv: {}, log: () => undefined }, o);
		if (o.workers !== undefined) this.workerCount = o.workers;
		if (o.webhooks !== undefined) this.webhookCount = o.webhooks;
		this.procs = new H.ProcessSet({ verbose: Boolean(o.verbose) });
		this.logDir = path.join(this.dir, 'logs');
		this.runId = `lofty-queue-${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
		this.encryptionKey = o.encryptionKey ?? crypto.randomBytes(24).toString('hex');
		this.main = null;
		this.workers = [];
		this.webhooks = [];
		this.timings = {};
	}

	/** Postgres, Redis and the proxy's port; then `beforeMain(env)` (e.g. n8n import:* into the fresh database); then n8n. */
	async start({ beforeMain } = {}) {
		let t = Date.now();
		fs.rmSync(this.dir, { recursive: true, force: true });
		fs.mkdirSync(this.logDir, { recursive: true });
		this.postgres = await S.startPostgres(this.procs, { port: await H.freePort(), logFile: path.join(this.logDir, 'postgres.log') });
		this.redis = await S.startRedis(this.procs, { port: await H.freePort(), dir: path.join(this.dir, 'redis'), logFile: path.join(this.logDir, 'redis.log') });
		this.proxyPort = await H.freePort();
		this.webhookUrl = `http://127.0.0.1:${this.proxyPort}`;
		this.log(`Postgres ${this.postgres.port} (as ${this.postgres.account}), Redis ${this.redis.port}: ready`);
		this.timings.services = Date.now() - t;

		t = Date.now();
		this.main = await this.process('main', 'start', { http: await H.freePort(), broker: await H.freePort() });
		if (beforeMain) await beforeMain(this.main.env);
		this.launch(this.main);
		await this.waitReady(this.main, [`${this.main.base}/healthz/readiness`, `${this.main.base}/rest/settings`]);
		this.timings.main = Date.now() - t;
		this.log(`main ready at ${this.main.base}`);

		t = Date.now();
		for (let i = 1; i <= this.workerCount; i++) this.workers.push(await this.process(`worker-${i}`, 'worker', { health: await H.freePort(), broker: await H.freePort() }));
		for (let i = 1; i <= this.webhookCount; i++) this.webhooks.push(await this.process(`webhook-${i}`, 'webhook', { http: await H.freePort(), broker: await H.freePort() }));
		for (const p of [...this.workers, ...this.webhooks]) this.launch(p);
		await Promise.all([
			...this.workers.map((w) => this.waitReady(w, [`http://127.0.0.1:${w.ports.health}/healthz/readiness`])),
			...this.webhooks.map((w) => this.waitReady(w, [`${w.base}/healthz/readiness`])),
		]);
		this.timings.helpers = Date.now() - t;
		this.proxy = await startWebhookProxy({ port: this.proxyPort, webhooks: this.webhooks.map((w) => w.base), main: this.main.base });
		this.log(`${this.workerCount} workers and ${this.webhookCount} webhook processes ready; webhooks at ${this.webhookUrl} (round robin)`);
	}

	/** One n8n process's user folder (with the package unpacked into it), environment and ports; not started yet. */
	async process(name, command, ports) {
		const userFolder = path.join(this.dir, name);
		// Without `pkg`, nothing is unpacked by hand: n8n installs the package itself (N8N_COMMUNITY_PACKAGES in `env`).
		if (this.pkg) H.installPackage({ tarball: this.pkg.tarball, userFolder, packageName: this.pkg.packageName, version: this.pkg.version });
		else fs.mkdirSync(userFolder, { recursive: true });
		const base = ports.http ? `http://127.0.0.1:${ports.http}` : null;
		const env = H.n8nEnv({
			userFolder,
			ports: { http: ports.http ?? ports.health, broker: ports.broker },
			version: this.version,
			encryptionKey: this.encryptionKey,
			extra: {
				...this.postgres.env,
				...this.redis.env,
				EXECUTIONS_MODE: 'queue',
				// The editor's "Execute workflow" runs on a worker too (n8n 3 will always do so).
				OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
				N8N_WEBHOOK_URL: `${this.webhookUrl}/`,
				N8N_EDITOR_BASE_URL: `${this.main?.base ?? base}/`,
				N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
				...(command === 'worker'
					? { QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(ports.health), N8N_WORKER_SERVER_ADDRESS: '127.0.0.1' }
					: {}),
				...(command === 'worker' && this.workerConcurrency ? { N8N_CONCURRENCY_PRODUCTION_LIMIT: String(this.workerConcurrency) } : {}),
				...this.env,
				...(command === 'start' ? this.mainEnv : {}),
				DEPLOYMENT_NAME: this.runId,
				[MARKER_VAR]: this.runId,
			},
		});
		// Jest sets NODE_ENV=test, with which n8n exits at once without a word.
		for (const k of Object.keys(env)) if (k === 'NODE_ENV' || k.startsWith('JEST_')) delete env[k];
		return { name, command, ports, base, userFolder, env, logFile: path.join(this.logDir, `${name}.log`), child: null };
	}

	launch(p) {
		fs.writeFileSync(p.logFile, '');
		p.child = this.procs.start(this.rt.nodeBin, [this.rt.n8nBin, p.command], { cwd: p.userFolder, env: p.env });
		S.logTo(p.child, p.logFile);
	}

	async waitReady(p, urls, timeoutMs = 240_000) {
		await S.waitFor(async () => (await Promise.all(urls.map(get))).every((s) => s === 200), `n8n ${p.name} to be ready`, { timeoutMs, child: p.child, logFile: p.logFile });
	}

	/** Runs an n8n CLI command (import:credentials, publish:workflow, ...) against the shared database. */
	async cli(args, env = this.main.env) {
		const r = await this.procs.run(this.rt.nodeBin, [this.rt.n8nBin, ...args], { label: `n8n ${args[0]}`, env, cwd: this.main.userFolder });
		if (r.code !== 0) H.fail(`n8n ${args[0]} failed (exit ${r.code}):\n${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`);
		return r;
	}

	/** Which worker ran each execution, from the workers' own log lines ("Worker started execution <id>"): { [id]: worker name }. */
	executionsByWorker() {
		const ran = {};
		for (const w of this.workers) {
			const text = fs.existsSync(w.logFile) ? fs.readFileSync(w.logFile, 'utf8') : '';
			for (const m of text.matchAll(/Worker started execution (\d+)/g)) (ran[m[1]] ??= []).push(w.name);
		}
		return ran;
	}

	/** The log lines of one n8n process. */
	logOf(name) {
		const p = [this.main, ...this.workers, ...this.webhooks].find((x) => x?.name === name);
		return p && fs.existsSync(p.logFile) ? fs.readFileSync(p.logFile, 'utf8') : '';
	}

	/** Stops everything (helpers, main, proxy, Redis, Postgres); resolves the processes left behind (must be []). */
	async stop() {
		const helpers = [...this.webhooks, ...this.workers].filter((p) => p.child);
		await Promise.all(helpers.map((p) => this.procs.stop(p.child, 20_000)));
		if (this.main?.child) await this.procs.stop(this.main.child, 20_000);
		await this.proxy?.stop();
		await this.redis?.stop();
		await this.postgres?.stop();
		await this.procs.stopAll(5_000);
		return leftovers(this.runId);
	}
}

module.exports = { QueueStack, leftovers, MARKER_VAR };
