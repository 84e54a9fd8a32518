/**
 * No secret ever shows: every operation is run with the API key and with an OAuth token, successes,
 * failures and every injected fault, and all outputs, error messages, descriptions, stacks, the
 * errors' own fields, what the node logged, the console and the pacing state are searched for the
 * API keys, the OAuth client secret and the access tokens.
 */
import { inspect } from 'node:util';

import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { Lofty } from '../../nodes/Lofty/Lofty.node';
import { pacingKeys } from '../../nodes/Lofty/transport/pacing';
import { RESOURCES } from '../../nodes/Lofty/resources';
import { SEED_IDS, type Sandbox, startSandbox } from '../../sandbox';
import { type Credential, type Params, createContext } from '../harness/context';
import { byId } from '../harness/sandbox';
import { valid } from '../fuzz/inputs';
import { HUNG_MS, VERY_LONG_TEST_MS } from '../harness/budgets';

const node = new Lofty();
let sandbox: Sandbox;
const haystack: string[] = [];
const consoleSpies: jest.SpyInstance[] = [];
const WRONG_KEY = 'wrong-api-key-5f1c0e9a7b3d44e2a1c6';

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, rateLimit: { perWindow: 1_000_000, windowMs: 60_000 } });
	for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
		consoleSpies.push(jest.spyOn(console, method).mockImplementation((...args: unknown[]) => void haystack.push(inspect(args, { depth: 8 }))));
	}
});
afterAll(async () => {
	for (const spy of consoleSpies) spy.mockRestore();
	await sandbox.stop();
});

function record(value: unknown): void {
	haystack.push(typeof value === 'string' ? value : inspect(value, { depth: 12, showHidden: true, getters: false }));
	try {
		haystack.push(JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? '');
	} catch {
		// circular: inspect above has it
	}
}

/** Runs the node like n8n would, with a logger that keeps what it is given. */
async function runAndRecord(credential: Credential, params: Params | ((i: number) => Params), items: IDataObject[] = [{}], continueOnFail = true) {
	const authentication = credential.type === 'loftyOAuth2Api' ? 'oAuth2' : 'apiKey';
	const withAuth = typeof params === 'function' ? (i: number) => ({ authentication, ...params(i) }) : { authentication, ...params };
	const context = createContext(node, { params: withAuth, credential, items, continueOnFail }) as IExecuteFunctions & { logger: unknown };
	const log = (...args: unknown[]) => record(args);
	context.logger = { debug: log, info: log, warn: log, error: log };
	try {
		const result = await node.execute.call(context);
		record(result);
	} catch (error) {
		const e = error as Error & { description?: string };
		record(e.message);
		record(e.description);
		record(e.stack);
		record(e);
	}
}

function paramsOf(resource: string, op: (typeof RESOURCES)[number]['operations'][number]): Params {
	const params: Params = { resource, operation: op.value };
	for (const p of op.params.filter((q) => q.required)) params[p.name] = valid(p);
	if (op.pagination) params.limit = 3;
	return params;
}

