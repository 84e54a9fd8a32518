/**
 * The end-to-end suite, shared by the n8n versions it runs on (see n8n-2.41.e2e.ts, n8n-2.8.e2e.ts):
 *
 *   - the sandbox in this process on loopback (rate limit raised: the suite sends a few hundred requests a minute)
 *   - an OAuth2 access token obtained over HTTP: the sandbox's authorize redirect (PKCE), then the token exchange
 *   - one n8n server (n8nServer.ts) with both credentials stored through its API
 *   - one workflow per resource (plan.ts), run as the editor's "Execute workflow" does, results read back from
 *     the saved execution through the public API
 *   - n8n's credential test for both credential types, an error path and "On Error: Continue"
 *   - the Lofty Trigger: activated through the public API (subscriptions in the sandbox), sandbox writes delivered
 *     on real timers become executions, re-sent deliveries, pings and requests without the token start none,
 *     deactivation deletes the subscriptions (triggerLifecycle.ts)
 */
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { type Sandbox, SEED_IDS, startSandbox } from '../../sandbox';
import { RESOURCES } from '../../nodes/Lofty/resources';
import { atLeast } from './n8nApiChanges';
import { defineOAuthConnectTests } from './oauthConnect';
import { defineRecordingDownloadTests } from './recordingDownload';
import { defineTriggerLifecycleTests } from './triggerLifecycle';
import { defineUpsertWebhookTests } from './upsertWebhook';
import { type ExecutionResult, N8nServer, NODE_TYPE, ROOT, httpRequest, n8nInstalled } from './n8nServer';
import { type Flow, type Json, type Step, byId } from './plan';

export const TRIGGER = 'Manual Trigger';
const API_CRED = 'Lofty API key (e2e)';
const OAUTH_CRED = 'Lofty OAuth2 (e2e)';

export interface SuiteOptions {
	version: string;
	plan: () => Flow[];
	/** Skip (with a log line) instead of installing n8n when it is not in the cache. */
	skipWhenNotInstalled?: boolean;
}

let nodeCounter = 0;
const uid = (): string => `e2e-${(++nodeCounter).toString(36)}-${randomBytes(4).toString('hex')}`;

export function triggerNode(): Json {
	return { id: uid(), name: TRIGGER, type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} };
}

export function loftyNode(step: Pick<Step, 'name' | 'resource' | 'operation' | 'params' | 'oauth'>, creds: { api: Json; oauth: Json }, x: number, extra: Json = {}): Json {
	const authentication = step.oauth ? 'oAuth2' : 'apiKey';
	return {
		id: uid(),
		name: step.name,
		type: NODE_TYPE,
		typeVersion: 1,
		position: [x, 0],
		parameters: { authentication, resource: step.resource, operation: step.operation, ...(step.params ?? {}) },
		credentials: step.oauth ? { loftyOAuth2Api: creds.oauth } : { loftyApi: creds.api },
		...extra,
	};
}

/** Manual Trigger -> node 1 -> node 2 -> ... */
export function chain(name: string, nodes: Json[]): { name: string; nodes: Json[]; connections: Json } {
	const all = [triggerNode(), ...nodes];
	const connections: Json = {};
	for (let i = 0; i < all.length - 1; i++) connections[all[i].name] = { main: [[{ node: all[i + 1].name, type: 'main', index: 0 }]] };
	return { name, nodes: all, connections };
}

const outcome = (r: { status: string; message: string }): string => `${r.status}: ${r.message}`;

/** The items a node output in an execution, or why there are none. */
export function outputOf(ex: ExecutionResult, node: string): { items?: Json[]; error?: string } {
	const runs = ex.runData[node];
	if (!runs?.length) return { error: `node "${node}" did not run (ran: ${Object.keys(ex.runData).join(', ')}; execution ${ex.status}${ex.error ? `: ${ex.error.message}` : ''})` };
	const last = runs[runs.length - 1];
	if (last.error) return { error: `node "${node}" failed: ${last.error.message}${last.error.description ? ` (${last.error.description})` : ''}` };
	return { items: (last.data?.main?.[0] ?? []).map((i: Json) => i.json) };
}

