/**
 * The sandbox's webhook delivery engine against api-spec.md's delivery rules, each rule named by a test.
 * Deliveries go over loopback to scripted receivers; the engine's clock is advanced instead of waited for.
 */
import { DEMO_API_KEY, OTHER_AGENT_API_KEY, SEED_IDS, type Sandbox, startSandbox } from '../../sandbox';
import { commState } from '../../sandbox/resources/communication';
import {
	type DeliveryEngine,
	configureDelivery,
	emitAgent,
	emitCommunication,
	emitLead,
	emitListingAlert,
	emitNote,
	webhookDelivery,
} from '../../sandbox/resources/webhook/delivery';
import { DAY, HOUR, MINUTE, RETRY_DELAYS_MS, SECOND } from '../../sandbox/resources/webhook/delivery/schedule';
import { webhookState } from '../../sandbox/resources/webhook';
import { client } from '../sandbox/helpers';
import { type ScriptedAnswer, ScriptedReceiver } from '../harness/receiver';

let sb: Sandbox;
let engine: DeliveryEngine;
const receivers: ScriptedReceiver[] = [];

beforeAll(async () => {
	sb = await startSandbox({ port: 0, rateLimit: { perWindow: 100_000, windowMs: 60_000 } });
});
/** Sandbox time stands still unless the delivery clock advances it (deterministic gaps). */
const T0 = Date.UTC(2026, 0, 5, 9);
beforeEach(() => {
	sb.store.now = () => T0;
	sb.reset();
	configureDelivery(sb.store, { allowHttpCallbacks: true, random: () => 0.5, timeoutMs: 300 });
	engine = webhookDelivery(sb);
});
afterEach(async () => {
	while (receivers.length) await receivers.pop()!.stop();
});
afterAll(() => sb.stop());

const api = (key = DEMO_API_KEY) => client(sb.url, { token: key });
const teamId = BigInt(SEED_IDS.teamId);
const demo = BigInt(SEED_IDS.demoUserId);
const other = BigInt(SEED_IDS.otherAgentUserId);

async function receiver(script: ScriptedAnswer[] = []): Promise<ScriptedReceiver> {
	const r = await new ScriptedReceiver(script).start();
	receivers.push(r);
	return r;
}

async function subscribe(listId: number, url: string, opts: { limit?: number; permissionMode?: number; key?: string } = {}): Promise<string> {
	const r = await api(opts.key).post('/v1.0/webhook', { body: { listId, callbackUrl: url, limit: opts.limit, permissionMode: opts.permissionMode } });
	expect(r.status).toBe(200);
	return String(r.body.subscribeId);
}

const logOf = (id: string) => engine.log.filter((e) => e.subscribeId === id);
const isActive = (id: string) => webhookState(sb.store).subscriptions.get(id)!.active;

/** A fresh lead of the demo owner, assigned to the demo owner (no event: made in the store). */
function lead(extra: Record<string, unknown> = {}) {
	return sb.store.addLead({ firstName: 'Test', ownerUserId: demo, teamId, assignedUserId: demo, ...extra });
}