describe('secrets never appear in outputs, errors or logs', () => {
	let secrets: string[] = [];

	it('runs every operation with both credentials, and every fault', async () => {
		const token = sandbox.issueToken({ scopes: 'all' });
		const narrowToken = sandbox.issueToken({ scopes: ['GET /v1.0/me'] });
		const expiredToken = sandbox.issueToken({ scopes: 'all' });
		sandbox.expireToken(expiredToken);
		secrets = [sandbox.apiKey, sandbox.otherAgentApiKey, sandbox.oauthClient.clientSecret, token, narrowToken, expiredToken, WRONG_KEY];

		const apiKey: Credential = { type: 'loftyApi', data: { apiKey: sandbox.apiKey, baseUrl: sandbox.url, rateLimit: 'production' } };
		const other: Credential = { type: 'loftyApi', data: { apiKey: sandbox.otherAgentApiKey, baseUrl: sandbox.url } };
		const wrong: Credential = { type: 'loftyApi', data: { apiKey: WRONG_KEY, baseUrl: sandbox.url } };
		const oauth = (accessToken: string): Credential => ({
			type: 'loftyOAuth2Api',
			data: { baseUrl: sandbox.url, clientId: sandbox.oauthClient.clientId, clientSecret: sandbox.oauthClient.clientSecret, oauthTokenData: { access_token: accessToken } },
		});
		const unreachable: Credential = { type: 'loftyApi', data: { apiKey: sandbox.apiKey, baseUrl: 'http://127.0.0.1:9' } };

		for (const resource of RESOURCES) {
			for (const op of resource.operations) {
				const params = paramsOf(resource.value, op);
				await runAndRecord(apiKey, params);
				await runAndRecord(oauth(token), params, [{}], false);
				await runAndRecord(other, params, [{}], false);
			}
		}
		const getLead = { resource: 'lead', operation: 'get', leadId: byId(SEED_IDS.bigLeadId) };
		const update = { resource: 'lead', operation: 'update', leadId: byId(SEED_IDS.bigLeadId), updateFields: { firstName: 'Secret' }, requestOptions: { timeout: 300 } };
		await runAndRecord(wrong, getLead, [{}], false);
		await runAndRecord(oauth(narrowToken), getLead, [{}], false);
		await runAndRecord(oauth(expiredToken), getLead, [{}], false);
		await runAndRecord(oauth(sandbox.apiKey), getLead, [{}], false);
		await runAndRecord(unreachable, getLead, [{}], false);
		for (const credential of [apiKey, oauth(token)]) {
			sandbox.faults.inject({ kind: '429', times: 5, retryAfterSec: 1 });
			await runAndRecord(credential, getLead, [{}], false);
			sandbox.faults.inject({ kind: '500', times: 5 });
			await runAndRecord(credential, { ...getLead, requestOptions: { readRetries: 0 } }, [{}], false);
			sandbox.faults.inject({ kind: 'slow', delayMs: HUNG_MS, times: 2 });
			await runAndRecord(credential, { ...getLead, requestOptions: { timeout: 300, readRetries: 1 } }, [{}], false);
			sandbox.faults.inject({ kind: 'drop', times: 2 });
			await runAndRecord(credential, { ...getLead, requestOptions: { readRetries: 1 } }, [{}], false);
			sandbox.faults.inject({ kind: 'slow', delayMs: HUNG_MS, match: { method: 'PUT' } });
			await runAndRecord(credential, update, [{}], true);
			sandbox.faults.inject({ kind: 'drop', match: { method: 'PUT' } });
			await runAndRecord(credential, update, [{}], false);
		}
		record(pacingKeys());
		record(sandbox.requests.map((r) => ({ ...r, body: r.body.slice(0, 10_000) })));
		expect(haystack.length).toBeGreaterThan(400);
	}, VERY_LONG_TEST_MS);

	it('finds none of them', () => {
		expect(secrets.length).toBe(7);
		const text = haystack.join('\n');
		// The scan sees what a user sees: error messages, descriptions and outputs.
		expect(text).toContain('Could not reach Lofty at http://127.0.0.1:9');
		expect(text).toContain('may or may not have been applied');
		expect(text).toContain(SEED_IDS.bigLeadId);
		for (const secret of secrets) {
			expect(secret.length).toBeGreaterThan(8);
			const hit = text.indexOf(secret);
			expect({ secret: `${secret.slice(0, 4)}...`, context: hit < 0 ? null : text.slice(Math.max(0, hit - 200), hit + 50) }).toEqual({ secret: `${secret.slice(0, 4)}...`, context: null });
		}
	});

	it('the pacing state is keyed without the secrets', () => {
		const keys = pacingKeys().join('\n');
		expect(keys).toMatch(/loftyApi/);
		for (const secret of secrets) expect(keys).not.toContain(secret);
	});
});
