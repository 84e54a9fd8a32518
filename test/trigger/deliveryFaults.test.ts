/**
 * Lofty Trigger against the sandbox's delivery engine when things go wrong between Lofty and n8n: n8n
 * dies while handling a delivery, a retry arrives while the first attempt is still being handled, listing
 * alerts that look alike, payloads with keys the node does not know, deliveries for a list it did not
 * choose. What the engine records as discarded must stay zero: no authenticated delivery gets a 4xx.
 */
import axios from 'axios';

import { DEMO_API_KEY, SEED_IDS, type Sandbox } from '../../sandbox';
import { type DeliveryEngine, configureDelivery, emitLead, emitListingAlert } from '../../sandbox/resources/webhook/delivery';
import { MINUTE, SECOND } from '../../sandbox/resources/webhook/delivery/schedule';
import { webhookState } from '../../sandbox/resources/webhook';
import { client } from '../sandbox/helpers';
import type { TriggerHarness } from '../harness/trigger';
import { T0, useTriggerWorld } from '../harness/triggerSandbox';
import { LoftyTrigger } from '../../nodes/LoftyTrigger/LoftyTrigger.node';
import { HUNG_MS, STEP_BUDGET_MS } from '../harness/budgets';

// The engine waits STEP_BUDGET_MS for an answer; the slow lookups below are held until Fetch Full Record's budget
// (three times that) ends them, so the engine has always given up first.
const world = useTriggerWorld(new LoftyTrigger({ fetchBudgetMs: 3 * STEP_BUDGET_MS }));
let sb: Sandbox;
let engine: DeliveryEngine;
beforeEach(() => ({ sb, engine } = world()));
/** Deliveries a test expects to be discarded (by n8n's own answer, not the node's). */
let knownDiscards: string[] = [];
afterEach(() => {
	expect(engine.log.filter((e) => e.outcome === 'discarded' && !knownDiscards.includes(e.deliveryId!))).toEqual([]);
	knownDiscards = [];
});

const api = () => client(sb.url, { token: DEMO_API_KEY });
const teamId = BigInt(SEED_IDS.teamId);
const demo = BigInt(SEED_IDS.demoUserId);
const activeTrigger = (params: Record<string, unknown>) => world().activeTrigger(params);
const restart = (previous: TriggerHarness) => world().restart(previous);

const subOf = (h: TriggerHarness, listId: number) => [...webhookState(sb.store).subscriptions.values()].find((s) => s.callbackUrl === h.callbackUrl && s.listId === listId)!;
const attemptsOf = (h: TriggerHarness, listId = 2) => engine.log.filter((e) => e.subscribeId === subOf(h, listId).subscribeId.toString() && e.kind === 'events');
const newLead = () => sb.store.addLead({ firstName: 'Fault', ownerUserId: demo, teamId, assignedUserId: demo });

describe('n8n killed after it received a delivery, before the execution existed', () => {
	it('the sandbox retries on its schedule (30 s) and the restarted n8n runs the event once', async () => {
		const h = await activeTrigger({ events: [2] });
		const lead = newLead();
		h.crashNext = 'inWebhook';
		emitLead(sb.store, 'updated', lead, T0 + 5);
		await engine.flush();
		await h.idle();
		expect(h.executions).toHaveLength(0);
		const restarted = await restart(h);
		await engine.advance(40 * SECOND);
		await restarted.idle();
		const attempts = attemptsOf(restarted);
		expect(attempts.map((e) => [e.status, e.outcome])).toEqual([
			['error', 'retry-scheduled'],
			[200, 'delivered'],
		]);
		expect(attempts[1].deliveryId).toBe(attempts[0].deliveryId);
		expect(restarted.items.map((i) => [i.event, i.leadId, i.updateTime])).toEqual([['lead.updated', lead.leadId.toString(), T0 + 5]]);
	});

	it('killed during slow "Fetch Full Record" lookups (the engine had given up waiting): the retry runs it once, with its record', async () => {
		const h = await activeTrigger({ events: [2], fetchFullRecord: true });
		configureDelivery(sb.store, { timeoutMs: STEP_BUDGET_MS });
		sb.faults.inject({ kind: 'slow', delayMs: HUNG_MS, match: { method: 'GET', path: '/v1.0/leads/{leadId}' } });
		const lead = newLead();
		h.crashNext = 'inWebhook';
		emitLead(sb.store, 'updated', lead, T0 + 6);
		await engine.flush();
		await h.idle();
		const restarted = await restart(h);
		await engine.advance(40 * SECOND);
		await restarted.idle();
		expect(attemptsOf(restarted).map((e) => [e.status, e.outcome])).toEqual([
			['timeout', 'retry-scheduled'],
			[200, 'delivered'],
		]);
		expect(restarted.items).toEqual([expect.objectContaining({ leadId: lead.leadId.toString(), record: expect.objectContaining({ firstName: 'Fault' }) })]);
	});
});