describe('events emitted by sandbox writes, in the shapes of the payload table', () => {
	it('lead create, update and delete (listId 2) arrive in one batch as createdLead, updatedLead, deletedLead', async () => {
		const r = await receiver();
		await subscribe(2, r.url);
		const created = await api().post('/v1.0/leads', { body: { firstName: 'Webhook' } });
		const leadId = String(created.body.leadId);
		await api().put(`/v1.0/leads/${leadId}`, { body: { lastName: 'Tester' } });
		await api().delete(`/v1.0/leads/${leadId}`, { params: { reason: 'test' } });
		await engine.flush();
		expect(r.deliveries).toHaveLength(1);
		const body = r.deliveries[0].json;
		expect(body).toMatchObject({ listId: 2, teamId: Number(SEED_IDS.teamId) });
		expect(Object.keys(body).sort()).toEqual(['createdLead', 'deletedLead', 'listId', 'teamId', 'updatedLead']);
		for (const key of ['createdLead', 'updatedLead', 'deletedLead']) {
			expect(body[key]).toHaveLength(1);
			expect(Object.keys(body[key][0]).sort()).toEqual(['leadId', 'updateTime']);
			expect(typeof body[key][0].updateTime).toBe('number');
		}
		// ids above 2^53 are sent exactly
		expect(r.deliveries[0].text).toContain(`"leadId":${leadId}`);
	});

	it('inquiry, property and assignment writes are lead updates (listId 2)', async () => {
		const r = await receiver();
		await subscribe(2, r.url);
		await api().post(`/v1.0/leads/${SEED_IDS.bigLeadId}/inquiry`, { body: { priceMin: 100000, priceMax: 200000 } });
		await engine.flush();
		expect(r.deliveries.map((d) => Object.keys(d.json).filter((k) => k.endsWith('Lead')))).toEqual([['updatedLead']]);
		expect(r.deliveries[0].text).toContain(`"leadId":${SEED_IDS.bigLeadId}`);
	});

	it('a stage change (listId 12) sends updatedLeadstage with changeInfo {oldstage, newstage}', async () => {
		const r = await receiver();
		await subscribe(12, r.url);
		const before = sb.store.getLead(SEED_IDS.bigLeadId)!.stage;
		const after = before === 'Hot' ? 'Nurture' : 'Hot';
		await api().put(`/v1.0/leads/${SEED_IDS.bigLeadId}`, { body: { stage: after } });
		await api().put(`/v1.0/leads/${SEED_IDS.bigLeadId}`, { body: { lastName: 'NoStageChange' } });
		await engine.flush();
		expect(r.deliveries).toHaveLength(1);
		expect(r.deliveries[0].json.updatedLeadstage).toEqual([{ leadId: expect.any(Number), updateTime: expect.any(Number), changeInfo: { oldstage: before, newstage: after } }]);
	});

	it('website activity (Browse, Favorite, Search) is Lead Activity (listId 3); other activity types are not', async () => {
		const r = await receiver();
		await subscribe(3, r.url);
		const activity = (type: string) => ({ type, text: 't', link: 'https://x.example/1', picture: 'p', created: Date.UTC(2025, 1, 1) });
		await api().post(`/v1.0/leads/${SEED_IDS.bigLeadId}/activity`, { body: activity('Browse') });
		await api().post(`/v1.0/leads/${SEED_IDS.bigLeadId}/activity`, { body: activity('Request') });
		await engine.flush();
		expect(r.deliveries).toHaveLength(1);
		expect(r.deliveries[0].json).toMatchObject({ listId: 3, updatedLead: [{ updateTime: expect.any(Number) }] });
	});

	it('transactions (listId 5): created, then updated with updatedField and updatedFields', async () => {
		const r = await receiver();
		await subscribe(5, r.url);
		const created = await api().post(`/v1.0/leads/${SEED_IDS.bigLeadId}/transaction`, { body: { transactionName: '1 Main St' } });
		expect(created.status).toBe(200);
		const txId = String(created.body.transactionId);
		await api().put(`/v1.0/leads/${SEED_IDS.bigLeadId}/transaction/${txId}`, { body: { transactionName: '2 Main St' } });
		await engine.flush();
		const body = r.deliveries[0].json;
		expect(body.createdTransaction).toEqual([{ leadId: expect.any(Number), transactionId: expect.any(Number), updateTime: expect.any(Number) }]);
		expect(body.updatedTransaction[0].updatedFields).toContain('transactionName');
		expect(body.updatedTransaction[0].updatedField).toMatchObject({ transactionName: '2 Main St' });
		expect(r.deliveries[0].text).toContain(`"transactionId":${txId}`);
	});

	it('tasks (listId 10) and appointments (listId 11): created, updated, finished, deleted with taskId / apptId', async () => {
		const tasks = await receiver();
		const appts = await receiver();
		await subscribe(10, tasks.url);
		await subscribe(11, appts.url);
		const t = await api().post('/v2.0/tasks', { body: { type: 'Call', content: 'Call back', leadId: SEED_IDS.bigLeadId, assignedRole: 'Agent', endAt: '2026-03-01T10:00:00Z' } });
		const taskId = String(t.body.taskId);
		await api().put(`/v2.0/tasks/${taskId}`, { body: { content: 'Call back soon' } });
		await api().post(`/v2.0/tasks/${taskId}/finish`);
		await api().delete(`/v2.0/tasks/${taskId}`);
		const a = await api().post('/v2.0/tasks', {
			body: { type: 'Appointment', content: 'Showing', leadId: SEED_IDS.bigLeadId, assignedRole: 'Agent', startAt: '2026-03-02T10:00:00Z', endAt: '2026-03-02T11:00:00Z' },
		});
		await api().post(`/v2.0/tasks/${String(a.body.taskId)}/finish`);
		await engine.flush();
		const tb = tasks.deliveries[0].json;
		expect(Object.keys(tb).sort()).toEqual(['createdTask', 'deletedTask', 'finishedTask', 'listId', 'teamId', 'updatedTask']);
		expect(tb.finishedTask[0]).toEqual({ taskId: expect.any(Number), leadId: expect.any(Number), updateTime: expect.any(Number) });
		expect(tasks.deliveries[0].text).toContain(`"taskId":${taskId}`);
		const ab = appts.deliveries[0].json;
		expect(ab).toMatchObject({ listId: 11, createdAppt: [{ apptId: expect.any(Number) }], finishedAppt: [{ apptId: expect.any(Number) }] });
		expect(appts.deliveries[0].text).toContain(`"apptId":${String(a.body.taskId)}`);
	});

	it('texts and emails sent (listIds 8 and 7) carry timelineId, the legacy textId/emailId, agentId and communicationType MANUAL', async () => {
		const texts = await receiver();
		const emails = await receiver();
		await subscribe(8, texts.url);
		await subscribe(7, emails.url);
		const sms = await api().post('/v1.0/message/sms/send', { body: { leadId: SEED_IDS.bigLeadId, content: 'Hello!' } });
		expect(sms.status).toBe(200);
		await api().post('/v1.0/message/email/send', { body: { leadId: SEED_IDS.bigLeadId, subject: 'Hi', content: 'Hello' } });
		await engine.flush();
		const text = texts.deliveries[0].json.createdText[0];
		expect(Object.keys(text).sort()).toEqual(['agentId', 'communicationType', 'leadId', 'textId', 'timelineId', 'updateTime']);
		expect(text.communicationType).toBe('MANUAL');
		expect(text.textId).not.toBe(text.timelineId);
		const email = emails.deliveries[0].json.createdEmail[0];
		expect(email).toMatchObject({ communicationType: 'MANUAL', emailId: expect.any(Number), timelineId: expect.any(Number) });
	});

	it('a logged call (listId 6) is delivered once the manual log is readable, with callId = timelineId (LOGGED)', async () => {
		const r = await receiver();
		await subscribe(6, r.url);
		const log = await api().post('/v1.0/logType', { body: { leadId: SEED_IDS.bigLeadId, logType: 'logCall', content: 'Talked', leadPhoneNumber: '5551234567' } });
		const id = String(log.body.logType.id);
		await engine.flush();
		expect(r.deliveries).toHaveLength(0);
		await engine.advance(2 * SECOND);
		expect(r.deliveries).toHaveLength(1);
		const call = r.deliveries[0].json.createdCall[0];
		expect(call.communicationType).toBe('LOGGED');
		expect(r.deliveries[0].text).toContain(`"callId":${id},"timelineId":${id}`);
	});

	it('AUTO communications are never delivered (rule 5)', async () => {
		const r = await receiver();
		await subscribe(6, r.url);
		await subscribe(7, r.url);
		const state = commState(sb.store);
		const now = sb.store.now();
		for (const [kind, type] of [['CALL', 'AUTO'], ['EMAIL', 'AUTO'], ['CALL', 'MANUAL']] as const) {
			emitCommunication(sb.store, state.add({ leadId: BigInt(SEED_IDS.bigLeadId), agentId: demo, kind, communicationType: type, direction: 'Outbound', time: now }));
		}
		await engine.flush();
		expect(r.deliveries).toHaveLength(1);
		expect(r.deliveries[0].json.createdCall).toHaveLength(1);
		expect(r.deliveries[0].json.createdCall[0].communicationType).toBe('MANUAL');
	});

	it('notes (listId 9): createdNote is an array, updatedNote and deletedNote single objects, one of each per batch', async () => {
		const r = await receiver();
		await subscribe(9, r.url);
		const l = lead();
		const note = (n: bigint) => ({ noteId: n, leadId: l.leadId, noteType: 'Manual' as const, agentId: demo });
		emitNote(sb.store, 'created', note(1n), 1000);
		emitNote(sb.store, 'created', note(2n), 1001);
		emitNote(sb.store, 'updated', note(1n), 1002);
		emitNote(sb.store, 'updated', note(2n), 1003);
		emitNote(sb.store, 'deleted', note(1n), 1004);
		await engine.flush();
		expect(r.deliveries).toHaveLength(2);
		expect(r.deliveries[0].json.createdNote).toHaveLength(2);
		expect(r.deliveries[0].json.updatedNote).toEqual({ noteId: 1, leadId: expect.any(Number), updateTime: 1002, noteType: 'Manual', agentId: expect.any(Number) });
		expect(r.deliveries[1].json).toMatchObject({ updatedNote: { noteId: 2 }, deletedNote: { noteId: 1 } });
	});

	it('agents (listId 1) send updatedAgent[] and listing alerts (listId 4) a lone alertId', async () => {
		const agents = await receiver();
		const alerts = await receiver();
		await subscribe(1, agents.url);
		await subscribe(4, alerts.url);
		emitAgent(sb.store, teamId, other, 5000);
		emitListingAlert(sb.store, teamId, 777n);
		emitListingAlert(sb.store, teamId, 778n);
		await engine.flush();
		expect(agents.deliveries[0].json).toEqual({ listId: 1, teamId: Number(SEED_IDS.teamId), updatedAgent: [{ agentUserId: Number(other), updateTime: 5000 }] });
		expect(alerts.deliveries.map((d) => d.json)).toEqual([
			{ listId: 4, teamId: Number(SEED_IDS.teamId), alertId: 777 },
			{ listId: 4, teamId: Number(SEED_IDS.teamId), alertId: 778 },
		]);
	});
});

