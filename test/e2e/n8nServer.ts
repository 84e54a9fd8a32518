/**
 * One real n8n server for an end-to-end run: n8n from the cache (scripts/n8n-runtime.js), the packed
 * package installed as a community node in a fresh user folder (scripts/n8n-harness.js), an owner created
 * without the UI, a session cookie (internal REST API: manual runs, credential tests) and an API key
 * (public API: workflows, executions).
 *
 * Everything n8n prints goes to .e2e/<version>/n8n.log; the user folder is .e2e/<version>/user (wiped at start).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';

/* eslint-disable @typescript-eslint/no-require-imports */
// Plain-JS helpers shared with `npm run test:smoke` and `npm start` (untyped CommonJS).
const H = require('../../scripts/n8n-harness');
const { ensureN8n, cacheRoot } = require('../../scripts/n8n-runtime');
/* eslint-enable @typescript-eslint/no-require-imports */

export const ROOT: string = H.ROOT;
export const PACKAGE_NAME: string = H.readPackageJson().name;
export const NODE_TYPE = `${PACKAGE_NAME}.lofty`;

/** A Lofty Trigger node (version 1, API key) as a workflow holds it. */
export function loftyTriggerNode(name: string, webhookId: string, parameters: Record<string, unknown>, loftyApi: unknown): Record<string, unknown> {
	return { id: randomUUID(), name, type: `${PACKAGE_NAME}.loftyTrigger`, typeVersion: 1, position: [0, 0], webhookId, parameters: { authentication: 'apiKey', ...parameters }, credentials: { loftyApi } };
}
const NODE_FILE = 'dist/nodes/Lofty/Lofty.node.js';

export interface HttpResult {
	status: number;
	text: string;
	json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
	headers: http.IncomingHttpHeaders;
}

/**
 * A connection per request: Node's default agent keeps connections open, and one that n8n closed after its 5 s of
 * idleness while this process was busy (a synchronous pack for the next server, a loaded machine) answered the next
 * request with "socket hang up".
 */
const noKeepAlive = new http.Agent({ keepAlive: false });

export function httpRequest(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResult> {
	return new Promise((resolve, reject) => {
		const data = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
		const req = http.request(
			url,
			{
				method,
				agent: noKeepAlive,
				headers: { ...(data !== undefined ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(data)) } : {}), ...headers },
				timeout: 120_000,
			},
			(res) => {
				let text = '';
				res.setEncoding('utf8');
				res.on('data', (d) => (text += d));
				res.on('end', () => {
					let json: unknown;
					try {
						json = JSON.parse(text);
					} catch {
						json = undefined;
					}
					resolve({ status: res.statusCode ?? 0, text, json, headers: res.headers });
				});
			},
		);
		req.on('timeout', () => req.destroy(new Error(`${method} ${url} timed out`)));
		req.on('error', reject);
		if (data !== undefined) req.write(data);
		req.end();
	});
}

/** Whether a finished install of this n8n version is in the cache (without installing it). */
export function n8nInstalled(version: string): boolean {
	const marker = path.join(cacheRoot(), `n8n-${version}`, '.installed.json');
	try {
		const m = JSON.parse(fs.readFileSync(marker, 'utf8'));
		return fs.existsSync(m.nodeBin) && fs.existsSync(m.n8nBin);
	} catch {
		return false;
	}
}

export interface ExecutionResult {
	id: string;
	status: string;
	finished: boolean;
	/** runData by node name */
	runData: Record<string, any[]>; // eslint-disable-line @typescript-eslint/no-explicit-any
	error?: { message?: string; description?: string; node?: { name?: string } };
	raw: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** The packed package (npm pack) that a launch installs. */
export interface PackedPackage {
	tarball: string;
	version: string;
	filename: string;
	files: number;
}

/** One `npm pack` a test file (jest loads this module once a file): the servers of a file install the same tarball. */
let packed: { tarball: string; info: { version: string; filename: string; files: unknown[] } } | undefined;

/** The instance owner (also what the editor test signs in with). */
export const OWNER = { email: 'e2e-owner@example.com', password: 'E2e-Owner-Passw0rd', firstName: 'E2E', lastName: 'Owner' };

export class N8nServer {
	readonly version: string;
	base = '';
	cookie = '';
	apiKey = '';
	nodeVersion = '';
	protected procs = new H.ProcessSet({ verbose: process.env.LOFTY_E2E_VERBOSE === '1' });
	protected server: any; // eslint-disable-line @typescript-eslint/no-explicit-any
	readonly dir: string;
	readonly logFile: string;
	private t0 = Date.now();
	readonly timings: Record<string, number> = {};

