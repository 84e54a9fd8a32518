/** Lofty Trigger: the subscription lifecycle (checkExists, create, delete) against the sandbox. */
import { DEMO_API_KEY, OTHER_AGENT_API_KEY, type Sandbox, startSandbox } from '../../sandbox';
import { configureDelivery } from '../../sandbox/resources/webhook/delivery';
import { MAX_WEBHOOK_SUBSCRIPTIONS, WEBHOOK_IDS, webhookState } from '../../sandbox/resources/webhook';
import { client } from '../sandbox/helpers';
import { type TriggerHarness, startTrigger, triggerApiKey, triggerOAuth } from '../harness/trigger';
import { VERY_LONG_TEST_MS } from '../harness/budgets';

let sb: Sandbox;
const harnesses: TriggerHarness[] = [];

beforeAll(async () => {
	sb = await startSandbox({ port: 0, rateLimit: { perWindow: 1_000_000, windowMs: 60_000 } });
});
beforeEach(() => {
	sb.reset();
	configureDelivery(sb.store, { allowHttpCallbacks: true });
});
afterEach(async () => {
	while (harnesses.length) await harnesses.pop()!.stop();
});
afterAll(() => sb.stop());

const api = (key = DEMO_API_KEY) => client(sb.url, { token: key });

async function harness(params: Record<string, unknown> = { events: [2, 10] }, extra: Partial<Parameters<typeof startTrigger>[0]> = {}) {
	const h = await startTrigger({ params, credential: triggerApiKey(sb), ...extra });
	harnesses.push(h);
	return h;
}

/** Subscriptions (active and disabled) whose callback path is the harness's webhook URL. */
function ownSubscriptions(h: TriggerHarness) {
	return [...webhookState(sb.store).subscriptions.values()].filter((s) => s.callbackUrl.split('?')[0] === h.webhookUrl);
}

async function failure(promise: Promise<unknown>): Promise<Error & { description?: string; httpCode?: string }> {
	try {
		await promise;
	} catch (error) {
		return error as Error & { description?: string };
	}
	throw new Error('expected a failure');
}

describe('activation', () => {
	it('creates one subscription per chosen list, to the webhook URL with an unguessable token, and keeps the subscribeIds', async () => {
		const h = await harness({ events: [2, 10, 12], options: { batchSize: 250, permissionMode: 1 } });
		expect(await h.checkExists()).toBe(false);
		expect(await h.create()).toBe(true);
		const secret = String(h.staticData.secret);
		expect(secret).toMatch(/^[0-9a-f]{64}$/);
		const subs = ownSubscriptions(h);
		expect(subs.map((s) => s.listId).sort((a, b) => a - b)).toEqual([2, 10, 12]);
		for (const s of subs) expect(s).toMatchObject({ callbackUrl: `${h.webhookUrl}?token=${secret}`, limit: 250, permissionMode: 1, active: true });
		const stored = (h.staticData.subscriptions as Record<string, Record<string, unknown>>)[h.webhookUrl];
		expect(stored).toEqual(Object.fromEntries(subs.map((s) => [String(s.listId), { subscribeId: s.subscribeId.toString(), limit: 250, permissionMode: 1 }])));
		expect(sb.requests.filter((r) => r.method === 'POST' && r.path === '/v1.0/webhook').map((r) => JSON.parse(r.body))).toEqual(
			[2, 10, 12].map((listId) => ({ listId, callbackUrl: `${h.webhookUrl}?token=${secret}`, limit: 250, permissionMode: 1 })),
		);
	});

	it('defaults to batch size 100 and assignment-based delivery (permissionMode 0)', async () => {
		const h = await harness({ events: [2] });
		await h.activate();
		expect(ownSubscriptions(h)[0]).toMatchObject({ limit: 100, permissionMode: 0 });
	});

	it('checkExists finds its own subscriptions by callback URL and listId, and never deletes anything', async () => {
		const h = await harness({ events: [2, 10] });
		await h.create();
		const before = sb.count('DELETE', '/v1.0/webhook/{id}');
		expect(await h.checkExists()).toBe(true);
		// a list no longer covered, or a changed option, makes it answer false, still without deleting
		h.params = { events: [2, 10, 11] };
		expect(await h.checkExists()).toBe(false);
		h.params = { events: [2, 10], options: { batchSize: 5 } };
		expect(await h.checkExists()).toBe(false);
		expect(sb.count('DELETE', '/v1.0/webhook/{id}')).toBe(before);
		expect(ownSubscriptions(h)).toHaveLength(2);
	});

	it('a restart never creates duplicates (n8n calls checkExists again with the stored static data)', async () => {
		const first = await harness({ events: [2, 10] });
		await first.activate();
		const posts = sb.count('POST', '/v1.0/webhook');
		await first.stop();
		const restarted = await harness({ events: [2, 10] }, { staticData: first.persisted(), webhookId: first.webhookId, port: first.port });
		await restarted.activate();
		await restarted.activate();
		expect(sb.count('POST', '/v1.0/webhook')).toBe(posts);
		expect(ownSubscriptions(restarted)).toHaveLength(2);
	});

	it('creating again (static data lost, or options changed) replaces its own stale subscriptions instead of adding more', async () => {
		const first = await harness({ events: [2, 10] });
		await first.activate();
		await first.stop();
		const lost = await harness({ events: [2, 10] }, { webhookId: first.webhookId, port: first.port });
		await lost.activate();
		let own = ownSubscriptions(lost);
		expect(own).toHaveLength(2);
		expect(own.every((s) => s.callbackUrl === lost.callbackUrl)).toBe(true);
		lost.params = { events: [2], options: { batchSize: 7 } };
		await lost.activate();
		own = ownSubscriptions(lost);
		expect(own.map((s) => [s.listId, s.limit])).toEqual([[2, 7]]);
	});

	it('answers to create() even when a chosen list already has a matching subscription (kept, not duplicated)', async () => {
		const h = await harness({ events: [2, 10] });
		await h.create();
		await h.create();
		expect(ownSubscriptions(h)).toHaveLength(2);
	});

	it('works with the OAuth2 credential too', async () => {
		const h = await harness({ events: [9] }, { credential: triggerOAuth(sb, sb.issueToken()) });
		await h.activate();
		expect(ownSubscriptions(h)).toHaveLength(1);
		expect(sb.requests.filter((r) => r.path === '/v1.0/webhook').every((r) => r.authScheme === 'bearer')).toBe(true);
		await h.deactivate();
		expect(ownSubscriptions(h)).toHaveLength(0);
	});

	it('refuses to activate with no event chosen', async () => {
		const h = await harness({ events: [] });
		const error = await failure(h.activate());
		expect(error.message).toMatch(/Choose at least one event under "Trigger On"/);
	});
});

