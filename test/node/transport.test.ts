import { resetPacing } from '../../nodes/Lofty/transport/pacing';
import { SEED_IDS } from '../../sandbox';
import { apiKeyCredential, byId, oauthCredential, run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const getLead = { resource: 'lead', operation: 'get', leadId: byId(SEED_IDS.bigLeadId) };

describe('authentication', () => {
	it('sends the API key as "token <key>"', async () => {
		await run(sandbox(), getLead);
		expect(sandbox().requests[0].authScheme).toBe('token');
	});

	it('sends OAuth2 tokens as Bearer and works with a sandbox-issued token', async () => {
		const token = sandbox().issueToken({ scopes: 'all' });
		const [item] = await run(sandbox(), getLead, { credential: oauthCredential(sandbox(), token) });
		expect(item.json.leadId).toBe(SEED_IDS.bigLeadId);
		expect(sandbox().requests[0].authScheme).toBe('bearer');
	});

	it('explains a wrong API key (401) as the credential test does, without echoing it', async () => {
		const error = await runError(sandbox(), getLead, { credential: apiKeyCredential(sandbox(), 'wrong-key-123') });
		expect(error.message).toBe('Lofty rejected the API key (401). Copy it again from Lofty: Settings > Integrations > API.');
		expect(error.description).toMatch(/^Lofty answered \(HTTP 401 BAD_CREDENTIALS\): Invalid API key\./);
		expect(error.description).not.toMatch(/Bearer/);
		expect(JSON.stringify({ m: error.message, d: error.description })).not.toContain('wrong-key-123');
	});

	it('explains a rejected OAuth2 access token (401) with the reconnect advice', async () => {
		const error = await runError(sandbox(), getLead, { credential: oauthCredential(sandbox(), 'not-a-token-456') });
		expect(error.message).toMatch(/^Lofty rejected the access token \(401\)\. Reconnect the credential/);
		expect(error.description).toMatch(/HTTP 401 BAD_CREDENTIALS\): Invalid access token/);
		expect(error.description).not.toMatch(/Bearer/);
		expect(JSON.stringify({ m: error.message, d: error.description })).not.toContain('not-a-token-456');
	});

	it('explains an API key put in the OAuth2 credential (400/200058)', async () => {
		const error = await runError(sandbox(), getLead, { credential: oauthCredential(sandbox(), sandbox().apiKey) });
		expect(error.message).toMatch(/HTTP 400 200058/);
		expect(error.description).toMatch(/Sending an API key as Bearer gives code 200058/);
		expect(`${error.message} ${error.description}`).not.toContain(sandbox().apiKey);
	});

	it('explains a token without the endpoint in its scope (403/200100)', async () => {
		const token = sandbox().issueToken({ scopes: ['GET /v1.0/me'] });
		const error = await runError(sandbox(), getLead, { credential: oauthCredential(sandbox(), token) });
		expect(error.message).toMatch(/HTTP 403 200100/);
		expect(error.description).toMatch(/developer portal/);
	});
});

describe('rate limit', () => {
	// A fresh pace: what an earlier test's window left would not hold for the limit set here.
	beforeEach(() => resetPacing());

	it('paces requests by the announced limit, so none is refused, and all succeed', async () => {
		sandbox().setRateLimit({ perWindow: 2, windowMs: 1000 });
		const items = await run(sandbox(), getLead, { items: [{}, {}, {}, {}, {}] });
		expect(items).toHaveLength(5);
		for (const item of items) expect(item.json.leadId).toBe(SEED_IDS.bigLeadId);
		const statuses = sandbox().requests.map((r) => r.status);
		expect(statuses.filter((s) => s === 429)).toHaveLength(0);
		expect(statuses.filter((s) => s === 200)).toHaveLength(5);
	});

	it('waits for the reset after a 429 and then succeeds', async () => {
		sandbox().faults.inject({ kind: '429', times: 2, retryAfterSec: 1 });
		const [item] = await run(sandbox(), getLead);
		expect(item.json.leadId).toBe(SEED_IDS.bigLeadId);
		expect(sandbox().requests.map((r) => r.status)).toEqual([429, 429, 200]);
	});

	it('gives up after a bounded number of retries with an explanation', async () => {
		sandbox().setRateLimit({ perWindow: 0, windowMs: 300 });
		const error = await runError(sandbox(), getLead);
		expect(error.message).toMatch(/^Lofty error \(HTTP 429\): Too Many Requests/);
		expect(error.description).toMatch(/100 requests per minute/);
		expect(sandbox().requests).toHaveLength(5);
	});
});

describe('connection problems', () => {
	it('names the unreachable base URL', async () => {
		const error = await runError(sandbox(), getLead, { credential: { type: 'loftyApi', data: { apiKey: 'k', baseUrl: 'http://127.0.0.1:9' } } });
		expect(error.message).toBe(`Could not reach Lofty at http://127.0.0.1:9/v1.0/leads/${SEED_IDS.bigLeadId}`);
		expect(error.description).toMatch(/ECONNREFUSED/);
	});
});