	private env: Record<string, string> = {};
	private rt: { nodeBin: string; n8nBin: string } | undefined;
	private userFolder = '';

	/**
	 * `dirName`: the folder under .e2e/ (default: the version), so that two suites on one version do not share one;
	 * `extraEnv`: more n8n settings (e.g. N8N_USE_WORKFLOW_PUBLICATION_SERVICE).
	 */
	constructor(
		version: string,
		dirName = version,
		private readonly extraEnv: Record<string, string> = {},
	) {
		this.version = version;
		this.dir = path.join(ROOT, '.e2e', dirName);
		this.logFile = path.join(this.dir, 'n8n.log');
	}

	/** Progress on stdout, and into .e2e/<dir>/e2e.log, which the e2e run's secret scan reads with n8n's own files. */
	log(msg: string): void {
		const line = `[e2e ${this.version} +${((Date.now() - this.t0) / 1000).toFixed(1)}s] ${msg}\n`;
		process.stdout.write(line);
		fs.mkdirSync(this.dir, { recursive: true });
		fs.appendFileSync(path.join(this.dir, 'e2e.log'), line);
	}

	protected mark(label: string, since: number): void {
		this.timings[label] = Date.now() - since;
	}

	/** Build (when stale), pack, install into a fresh user folder, start n8n, owner, login, API key. */
	async start(): Promise<void> {
		let t = Date.now();
		const rt = ensureN8n({ version: this.version });
		this.nodeVersion = spawnSync(rt.nodeBin, ['--version'], { encoding: 'utf8' }).stdout.trim();
		this.log(`n8n ${rt.version} on Node ${this.nodeVersion}`);
		this.mark('ensureN8n', t);

		t = Date.now();
		await H.ensureBuild({ log: (m: string) => this.log(m), nodeFile: NODE_FILE });
		fs.rmSync(this.dir, { recursive: true, force: true });
		fs.mkdirSync(this.dir, { recursive: true });
		if (!packed || !fs.existsSync(packed.tarball)) packed = H.packPackage(path.join(this.dir, 'pack'));
		const { tarball, info } = packed!;
		this.mark('build+pack', t);

		t = Date.now();
		const extra: Record<string, string> = {
			N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '5',
			EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'true',
			N8N_PUBLIC_API_DISABLED: 'false',
			...this.ownerEnv(rt),
		};
		// LOFTY_E2E_N8N_LOG_LEVEL=debug: n8n's own debug log in .e2e/<version>/n8n.log
		if (process.env.LOFTY_E2E_N8N_LOG_LEVEL) extra.N8N_LOG_LEVEL = process.env.LOFTY_E2E_N8N_LOG_LEVEL;
		await this.startN8n(rt, { tarball, version: info.version, files: info.files.length, filename: info.filename }, { ...extra, ...this.extraEnv });
		this.mark('n8n start', t);

		t = Date.now();
		await this.signIn();
		this.mark('owner+login+apiKey', t);
	}

	/** 2.41.x: the owner account from N8N_INSTANCE_OWNER_* variables, which `n8n start` applies (2.8.x: signIn() sets it up). */
	protected ownerEnv(rt: { n8nBin: string }): Record<string, string> {
		if (!this.is241) return {};
		const n8nModules = path.dirname(path.dirname(path.dirname(rt.n8nBin)));
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const bcrypt = require(require.resolve('bcryptjs', { paths: [n8nModules] }));
		return {
			N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
			N8N_INSTANCE_OWNER_EMAIL: OWNER.email,
			N8N_INSTANCE_OWNER_FIRST_NAME: OWNER.firstName,
			N8N_INSTANCE_OWNER_LAST_NAME: OWNER.lastName,
			N8N_INSTANCE_OWNER_PASSWORD_HASH: bcrypt.hashSync(OWNER.password, 8),
		};
	}