describe('rotating the secret: deactivate, then activate', () => {
	it('subscribes with a new token; a retry under the old one still runs (54 hours), a made-up one never', async () => {
		const h = await harness({ events: [2] });
		await h.activate();
		const old = String(h.staticData.secret);
		const event = (leadId: number) => ({ teamId: 1, listId: 2, createdLead: [{ leadId, updateTime: 1_800_000_000_000 + leadId }] });
		await h.deactivate();
		expect(h.staticData.secret).toBeUndefined();
		await h.activate();
		const fresh = String(h.staticData.secret);
		expect(fresh).toMatch(/^[0-9a-f]{64}$/);
		expect(fresh).not.toBe(old);
		expect(ownSubscriptions(h).map((s) => s.callbackUrl)).toEqual([`${h.webhookUrl}?token=${fresh}`]);
		expect((await h.receive({ body: event(1), query: { token: fresh } })).status).toBe(200);
		// Lofty retrying a delivery made before the rotation
		expect((await h.receive({ body: event(2), query: { token: old } })).status).toBe(200);
		expect((await h.receive({ body: event(3), query: { token: 'c'.repeat(64) } })).status).toBe(401);
		expect(h.executions.map((items) => items.map((i) => i.leadId))).toEqual([['1'], ['2']]);
		// once Lofty's retries are over, the old token is refused
		(h.staticData.previousSecret as { until: number }).until = Date.now() - 1;
		expect((await h.receive({ body: event(4), query: { token: old } })).status).toBe(401);
	});
});