describe('batching and Service-Webhook-Id', () => {
	it('batches by the subscription limit (limit 2: 5 events make 3 requests)', async () => {
		const r = await receiver();
		await subscribe(2, r.url, { limit: 2 });
		const l = lead();
		for (let i = 0; i < 5; i++) emitLead(sb.store, 'updated', l, 1000 + i);
		await engine.flush();
		expect(r.deliveries.map((d) => d.json.updatedLead.length)).toEqual([2, 2, 1]);
		expect(r.deliveries.flatMap((d) => d.json.updatedLead.map((e: { updateTime: number }) => e.updateTime))).toEqual([1000, 1001, 1002, 1003, 1004]);
	});

	it('Service-Webhook-Id is stable across retries and differs between deliveries', async () => {
		const r = await receiver([500, 503, 200, 200]);
		await subscribe(2, r.url);
		const l = lead();
		emitLead(sb.store, 'updated', l, 1);
		await engine.advance(5 * MINUTE);
		emitLead(sb.store, 'updated', l, 2);
		await engine.flush();
		const ids = r.deliveries.map((d) => d.headers['service-webhook-id']);
		expect(ids).toHaveLength(4);
		expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
		expect(new Set(ids.slice(0, 3)).size).toBe(1);
		expect(ids[3]).not.toBe(ids[0]);
	});
});