	protected get is241(): boolean {
		return /^2\.(4\d|[5-9]\d)\./.test(this.version);
	}

	/** The package installed in a fresh user folder, then `n8n start` on it; sets `base` once it is ready. */
	protected async startN8n(rt: { nodeBin: string; n8nBin: string }, pack: PackedPackage, extra: Record<string, string>): Promise<void> {
		const userFolder = path.join(this.dir, 'user');
		this.installPackage(rt, pack, userFolder);
		const ports = { http: await H.freePort(), broker: await H.freePort() };
		if (ports.broker === ports.http) ports.broker = await H.freePort();
		const env = H.n8nEnv({ userFolder, ports, version: this.version, encryptionKey: randomBytes(24).toString('hex'), extra });
		// Jest sets NODE_ENV=test, with which `n8n start` exits at once without a word.
		for (const k of Object.keys(env)) if (k === 'NODE_ENV' || k.startsWith('JEST_')) delete env[k];
		fs.writeFileSync(this.logFile, '');
		this.env = env;
		this.rt = rt;
		this.userFolder = userFolder;
		this.base = `http://127.0.0.1:${ports.http}`;
		await this.launch();
		this.log(`n8n ready at ${this.base} (log: ${path.relative(ROOT, this.logFile)})`);
	}

	/** The packed package unpacked into the user folder's nodes folder, as a community-node install leaves it. */
	protected installPackage(rt: { nodeBin: string; n8nBin: string }, pack: PackedPackage, userFolder: string): void {
		const pkgDir = H.installPackage({ tarball: pack.tarball, userFolder, packageName: PACKAGE_NAME, version: pack.version });
		const probe = H.probeInstalledNode({ rt, pkgDir, nodeFile: NODE_FILE });
		this.log(`installed ${pack.filename} (${pack.files} files) as a community node; "${probe.name}" v${probe.version} loads with n8n-workflow ${probe.wfVersion}`);
	}

	/** Owner (2.8.x: set up through the REST API), session cookie, and an API key with every scope. */
	protected async signIn(): Promise<void> {
		if (!this.is241) {
			const setup = await httpRequest('POST', `${this.base}/rest/owner/setup`, OWNER);
			if (setup.status !== 200) throw new Error(`owner setup answered ${setup.status}: ${setup.text.slice(0, 500)}`);
		}
		await this.login();
		const scopes = await this.rest('GET', '/rest/api-keys/scopes');
		const scopeList: string[] = scopes.status === 200 ? (scopes.json?.data ?? scopes.json) : [];
		const key = await this.rest('POST', '/rest/api-keys', { label: 'e2e', scopes: scopeList, expiresAt: null });
		if (key.status !== 200) throw new Error(`creating an API key answered ${key.status}: ${key.text.slice(0, 500)}`);
		this.apiKey = (key.json?.data ?? key.json).rawApiKey;
		if (!this.apiKey) throw new Error(`no rawApiKey in ${key.text.slice(0, 300)}`);
		this.log(`owner ${OWNER.email} signed in; API key with ${scopeList.length} scopes`);
	}

	/** Starts `n8n start` on the prepared user folder and waits until it serves. */
	protected async launch(): Promise<void> {
		this.server = this.procs.start(this.rt!.nodeBin, [this.rt!.n8nBin, 'start'], { cwd: this.userFolder, env: this.env });
		const append = (d: Buffer) => fs.appendFileSync(this.logFile, d);
		this.server.stdout.on('data', append);
		this.server.stderr.on('data', append);
		await this.waitReady();
	}

