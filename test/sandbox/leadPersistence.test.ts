/** Lead creation persists asynchronously (OpenAPI): reads miss a new lead for a while, writes find it at once. */
import { leadPersistence } from '../../sandbox/resources/lead';
import { type Sandbox, parseJson, startSandbox } from '../../sandbox';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox({ port: 0 });
});
afterAll(async () => await sb.stop());
beforeEach(() => sb.reset());
afterEach(() => (sb.store.now = () => Date.now()));

async function call(method: string, path: string, body?: unknown) {
	const r = await fetch(`${sb.url}${path}`, {
		method,
		headers: { authorization: `token ${sb.apiKey}`, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: r.status, body: parseJson(await r.text()) as Record<string, unknown> };
}

describe('lead creation persists asynchronously', () => {
	it('by default a new lead is readable at once', async () => {
		const { body } = await call('POST', '/v1.0/leads', { firstName: 'Now', emails: ['now@example.com'] });
		expect((await call('GET', `/v1.0/leads/${String(body.leadId)}`)).status).toBe(200);
		expect(((await call('GET', '/v1.0/leads?email=now%40example.com')).body.leads as unknown[]).length).toBe(1);
	});

	it('with a read delay: 404 LEAD_NOT_EXIST and missing from searches, while writes succeed; readable after the delay', async () => {
		// The sandbox's clock is the test's: the delay passes when the test says so, however slow the machine.
		let now = Date.now();
		sb.store.now = () => now;
		leadPersistence(sb.store).readDelayMs = 300;
		const { body } = await call('POST', '/v1.0/leads', { firstName: 'Later', emails: ['later@example.com'] });
		const id = String(body.leadId);
		const get = await call('GET', `/v1.0/leads/${id}`);
		expect(get.status).toBe(404);
		expect(JSON.stringify(get.body)).toMatch(/LEAD_NOT_EXIST/);
		expect((await call('GET', '/v1.0/leads?email=later%40example.com')).body.leads).toEqual([]);
		expect((await call('PUT', `/v1.0/leads/${id}`, { lastName: 'Written' })).status).toBe(200);
		now += 350;
		const after = await call('GET', `/v1.0/leads/${id}`);
		expect(after.status).toBe(200);
		expect((after.body.lead as Record<string, unknown>).lastName).toBe('Written');
		expect(((await call('GET', '/v1.0/leads?email=later%40example.com')).body.leads as unknown[]).length).toBe(1);
	});
});
