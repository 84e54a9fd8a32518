/**
 * Lofty Trigger through outages and restarts, against the sandbox's delivery engine (its clock is driven,
 * not waited for): the receiver goes down, Lofty retries and disables the subscriptions, n8n comes back
 * (activation re-run, as n8n 2.8.4 does on every start, or not, as 2.41.1 does), a ping re-enables them
 * and every event of the outage runs exactly once. `GET /v1.0/webhooks` failing or timing out never
 * makes the trigger delete anything.
 */
import { DEMO_API_KEY, SEED_IDS, type Sandbox } from '../../sandbox';
import { type DeliveryEngine, emitLead, emitStageChange } from '../../sandbox/resources/webhook/delivery';
import { HOUR } from '../../sandbox/resources/webhook/delivery/schedule';
import { webhookState } from '../../sandbox/resources/webhook';
import { LoftyTrigger } from '../../nodes/LoftyTrigger/LoftyTrigger.node';
import { client } from '../sandbox/helpers';
import { type TriggerHarness, startTrigger, triggerApiKey } from '../harness/trigger';
import { T0, useTriggerWorld } from '../harness/triggerSandbox';
import { HUNG_MS, STEP_BUDGET_MS } from '../harness/budgets';

// The list request gives up after STEP_BUDGET_MS here, once (10 s and a retry in n8n), so that a Lofty that does not
// answer is quick to test; the 'slow' faults hold the answer back for HUNG_MS, far past it.
const node = new LoftyTrigger({ listTimeoutMs: STEP_BUDGET_MS, listRetries: 0 });
const world = useTriggerWorld(node);
let sb: Sandbox;
let engine: DeliveryEngine;
const LISTS = [2, 12];
beforeEach(() => {
	({ sb, engine } = world());
});

const api = () => client(sb.url, { token: DEMO_API_KEY });
const teamId = BigInt(SEED_IDS.teamId);
const demo = BigInt(SEED_IDS.demoUserId);
const activeTrigger = (params: Record<string, unknown> = { events: LISTS }) => world().activeTrigger(params);
const restart = (previous: TriggerHarness) => world().restart(previous);

const ours = (h: TriggerHarness) => [...webhookState(sb.store).subscriptions.values()].filter((s) => s.callbackUrl.split('?')[0] === h.webhookUrl);
const deletes = () => sb.count('DELETE', '/v1.0/webhook/{id}');
const posts = () => sb.count('POST', '/v1.0/webhook');
const listedOurs = async (h: TriggerHarness) =>
	((await api().get('/v1.0/webhooks')).body as Array<{ callbackUrl: string; listId: number }>).filter((s) => s.callbackUrl.split('?')[0] === h.webhookUrl).map((s) => s.listId).sort((a, b) => a - b);

/** Sandbox writes during the outage: lead updates (list 2) and stage changes (list 12), each with its own time. */
function outageEvents(count: number, from: number): Array<[string, number]> {
	const lead = sb.store.addLead({ firstName: 'Outage', ownerUserId: demo, teamId, assignedUserId: demo });
	const sent: Array<[string, number]> = [];
	for (let i = 0; i < count; i++) {
		emitLead(sb.store, 'updated', lead, from + i);
		sent.push(['lead.updated', from + i]);
		if (i % 2 === 0) {
			emitStageChange(sb.store, lead, `S${i}`, `S${i + 1}`, from + i);
			sent.push(['pipeline.updated', from + i]);
		}
	}
	return sent;
}

/** Takes the receiver down, makes Lofty fail, retry and disable every subscription of the trigger. */
async function outage(h: TriggerHarness, events: number): Promise<Array<[string, number]>> {
	await h.stop();
	const sent = outageEvents(events, T0 + 1);
	await engine.advance(21 * HOUR);
	expect(ours(h).map((s) => s.active)).toEqual(LISTS.map(() => false));
	expect(await listedOurs(h)).toEqual([]);
	return sent;
}

