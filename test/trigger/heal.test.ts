/**
 * The Lofty Trigger remembers a delivery as seen only once it has been handled (issue 27): a delivery whose work
 * failed (the stage list for a filter could not be read) leaves no trace that would make Lofty's retry a
 * duplicate, also where n8n saves the static data of a failed request (older n8n did); two copies of one delivery
 * at once still run once, whether the first succeeds or fails. Fetch Full Record behind another execution waiting
 * for the rate-limit window does not wait for it.
 */
import { SEED_IDS, type Sandbox } from '../../sandbox';
import { type DeliveryEngine } from '../../sandbox/resources/webhook/delivery';
import { SECOND } from '../../sandbox/resources/webhook/delivery/schedule';
import { LoftyTrigger } from '../../nodes/LoftyTrigger/LoftyTrigger.node';
import { forgetStageNames } from '../../nodes/LoftyTrigger/filters';
import { acquire, pacingKey, resetPacing } from '../../nodes/Lofty/transport/pacing';
import { client } from '../sandbox/helpers';
import { T0, useTriggerWorld } from '../harness/triggerSandbox';
import { STEP_BUDGET_MS } from '../harness/budgets';

// The budgets hold what a loaded machine needs; the rate-limit window below ends well after them.
const world = useTriggerWorld(new LoftyTrigger({ fetchBudgetMs: STEP_BUDGET_MS, listTimeoutMs: STEP_BUDGET_MS, listRetries: 0 }));
const WINDOW_MS = 2 * STEP_BUDGET_MS;
let sb: Sandbox;
let engine: DeliveryEngine;
beforeEach(() => {
	({ sb, engine } = world());
	forgetStageNames();
	resetPacing();
});

const PIPELINES = { method: 'GET', path: '/v1.0/teamFeatures/lead-pipelines' };
/** The seed's stage IDs (the stageChange reading `ids` sends these). */
const stageId = (name: string) => String(sb.store.stageByName(name, false)!.id);

/** A Pipeline Change delivery as Lofty sends it under the `ids` reading: one lead into Under Contract. */
function stageDelivery(leadId: string, updateTime = T0) {
	return {
		teamId: Number(SEED_IDS.teamId),
		listId: 12,
		updatedLeadstage: [{ leadId, updateTime, changeInfo: { oldstage: stageId('Active'), newstage: stageId('Under Contract') } }],
	};
}

