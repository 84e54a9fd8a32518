/**
 * The sandbox's webhook delivery engine against api-spec.md's delivery rules, each rule named by a test: the
 * events sandbox writes emit, in the shapes of the payload table, and how they are batched.
 * Deliveries go over loopback to scripted receivers; the engine's clock is advanced instead of waited for.
 */
import { SEED_IDS } from '../../sandbox';
import { commState } from '../../sandbox/resources/communication';
import { emitAgent, emitCommunication, emitLead, emitListingAlert, emitNote } from '../../sandbox/resources/webhook/delivery';
import { MINUTE, SECOND } from '../../sandbox/resources/webhook/delivery/schedule';
import { api, demo, engine, lead, other, receiver, sb, subscribe, teamId, useDeliverySandbox } from '../harness/deliverySandbox';

useDeliverySandbox();

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