describe('fault switch: garbleNext', () => {
	it('sends the next delivery cut in half with the given content type, then whole again under the same Service-Webhook-Id', async () => {
		const r = await receiver([500, 200]);
		const id = await subscribe(2, r.url);
		engine.garbleNext(1, 'text/plain');
		emitLead(sb.store, 'updated', lead(), 1);
		await engine.advance(40 * SECOND);
		expect(r.deliveries.map((d) => [d.headers['content-type'], d.json === undefined])).toEqual([
			['text/plain', true],
			['application/json', false],
		]);
		expect(new Set(logOf(id).map((e) => e.deliveryId)).size).toBe(1);
	});
});

describe('retries', () => {
	it('follows the retry schedule 30 s, 2 min, 10 min, 30 min, 2 h, 6 h, 12 h, 24 h: 9 attempts, then the event is given up', async () => {
		// One event always fails while the others of the stream succeed (so the subscription stays enabled).
		const r = await new ScriptedReceiver([], (req) => (req.text.includes('"updateTime":1}') ? 500 : 200)).start();
		receivers.push(r);
		const id = await subscribe(2, r.url);
		const l = lead();
		emitLead(sb.store, 'updated', l, 1);
		await engine.flush();
		for (let hour = 0; hour < 47; hour++) {
			emitLead(sb.store, 'updated', l, 1000 + hour);
			await engine.advance(HOUR);
		}
		const failing = logOf(id).filter((e) => e.body?.includes('"updateTime":1}'));
		expect(failing.map((e) => e.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
		expect(new Set(failing.map((e) => e.deliveryId)).size).toBe(1);
		const gaps = failing.slice(1).map((e, i) => e.time - failing[i].time);
		expect(gaps).toEqual(RETRY_DELAYS_MS);
		expect(failing[8].outcome).toBe('exhausted');
		expect(isActive(id)).toBe(true);
		expect(engine.pending(id)).toBe(0);
	});

	it('puts about ±20% jitter on each delay', async () => {
		for (const [random, factor] of [[0, 0.8], [0.999999, 1.2]] as const) {
			sb.reset();
			configureDelivery(sb.store, { random: () => random });
			engine = webhookDelivery(sb);
			const r = await receiver([500]);
			const id = await subscribe(2, r.url);
			emitLead(sb.store, 'updated', lead(), 1);
			await engine.flush();
			const first = logOf(id)[0];
			expect((first.nextAttemptAt! - first.time) / RETRY_DELAYS_MS[0]).toBeCloseTo(factor, 3);
		}
		configureDelivery(sb.store, { random: () => 0.5 });
	});

	it.each([408, 429, 500, 502, 503, 504])('retries a %i answer', async (status) => {
		const r = await receiver([status, 200]);
		const id = await subscribe(2, r.url);
		emitLead(sb.store, 'updated', lead(), 1);
		await engine.advance(2 * MINUTE);
		expect(logOf(id).map((e) => e.outcome)).toEqual(['retry-scheduled', 'delivered']);
		expect(r.deliveries).toHaveLength(2);
	});

	it('retries a timeout and a connection error', async () => {
		const slow = await receiver([{ status: 200, delayMs: 1000 }, 200]);
		const slowId = await subscribe(2, slow.url);
		const refused = await subscribe(2, 'http://127.0.0.1:9/hook');
		emitLead(sb.store, 'updated', lead(), 1);
		await engine.flush();
		expect(logOf(slowId)[0]).toMatchObject({ status: 'timeout', outcome: 'retry-scheduled' });
		expect(logOf(refused)[0]).toMatchObject({ status: 'error', outcome: 'retry-scheduled' });
		await engine.advance(40 * SECOND);
		expect(logOf(slowId)[1]).toMatchObject({ status: 200, outcome: 'delivered' });
	});

	it.each([400, 401, 403, 404, 422])('discards the event on any other 4xx (%i), without retry', async (status) => {
		const r = await receiver([status]);
		const id = await subscribe(2, r.url);
		emitLead(sb.store, 'updated', lead(), 1);
		await engine.advance(DAY);
		expect(logOf(id).map((e) => e.outcome)).toEqual(['discarded']);
		expect(isActive(id)).toBe(true);
	});

	it('honours Retry-After on a 429 within 60 s to 1 h', async () => {
		const cases: Array<[string, number]> = [['5', MINUTE], ['120', 2 * MINUTE], ['7200', HOUR]];
		for (const [retryAfter, expected] of cases) {
			const r = await receiver([{ status: 429, headers: { 'Retry-After': retryAfter } }, 200]);
			const id = await subscribe(2, r.url);
			emitLead(sb.store, 'updated', lead(), 1);
			await engine.flush();
			const first = logOf(id)[0];
			expect(first.nextAttemptAt! - first.time).toBe(expected);
		}
	});
});

describe('disabling, pings and expiry', () => {
	it('410 disables the subscription at once; it is no longer listed and gets no attempts', async () => {
		const r = await receiver([410]);
		const id = await subscribe(2, r.url);
		emitLead(sb.store, 'updated', lead(), 1);
		await engine.flush();
		expect(logOf(id).map((e) => e.outcome)).toEqual(['disabled']);
		expect(isActive(id)).toBe(false);
		const listed = await api().get('/v1.0/webhooks');
		expect(listed.body.map((s: { subscribeId: bigint }) => String(s.subscribeId))).not.toContain(id);
		emitLead(sb.store, 'updated', lead(), 2);
		await engine.advance(5 * HOUR);
		expect(r.deliveries).toHaveLength(1);
		expect(engine.pending(id)).toBe(2);
	});

	it('repeated failures with no success in between disable the subscription after about a day', async () => {
		const r = await receiver([500]);
		const id = await subscribe(2, r.url);
		emitLead(sb.store, 'updated', lead(), 1);
		await engine.advance(12 * HOUR);
		expect(isActive(id)).toBe(true);
		await engine.advance(12 * HOUR);
		expect(isActive(id)).toBe(false);
		const disabledAt = logOf(id).find((e) => e.outcome === 'disabled')!.time - logOf(id)[0].time;
		expect(disabledAt).toBeGreaterThanOrEqual(20 * HOUR);
		expect(disabledAt).toBeLessThanOrEqual(DAY);
	});

	it('a high-volume endpoint (backlog of 1,000 events) is disabled within hours', async () => {
		const id = await subscribe(2, 'http://127.0.0.1:9/refused', { limit: 100 });
		const l = lead();
		for (let i = 0; i < 1000; i++) emitLead(sb.store, 'updated', l, i);
		await engine.advance(9 * HOUR);
		expect(isActive(id)).toBe(false);
	});

	it('a disabled subscription is pinged about every 6 hours; the first 2xx re-enables it and releases pending events at once', async () => {
		const r = await receiver([410, 503, 200, 200]);
		const id = await subscribe(2, r.url);
		emitLead(sb.store, 'updated', lead(), 1);
		await engine.flush();
		expect(isActive(id)).toBe(false);
		await engine.advance(6 * HOUR - SECOND);
		expect(r.pings).toHaveLength(0);
		await engine.advance(SECOND);
		expect(r.pings).toHaveLength(1);
		expect(r.pings[0].json).toEqual({ eventType: 'ping', webhookId: expect.any(Number) });
		expect(r.pings[0].text).toBe(`{"eventType":"ping","webhookId":${id}}`);
		expect(isActive(id)).toBe(false);
		await engine.advance(6 * HOUR);
		expect(r.pings).toHaveLength(2);
		expect(isActive(id)).toBe(true);
		// the pending event went out right after the revival, under its original Service-Webhook-Id
		expect(r.deliveries).toHaveLength(2);
		expect(r.deliveries[1].headers['service-webhook-id']).toBe(r.deliveries[0].headers['service-webhook-id']);
		expect(logOf(id).map((e) => e.outcome)).toEqual(['disabled', 'ping-failed', 'revived', 'delivered']);
	});

	it('events expire 48 hours after creation, even while the subscription is disabled', async () => {
		const r = await receiver([410, 500]);
		const id = await subscribe(2, r.url);
		emitLead(sb.store, 'updated', lead(), 1);
		await engine.flush();
		await engine.advance(48 * HOUR);
		expect(logOf(id).some((e) => e.outcome === 'expired')).toBe(true);
		expect(engine.pending(id)).toBe(0);
		r.script = [200];
		await engine.advance(6 * HOUR);
		expect(isActive(id)).toBe(true);
		expect(r.deliveries).toHaveLength(1);
	});

	it('a deleted subscription gets nothing more', async () => {
		const r = await receiver([500]);
		const id = await subscribe(2, r.url);
		emitLead(sb.store, 'updated', lead(), 1);
		await engine.flush();
		await api().delete(`/v1.0/webhook/${id}`, { headers: { 'Content-Type': 'application/json' } });
		await engine.advance(HOUR);
		expect(r.deliveries).toHaveLength(1);
	});
});

describe('recipients (rule 6)', () => {
	it('only the lead\'s team and event type: another team\'s and another list\'s subscriptions get nothing', async () => {
		const r = await receiver();
		const tasks = await subscribe(10, r.url);
		const leads = await subscribe(2, r.url);
		webhookState(sb.store).subscriptions.get(leads)!.teamId = 99001n;
		emitLead(sb.store, 'updated', lead(), 1);
		await engine.flush();
		expect(r.requests).toHaveLength(0);
		expect(engine.pending(tasks)).toBe(0);
	});

	it('permissionMode 0: the assigned agent, the Company Owner and Admins; others not; hidden leads only the assigned agent', async () => {
		const ownerR = await receiver();
		const agentR = await receiver();
		await subscribe(2, ownerR.url);
		await subscribe(2, agentR.url, { key: OTHER_AGENT_API_KEY });
		emitLead(sb.store, 'updated', lead({ assignedUserId: other }), 1); // owner (manager) and assignee
		emitLead(sb.store, 'updated', lead({ assignedUserId: demo }), 2); // owner only
		emitLead(sb.store, 'updated', lead({ assignedUserId: other, hiddenFlag: true }), 3); // assignee only
		await engine.flush();
		const times = (rcv: ScriptedReceiver) => rcv.deliveries.flatMap((d) => d.json.updatedLead.map((e: { updateTime: number }) => e.updateTime));
		expect(times(ownerR)).toEqual([1, 2]);
		expect(times(agentR)).toEqual([1, 3]);
	});

	it('permissionMode 1 adds leads in the subscriber\'s ownership scope (personal, team, office) assigned to someone else', async () => {
		const mode0 = await receiver();
		const mode1 = await receiver();
		await subscribe(2, mode0.url, { key: OTHER_AGENT_API_KEY });
		await subscribe(2, mode1.url, { key: OTHER_AGENT_API_KEY, permissionMode: 1 });
		const otherUser = sb.store.getUser(other)!;
		emitLead(sb.store, 'updated', lead({ ownerUserId: other, ownershipScope: 'PERSONAL', ownershipId: other, assignedUserId: demo }), 1);
		emitLead(sb.store, 'updated', lead({ ownershipScope: 'TEAM', ownershipId: teamId, assignedUserId: demo }), 2);
		emitLead(sb.store, 'updated', lead({ ownershipScope: 'OFFICE', ownershipId: otherUser.groupId, assignedUserId: demo }), 3);
		emitLead(sb.store, 'updated', lead({ ownershipScope: 'OFFICE', ownershipId: otherUser.groupId + 999n, assignedUserId: demo }), 4);
		emitLead(sb.store, 'updated', lead({ ownerUserId: other, ownershipScope: 'TEAM', assignedUserId: demo, hiddenFlag: true }), 5);
		await engine.flush();
		const times = (rcv: ScriptedReceiver) => rcv.deliveries.flatMap((d) => d.json.updatedLead.map((e: { updateTime: number }) => e.updateTime));
		expect(times(mode0)).toEqual([]);
		expect(times(mode1)).toEqual([1, 2, 3]);
	});
});

describe('HTTPS', () => {
	it('subscriptions need HTTPS; plain http:// is accepted only for loopback with allowHttpCallbacks', async () => {
		configureDelivery(sb.store, { allowHttpCallbacks: false });
		const strict = await api().post('/v1.0/webhook', { body: { listId: 2, callbackUrl: 'http://127.0.0.1:5678/hook' } });
		expect(strict.body.code).toBe('WEBHOOK_CALLBACK_URL_INVALID');
		configureDelivery(sb.store, { allowHttpCallbacks: true });
		expect((await api().post('/v1.0/webhook', { body: { listId: 2, callbackUrl: 'http://127.0.0.1:5678/hook' } })).status).toBe(200);
		const remote = await api().post('/v1.0/webhook', { body: { listId: 2, callbackUrl: 'http://example.com/hook' } });
		expect(remote.body.code).toBe('WEBHOOK_CALLBACK_URL_INVALID');
	});

	it('never sends to hosts that are not loopback (seeded example.com subscriptions stay offline)', async () => {
		emitLead(sb.store, 'updated', lead(), 1);
		await engine.flush();
		const seeded = engine.log.filter((e) => e.callbackUrl.includes('example.com'));
		expect(seeded.length).toBeGreaterThan(0);
		expect(seeded.every((e) => e.status === 'error' && /not a loopback host/.test(e.error ?? ''))).toBe(true);
	});
});
