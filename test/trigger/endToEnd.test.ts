/**
 * Lofty Trigger end to end: the trigger subscribes in the sandbox, sandbox writes emit events, the
 * delivery engine POSTs them over loopback to the trigger's webhook, and the trigger starts runs.
 */
import axios from 'axios';

import { DEMO_API_KEY, SEED_IDS, type Sandbox } from '../../sandbox';
import { type DeliveryEngine, emitAgent, emitNote } from '../../sandbox/resources/webhook/delivery';
import { HOUR, SECOND } from '../../sandbox/resources/webhook/delivery/schedule';
import { NOTE_SEED } from '../../sandbox/resources/note';
import { webhookState } from '../../sandbox/resources/webhook';
import { LoftyTrigger } from '../../nodes/LoftyTrigger/LoftyTrigger.node';
import { client } from '../sandbox/helpers';
import { type TriggerHarness, startTrigger, triggerApiKey } from '../harness/trigger';
import { T0, useTriggerWorld } from '../harness/triggerSandbox';
import { HUNG_MS, STEP_BUDGET_MS } from '../harness/budgets';
import { resetPacing } from '../../nodes/Lofty/transport/pacing';

const world = useTriggerWorld();
let sb: Sandbox;
let engine: DeliveryEngine;
beforeEach(() => ({ sb, engine } = world()));

const api = (key = DEMO_API_KEY) => client(sb.url, { token: key });
const teamId = BigInt(SEED_IDS.teamId);
const activeTrigger = (params: Record<string, unknown>) => world().activeTrigger(params);

async function deliverAll(h: TriggerHarness, advanceMs = 0): Promise<void> {
	if (advanceMs) await engine.advance(advanceMs);
	else await engine.flush();
	await h.idle();
}

describe('sandbox writes reach the trigger as one item per event', () => {
	it('lead create, update and delete give lead.created, lead.updated, lead.deleted with exact ids', async () => {
		const h = await activeTrigger({ events: [2] });
		const created = await api().post('/v1.0/leads', { body: { firstName: 'Wendy' } });
		const leadId = String(created.body.leadId);
		await api().put(`/v1.0/leads/${leadId}`, { body: { lastName: 'Hook' } });
		await api().delete(`/v1.0/leads/${leadId}`, { params: { reason: 'duplicate' } });
		await deliverAll(h);
		expect(h.executions).toHaveLength(1);
		expect(h.items.map((i) => [i.event, i.leadId])).toEqual([
			['lead.created', leadId],
			['lead.updated', leadId],
			['lead.deleted', leadId],
		]);
		expect(h.items[0]).toMatchObject({ listId: 2, teamId: SEED_IDS.teamId, updateTime: T0, updateTimeIso: new Date(T0).toISOString() });
		expect(typeof h.items[0].deliveryId).toBe('string');
	});

	it('batches of the chosen size still give one item per event', async () => {
		const h = await activeTrigger({ events: [10], options: { batchSize: 2 } });
		for (let i = 0; i < 5; i++) {
			await api().post('/v2.0/tasks', { body: { type: 'Call', content: `Task ${i}`, leadId: SEED_IDS.bigLeadId, assignedRole: 'Agent', endAt: '2026-03-01T10:00:00Z' } });
		}
		await deliverAll(h);
		expect(h.executions.map((e) => e.length)).toEqual([2, 2, 1]);
		expect(new Set(h.items.map((i) => i.taskId)).size).toBe(5);
	});
});

