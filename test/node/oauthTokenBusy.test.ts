/**
 * An OAuth2 credential whose token request Lofty answers 429 or 5xx, through n8n-core's own OAuth2 helper (n8n 2.41.1's
 * requestOAuth2 and @n8n/client-oauth2): n8n throws the token endpoint's status (ResponseError, code ESTATUS), as it is
 * on a renewal and wrapped in "Failed to acquire OAuth2 access token" on a first token. The request itself was not
 * sent, so the transport waits and asks again, for a write too; if the token endpoint keeps failing, the item says so.
 * Before: a renewal answered 429 failed the item with "Could not reach Lofty at …", a first token answered 429 with
 * "Lofty refused the credential's token request" (CHANGELOG, issue 45's finding).
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { runWithN8nOAuth2, savedClientCredentials } from '../harness/n8nOAuth2';
import { node, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const TOKEN_PATH = '/api/user-web/oauth/token';

const saved = () => savedClientCredentials(sandbox().url);
const run = async (stored: { data: IDataObject; saves: number }, params: IDataObject): Promise<INodeExecutionData[]> => await runWithN8nOAuth2(node, stored, params);
const tokenStatuses = () => sandbox().requests.filter((r) => r.path === TOKEN_PATH).map((r) => r.status);
const apiRequests = () => sandbox().requests.filter((r) => r.path.startsWith('/v1.0/'));
const getMe = { resource: 'member', operation: 'getMe' };
const createLead = { resource: 'lead', operation: 'create', firstName: 'Token', additionalFields: { emails: ['token-busy@example.com'] } };
const busy = (status: number, times: number) =>
	status === 429
		? sandbox().faults.inject({ kind: '429', times, retryAfterSec: 1, match: { method: 'POST', path: TOKEN_PATH } })
		: sandbox().faults.inject({ kind: '500', status, times, message: 'token service unavailable', match: { method: 'POST', path: TOKEN_PATH } });

describe('an OAuth2 token request Lofty answers 429 or 5xx', () => {
	it.each([429, 503])('first token answered %i once: n8n asks again, the read passes', async (status) => {
		busy(status, 1);
		const stored = saved();
		const [me] = await run(stored, getMe);
		expect(me.json.memberUserId).toBeDefined();
		expect(tokenStatuses()).toEqual([status, 200]);
		expect(stored.saves).toBe(1);
	});

	it.each([429, 502])('renewal answered %i once: the write is applied once, after the new token', async (status) => {
		const stored = saved();
		await run(stored, getMe);
		sandbox().expireToken((stored.data.oauthTokenData as IDataObject).access_token as string);
		busy(status, 1);
		const before = sandbox().store.leads.size;
		const items = await run(stored, createLead);
		expect(items).toHaveLength(1);
		expect(sandbox().store.leads.size).toBe(before + 1);
		expect(tokenStatuses()).toEqual([200, status, 200]);
		// Sent with the expired token (refused, 401: nothing applied) until n8n had a new one, then once with it.
		const posts = apiRequests().filter((r) => r.method === 'POST').map((r) => r.status);
		expect(posts.at(-1)).toBe(200);
		expect(posts.slice(0, -1).length).toBeGreaterThan(0);
		expect(posts.slice(0, -1).every((s) => s === 401)).toBe(true);
	});

	it('a token endpoint that keeps answering 503: the item says the token request failed and nothing was sent', async () => {
		busy(503, 20);
		const error = (await run(saved(), createLead).catch((e: Error) => e)) as Error & { description?: string };
		expect(error.message).toBe("Lofty answered the credential's token request with HTTP 503, so POST /v1.0/leads was not sent");
		expect(error.description).toMatch(/^Nothing was sent to Lofty \(the token was asked for \d+ times\)\. The credential itself was not refused/);
		expect(apiRequests()).toEqual([]);
		expect(sandbox().store.leads.size).toBeGreaterThan(0);
		expect(tokenStatuses().every((s) => s === 503)).toBe(true);
		expect(tokenStatuses().length).toBeGreaterThan(1);
	});
});
