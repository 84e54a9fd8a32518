/**
 * Pacing, retries and uncertain writes against the sandbox with injected faults. No timing
 * assertions: only what was sent, how often, what was applied, and what every item ended with.
 */
import { SEED_IDS } from '../../sandbox';
import { resetPacing } from '../../nodes/Lofty/transport/pacing';
import { apiKeyCredential, byId, run, runError, useSandbox } from '../harness/sandbox';
import { HUNG_MS, STEP_BUDGET_MS } from '../harness/budgets';

const sandbox = useSandbox();
beforeEach(() => resetPacing());

const leadId = SEED_IDS.bigLeadId;
const getLead = { resource: 'lead', operation: 'get', leadId: byId(leadId) };
// A budget every answered request meets on a loaded machine; the 'slow' faults hold their answer far past it.
const fast = { requestOptions: { timeout: STEP_BUDGET_MS } };
const updateLead = (firstName: string, extra: Record<string, unknown> = {}) => ({
	resource: 'lead',
	operation: 'update',
	leadId: byId(leadId),
	updateFields: { firstName },
	...extra,
});
const leadPath = '/v1.0/leads/{leadId}';
const statuses = () => sandbox().requests.map((r) => r.status);

describe('pacing by the announced rate limit', () => {
	it('keeps a bulk run within the limit: no 429 at all, every item succeeds', async () => {
		sandbox().setRateLimit({ perWindow: 5, windowMs: 1000 });
		const items = await run(sandbox(), getLead, { items: Array.from({ length: 12 }, () => ({})) });
		expect(items).toHaveLength(12);
		for (const item of items) expect(item.json.leadId).toBe(leadId);
		expect(statuses()).toEqual(Array(12).fill(200));
	});

	it('shares the pace between executions that use the same credential at the same time', async () => {
		sandbox().setRateLimit({ perWindow: 6, windowMs: 1000 });
		const many = { items: Array.from({ length: 8 }, () => ({})) };
		const [a, b] = await Promise.all([run(sandbox(), getLead, many), run(sandbox(), getLead, many)]);
		expect(a.length + b.length).toBe(16);
		expect(statuses().filter((s) => s === 429)).toHaveLength(0);
	});

	it('keeps pages of one Return All within the limit too', async () => {
		sandbox().setRateLimit({ perWindow: 2, windowMs: 1000 });
		const items = await run(sandbox(), { resource: 'lead', operation: 'getAll', returnAll: true });
		expect(items.length).toBeGreaterThan(200);
		expect(statuses().length).toBeGreaterThan(2);
		expect(statuses().every((s) => s === 200)).toBe(true);
	});
});

describe('429 bursts', () => {
	it('waits per Retry-After and goes on', async () => {
		sandbox().faults.inject({ kind: '429', times: 3, retryAfterSec: 1 });
		const [item] = await run(sandbox(), getLead);
		expect(item.json.leadId).toBe(leadId);
		expect(statuses()).toEqual([429, 429, 429, 200]);
	});

	it('sends a refused write again, and it is applied exactly once', async () => {
		sandbox().faults.inject({ kind: '429', times: 2, retryAfterSec: 1, match: { method: 'PUT' } });
		const [item] = await run(sandbox(), updateLead('Once'));
		expect(item.json.leadId).toBe(leadId);
		expect(sandbox().faults.writes('PUT', leadPath)).toBe(1);
		expect(sandbox().store.getLead(leadId)?.firstName).toBe('Once');
	});
});

describe('reads are retried', () => {
	it('after 5xx answers', async () => {
		sandbox().faults.inject({ kind: '500', times: 2 });
		sandbox().faults.inject({ kind: '500', status: 503 });
		const [item] = await run(sandbox(), getLead);
		expect(item.json.leadId).toBe(leadId);
		expect(statuses()).toEqual([500, 500, 503, 200]);
	});

	it('after a timeout', async () => {
		sandbox().faults.inject({ kind: 'slow', delayMs: HUNG_MS });
		const [item] = await run(sandbox(), { ...getLead, ...fast });
		expect(item.json.leadId).toBe(leadId);
		expect(sandbox().count('GET', leadPath)).toBe(2);
	});

	it('after dropped connections', async () => {
		sandbox().faults.inject({ kind: 'drop', times: 2 });
		const [item] = await run(sandbox(), getLead);
		expect(item.json.leadId).toBe(leadId);
		expect(sandbox().count('GET', leadPath)).toBe(3);
	});

	it('pages of a list search are retried', async () => {
		const all = await run(sandbox(), { resource: 'lead', operation: 'getAll', returnAll: true });
		sandbox().reset();
		sandbox().faults.inject({ kind: 'drop', skip: 1, match: { path: '/v1.0/leads' } });
		sandbox().faults.inject({ kind: '500', match: { path: '/v1.0/leads' } });
		const items = await run(sandbox(), { resource: 'lead', operation: 'getAll', returnAll: true });
		expect(items.map((i) => i.json.leadId)).toEqual(all.map((i) => i.json.leadId));
		expect(sandbox().requests.map((r) => r.status)).toEqual([200, 0, 500, ...Array(sandbox().requests.length - 3).fill(200)]);
		expect(sandbox().faults.remaining).toBe(0);
	});

	it('then fail clearly once the retries are used up', async () => {
		sandbox().faults.inject({ kind: '500', times: 10 });
		const error = await runError(sandbox(), { ...getLead, requestOptions: { readRetries: 2 } });
		expect(error.message).toMatch(/^Lofty error \(HTTP 500 20005\)/);
		expect(sandbox().count('GET', leadPath)).toBe(3);
	});

	it('a read that always times out names the request and the tries', async () => {
		sandbox().faults.inject({ kind: 'slow', delayMs: HUNG_MS, times: 10 });
		const error = await runError(sandbox(), { ...getLead, requestOptions: { timeout: 200, readRetries: 1 } });
		expect(error.message).toBe(`Lofty did not answer GET /v1.0/leads/${leadId} within 0.2 s (tried 2 times)`);
		expect(error.description).toMatch(/Nothing was changed/);
	});
});

