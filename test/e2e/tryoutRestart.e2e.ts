/**
 * `npm start` stopped with Ctrl-C and started again, as a person does: a published Lofty Trigger workflow still fires.
 * n8n, started with its database, does not subscribe again (it calls no create()); the sandbox starts with fresh demo
 * data but keeps the subscriptions n8n made (.tryout/sandbox-webhooks.json), as Lofty keeps them.
 *
 * The example "react to new leads and pipeline changes" (LoftyExample0003) is published through n8n's API; a stage
 * change through the sandbox's API (PUT /v1.0/leads/{leadId}, as Lofty's own app would make it) must start an
 * execution before the restart and after it. The try-out folder is a temp folder; nothing of the run's output is
 * printed (the banner shows the demo key).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { ROOT, httpRequest, n8nInstalled } from './n8nServer';

/* eslint-disable @typescript-eslint/no-require-imports */
const { freePort } = require('../../scripts/n8n-harness');
const { cleanEnv } = require('../../scripts/n8n-runtime');
/* eslint-enable @typescript-eslint/no-require-imports */

const VERSION = '2.41.1';
const WORKFLOW = 'LoftyExample0003';
const OWNER = { email: 'demo@example.com', password: 'LoftyDemo1' };

async function until<T>(check: () => Promise<T | undefined>, what: () => string, timeoutMs = 120_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check().catch(() => undefined);
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what()}`);
		await new Promise((r) => setTimeout(r, 300));
	}
}

/** One `node scripts/start.js` run in `dir`: resolves once its banner is printed. */
class TryOut {
	child: ChildProcess | undefined;
	out = '';

	constructor(private readonly env: Record<string, string>) {}

	async start(): Promise<{ editor: string; sandbox: string; apiKey: string }> {
		this.out = '';
		this.child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.js')], { cwd: ROOT, env: this.env, stdio: ['ignore', 'pipe', 'pipe'] });
		this.child.stdout!.on('data', (d) => (this.out += d));
		this.child.stderr!.on('data', (d) => (this.out += d));
		await until(
			async () => (this.out.includes('Press Ctrl-C') ? true : this.child!.exitCode !== null ? Promise.reject(new Error('exited')) : undefined),
			() => `npm start to get ready (exit code ${this.child?.exitCode}); last lines:\n${this.out.replace(/lofty_sbx_\w+|sbx-demo-secret-\w+/g, '***').split('\n').slice(-15).join('\n')}`,
			600_000,
		);
		return {
			editor: /n8n editor:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(this.out)![1],
			sandbox: /Sandbox API: (http:\/\/127\.0\.0\.1:\d+)/.exec(this.out)![1],
			apiKey: /\(API key (\S+)\)/.exec(this.out)![1],
		};
	}

	/** Ctrl-C, and the exit code. */
	async stop(): Promise<number | null> {
		const child = this.child;
		if (!child || child.exitCode !== null) return child?.exitCode ?? null;
		const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
		child.kill('SIGINT');
		return await exited;
	}
}

const missing = n8nInstalled(VERSION) || process.env.CI === 'true' ? undefined : `n8n ${VERSION} is not in the cache yet (npm start installs it)`;
if (missing) process.stdout.write(`[try-out restart e2e] SKIPPED: ${missing}\n`);

(missing ? describe.skip : describe)('npm start, Ctrl-C, npm start again', () => {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lofty-tryout-restart-'));
	let run: TryOut;

	afterAll(async () => {
		await run?.stop().catch(() => undefined);
		if (run?.child?.exitCode === null) run.child.kill('SIGKILL');
		fs.rmSync(dir, { recursive: true, force: true });
	});

	test('a published Lofty Trigger workflow fires before and after the restart', async () => {
		const env = { ...cleanEnv(), LOFTY_TRYOUT_DIR: dir, LOFTY_TRYOUT_PORT: String(await freePort()), LOFTY_SANDBOX_PORT: String(await freePort()) };
		delete env.NODE_ENV;
		run = new TryOut(env);
		let urls = await run.start();

		const login = async (): Promise<Record<string, string>> => {
			const r = await httpRequest('POST', `${urls.editor}/rest/login`, { emailOrLdapLoginId: OWNER.email, password: OWNER.password });
			expect(r.status).toBe(200);
			return { cookie: (r.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; '), 'browser-id': 'e2e' };
		};
		let session = await login();
		const scopes = await httpRequest('GET', `${urls.editor}/rest/api-keys/scopes`, undefined, session);
		const key = await httpRequest('POST', `${urls.editor}/rest/api-keys`, { label: 'restart e2e', scopes: scopes.json?.data ?? scopes.json, expiresAt: null }, session);
		const apiHeaders = { 'X-N8N-API-KEY': (key.json?.data ?? key.json).rawApiKey as string };
		const published = await httpRequest('POST', `${urls.editor}/api/v1/workflows/${WORKFLOW}/activate`, undefined, apiHeaders);
		expect(published.status).toBe(200);

		// The credentials npm start made, named for what they are; the Client Credentials one tests OK as it is.
		const creds = await httpRequest('GET', `${urls.editor}/rest/credentials`, undefined, session);
		const made = (creds.json?.data ?? creds.json) as Array<{ id: string; name: string; type: string; updatedAt?: string }>;
		expect(made.map((c) => c.name).sort()).toEqual(
			expect.arrayContaining(['Lofty API (sandbox)', 'Lofty OAuth2 (sandbox): Authorization Code', 'Lofty OAuth2 (sandbox): Client Credentials', 'Lofty OAuth2 (sandbox): PKCE']),
		);
		// The API key credential is the most recently updated Lofty one: n8n preselects it for a new Lofty node.
		const newestLofty = (list: Array<{ name: string; type: string; updatedAt?: string }>) =>
			list.filter((c) => c.type === 'loftyApi' || c.type === 'loftyOAuth2Api').sort((a, b) => String(b.updatedAt).localeCompare(String(a.updatedAt)))[0]?.name;
		expect(newestLofty(made)).toBe('Lofty API (sandbox)');
		const cc = made.find((c) => c.name === 'Lofty OAuth2 (sandbox): Client Credentials')!;
		const stored = await httpRequest('GET', `${urls.editor}/rest/credentials/${cc.id}?includeData=true`, undefined, session);
		const data = (stored.json?.data ?? stored.json).data;
		const tested = await httpRequest('POST', `${urls.editor}/rest/credentials/test`, { credentials: { id: cc.id, name: cc.name, type: cc.type, data } }, session);
		expect((tested.json?.data ?? tested.json).status).toBe('OK');

		/** Moves a seeded lead to another stage through the sandbox's API; resolves when its execution is done. */
		const fire = async (stage: string): Promise<void> => {
			const auth = { Authorization: `token ${urls.apiKey}` };
			const page = await httpRequest('GET', `${urls.sandbox}/tryout/state`);
			const lead = (page.json.leads as Array<{ leadId: string; stage: string }>).find((l) => l.stage !== stage)!;
			const before = await httpRequest('GET', `${urls.editor}/api/v1/executions?workflowId=${WORKFLOW}&limit=50`, undefined, apiHeaders);
			const known = new Set((before.json?.data ?? []).map((e: { id: string }) => e.id));
			const put = await httpRequest('PUT', `${urls.sandbox}/v1.0/leads/${lead.leadId}`, { stage }, auth);
			expect(put.status).toBe(200);
			await until(
				async () => {
					const r = await httpRequest('GET', `${urls.editor}/api/v1/executions?workflowId=${WORKFLOW}&limit=50&includeData=true`, undefined, apiHeaders);
					const fresh = (r.json?.data ?? []).filter((e: { id: string; finished?: boolean; stoppedAt?: string }) => !known.has(e.id) && (e.finished || e.stoppedAt));
					return fresh.find((e: unknown) => JSON.stringify(e).includes(lead.leadId)) ? true : undefined;
				},
				() => `an execution of ${WORKFLOW} for lead ${lead.leadId} moved to ${stage}`,
			);
		};

		/** A lead made through the sandbox's API: its ID as text. */
		const newLeadId = async (n: number): Promise<string> => {
			const made = await httpRequest('POST', `${urls.sandbox}/v1.0/leads`, { firstName: 'Restart', lastName: `Probe ${n}`, emails: [`restart${n}@example.com`] }, { Authorization: `token ${urls.apiKey}` });
			expect(made.status).toBe(200);
			return /"leadId":(\d+)/.exec(made.text)![1];
		};
		const before = await newLeadId(1);

		// Subscribed (2.41 activates through an outbox: shortly after the answer), then fired.
		await until(async () => ((await httpRequest('GET', `${urls.sandbox}/tryout/state`)).json.subscriptions.length >= 2 ? true : undefined), () => 'the trigger\'s subscriptions');
		await fire('Hot');

		expect(await run.stop()).toBe(0);
		expect(JSON.parse(fs.readFileSync(path.join(dir, 'sandbox-webhooks.json'), 'utf8')).map((s: { listId: number }) => s.listId).sort((a: number, b: number) => a - b)).toEqual([2, 12]);

		urls = await run.start();
		expect(run.out).toMatch(/2 subscription\(s\) restored/);
		session = await login();
		expect(session.cookie).not.toBe('');
		const listed = (await httpRequest('GET', `${urls.sandbox}/tryout/state`)).json.subscriptions.map((s: { event: string }) => s.event).sort();
		expect(listed).toEqual(['Lead Info', 'Pipeline Change']);
		// New records after the restart get IDs the first start did not hand out (the Polling Trigger remembers them).
		expect(await newLeadId(2)).not.toBe(before);
		expect(fs.readFileSync(path.join(dir, 'sandbox-ids.json'), 'utf8')).toContain('"starts":2');
		await fire('Nurture');
	});
});