describe('deactivation', () => {
	it('deletes only its own subscriptions', async () => {
		const h = await harness({ events: [2, 10] });
		await h.activate();
		// someone else's subscription to the same lists survives
		const foreign = await api().post('/v1.0/webhook', { body: { listId: 2, callbackUrl: 'https://elsewhere.example.com/lofty' } });
		await h.deactivate();
		expect(ownSubscriptions(h)).toHaveLength(0);
		expect(webhookState(sb.store).subscriptions.has(String(foreign.body.subscribeId))).toBe(true);
		expect(webhookState(sb.store).subscriptions.has(WEBHOOK_IDS.demoLead)).toBe(true);
		expect(h.staticData.subscriptions).toEqual({});
	});

	it('counts WEBHOOK_DELETE_NOT_EXIST as done', async () => {
		const h = await harness({ events: [2, 10] });
		await h.activate();
		const [one] = ownSubscriptions(h);
		webhookState(sb.store).subscriptions.delete(one.subscribeId.toString());
		await expect(h.deactivate()).resolves.toBeUndefined();
		expect(ownSubscriptions(h)).toHaveLength(0);
		expect(sb.requests.some((r) => r.method === 'DELETE' && r.status === 400)).toBe(true);
	});

	it('also deletes a disabled subscription it remembers (not listed by GET /v1.0/webhooks)', async () => {
		const h = await harness({ events: [2] });
		await h.activate();
		ownSubscriptions(h)[0].active = false;
		await h.deactivate();
		expect(ownSubscriptions(h)).toHaveLength(0);
	});

	it('reports other errors (WEBHOOK_DELETE_NO_AUTHORITY) instead of swallowing them, after deleting the rest', async () => {
		const h = await harness({ events: [2] });
		await h.activate();
		// a remembered id that belongs to another user (as an earlier version stored it: a bare id)
		(h.staticData.subscriptions as Record<string, Record<string, unknown>>)[h.webhookUrl]['9'] = WEBHOOK_IDS.otherNote;
		const error = await failure(h.deactivate());
		expect(error.message).toContain('Could not delete 1 Lofty webhook subscription(s)');
		expect(error.message).toContain(WEBHOOK_IDS.otherNote);
		expect(error.message).toContain('WEBHOOK_DELETE_NO_AUTHORITY');
		expect(ownSubscriptions(h)).toHaveLength(0);
		expect(h.infos).toEqual(expect.arrayContaining([expect.stringMatching(/deleted the webhook subscription \d+: the workflow was deactivated/)]));
		// n8n saves no static data after a failed deactivation: both ids stay remembered, and the next try skips the gone one
		const again = await failure(h.deactivate());
		expect(again.message).toContain('Could not delete 1 Lofty webhook subscription(s)');
	});

	it('100 activate/deactivate cycles leave 0 subscriptions', async () => {
		const h = await harness({ events: [2, 6, 10] });
		const total = webhookState(sb.store).subscriptions.size;
		for (let cycle = 0; cycle < 100; cycle++) {
			await h.activate();
			expect(ownSubscriptions(h)).toHaveLength(3);
			await h.deactivate();
		}
		expect(ownSubscriptions(h)).toHaveLength(0);
		expect(webhookState(sb.store).subscriptions.size).toBe(total);
	}, VERY_LONG_TEST_MS);
});

describe('errors in plain words', () => {
	it('WEBHOOK_CALLBACK_URL_INVALID: n8n must be reachable over HTTPS, set WEBHOOK_URL', async () => {
		configureDelivery(sb.store, { allowHttpCallbacks: false });
		const h = await harness({ events: [2] });
		const error = await failure(h.activate());
		expect(error.message).toContain('WEBHOOK_CALLBACK_URL_INVALID');
		expect(error.message).toContain('Could not subscribe to Lead Info events');
		expect(error.description).toContain('HTTPS');
		expect(error.description).toContain('WEBHOOK_URL');
		expect(error.description).toContain(h.webhookUrl);
		expect(error.description).not.toContain(String(h.staticData.secret));
	});

	it('WEBHOOK_EXCEED_LIMIT: says how to free a slot, and removes what this activation had created', async () => {
		const held = [...webhookState(sb.store).subscriptions.values()].filter((s) => s.teamId === 88001n).length;
		for (let i = held; i < MAX_WEBHOOK_SUBSCRIPTIONS - 1; i++) {
			await api().post('/v1.0/webhook', { body: { listId: 2, callbackUrl: `https://other.example.com/${i}` } });
		}
		const h = await harness({ events: [2, 10] });
		const error = await failure(h.activate());
		expect(error.message).toContain('WEBHOOK_EXCEED_LIMIT');
		expect(error.description).toMatch(/Free a slot/);
		expect(error.description).toMatch(/Webhook > Delete/);
		expect(ownSubscriptions(h)).toHaveLength(0);
	});

	it('bad credentials: explains how to fix the credential', async () => {
		const h = await harness({ events: [2] }, { credential: triggerApiKey(sb, 'not-a-key') });
		const error = await failure(h.activate());
		expect(error.message).toMatch(/: Lofty rejected the API key \(401\)\. Copy it again from Lofty: Settings > Integrations > API\.$/);
		expect(error.description).toMatch(/HTTP 401 BAD_CREDENTIALS/);
	});

	it('missing scope (OAuth app not granted the webhook endpoints): names the endpoints to grant', async () => {
		const token = sb.issueToken({ scopes: ['GET /v1.0/webhooks'] });
		const h = await harness({ events: [2] }, { credential: triggerOAuth(sb, token) });
		const error = await failure(h.activate());
		expect(error.message).toMatch(/HTTP 403 200100/);
		expect(error.description).toContain('POST /v1.0/webhook');
		expect(error.description).toContain("developer portal");
	});

	it('another user\'s credential cannot delete the subscriptions: reported', async () => {
		const h = await harness({ events: [2] });
		await h.activate();
		h.credential = triggerApiKey(sb, OTHER_AGENT_API_KEY);
		const error = await failure(h.deactivate());
		expect(error.message).toContain('WEBHOOK_DELETE_NO_AUTHORITY');
		expect(ownSubscriptions(h)).toHaveLength(1);
	});
});