const ran = (h: TriggerHarness) => h.items.map((i) => [i.event, i.updateTime] as [string, number]).sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]));
const sorted = (sent: Array<[string, number]>) => [...sent].sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]));

describe('outage: receiver down, subscriptions disabled, n8n restarted', () => {
	it.each([
		['activation re-run on start (n8n 2.8.4; 2.41 without the publication service)', true],
		['no activation on start (n8n 2.41.1)', false],
	])('%s: the ping re-enables them and every outage event runs exactly once; nothing deleted or re-created', async (_name, reactivate) => {
		const first = await activeTrigger();
		const [before, createdBefore] = [deletes(), posts()];
		const sent = await outage(first, 7);
		const h = await restart(first);
		if (reactivate) {
			await h.activate();
			expect(h.infos).toEqual(expect.arrayContaining([expect.stringMatching(/subscription \d+ is not listed by Lofty: presumed disabled, kept/)]));
		}
		await engine.advance(6 * HOUR);
		await h.idle();
		expect(ran(h)).toEqual(sorted(sent));
		expect(await listedOurs(h)).toEqual(LISTS);
		expect(ours(h)).toHaveLength(LISTS.length);
		expect([deletes() - before, posts() - createdBefore]).toEqual([0, 0]);
		// Lofty sent each batch again under its own Service-Webhook-Id; nothing was discarded
		expect(engine.log.filter((e) => e.outcome === 'discarded')).toEqual([]);
		// a later restart with activation finds them listed and changes nothing
		const again = await restart(h);
		await again.activate();
		expect([deletes() - before, posts() - createdBefore]).toEqual([0, 0]);
	});

	it('GET /v1.0/webhooks failing (500) during the restart\'s activation: the remembered subscriptions are kept as they are, the outage still flushes once', async () => {
		const first = await activeTrigger();
		const [before, createdBefore] = [deletes(), posts()];
		const sent = await outage(first, 3);
		const h = await restart(first);
		sb.faults.inject({ kind: '500', times: 1, match: { method: 'GET', path: '/v1.0/webhooks' } });
		await h.activate();
		expect(h.warnings).toEqual([expect.stringMatching(/could not read the webhook subscriptions .*kept the remembered ones/)]);
		await engine.advance(6 * HOUR);
		await h.idle();
		expect(ran(h)).toEqual(sorted(sent));
		expect([deletes() - before, posts() - createdBefore]).toEqual([0, 0]);
	});

	it('GET /v1.0/webhooks timing out during the restart\'s activation: the same', async () => {
		const first = await activeTrigger();
		const before = deletes();
		const sent = await outage(first, 2);
		const h = await restart(first);
		sb.faults.inject({ kind: 'slow', delayMs: HUNG_MS, times: 1, match: { method: 'GET', path: '/v1.0/webhooks' } });
		await h.activate();
		expect(h.warnings).toEqual([expect.stringMatching(/could not read the webhook subscriptions \(.*(did not answer|timed out|timeout)/i)]);
		await engine.advance(6 * HOUR);
		await h.idle();
		expect(ran(h)).toEqual(sorted(sent));
		expect(deletes()).toBe(before);
	});

	it('a subscription deleted in Lofty while n8n was down: kept as presumed disabled at first, replaced by an activation more than 54 hours later with no ping', async () => {
		const first = await activeTrigger();
		await first.stop();
		const [gone] = ours(first);
		webhookState(sb.store).subscriptions.delete(gone.subscribeId.toString());
		let h = await restart(first);
		await h.activate();
		expect(posts()).toBe(2);
		await engine.advance(55 * HOUR);
		// the trigger's own clock (n8n's) moves on too
		const realNow = Date.now.bind(Date);
		const later = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + 55 * HOUR);
		h = await restart(h);
		await h.activate();
		later.mockRestore();
		expect(h.infos).toEqual(expect.arrayContaining([expect.stringMatching(/deleted the webhook subscription \d+: not listed by Lofty for 55 hours and no ping since: presumed deleted in Lofty/)]));
		expect(await listedOurs(h)).toEqual(LISTS);
		expect(ours(h)).toHaveLength(2);
	});
});

