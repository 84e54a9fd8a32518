import { DEMO_API_KEY, OTHER_AGENT_API_KEY, SEED_IDS } from '../../sandbox';
import { MAX_WEBHOOK_SUBSCRIPTIONS, WEBHOOK_IDS, webhookState } from '../../sandbox/resources/webhook';
import { client, useSandbox } from './helpers';

const sb = useSandbox();

const api = (key = DEMO_API_KEY) => client(sb.url, { token: key });
const create = (body: Record<string, unknown>, key = DEMO_API_KEY) => api(key).post('/v1.0/webhook', { body });
const del = (id: string, key = DEMO_API_KEY) => api(key).delete(`/v1.0/webhook/${id}`, { headers: { 'Content-Type': 'application/json' } });

describe('POST /v1.0/webhook', () => {
	it('creates a subscription with limit 100 and permissionMode 0 by default (WebhookResponse)', async () => {
		const r = await create({ listId: 5, callbackUrl: 'https://example.com/tx' });
		expect(r.status).toBe(200);
		expect(Object.keys(r.body).sort()).toEqual(['callbackUrl', 'limit', 'listId', 'permissionMode', 'subscribeId', 'teamId', 'vendorId']);
		expect(r.body).toMatchObject({ listId: 5, callbackUrl: 'https://example.com/tx', limit: 100, permissionMode: 0 });
		expect(String(r.body.teamId)).toBe(SEED_IDS.teamId);
		expect(r.body.subscribeId > 9007199254740992n).toBe(true);
		const stored = webhookState(sb.store).subscriptions.get(String(r.body.subscribeId))!;
		expect(stored).toMatchObject({ ownerUserId: BigInt(SEED_IDS.demoUserId), appId: 'apikey:demo-owner', listId: 5, active: true });
		expect(typeof stored.createdAt).toBe('number');
		expect(webhookState(sb.store).activeFor(BigInt(SEED_IDS.teamId), 5).map((s) => s.subscribeId)).toEqual([r.body.subscribeId]);
	});

	it('keeps limit and permissionMode when given, at their bounds', async () => {
		const r = await create({ listId: 1, callbackUrl: 'https://example.com/a', limit: 5000, permissionMode: 1 });
		expect(r.body).toMatchObject({ limit: 5000, permissionMode: 1 });
		expect((await create({ listId: 12, callbackUrl: 'https://example.com/a', limit: 1 })).body.limit).toBe(1);
	});

	it('answers WEBHOOK_TYPE_ERROR for a listId outside 1..12 or missing', async () => {
		for (const listId of [0, 13, 'two', undefined]) {
			const r = await create({ listId, callbackUrl: 'https://example.com/a' });
			expect(r.status).toBe(400);
			expect(r.body.code).toBe('WEBHOOK_TYPE_ERROR');
		}
	});

	it('answers WEBHOOK_CALLBACK_URL_INVALID for a URL that is not HTTPS', async () => {
		for (const callbackUrl of ['http://example.com/a', 'example.com', 'https://', '', undefined, 42]) {
			const r = await create({ listId: 2, callbackUrl });
			expect(r.status).toBe(400);
			expect(r.body.code).toBe('WEBHOOK_CALLBACK_URL_INVALID');
		}
	});

	it('refuses limit outside 1..5000 and permissionMode other than 0/1 with 20012', async () => {
		for (const extra of [{ limit: 0 }, { limit: 5001 }, { limit: 'many' }, { permissionMode: 2 }, { permissionMode: -1 }]) {
			const r = await create({ listId: 2, callbackUrl: 'https://example.com/a', ...extra });
			expect(r.status).toBe(400);
			expect(r.body.code).toBe(20012);
		}
	});

	it('answers WEBHOOK_EXCEED_LIMIT once the team holds the maximum', async () => {
		const held = [...webhookState(sb.store).subscriptions.values()].filter((s) => s.teamId === BigInt(SEED_IDS.teamId)).length;
		for (let i = held; i < MAX_WEBHOOK_SUBSCRIPTIONS; i++) expect((await create({ listId: 2, callbackUrl: `https://example.com/${i}` })).status).toBe(200);
		const r = await create({ listId: 2, callbackUrl: 'https://example.com/over' }, OTHER_AGENT_API_KEY);
		expect(r.status).toBe(400);
		expect(r.body.code).toBe('WEBHOOK_EXCEED_LIMIT');
	});
});

describe('GET /v1.0/webhooks', () => {
	it('lists the team\'s active subscriptions (not disabled ones, not other teams\')', async () => {
		const r = await api().get('/v1.0/webhooks');
		expect(r.status).toBe(200);
		expect(r.text).toContain(`"subscribeId":${WEBHOOK_IDS.demoLead}`);
		expect(r.body.map((s: any) => String(s.subscribeId)).sort()).toEqual([WEBHOOK_IDS.demoLead, WEBHOOK_IDS.demoCall, WEBHOOK_IDS.otherNote].sort());
		webhookState(sb.store).subscriptions.get(WEBHOOK_IDS.demoCall)!.active = false;
		expect((await api().get('/v1.0/webhooks')).body).toHaveLength(2);
	});
});

describe('DELETE /v1.0/webhook/{subscribeId}', () => {
	it('deletes the caller\'s subscription with an empty body', async () => {
		const r = await del(WEBHOOK_IDS.demoLead);
		expect(r.status).toBe(200);
		expect(r.text).toBe('');
		expect(webhookState(sb.store).subscriptions.has(WEBHOOK_IDS.demoLead)).toBe(false);
	});

	it('deletes a disabled subscription too', async () => {
		expect((await del(WEBHOOK_IDS.demoDisabled)).status).toBe(200);
	});

	it('answers WEBHOOK_DELETE_NOT_EXIST for an unknown or deleted subscription', async () => {
		await del(WEBHOOK_IDS.demoCall);
		for (const id of [WEBHOOK_IDS.demoCall, '123']) {
			const r = await del(id);
			expect(r.status).toBe(400);
			expect(r.body.code).toBe('WEBHOOK_DELETE_NOT_EXIST');
		}
	});

	it('answers WEBHOOK_DELETE_NO_AUTHORITY for another user\'s or another team\'s subscription', async () => {
		for (const id of [WEBHOOK_IDS.otherNote, WEBHOOK_IDS.otherTeam]) {
			const r = await del(id);
			expect(r.status).toBe(400);
			expect(r.body.code).toBe('WEBHOOK_DELETE_NO_AUTHORITY');
		}
		expect((await del(WEBHOOK_IDS.demoLead, OTHER_AGENT_API_KEY)).body.code).toBe('WEBHOOK_DELETE_NO_AUTHORITY');
		expect((await del(WEBHOOK_IDS.otherNote, OTHER_AGENT_API_KEY)).status).toBe(200);
	});

	it('needs Content-Type: application/json (20001) and a numeric ID (20012)', async () => {
		const bare = await api().delete(`/v1.0/webhook/${WEBHOOK_IDS.demoLead}`);
		expect(bare.status).toBe(400);
		expect(bare.body.code).toBe(20001);
		expect((await del('abc')).body.code).toBe(20012);
	});
});