describe('writes are never resent blindly', () => {
	it('a write that timed out is reported as uncertain and not repeated', async () => {
		sandbox().faults.inject({ kind: 'slow', delayMs: HUNG_MS, match: { method: 'PUT' } });
		const error = await runError(sandbox(), { ...updateLead('Slow'), ...fast });
		expect(error.message).toBe(`Lofty did not answer PUT /v1.0/leads/${leadId} within ${STEP_BUDGET_MS / 1000} s: the change may or may not have been applied`);
		expect(error.description).toMatch(/not sent again/);
		expect(sandbox().count('PUT', leadPath)).toBe(1);
		expect(sandbox().faults.writes('PUT', leadPath)).toBe(1);
	});

	it('a write whose connection dropped after it was applied is uncertain, applied once', async () => {
		sandbox().faults.inject({ kind: 'drop', match: { method: 'PUT' } });
		const items = await run(sandbox(), updateLead('Dropped'), { continueOnFail: true });
		expect(items[0].json).toMatchObject({ writeUncertain: true, error: expect.stringMatching(/connection to Lofty was lost during PUT .*may or may not have been applied/) });
		expect(sandbox().count('PUT', leadPath)).toBe(1);
		expect(sandbox().faults.writes('PUT', leadPath)).toBe(1);
	});

	it('a write whose connection dropped before it was applied is uncertain too, and not applied', async () => {
		sandbox().faults.inject({ kind: 'drop', when: 'before', match: { method: 'PUT' } });
		const error = await runError(sandbox(), updateLead('Never'));
		expect(error.message).toMatch(/may or may not have been applied/);
		expect(sandbox().count('PUT', leadPath)).toBe(1);
		expect(sandbox().faults.writes('PUT', leadPath)).toBe(0);
	});

	it('a 5xx on a write fails the item without resending', async () => {
		sandbox().faults.inject({ kind: '500', status: 503, match: { method: 'PUT' } });
		const error = await runError(sandbox(), updateLead('Five'));
		expect(error.message).toMatch(/HTTP 503/);
		expect(sandbox().count('PUT', leadPath)).toBe(1);
		expect(sandbox().faults.writes('PUT', leadPath)).toBe(0);
	});
});

describe('a bulk job under every fault at once', () => {
	it('ends every item with data or a clear error, and applies each write at most once', async () => {
		sandbox().setRateLimit({ perWindow: 8, windowMs: 1000 });
		sandbox().faults.inject({ kind: '429', times: 2, match: { method: 'PUT' } });
		sandbox().faults.inject({ kind: 'drop', match: { method: 'PUT' } });
		sandbox().faults.inject({ kind: 'slow', delayMs: HUNG_MS, match: { method: 'PUT' } });
		sandbox().faults.inject({ kind: '500', match: { method: 'PUT' } });
		sandbox().faults.inject({ kind: 'drop', when: 'before', match: { method: 'PUT' } });
		const n = 20;
		const items = await run(sandbox(), (i) => ({ ...updateLead(`Bulk${i}`), ...fast }), {
			items: Array.from({ length: n }, () => ({})),
			continueOnFail: true,
		});
		expect(items).toHaveLength(n);
		expect(items.map((i) => i.pairedItem)).toEqual(Array.from({ length: n }, (_, item) => ({ item })));
		const failed = items.filter((i) => i.json.error !== undefined);
		expect(failed).toHaveLength(4);
		for (const { json } of failed) expect(json.error).toMatch(/may or may not have been applied|^Lofty error \(HTTP 500/);
		for (const { json } of items.filter((i) => i.json.error === undefined)) expect(json.leadId).toBe(leadId);
		// No request body was applied twice, and every applied write was a distinct item.
		const putBodies = sandbox().requests.filter((r) => r.method === 'PUT' && r.status === 200).map((r) => r.body);
		expect(new Set(putBodies).size).toBe(putBodies.length);
		expect(sandbox().faults.writes('PUT', leadPath)).toBe(n - 2); // the 500 and the drop-before were not applied
		expect(sandbox().requests.filter((r) => r.status === 429 && r.method === 'PUT')).toHaveLength(2);
		expect(sandbox().store.getLead(leadId)?.firstName).toBe(`Bulk${n - 1}`);
	});
});

describe('settings', () => {
	it('refuses a bad timeout clearly', async () => {
		const error = await runError(sandbox(), { ...getLead, requestOptions: { timeout: 'soon' } });
		expect(error.message).toBe('Invalid value for "Timeout": must be a number of milliseconds of at least 1, got soon');
		expect(sandbox().requests).toHaveLength(0);
	});

	it('accepts the rate-limit presets of the credential', async () => {
		for (const rateLimit of ['auto', 'development', 'production']) {
			const credential = apiKeyCredential(sandbox());
			credential.data.rateLimit = rateLimit;
			const [item] = await run(sandbox(), getLead, { credential });
			expect(item.json.leadId).toBe(leadId);
		}
	});
});