describe('GET /v1.0/webhooks failing during activation: nothing is deleted', () => {
	it.each([
		['500', { kind: '500' as const, times: 1 }],
		['timeout', { kind: 'slow' as const, delayMs: HUNG_MS, times: 1 }],
	])('%s on a first activation: it fails with a clear message, creates and deletes nothing', async (_name, fault) => {
		const h = world().track(await startTrigger({ params: { events: LISTS }, credential: triggerApiKey(sb), node }));
		const [before, createdBefore] = [deletes(), posts()];
		sb.faults.inject({ ...fault, match: { method: 'GET', path: '/v1.0/webhooks' } });
		await expect(h.activate()).rejects.toThrow(/Could not read the Lofty webhook subscriptions \(GET \/v1.0\/webhooks\)/);
		expect([deletes() - before, posts() - createdBefore]).toEqual([0, 0]);
		// then it works
		await h.activate();
		expect(await listedOurs(h)).toEqual(LISTS);
	});

	it.each([
		['500', { kind: '500' as const, times: 1 }],
		['timeout', { kind: 'slow' as const, delayMs: HUNG_MS, times: 1 }],
	])('%s when the lists changed (a disabled subscription remembered): activation fails, n8n\'s clean-up deletes nothing, the queue survives', async (_name, fault) => {
		const first = await activeTrigger();
		const sent = await outage(first, 2);
		const h = await restart(first);
		const before = deletes();
		h.params = { events: [...LISTS, 10] };
		sb.faults.inject({ ...fault, match: { method: 'GET', path: '/v1.0/webhooks' } });
		const error = await h.activate().then(
			() => undefined,
			(e: Error & { description?: string }) => e,
		);
		expect(error?.description).toMatch(/no subscription was created or deleted/);
		expect(h.infos).toEqual(expect.arrayContaining([expect.stringMatching(/the activation failed, so n8n removes the trigger again; its Lofty subscriptions \(\d+, \d+\) are kept/)]));
		expect(deletes()).toBe(before);
		// the next activation adds Task, keeps the two disabled ones, and the ping flushes the outage
		await h.activate();
		expect(deletes()).toBe(before);
		await engine.advance(6 * HOUR);
		await h.idle();
		expect(ran(h)).toEqual(sorted(sent));
		expect(await listedOurs(h)).toEqual([2, 10, 12]);
	});
});

describe('a real settings change deletes, and says why', () => {
	it('a list no longer chosen and a changed batch size: the old subscriptions are deleted with their reasons in the log', async () => {
		const h = await activeTrigger();
		h.params = { events: [2], options: { batchSize: 7 } };
		await h.activate();
		expect(h.infos).toEqual(
			expect.arrayContaining([
				expect.stringMatching(/deleted the webhook subscription \d+: its batch size or delivery scope \(100, 0\) differs from the trigger's \(7, 0\)/),
				expect.stringMatching(/deleted the webhook subscription \d+: Pipeline Change is no longer chosen under "Trigger On"/),
			]),
		);
		expect(ours(h).map((s) => [s.listId, s.limit])).toEqual([[2, 7]]);
	});

	it('a disabled subscription of a list no longer chosen is deleted too (it is remembered)', async () => {
		const first = await activeTrigger();
		await outage(first, 1);
		const h = await restart(first);
		h.params = { events: [2] };
		await h.activate();
		expect(h.infos).toEqual(expect.arrayContaining([expect.stringMatching(/Pipeline Change is no longer chosen under "Trigger On" \(it was not listed: disabled, or already gone\)/)]));
		expect(ours(h).map((s) => s.listId)).toEqual([2]);
	});
});