describe('a retry while the first attempt is still being handled', () => {
	it('is answered 503 (Lofty asks again later), and once the first attempt has its execution, the next retry starts nothing', async () => {
		const h = await activeTrigger({ events: [2], fetchFullRecord: true });
		configureDelivery(sb.store, { timeoutMs: STEP_BUDGET_MS });
		sb.faults.inject({ kind: 'slow', delayMs: HUNG_MS, match: { method: 'GET', path: '/v1.0/leads/{leadId}' } });
		emitLead(sb.store, 'updated', newLead(), T0 + 7);
		await engine.flush();
		await engine.advance(40 * SECOND);
		await h.idle();
		await engine.advance(5 * MINUTE);
		await h.idle();
		expect(attemptsOf(h).map((e) => [e.status, e.outcome])).toEqual([
			['timeout', 'retry-scheduled'],
			[503, 'retry-scheduled'],
			[200, 'delivered'],
		]);
		expect(h.executions).toHaveLength(1);
		expect(h.answers.map((a) => a.status)).toEqual([503, 200, 200]);
	});
});

describe('listing alerts that look alike', () => {
	it('two alerts of one saved search (same alertId) under two delivery ids give two items; the same delivery re-sent gives none', async () => {
		const h = await activeTrigger({ events: [4] });
		emitListingAlert(sb.store, teamId, 777n);
		emitListingAlert(sb.store, teamId, 777n);
		await engine.flush();
		await h.idle();
		const delivered = attemptsOf(h, 4);
		expect(new Set(delivered.map((e) => e.deliveryId)).size).toBe(2);
		expect(h.items.map((i) => [i.event, i.alertId])).toEqual([
			['listingAlert.triggered', '777'],
			['listingAlert.triggered', '777'],
		]);
		// Lofty sends one again (it missed the answer): same Service-Webhook-Id, same body
		const again = await axios.post(h.callbackUrl, delivered[0].body, { headers: { 'Content-Type': 'application/json', 'Service-Webhook-Id': delivered[0].deliveryId! }, validateStatus: () => true });
		expect(again.status).toBe(200);
		await h.idle();
		expect(h.executions).toHaveLength(2);
	});
});

describe('payloads with keys the node does not know', () => {
	it('unknown top-level keys and a new event array name become items (the unknown keys under "extra"), nothing discarded', async () => {
		const h = await activeTrigger({ events: [2] });
		const lead = newLead();
		engine.emit({ listId: 2, teamId, leadId: lead.leadId, key: 'restoredLead', data: { leadId: lead.leadId, updateTime: T0 + 8, restoredBy: 'admin' } });
		engine.emit({ listId: 2, teamId, leadId: lead.leadId, key: 'meta', shape: 'object', data: { schema: 3 } });
		await engine.flush();
		await h.idle();
		expect(attemptsOf(h).map((e) => e.outcome)).toEqual(['delivered']);
		expect(h.items).toEqual([
			expect.objectContaining({ event: 'lead.restored', leadId: lead.leadId.toString(), raw: expect.objectContaining({ restoredBy: 'admin' }), extra: { meta: { schema: 3 } } }),
		]);
	});
});

describe('a body that is not JSON', () => {
	it('from an authenticated sender (sent as text/plain): 500, a log line, and Lofty\'s retry runs it once', async () => {
		const h = await activeTrigger({ events: [2] });
		engine.garbleNext(1, 'text/plain');
		const lead = newLead();
		emitLead(sb.store, 'updated', lead, T0 + 9);
		await engine.flush();
		await engine.advance(40 * SECOND);
		await h.idle();
		expect(attemptsOf(h).map((e) => [e.status, e.outcome])).toEqual([
			[500, 'retry-scheduled'],
			[200, 'delivered'],
		]);
		expect(h.warnings).toEqual([expect.stringMatching(/answered 500 to a delivery whose body is not JSON/)]);
		expect(h.items.map((i) => i.leadId)).toEqual([lead.leadId.toString()]);
	});

	it('sent as application/json: n8n answers 422 before the node runs, and Lofty discards it (n8n\'s behaviour, see docs/triggers.md)', async () => {
		const h = await activeTrigger({ events: [2] });
		engine.garbleNext(1);
		emitLead(sb.store, 'updated', newLead(), T0 + 10);
		await engine.flush();
		const attempts = attemptsOf(h);
		expect(attempts.map((e) => [e.status, e.outcome])).toEqual([[422, 'discarded']]);
		knownDiscards = [attempts[0].deliveryId!];
		expect(h.warnings).toEqual([]);
	});
});

describe('only its own lists', () => {
	it('a delivery for a list the trigger did not choose (a Task subscription to its address): 2xx, no execution, a log line', async () => {
		const h = await activeTrigger({ events: [2] });
		const foreign = await api().post('/v1.0/webhook', { body: { listId: 10, callbackUrl: h.callbackUrl } });
		expect(foreign.status).toBe(200);
		await api().post('/v2.0/tasks', { body: { type: 'Call', content: 'Not ours', leadId: SEED_IDS.bigLeadId, assignedRole: 'Agent', endAt: '2026-03-01T10:00:00Z' } });
		await engine.flush();
		await h.idle();
		expect(attemptsOf(h, 10).map((e) => [e.status, e.outcome])).toEqual([[200, 'delivered']]);
		expect(h.executions).toHaveLength(0);
		expect(h.warnings).toEqual([expect.stringMatching(/ignored a delivery for Task \(listId 10\), which this trigger does not subscribe to/)]);
	});
});