	private async login(): Promise<void> {
		const login = await httpRequest('POST', `${this.base}/rest/login`, { emailOrLdapLoginId: OWNER.email, email: OWNER.email, password: OWNER.password });
		if (login.status !== 200) throw new Error(`login answered ${login.status}: ${login.text.slice(0, 500)}`);
		const setCookie = login.headers['set-cookie'] ?? [];
		this.cookie = setCookie.map((c) => c.split(';')[0]).join('; ');
		if (!this.cookie) throw new Error('login set no cookie');
	}

	/** Sends a signal to n8n's whole process group (SIGSTOP freezes it, SIGKILL ends it at once). */
	signal(sig: NodeJS.Signals): void {
		if (this.server?.pid) process.kill(-this.server.pid, sig);
	}

	/**
	 * Stops n8n (SIGTERM, or `kill`: SIGKILL at once) and keeps its database. As docker and systemd do, a process
	 * still there 10 s after the SIGTERM gets SIGKILL: the result says whether it did.
	 */
	async halt(kill = false): Promise<boolean> {
		if (kill) this.signal('SIGKILL');
		const killed = (await this.procs.stop(this.server, kill ? 0 : 10_000)) as boolean;
		this.server = undefined;
		this.log(kill ? 'n8n killed (SIGKILL)' : killed ? 'n8n stopped (SIGTERM, then SIGKILL after 10 s)' : 'n8n stopped (SIGTERM)');
		return kill || killed;
	}

	/** A fresh n8n process on the same database, user folder, address and settings; signs in again. */
	async restart(): Promise<void> {
		const t = Date.now();
		fs.appendFileSync(this.logFile, `\n===== restart =====\n`);
		await this.launch();
		await this.login();
		this.log(`n8n restarted in ${((Date.now() - t) / 1000).toFixed(1)}s`);
	}

	protected async waitReady(timeoutMs = 180_000): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		while (Date.now() < deadline) {
			if (this.server.exitCode !== null || this.server.signalCode !== null)
				throw new Error(`n8n exited during start-up (code ${this.server.exitCode}). Log tail:\n${this.logTail()}`);
			try {
				// Readiness answers before the REST controllers are mounted (2.8.x): wait for /rest/settings too.
				const r = await httpRequest('GET', `${this.base}/healthz/readiness`);
				if (r.status === 200 && (await httpRequest('GET', `${this.base}/rest/settings`)).status === 200) return;
			} catch {
				/* not listening yet */
			}
			await H.sleep(250);
		}
		throw new Error(`n8n not ready within ${timeoutMs / 1000}s. Log tail:\n${this.logTail()}`);
	}

	logTail(lines = 40): string {
		try {
			return fs.readFileSync(this.logFile, 'utf8').split('\n').slice(-lines).join('\n');
		} catch {
			return '';
		}
	}

	/** Internal REST API with the session cookie; unwraps `{data}`. */
	async rest(method: string, p: string, body?: unknown): Promise<HttpResult> {
		return httpRequest(method, `${this.base}${p}`, body, { cookie: this.cookie, 'browser-id': 'e2e-browser' });
	}

	/** Public API with the API key. */
	async api(method: string, p: string, body?: unknown): Promise<HttpResult> {
		return httpRequest(method, `${this.base}/api/v1${p}`, body, { 'X-N8N-API-KEY': this.apiKey });
	}

	/** Stores a credential (internal API: accepts OAuth token data too); returns its id. */
	async createCredential(name: string, type: string, data: Record<string, unknown>): Promise<string> {
		const r = await this.rest('POST', '/rest/credentials', { name, type, data });
		if (r.status !== 200) throw new Error(`creating credential ${name} answered ${r.status}: ${r.text.slice(0, 500)}`);
		return (r.json?.data ?? r.json).id;
	}

	/**
	 * n8n's own credential test (what the editor runs on Save): { status: 'OK' | 'Error', message }. With the id of a
	 * stored credential, the stored data is merged with `data` as in the editor; with id '' the data is tested as is.
	 */
	async testCredential(type: string, data: Record<string, unknown>, id = '', name = 'e2e test'): Promise<{ status: string; message: string }> {
		const r = await this.rest('POST', '/rest/credentials/test', { credentials: { id, name, type, data } });
		if (r.status !== 200) throw new Error(`credential test answered ${r.status}: ${r.text.slice(0, 500)}`);
		// What the editor shows after Save (a failed test's message above all) is kept for the secret scan.
		this.log(`credential test (${type}): ${r.text}`);
		return r.json?.data ?? r.json;
	}

