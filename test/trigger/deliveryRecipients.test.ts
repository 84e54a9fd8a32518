/**
 * The sandbox's webhook delivery engine against api-spec.md's delivery rules, each rule named by a test: who
 * receives an event (rule 6) and where the engine may send (HTTPS, loopback only).
 * Deliveries go over loopback to scripted receivers; the engine's clock is advanced instead of waited for.
 */
import { OTHER_AGENT_API_KEY } from '../../sandbox';
import { configureDelivery, emitLead } from '../../sandbox/resources/webhook/delivery';
import { webhookState } from '../../sandbox/resources/webhook';
import type { ScriptedReceiver } from '../harness/receiver';
import { api, demo, engine, lead, other, receiver, sb, subscribe, teamId, useDeliverySandbox } from '../harness/deliverySandbox';

useDeliverySandbox();

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