/** What went wrong in each step of a flow's execution ([] when nothing); `seen(step, ok)` hears of every step. */
export function flowProblems(ex: ExecutionResult, flow: Flow, seen: (step: Step, ok: boolean) => void = () => undefined): string[] {
	const problems: string[] = [];
	for (const step of flow.steps) {
		const out = outputOf(ex, step.name);
		const label = `${step.name} (${step.resource}.${step.operation})`;
		try {
			if (out.error) throw new Error(out.error);
			const items = out.items!;
			const failed = items.find((i) => i.error !== undefined);
			if (failed) throw new Error(`returned an error item: ${JSON.stringify(failed).slice(0, 600)}`);
			const c = step.count;
			if (c === undefined) expect(items.length).toBeGreaterThanOrEqual(1);
			else if (typeof c === 'number') expect(items).toHaveLength(c);
			else {
				expect(items.length).toBeGreaterThanOrEqual(c[0]);
				expect(items.length).toBeLessThanOrEqual(c[1]);
			}
			step.check?.(items);
			seen(step, true);
		} catch (e) {
			problems.push(`${label}: ${(e as Error).message.split('\n').slice(0, 12).join('\n')}`);
			seen(step, false);
		}
	}
	return problems;
}

/** Authorize (the sandbox auto-approves as the demo owner) with PKCE, then exchange the code: the token response. */
export async function oauthToken(sandbox: Sandbox, redirectUri: string): Promise<Json> {
	const verifier = randomBytes(32).toString('base64url');
	const challenge = createHash('sha256').update(verifier).digest('base64url');
	const q = new URLSearchParams({ clientId: sandbox.oauthClient.clientId, redirect_uri: redirectUri, state: 'e2e', code_challenge: challenge, code_challenge_method: 'S256' });
	const auth = await httpRequest('GET', `${sandbox.url}/page/vendor-auth.html?${q}`);
	const location = auth.headers.location;
	if (auth.status !== 302 || !location) throw new Error(`authorize answered ${auth.status}: ${auth.text.slice(0, 300)}`);
	const code = new URL(location).searchParams.get('code');
	if (!code) throw new Error(`authorize redirected without a code: ${location}`);
	const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: sandbox.oauthClient.clientId, code_verifier: verifier });
	const tok = await httpRequest('POST', `${sandbox.url}/api/user-web/oauth/token`, form.toString(), { 'content-type': 'application/x-www-form-urlencoded' });
	if (tok.status !== 200 || !tok.json?.access_token) throw new Error(`token exchange answered ${tok.status}: ${tok.text.slice(0, 300)}`);
	return tok.json;
}

/** A Lofty OAuth2 credential's data for the sandbox's demo client, holding `tokenData`. */
export function oauthCredentialData(sandbox: Sandbox, tokenData: Json): Json {
	return {
		grantType: 'authorizationCode',
		clientId: sandbox.oauthClient.clientId,
		clientSecret: sandbox.oauthClient.clientSecret,
		authUrl: `${sandbox.url}/page/vendor-auth.html`,
		accessTokenUrl: `${sandbox.url}/api/user-web/oauth/token`,
		baseUrl: sandbox.url,
		oauthTokenData: tokenData,
	};
}