describe('retried and duplicated deliveries give exactly one item per event', () => {
	it('a retry after a lost answer (the trigger had handled it) carries the same Service-Webhook-Id and gives no second item', async () => {
		const h = await activeTrigger({ events: [2], fetchFullRecord: true });
		// the trigger handles the delivery whole, but its answer never reaches Lofty
		h.loseNextAnswer = true;
		const created = await api().post('/v1.0/leads', { body: { firstName: 'Retry' } });
		await deliverAll(h);
		await deliverAll(h, 40 * SECOND);
		const id = [...webhookState(sb.store).subscriptions.values()].find((s) => s.callbackUrl === h.callbackUrl)!.subscribeId.toString();
		const attempts = engine.log.filter((e) => e.subscribeId === id);
		expect(attempts.map((e) => e.outcome)).toEqual(['retry-scheduled', 'delivered']);
		expect(attempts[0].deliveryId).toBe(attempts[1].deliveryId);
		expect(h.answers.filter((a) => a.status === 200)).toHaveLength(2);
		expect(h.items).toHaveLength(1);
		expect(h.items[0].leadId).toBe(String(created.body.leadId));
	});

	it('a second subscription to the same URL (e.g. a revived old one) duplicates every event under new ids: still one item each', async () => {
		const h = await activeTrigger({ events: [2] });
		await api().post('/v1.0/webhook', { body: { listId: 2, callbackUrl: h.callbackUrl } });
		await api().post('/v1.0/leads', { body: { firstName: 'Twice' } });
		await api().post('/v1.0/leads', { body: { firstName: 'Twice again' } });
		await deliverAll(h);
		// The two subscriptions deliver at the same moment: while one copy is still being handled the other is asked to
		// come again (503), and its retry 30 s later is answered 2xx and starts nothing.
		await deliverAll(h, 40_000);
		expect(h.answers.filter((a) => a.status === 200)).toHaveLength(2);
		expect(h.items.map((i) => i.event)).toEqual(['lead.created', 'lead.created']);
	});
});

describe('pings, forged and malformed requests over HTTP', () => {
	it('pings of a disabled subscription are answered 2xx, revive it, and start nothing themselves', async () => {
		const h = await activeTrigger({ events: [2] });
		const sub = [...webhookState(sb.store).subscriptions.values()].find((s) => s.callbackUrl === h.callbackUrl)!;
		sub.active = false;
		await api().post('/v1.0/leads', { body: { firstName: 'Waiting' } });
		await deliverAll(h, 6 * HOUR);
		expect(engine.log.filter((e) => e.subscribeId === sub.subscribeId.toString()).map((e) => e.outcome)).toEqual(['revived', 'delivered']);
		expect(sub.active).toBe(true);
		expect(h.answers[0]).toMatchObject({ status: 200, body: { received: true } });
		expect(h.executions).toHaveLength(1);
		expect(h.items.map((i) => i.event)).toEqual(['lead.created']);
	});

	it('forged requests get 401 and start nothing; an authenticated body it does not know is never refused', async () => {
		const h = await activeTrigger({ events: [2] });
		const post = (url: string, data: string, type = 'application/json') =>
			axios.post(url, data, { headers: { 'Content-Type': type }, validateStatus: () => true, transformRequest: [(d: unknown) => d] });
		const event = JSON.stringify({ teamId: 88001, listId: 2, updatedLead: [{ leadId: 1, updateTime: 1 }] });
		expect((await post(h.webhookUrl, event)).status).toBe(401);
		expect((await post(`${h.webhookUrl}?token=guess`, event)).status).toBe(401);
		await h.idle();
		expect(h.executions).toHaveLength(0);
		// not JSON: 500, so Lofty retries (as application/json, n8n answers 422 before the node runs)
		expect((await post(h.callbackUrl, '{"listId":', 'text/plain')).status).toBe(500);
		expect((await post(h.callbackUrl, '{"listId":')).status).toBe(422);
		// no listId: an item that carries the body
		expect((await post(h.callbackUrl, '{"teamId":88001}')).status).toBe(200);
		await h.idle();
		expect(h.items).toEqual([expect.objectContaining({ event: 'unknown.unknown', raw: { teamId: '88001' } })]);
	});
});