	/**
	 * The editor's "Retry" on a saved credential: it loads the credential (secrets and OAuth token data come back
	 * redacted) and sends that to the test endpoint, which puts the stored values back before testing.
	 * `override` replaces fields: 2.41.x hands OAuth token data to the editor as `true`, which the test endpoint
	 * does not restore, so OAuth2 tests send `oauthTokenData` themselves.
	 */
	async testStoredCredential(id: string, override: Record<string, unknown> = {}): Promise<{ status: string; message: string }> {
		const r = await this.rest('GET', `/rest/credentials/${id}?includeData=true`);
		if (r.status !== 200) throw new Error(`reading credential ${id} answered ${r.status}: ${r.text.slice(0, 300)}`);
		const cred = r.json?.data ?? r.json;
		return this.testCredential(cred.type, { ...(cred.data ?? {}), ...override }, id, cred.name);
	}

	/** Creates a workflow through the public API; returns its id. */
	async createWorkflow(wf: { name: string; nodes: unknown[]; connections: unknown; settings?: unknown }): Promise<string> {
		const r = await this.api('POST', '/workflows', { name: wf.name, nodes: wf.nodes, connections: wf.connections, settings: wf.settings ?? { executionOrder: 'v1' } });
		if (r.status !== 200) throw new Error(`creating workflow "${wf.name}" answered ${r.status}: ${r.text.slice(0, 800)}`);
		return r.json.id;
	}

	/** Runs a workflow as the editor's "Execute workflow" does, waits for it to finish, returns the saved execution. */
	async runWorkflow(workflowId: string, triggerName: string, timeoutMs = 120_000): Promise<ExecutionResult> {
		let body: unknown = { triggerToStartFrom: { name: triggerName } };
		if (!this.is241) {
			const wf = await this.rest('GET', `/rest/workflows/${workflowId}`);
			body = { workflowData: wf.json?.data ?? wf.json, triggerToStartFrom: { name: triggerName } };
		}
		const r = await this.rest('POST', `/rest/workflows/${workflowId}/run`, body);
		if (r.status !== 200) throw new Error(`running workflow ${workflowId} answered ${r.status}: ${r.text.slice(0, 800)}`);
		const executionId = (r.json?.data ?? r.json)?.executionId;
		if (!executionId) throw new Error(`run of ${workflowId} returned no executionId: ${r.text.slice(0, 500)}`);
		return this.waitExecution(String(executionId), timeoutMs);
	}

	async waitExecution(id: string, timeoutMs = 120_000): Promise<ExecutionResult> {
		const deadline = Date.now() + timeoutMs;
		let last: HttpResult | undefined;
		while (Date.now() < deadline) {
			last = await this.api('GET', `/executions/${id}?includeData=true`);
			const ex = last.json;
			// n8n 1.x marks an execution finished a moment before its data is stored (its log then says "Found successful
			// execution where data is empty"): a successful execution counts once its data is there.
			const stored = ex?.status !== 'success' || ex.data?.resultData !== undefined;
			if (last.status === 200 && ex && ex.status !== 'running' && ex.status !== 'new' && ex.status !== 'waiting' && (ex.finished || ex.stoppedAt) && stored) {
				const resultData = ex.data?.resultData ?? {};
				return { id, status: ex.status, finished: ex.finished, runData: resultData.runData ?? {}, error: resultData.error, raw: ex };
			}
			await H.sleep(150);
		}
		throw new Error(`execution ${id} did not finish within ${timeoutMs / 1000}s (last: ${last?.status} ${last?.text.slice(0, 300)})`);
	}

	async stop(): Promise<void> {
		await this.procs.stopAll(10_000);
	}
}
