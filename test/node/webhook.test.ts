import { getWebhookSubscriptions } from '../../nodes/Lofty/methods/webhook';
import { READING_VALUES, SEED_IDS, parseJson } from '../../sandbox';
import { MAX_WEBHOOK_SUBSCRIPTIONS, WEBHOOK_IDS, webhookState } from '../../sandbox/resources/webhook';
import { COMM_SEED } from '../../sandbox/resources/communication';
import { NOTE_SEED } from '../../sandbox/resources/note';
import { TASK_SEED } from '../../sandbox/resources/task';
import { TX_SEED } from '../../sandbox/resources/transaction';
import { RESOURCES } from '../../nodes/Lofty/resources';
import { callbackUrlOf, ensureSecret } from '../../nodes/LoftyTrigger/subscriptionState';
import { createContext } from '../harness/context';
import { apiKeyCredential, node, oauthCredential, run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const create = (extra: Record<string, unknown> = {}) =>
	run(sandbox(), { resource: 'webhook', operation: 'create', listId: 2, callbackUrl: 'https://example.com/hooks/lofty', ...extra });

// docs/api-readings.md, row 12: Batch Size is an integer in the OpenAPI; a decimal never reaches Lofty.
describe.each(READING_VALUES.integers)('Webhook: Create, Batch Size (integers %s)', (reading) => {
	beforeEach(() => sandbox().readings.set({ integers: reading }));

	it('a whole number is kept exactly; a decimal is refused before sending', async () => {
		const [item] = await create({ additionalFields: { limit: 250 } });
		expect(item.json).toMatchObject({ limit: 250 });
		sandbox().requests.length = 0;
		const error = await runError(sandbox(), { resource: 'webhook', operation: 'create', listId: 2, callbackUrl: 'https://example.com/hooks/lofty', additionalFields: { limit: 250.5 } });
		expect(error.message).toBe('Invalid value for "Batch Size": must be a whole number, got 250.5');
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('Webhook: Create', () => {
	it('subscribes with Lofty\'s defaults, sending only the fields given', async () => {
		const [item] = await create();
		expect(parseJson(sandbox().requests[0].body)).toEqual({ listId: 2, callbackUrl: 'https://example.com/hooks/lofty' });
		expect(item.json).toMatchObject({ listId: '2', callbackUrl: 'https://example.com/hooks/lofty', limit: 100, permissionMode: 0 });
		expect(item.json.subscribeId).toMatch(/^\d+$/);
		const stored = webhookState(sandbox().store).subscriptions.get(item.json.subscribeId as string)!;
		expect(stored).toMatchObject({ ownerUserId: BigInt(SEED_IDS.demoUserId), appId: 'apikey:demo-owner', listId: 2, limit: 100, active: true, permissionMode: 0 });
	});

	it('sends Batch Size and the ownership-based Delivery Scope', async () => {
		const [item] = await create({ listId: 12, additionalFields: { limit: 5000, permissionMode: 1 } });
		expect(parseJson(sandbox().requests[0].body)).toEqual({ listId: 12, callbackUrl: 'https://example.com/hooks/lofty', limit: 5000, permissionMode: 1 });
		expect(item.json).toMatchObject({ listId: '12', limit: 5000, permissionMode: 1 });
	});

	it.each([['http://example.com/hook'], ['example.com/hook'], ['https://']])('refuses the callback %s before sending', async (callbackUrl) => {
		const error = await runError(sandbox(), { resource: 'webhook', operation: 'create', listId: 2, callbackUrl });
		expect(error.message).toMatch(/^Invalid value for "Callback URL": must be a full HTTPS address .*WEBHOOK_CALLBACK_URL_INVALID/);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('refuses a Batch Size above 5000 before sending', async () => {
		const error = await runError(sandbox(), {
			resource: 'webhook',
			operation: 'create',
			listId: 2,
			callbackUrl: 'https://example.com/h',
			additionalFields: { limit: 5001 },
		});
		expect(error.message).toBe('Invalid value for "Batch Size": must be at most 5000, got 5001');
		expect(sandbox().requests).toHaveLength(0);
	});

	it('explains WEBHOOK_EXCEED_LIMIT when the account is full', async () => {
		const held = [...webhookState(sandbox().store).subscriptions.values()].filter((s) => s.teamId === BigInt(SEED_IDS.teamId)).length;
		for (let i = held; i < MAX_WEBHOOK_SUBSCRIPTIONS; i++) await create({ callbackUrl: `https://example.com/h/${i}` });
		const error = await runError(sandbox(), { resource: 'webhook', operation: 'create', listId: 3, callbackUrl: 'https://example.com/full' });
		expect(error.message).toMatch(/HTTP 400 WEBHOOK_EXCEED_LIMIT/);
		expect(error.description).toMatch(/Delete subscriptions you no longer need/);
	});
});

describe('Webhook: Get Many', () => {
	it('lists the team\'s active subscriptions only', async () => {
		const items = await run(sandbox(), { resource: 'webhook', operation: 'getAll' });
		expect(items.map((i) => i.json.subscribeId).sort()).toEqual([WEBHOOK_IDS.demoLead, WEBHOOK_IDS.demoCall, WEBHOOK_IDS.otherNote].sort());
		expect(items.find((i) => i.json.subscribeId === WEBHOOK_IDS.demoCall)!.json).toMatchObject({ listId: '6', permissionMode: 1, limit: 500 });
	});
});

describe('Webhook: Delete', () => {
	it('deletes an own subscription whose ID is above 2^53', async () => {
		const [item] = await run(sandbox(), { resource: 'webhook', operation: 'delete', subscribeId: WEBHOOK_IDS.demoLead });
		expect(item.json).toEqual({ deleted: true, subscribeId: WEBHOOK_IDS.demoLead });
		expect(sandbox().requests[0].path).toBe(`/v1.0/webhook/${WEBHOOK_IDS.demoLead}`);
		const after = await run(sandbox(), { resource: 'webhook', operation: 'getAll' });
		expect(after.map((i) => i.json.subscribeId)).not.toContain(WEBHOOK_IDS.demoLead);
	});

	it('explains WEBHOOK_DELETE_NOT_EXIST for a subscription already deleted', async () => {
		await run(sandbox(), { resource: 'webhook', operation: 'delete', subscribeId: WEBHOOK_IDS.demoCall });
		const error = await runError(sandbox(), { resource: 'webhook', operation: 'delete', subscribeId: WEBHOOK_IDS.demoCall });
		expect(error.message).toMatch(/HTTP 400 WEBHOOK_DELETE_NOT_EXIST/);
		expect(error.description).toMatch(/No webhook subscription has this ID/);
	});

	it('explains WEBHOOK_DELETE_NO_AUTHORITY for another user\'s subscription', async () => {
		const error = await runError(sandbox(), { resource: 'webhook', operation: 'delete', subscribeId: WEBHOOK_IDS.otherNote });
		expect(error.message).toMatch(/HTTP 400 WEBHOOK_DELETE_NO_AUTHORITY/);
		expect(error.description).toMatch(/only its creator may delete it/);
		expect(webhookState(sandbox().store).subscriptions.has(WEBHOOK_IDS.otherNote)).toBe(true);
	});

	it('lets the creator delete it with an OAuth credential too', async () => {
		const token = sandbox().issueToken({ userId: SEED_IDS.otherAgentUserId });
		const [item] = await run(sandbox(), { resource: 'webhook', operation: 'delete', subscribeId: WEBHOOK_IDS.otherNote }, { credential: oauthCredential(sandbox(), token) });
		expect(item.json.deleted).toBe(true);
	});
});

describe('Webhook: getWebhookSubscriptions dropdown', () => {
	it('names each subscription by event and callback, valued by ID', async () => {
		const ctx = createContext(node, { params: { authentication: 'apiKey' }, credential: apiKeyCredential(sandbox()) });
		const options = await getWebhookSubscriptions.call(ctx as never);
		expect(options).toEqual([
			{ name: 'Call → https://hooks.example.com/lofty/calls', value: WEBHOOK_IDS.demoCall },
			{ name: 'Lead Info → https://hooks.example.com/lofty/leads', value: WEBHOOK_IDS.demoLead },
			{ name: 'Note → https://other.example.com/notes', value: WEBHOOK_IDS.otherNote },
		]);
	});
});

describe('Webhook: the Lofty Trigger\'s secret is never shown', () => {
	// The callback URL exactly as the Lofty Trigger subscribes it (its own code), next to a user's own callback.
	const secret = ensureSecret({});
	const triggerUrl = callbackUrlOf('https://n8n.example.com/webhook/4f1c/webhook', secret);

	it('Get Many, Create and the Delete dropdown show the callback URL with the token as ***, the rest as it is', async () => {
		const [created] = await create({ callbackUrl: triggerUrl, listId: 6 });
		const [mine] = await create({ callbackUrl: 'https://example.com/hooks/lofty?team=7&sig=abc', listId: 8 });
		const listed = await run(sandbox(), { resource: 'webhook', operation: 'getAll' });
		const ctx = createContext(node, { params: { authentication: 'apiKey' }, credential: apiKeyCredential(sandbox()) });
		const options = await getWebhookSubscriptions.call(ctx as never);
		const shown = JSON.stringify({ created, mine, listed, options });
		expect(shown).not.toContain(secret);
		expect(created.json.callbackUrl).toBe('https://n8n.example.com/webhook/4f1c/webhook?token=***');
		expect(mine.json.callbackUrl).toBe('https://example.com/hooks/lofty?team=7&sig=***');
		const byId = (id: unknown) => listed.find((i) => i.json.subscribeId === id)!.json.callbackUrl;
		expect(byId(created.json.subscribeId)).toBe('https://n8n.example.com/webhook/4f1c/webhook?token=***');
		// untouched where there is nothing secret
		expect(byId(WEBHOOK_IDS.demoCall)).toBe('https://hooks.example.com/lofty/calls');
		expect(options.find((o) => o.value === created.json.subscribeId)?.name).toBe('Call → https://n8n.example.com/webhook/4f1c/webhook?token=***');
		// Lofty itself still holds the real URL: deliveries carry the token.
		expect(webhookState(sandbox().store).subscriptions.get(String(created.json.subscribeId))?.callbackUrl).toBe(triggerUrl);
	});
});

describe('Webhook: Get Event Record (after the Lofty Trigger)', () => {
	const event = (json: Record<string, unknown>) => ({ listId: 2, teamId: SEED_IDS.teamId, action: 'updated', event: 'lead.updated', ...json });

	it('adds the record each event is about, reads nothing for deletions and listing alerts, and keeps the event', async () => {
		const items = [
			event({ leadId: SEED_IDS.bigLeadId, updateTime: 1 }),
			event({ leadId: '123', action: 'deleted', event: 'lead.deleted' }),
			{ listId: 4, event: 'listingAlert.triggered', action: 'triggered', alertId: '777' },
		];
		const out = await run(sandbox(), (i) => ({ resource: 'webhook', operation: 'getEventRecord', event: items[i] }), { items });
		expect(out.map((o) => o.json.event)).toEqual(['lead.updated', 'lead.deleted', 'listingAlert.triggered']);
		expect(String((out[0].json.record as Record<string, unknown>).leadId)).toBe(SEED_IDS.bigLeadId);
		expect(out[0].json).toMatchObject({ leadId: SEED_IDS.bigLeadId, updateTime: 1 });
		expect(out[1].json.record).toBeNull();
		expect(out[2].json.record).toBeNull();
		expect(sandbox().requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /v1.0/leads/${SEED_IDS.bigLeadId}`]);
		expect(out.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});

	it('reads the record of every kind of event, each at one of the paths the operation lists (its routes)', async () => {
		const items = [
			{ listId: 1, action: 'updated', agentUserId: SEED_IDS.demoUserId },
			event({ leadId: SEED_IDS.bigLeadId }),
			{ listId: 5, action: 'updated', leadId: SEED_IDS.bigLeadId, transactionId: TX_SEED.purchaseId },
			{ listId: 6, action: 'created', timelineId: COMM_SEED.bigLeadCallId },
			{ listId: 7, action: 'created', timelineId: COMM_SEED.bigLeadEmailId },
			{ listId: 8, action: 'created', timelineId: COMM_SEED.bigLeadTextId },
			{ listId: 9, action: 'created', noteId: NOTE_SEED.pinned },
			{ listId: 10, action: 'created', taskId: TASK_SEED.openTaskId },
			{ listId: 11, action: 'created', apptId: TASK_SEED.appointmentId },
		];
		const out = await run(sandbox(), (i) => ({ resource: 'webhook', operation: 'getEventRecord', event: items[i] }), { items });
		for (const item of out) expect(item.json.record).toEqual(expect.any(Object));
		const routes = RESOURCES.find((r) => r.value === 'webhook')?.operations.find((op) => op.value === 'getEventRecord')?.routes ?? [];
		const reached = routes.filter((route) => {
			const pattern = new RegExp(`^${route.replace(/\{\w+\}/g, '[^/]+')}$`);
			return sandbox().requests.some((r) => r.method === 'GET' && pattern.test(r.path) && r.status === 200);
		});
		expect(reached).toEqual(routes);
		// nine kinds of event, eight endpoints (tasks and appointments are both read at /v2.0/tasks/{id})
		expect(routes).toHaveLength(8);
	});

	it('reads calls, emails and texts by timelineId, never by the legacy callId / emailId / textId', async () => {
		const items = [{ listId: 8, action: 'created', textId: '21', timelineId: '22' }];
		await run(sandbox(), () => ({ resource: 'webhook', operation: 'getEventRecord', event: items[0] }), { items, continueOnFail: true });
		expect(sandbox().requests.map((r) => r.path)).toEqual(['/v2.0/communication/text/22']);
	});

	it('an item that is not a trigger event, or lacks the id to look up by, fails before anything is sent', async () => {
		const error = await runError(sandbox(), { resource: 'webhook', operation: 'getEventRecord', event: { listId: 10, action: 'created' } });
		expect(error.message).toBe('Invalid value for "Event": has no taskId to look the record up by');
		const notEvent = await runError(sandbox(), { resource: 'webhook', operation: 'getEventRecord', event: { name: 'x' } });
		expect(notEvent.message).toMatch(/^Invalid value for "Event": must be an item of the Lofty Trigger, with a listId from 1 to 12/);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('a record Lofty cannot find fails that item only with Continue On Fail', async () => {
		const items = [event({ leadId: '4242' }), event({ leadId: SEED_IDS.bigLeadId })];
		const out = await run(sandbox(), (i) => ({ resource: 'webhook', operation: 'getEventRecord', event: items[i] }), { items, continueOnFail: true });
		expect(out[0].json).toMatchObject({ error: expect.stringMatching(/HTTP 404 LEAD_NOT_EXIST/) });
		expect(String((out[1].json.record as Record<string, unknown>).leadId)).toBe(SEED_IDS.bigLeadId);
	});
});