describe('Fetch Full Record', () => {
	it('adds the full record for each list, looking calls, emails and texts up by timelineId', async () => {
		const h = await activeTrigger({ events: [1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12], fetchFullRecord: true });
		const lead = SEED_IDS.bigLeadId;
		await api().put(`/v1.0/leads/${lead}`, { body: { stage: sb.store.getLead(lead)!.stage === 'Hot' ? 'Nurture' : 'Hot' } });
		await api().post(`/v1.0/leads/${lead}/activity`, { body: { type: 'Search', text: 't', link: 'https://x.example/s', picture: 'p', created: T0 } });
		const tx = await api().post(`/v1.0/leads/${lead}/transaction`, { body: { transactionName: '9 Elm St' } });
		await api().post('/v1.0/message/sms/send', { body: { leadId: lead, content: 'Hi there' } });
		await api().post('/v1.0/message/email/send', { body: { leadId: lead, subject: 'Listings', content: 'See attached' } });
		const log = await api().post('/v1.0/logType', { body: { leadId: lead, logType: 'logCall', content: 'Talked', leadPhoneNumber: '5551234567' } });
		const task = await api().post('/v2.0/tasks', { body: { type: 'Call', content: 'Call', leadId: lead, assignedRole: 'Agent', endAt: '2026-03-01T10:00:00Z' } });
		const appt = await api().post('/v2.0/tasks', { body: { type: 'Appointment', content: 'Showing', leadId: lead, assignedRole: 'Agent', startAt: '2026-03-02T10:00:00Z', endAt: '2026-03-02T11:00:00Z' } });
		emitNote(sb.store, 'created', { noteId: BigInt(NOTE_SEED.pinned), leadId: BigInt(lead), noteType: 'Manual', agentId: BigInt(SEED_IDS.demoUserId) }, T0);
		emitAgent(sb.store, teamId, BigInt(SEED_IDS.otherAgentUserId), T0);
		await deliverAll(h, 3 * SECOND);

		const byEvent = (event: string) => h.items.filter((i) => i.event === event);
		const record = (event: string) => {
			const items = byEvent(event);
			expect(items.length).toBeGreaterThan(0);
			expect(items[0].recordError).toBeUndefined();
			return items[0].record as Record<string, unknown>;
		};
		expect(String(record('lead.updated').leadId)).toBe(lead);
		expect(String(record('pipeline.updated').leadId)).toBe(lead);
		expect(String(record('leadActivity.updated').leadId)).toBe(lead);
		expect(String(record('transaction.created').transactionId)).toBe(String(tx.body.transactionId));
		expect(record('text.created')).toMatchObject({ textContent: 'Hi there' });
		expect(record('email.created')).toMatchObject({ emailSubject: 'Listings' });
		expect(String(record('call.created').id ?? record('call.created').communicationId ?? '')).not.toBe('');
		expect(String(record('task.created').id ?? record('task.created').taskId)).toBe(String(task.body.taskId));
		expect(String(record('appointment.created').id ?? record('appointment.created').taskId)).toBe(String(appt.body.taskId));
		expect(String(record('note.created').noteId ?? record('note.created').id)).toBe(NOTE_SEED.pinned);
		expect(String(record('agent.updated').userId ?? record('agent.updated').memberUserId ?? record('agent.updated').id)).not.toBe('');

		// V2 lookups by timelineId, never by the legacy callId / emailId / textId
		const text = byEvent('text.created')[0];
		const email = byEvent('email.created')[0];
		const call = byEvent('call.created')[0];
		expect(call.timelineId).toBe(String(log.body.logType.id));
		for (const [kind, item] of [['text', text], ['email', email], ['call', call]] as const) {
			expect(sb.count('GET', `/v2.0/communication/${kind}/${String(item.timelineId)}`)).toBe(1);
		}
		expect(text.textId).not.toBe(text.timelineId);
		expect(sb.count('GET', `/v2.0/communication/text/${String(text.textId)}`)).toBe(0);
		expect(sb.count('GET', `/v2.0/communication/email/${String(email.emailId)}`)).toBe(0);
	});

	it('a failed lookup marks that item and never aborts the batch; deleted records are not looked up', async () => {
		const h = await activeTrigger({ events: [2, 9], fetchFullRecord: true });
		const created = await api().post('/v1.0/leads', { body: { firstName: 'Gone soon' } });
		await api().delete(`/v1.0/leads/${String(created.body.leadId)}`, { params: { reason: 'test' } });
		await api().put(`/v1.0/leads/${SEED_IDS.notSharedLeadId}`, { auth: { token: sb.otherAgentApiKey }, body: { lastName: 'Other' } });
		emitNote(sb.store, 'created', { noteId: 123n, leadId: BigInt(SEED_IDS.bigLeadId), noteType: 'Manual', agentId: 1n }, T0);
		emitNote(sb.store, 'created', { noteId: BigInt(NOTE_SEED.manual), leadId: BigInt(SEED_IDS.bigLeadId), noteType: 'Manual', agentId: 1n }, T0 + 1);
		await deliverAll(h);
		const leads = h.items.filter((i) => i.listId === 2);
		const deleted = leads.find((i) => i.event === 'lead.deleted')!;
		expect(deleted.record).toBeNull();
		// the Company Owner is told about every lead, but the sandbox lets only owner, assignee and shared agents read one
		const unreadable = leads.find((i) => i.leadId === SEED_IDS.notSharedLeadId)!;
		expect(unreadable.record).toBeUndefined();
		expect(unreadable.recordError).toMatchObject({ httpCode: '404', code: 'LEAD_NOT_EXIST' });
		// created and deleted before delivery: the lookup of the created event finds the lead in the trash (404), marked as well
		expect(leads.find((i) => i.event === 'lead.created')!.recordError).toMatchObject({ code: 'LEAD_NOT_EXIST' });
		const notes = h.items.filter((i) => i.listId === 9);
		expect(notes).toHaveLength(2);
		expect(notes[0].record).toBeUndefined();
		expect(notes[0].recordError).toMatchObject({ httpCode: expect.stringMatching(/^4/) });
		expect(String((notes[1].record as Record<string, unknown>).noteId ?? (notes[1].record as Record<string, unknown>).id)).toBe(NOTE_SEED.manual);
	});

	/** A trigger built with another Fetch Full Record budget (n8n builds it with 5 s). */
	async function triggerWithBudget(fetchBudgetMs: number): Promise<TriggerHarness> {
		const node = new LoftyTrigger({ fetchBudgetMs });
		const h = world().track(await startTrigger({ params: { events: [2], fetchFullRecord: true }, credential: triggerApiKey(sb), node }));
		await h.activate();
		return h;
	}

	it('reads for a bounded time per delivery (5 s), so that Lofty gets its answer in time: the items not read get NOT_LOOKED_UP', async () => {
		// The budget is what a lookup needs on a loaded machine; the slow answer never comes within it.
		const h = await triggerWithBudget(STEP_BUDGET_MS);
		sb.faults.inject({ kind: 'slow', delayMs: HUNG_MS, match: { method: 'GET', path: '/v1.0/leads/{leadId}' } });
		await api().post('/v1.0/leads', { body: { firstName: 'Slow' } });
		await api().post('/v1.0/leads', { body: { firstName: 'Skipped' } });
		await deliverAll(h);
		// the slow lookup's answer did not come within the budget: not looked up either, and the next one not started
		expect(h.items.map((i) => (i.recordError as Record<string, unknown> | undefined)?.code ?? (i.recordError ? 'other error' : 'record'))).toEqual(['NOT_LOOKED_UP', 'NOT_LOOKED_UP']);
		for (const item of h.items) expect(item.recordError).toMatchObject({ description: expect.stringMatching(/Webhook > Get Event Record/) });
		expect(sb.count('GET', '/v1.0/leads/{leadId}')).toBe(1);
	});

	// The budgets leave a loaded machine STEP_BUDGET_MS beyond the 429's wait, or end long before it.
	it.each([
		['5 s: the 429 is waited out (1 s) and both records are read', 5000, 1, ['record', 'record'], 3],
		[`${STEP_BUDGET_MS} ms: a 429 asking for twice that ends the lookups at once, both items NOT_LOOKED_UP, nothing resent`, STEP_BUDGET_MS, (2 * STEP_BUDGET_MS) / 1000, ['NOT_LOOKED_UP', 'NOT_LOOKED_UP'], 1],
	])('429s during Fetch Full Record count against the budget; with a budget of %s', async (_name, budget, retryAfterSec, expected, lookups) => {
		const h = await triggerWithBudget(budget);
		await api().post('/v1.0/leads', { body: { firstName: 'Limited' } });
		await api().post('/v1.0/leads', { body: { firstName: 'Waiting' } });
		const before = sb.count('GET', '/v1.0/leads/{leadId}');
		sb.faults.inject({ kind: '429', times: 1, retryAfterSec, match: { method: 'GET', path: '/v1.0/leads/{leadId}' } });
		try {
			await deliverAll(h);
			expect(h.items.map((i) => (i.recordError as Record<string, unknown> | undefined)?.code ?? (i.record ? 'record' : 'none'))).toEqual(expected);
			expect(sb.count('GET', '/v1.0/leads/{leadId}') - before).toBe(lookups);
		} finally {
			// The 429's hold of the credential ends with the test.
			resetPacing();
		}
	});

});