export function defineSuite(opts: SuiteOptions): void {
	const { version } = opts;
	const available = !opts.skipWhenNotInstalled || n8nInstalled(version);
	if (!available) {
		// eslint-disable-next-line no-console
		console.log(`[e2e ${version}] SKIPPED: n8n ${version} is not installed in the cache (install it with: node scripts/n8n-runtime.js --version ${version})`);
		describe(`n8n ${version} end to end`, () => {
			test.skip(`n8n ${version} not installed`, () => undefined);
		});
		return;
	}

	const plan = opts.plan();
	const n8n = new N8nServer(version);
	let sandbox: Sandbox;
	let token: Json;
	const creds = { api: {} as Json, oauth: {} as Json };
	const stats = { workflows: 0, executions: 0, runMs: 0, covered: new Set<string>(), failedSteps: [] as string[], trigger: 'not run' };
	const t0 = Date.now();
	let startedAt = 0;

	async function run(wf: { name: string; nodes: Json[]; connections: Json }): Promise<ExecutionResult> {
		const id = await n8n.createWorkflow(wf);
		stats.workflows++;
		const t = Date.now();
		const ex = await n8n.runWorkflow(id, TRIGGER);
		stats.executions++;
		stats.runMs += Date.now() - t;
		return ex;
	}

	describe(`n8n ${version} end to end`, () => {
		beforeAll(async () => {
			sandbox = await startSandbox({ port: 0, rateLimit: { perWindow: 1_000_000, windowMs: 60_000 } });
			await n8n.start();
			startedAt = Date.now();
			token = await oauthToken(sandbox, `${n8n.base}/rest/oauth2-credential/callback`);
			const apiId = await n8n.createCredential(API_CRED, 'loftyApi', { apiKey: sandbox.apiKey, baseUrl: sandbox.url });
			const oauthId = await n8n.createCredential(OAUTH_CRED, 'loftyOAuth2Api', oauthCredentialData(sandbox, { ...token, token_type: token.token_type ?? 'Bearer' }));
			creds.api = { id: apiId, name: API_CRED };
			creds.oauth = { id: oauthId, name: OAUTH_CRED };
			n8n.log(`sandbox at ${sandbox.url}; credentials ${apiId} (loftyApi), ${oauthId} (loftyOAuth2Api)`);
		});

		afterAll(async () => {
			await n8n.stop();
			await sandbox?.stop();
			const all = RESOURCES.flatMap((r) => r.operations.map((o) => `${r.value}.${o.value}`));
			const resources = new Set([...stats.covered].map((k) => k.split('.')[0]));
			const missing = all.filter((k) => !stats.covered.has(k));
			const lines = [
				`===== e2e summary: n8n ${version} on Node ${n8n.nodeVersion} =====`,
				`workflows run: ${stats.executions} (${stats.workflows} created), execution time ${(stats.runMs / 1000).toFixed(1)}s`,
				`operations covered: ${stats.covered.size} of ${all.length}, resources ${resources.size} of ${RESOURCES.length}`,
				missing.length ? `not covered: ${missing.join(', ')}` : 'not covered: none',
				stats.failedSteps.length ? `failed steps: ${stats.failedSteps.join('; ')}` : 'failed steps: none',
				`Lofty Trigger: ${stats.trigger}`,
				`setup: ${Object.entries(n8n.timings).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}s`).join(', ')}`,
				`duration: ${((Date.now() - t0) / 1000).toFixed(1)}s (${startedAt ? ((Date.now() - startedAt) / 1000).toFixed(1) : '?'}s after n8n was ready)`,
			];
			const text = lines.join('\n');
			process.stdout.write(`\n${text}\n\n`);
			fs.mkdirSync(path.join(ROOT, '.e2e'), { recursive: true });
			fs.writeFileSync(path.join(ROOT, '.e2e', `summary-${version}.txt`), `${text}\n`);
		});

		describe('credential tests (POST /rest/credentials/test, as the editor runs them on a saved credential)', () => {
			const oauthData = (tokenData: Json): Json => oauthCredentialData(sandbox, tokenData);

			test('Lofty API: the demo key passes', async () => {
				expect(outcome(await n8n.testStoredCredential(creds.api.id))).toMatch(/^OK/);
			});

			test("Lofty API: a wrong key fails with the credential's message", async () => {
				const id = await n8n.createCredential('Lofty API wrong key (e2e)', 'loftyApi', { apiKey: 'not-a-real-key', baseUrl: sandbox.url });
				const r = await n8n.testStoredCredential(id);
				expect(r.status).toBe('Error');
				// n8n before 2.9 (1.123.81 and 2.8.4 tested) answers its own message for a 401 before the credential's rules are read.
				expect(r.message).toMatch(atLeast(version, '2.9.0') ? /Lofty rejected the API key \(401\)/ : /Lofty rejected the API key \(401\)|Authorization failed/);
			});

			test('Lofty OAuth2: oauthTokenData.access_token issued by the sandbox passes', async () => {
				const r = await n8n.testStoredCredential(creds.oauth.id, { oauthTokenData: { access_token: token.access_token } });
				expect(outcome(r)).toMatch(/^OK/);
				expect(sandbox.requests.at(-1)?.authScheme).toBe('bearer');
			});

			test('Lofty OAuth2: an expired access token is refreshed by n8n at the sandbox, then passes', async () => {
				const second = await oauthToken(sandbox, `${n8n.base}/rest/oauth2-credential/callback`);
				sandbox.expireToken(second.access_token);
				const tokenData = { ...second, token_type: 'Bearer' };
				const id = await n8n.createCredential('Lofty OAuth2 expired (e2e)', 'loftyOAuth2Api', oauthData(tokenData));
				const before = sandbox.count('POST', '/api/user-web/oauth/token');
				expect(outcome(await n8n.testStoredCredential(id, { oauthTokenData: tokenData }))).toMatch(/^OK/);
				expect(sandbox.count('POST', '/api/user-web/oauth/token')).toBe(before + 1);
			});

			test('Lofty OAuth2: a revoked token without a refresh token fails', async () => {
				const tokenData = { access_token: 'revoked-token', token_type: 'Bearer' };
				const id = await n8n.createCredential('Lofty OAuth2 revoked (e2e)', 'loftyOAuth2Api', oauthData(tokenData));
				const r = await n8n.testStoredCredential(id, { oauthTokenData: tokenData });
				n8n.log(`revoked OAuth2 token: n8n says "${r.message}"`);
				expect(r.status).toBe('Error');
			});
		});

		describe("Lofty OAuth2: connecting through n8n's OAuth2 flow", () => defineOAuthConnectTests(() => ({ n8n, sandbox })));

		describe('Lead > Create or Update behind a Webhook: a form sent twice at once', () => defineUpsertWebhookTests(() => ({ n8n, sandbox, creds })));

		describe('Call > Download Recording: the file in the execution', () =>
			defineRecordingDownloadTests(() => ({ n8n, sandbox, creds, run, chain, node: (step, x, extra = {}) => loftyNode(step, creds, x, extra) })),
		);

		describe('operations, one workflow per resource', () => {
			for (const flow of plan) {
				test(`${flow.title}: ${flow.steps.map((s) => `${s.resource}.${s.operation}`).join(', ')}`, async () => {
					const nodes = flow.steps.map((s, i) => loftyNode(s, creds, 220 * (i + 1), { executeOnce: true, onError: 'continueRegularOutput' }));
					const ex = await run(chain(`Lofty e2e: ${flow.title}`, nodes));
					const problems = flowProblems(ex, flow, (step, ok) => {
						if (ok) stats.covered.add(`${step.resource}.${step.operation}`);
						else stats.failedSteps.push(`${flow.title}/${step.name}`);
					});
					if (problems.length) throw new Error(`execution ${ex.id} (${ex.status}):\n${problems.join('\n\n')}`);
					expect(ex.status).toBe('success');
				});
			}
		});

		describe('errors as a user meets them', () => {
			const getHidden = { name: 'Get Hidden Lead', resource: 'lead', operation: 'get', params: { leadId: byId(SEED_IDS.notSharedLeadId) } };

			test('Lead Get of a lead the user cannot see fails the execution, naming HTTP 404 LEAD_NOT_EXIST', async () => {
				const ex = await run(chain('Lofty e2e: error path', [loftyNode(getHidden, creds, 220)]));
				expect(ex.status).toBe('error');
				const out = outputOf(ex, getHidden.name);
				expect(out.error).toMatch(/HTTP 404 LEAD_NOT_EXIST/);
				expect(out.error).toMatch(/cannot see it/);
				expect(ex.error?.message).toMatch(/HTTP 404 LEAD_NOT_EXIST/);
			});

			test('On Error "Continue": the failing item becomes an item with `error`, the others pass, the workflow goes on', async () => {
				const list = { name: 'Three Leads', resource: 'lead', operation: 'getAll', params: { returnAll: false, limit: 3 } };
				const get = {
					name: 'Get Each Lead',
					resource: 'lead',
					operation: 'get',
					params: { leadId: byId(`={{ $itemIndex === 1 ? '${SEED_IDS.notSharedLeadId}' : $json.leadId }}`) },
				};
				const after = { name: 'Tags After', resource: 'tag', operation: 'getAll' };
				const ex = await run(
					chain('Lofty e2e: continue on fail', [
						loftyNode(list, creds, 220),
						loftyNode(get, creds, 440, { onError: 'continueRegularOutput' }),
						loftyNode(after, creds, 660, { executeOnce: true }),
					]),
				);
				expect(ex.status).toBe('success');
				const listed = outputOf(ex, list.name).items!;
				const items = outputOf(ex, get.name).items!;
				expect(items).toHaveLength(3);
				expect(items[0].leadId).toBe(listed[0].leadId);
				expect(items[1].error).toMatch(/HTTP 404 LEAD_NOT_EXIST/);
				expect(items[2].leadId).toBe(listed[2].leadId);
				expect(outputOf(ex, after.name).items!.length).toBeGreaterThan(0);
				stats.covered.add('lead.get');
			});
		});

		describe('Lofty Trigger: activate, deliveries from the sandbox, duplicates, deactivate', () =>
			defineTriggerLifecycleTests({ n8n, sandbox: () => sandbox, creds, uid, report: (text) => (stats.trigger = text) }),
		);
	});
}