describe('a delivery is remembered only once handled', () => {
	it('the stage list unreadable (5xx), on an n8n that saves static data after a failed webhook: Lofty\'s retry runs the change once', async () => {
		sb.readings.set({ stageChange: 'ids' });
		const h = await world().activeTrigger({ events: [12], options: { stageTo: ['Under Contract'] } });
		h.savesAfterFailure = true;
		sb.faults.inject({ kind: '500', times: 20, match: PIPELINES });
		const lead = String((await client(sb.url, { token: sb.apiKey }).post('/v1.0/leads', { body: { firstName: 'Ann', stage: 'Active' } })).body.leadId);
		sb.store.now = () => T0 + 1;
		await client(sb.url, { token: sb.apiKey }).put(`/v1.0/leads/${lead}`, { body: { stage: 'Under Contract' } });
		await engine.flush();
		await h.idle();
		expect(h.answers.at(-1)!.status).toBeGreaterThanOrEqual(500);
		expect(h.executions).toHaveLength(0);
		sb.faults.clear();
		await engine.advance(40 * SECOND);
		await h.idle();
		expect(h.answers.at(-1)!.status).toBe(200);
		expect(h.answers.at(-1)!.body).not.toMatchObject({ duplicate: true });
		expect(h.items.map((i) => i.leadId)).toEqual([lead]);
		// and a further retry of it is a duplicate
		const again = await h.receive({ body: stageDelivery(lead, T0 + 1), headers: { 'service-webhook-id': 'other-copy' } });
		expect(again.status).toBe(200);
		expect(h.executions).toHaveLength(1);
	});

	it('two copies of one delivery at once, while the first reads the stage list: the second is answered 503; the change runs once', async () => {
		sb.readings.set({ stageChange: 'ids' });
		const h = await world().activeTrigger({ events: [12], options: { stageTo: ['Under Contract'] } });
		sb.faults.inject({ kind: 'slow', delayMs: 300, match: PIPELINES });
		const lead = SEED_IDS.bigLeadId;
		const copy = () => h.receive({ body: stageDelivery(lead), headers: { 'service-webhook-id': 'twice' } });
		const [first, second] = await Promise.all([copy(), copy()]);
		expect([first.status, second.status].sort()).toEqual([200, 503]);
		expect((await copy()).body).toMatchObject({ duplicate: true });
		expect(h.items.map((i) => i.leadId)).toEqual([lead]);
	});

	it('two copies at once while the first fails its stage-list read: the second is answered 503, the first 5xx, and Lofty\'s retry runs it once', async () => {
		sb.readings.set({ stageChange: 'ids' });
		const h = await world().activeTrigger({ events: [12], options: { stageTo: ['Under Contract'] } });
		h.savesAfterFailure = true;
		// Each read retried after a growing pause: the first copy is still at it when the second arrives.
		sb.faults.inject({ kind: '500', times: 20, match: PIPELINES });
		const lead = SEED_IDS.bigLeadId;
		const copy = () => h.receive({ body: stageDelivery(lead), headers: { 'service-webhook-id': 'fails-once' } });
		const answers = await Promise.all([copy(), copy()]);
		expect(answers.map((a) => a.status).sort()).toEqual([500, 503]);
		expect(h.executions).toHaveLength(0);
		sb.faults.clear();
		const retry = await copy();
		expect(retry.status).toBe(200);
		expect(retry.body).not.toMatchObject({ duplicate: true });
		expect(h.items.map((i) => i.leadId)).toEqual([lead]);
	});
});

/** Another execution used up the window (Lofty said 0 remaining, the reset WINDOW_MS away) and a bulk run waits for it. */
async function bulkRunWaiting(): Promise<{ granted: () => boolean; done: Promise<void> }> {
	const key = pacingKey('loftyApi', sb.url, sb.apiKey);
	const other = await acquire(key);
	other.observe({ 'X-RateLimit-Limit': '100', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(Math.ceil((Date.now() + WINDOW_MS) / 1000)) });
	let granted = false;
	const done = acquire(key).then((t) => {
		granted = true;
		t.done();
	});
	return { granted: () => granted, done };
}

describe('the subscription listing behind a bulk run waiting for the rate-limit window', () => {
	it('does not wait for the window (the listing\'s budget ends before it): the activation fails at once saying so, nothing created', async () => {
		const bulk = await bulkRunWaiting();
		const activation = world().activeTrigger({ events: [2] });
		const error = (await activation.catch((e: unknown) => e)) as Error & { description?: string };
		expect(bulk.granted()).toBe(false);
		expect(error.message).toMatch(/Could not read the Lofty webhook subscriptions .*time budget/);
		expect(sb.requests.filter((r) => r.method === 'POST' && r.path === '/v1.0/webhook')).toEqual([]);
		await bulk.done;
	});
});

describe('Fetch Full Record behind a bulk run waiting for the rate-limit window', () => {
	it('does not wait for the window (the budget ends before it): the items say not looked up, answered before the bulk run goes', async () => {
		const h = await world().activeTrigger({ events: [2], fetchFullRecord: true });
		const bulk = await bulkRunWaiting();
		const answer = await h.receive({ body: { teamId: Number(SEED_IDS.teamId), listId: 2, createdLead: [{ leadId: SEED_IDS.bigLeadId, updateTime: T0 }] }, headers: { 'service-webhook-id': 'queued' } });
		expect(bulk.granted()).toBe(false);
		expect(answer.status).toBe(200);
		expect(h.items[0].recordError).toMatchObject({ code: 'NOT_LOOKED_UP' });
		await bulk.done;
	});
});
