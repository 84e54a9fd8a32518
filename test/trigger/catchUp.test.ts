/**
 * Lofty Trigger catching up after n8n's start: deliveries answered 404 while n8n registers its webhooks are
 * discarded by Lofty (its contract; the sandbox's engine does so), so what they carried is read back after the
 * activation (created leads, texts; not stage changes, which Lofty cannot list by time), each event once even when
 * a delivery of it comes late, within the catch-up's budget.
 */
import { type Server, createServer } from 'node:http';

import type { IDataObject } from 'n8n-workflow';
import { DEMO_API_KEY } from '../../sandbox';
import { emitStageChange } from '../../sandbox/resources/webhook/delivery';
import { LoftyTrigger } from '../../nodes/LoftyTrigger/LoftyTrigger.node';
import type { TriggerTiming } from '../../nodes/LoftyTrigger/settings';
import { client } from '../sandbox/helpers';
import { type TriggerHarness, startTrigger, triggerApiKey } from '../harness/trigger';
import { closeServer } from '../harness/receiver';
import { useTriggerWorld } from '../harness/triggerSandbox';
import { LONG_TEST_MS, VERY_LONG_TEST_MS } from '../harness/budgets';

const SECOND = 1000;
const world = useTriggerWorld();
const api = () => client(world().sb.url, { token: DEMO_API_KEY });

let phone = 5550100000;
async function createLead(firstName: string): Promise<string> {
	const body = { firstName, lastName: 'Catch', emails: [`${firstName.toLowerCase()}@example.com`], phones: [String(phone++)] };
	const res = await api().post('/v1.0/leads', { body });
	expect(res.status).toBe(200);
	world().engine.clock.advance(1);
	return String((res.body as IDataObject).leadId);
}

async function sendText(leadId: string): Promise<void> {
	const res = await api().post('/v1.0/message/sms/send', { body: { leadId, content: 'Hello' } });
	expect([res.status, res.body]).toEqual([200, expect.anything()]);
	world().engine.clock.advance(1);
}

/** n8n while it starts: listening, but the webhook is not registered yet. */
async function starting(port: number): Promise<Server> {
	const server = createServer((_req, res) => {
		res.statusCode = 404;
		res.end('<pre>Cannot POST /webhook</pre>');
	});
	await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
	return server;
}

async function waitFor(what: string, check: () => boolean, withinMs = 60_000): Promise<void> {
	const until = Date.now() + withinMs;
	while (!check()) {
		if (Date.now() > until) throw new Error(`not within ${withinMs} ms: ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

const items = (...hs: TriggerHarness[]) => hs.flatMap((h) => h.executions.flat());
const runs = (all: IDataObject[], event: string, field: string, id: string) => all.filter((i) => i.event === event && i[field] === id);

describe('catch-up after n8n restarts', () => {
	it.each([
		['n8n 2.8.4, no delivery after the start', '2.8.4', false],
		['n8n 2.41.1, no delivery after the start (the trigger has trigger(), so n8n re-activates it at start)', '2.41.1', false],
		['n8n 2.41.1, a workflow published before trigger() (no activation at start): the first delivery starts it', undefined, true],
	] as const)('%s: created leads and texts whose deliveries were discarded (404 during start) run once, marked caughtUp; a late retry runs nothing; stage changes are not read back', async (_name, starts, delivery) => {
		const { engine, sb } = world();
		const h = await world().activeTrigger({ events: [2, 8, 12] });
		const before = await createLead('Before');
		// first attempts go out at once; the sandbox's clock is not moved ahead of n8n's (both are read by the trigger)
		await engine.flush();
		expect(runs(items(h), 'lead.created', 'leadId', before)).toHaveLength(1);

		// n8n stops: these deliveries get no answer, so Lofty retries them (in 30 s)
		await h.stop();
		const retried = await createLead('Retried');
		await sendText(retried);
		await engine.flush();
		// n8n starts: deliveries are answered 404 and discarded
		const notYet = await starting(h.port);
		const lost = await createLead('Lost');
		await sendText(lost);
		const lead = sb.store.getLead(BigInt(lost))!;
		emitStageChange(sb.store, lead, 'New', 'Hot', engine.clock.now());
		await engine.flush();
		expect(engine.log.filter((e) => e.outcome === 'discarded').length).toBeGreaterThanOrEqual(3);
		await closeServer(notYet);

		const after = await world().restart(h);
		let next: string | undefined;
		if (starts) await after.n8nStarts(starts);
		if (delivery) {
			next = await createLead('Next');
			await engine.flush();
		}
		// no delivery reaches the new process before this (nothing is flushed): the start alone catches up
		await waitFor('the catch-up execution', () => items(after).some((i) => i.caughtUp === true), 20_000);
		if (!delivery) expect(after.answers.filter((a) => a.items?.some((i) => i.caughtUp !== true))).toEqual([]);
		await after.idle();
		// Lofty's retries of the first two arrive after the catch-up
		await engine.advance(60 * SECOND);
		await after.idle();

		const all = items(h, after);
		for (const id of [retried, lost]) {
			expect(runs(all, 'lead.created', 'leadId', id)).toEqual([expect.objectContaining({ caughtUp: true, listId: 2, action: 'created', eventKey: 'createdLead' })]);
			expect(runs(all, 'text.created', 'leadId', id)).toEqual([expect.objectContaining({ caughtUp: true, listId: 8, timelineId: expect.any(String) })]);
		}
		expect(runs(all, 'lead.created', 'leadId', before)).toHaveLength(1);
		if (next) expect(runs(all, 'lead.created', 'leadId', next)).toEqual([expect.objectContaining({ deliveryId: expect.any(String) })]);
		expect(all.filter((i) => i.event === 'pipeline.updated')).toEqual([]);
		// the late deliveries did arrive (and started nothing)
		expect(engine.log.filter((e) => e.outcome === 'delivered').length).toBeGreaterThanOrEqual(3);
	}, VERY_LONG_TEST_MS);

	it('n8n 2.41.1: a delivery that saves an older copy of the static data after the first one (the last save wins) does not drop what the restart owes', async () => {
		const { engine } = world();
		const h = await world().activeTrigger({ events: [2] });
		await createLead('Heard');
		await engine.flush();
		await h.stop();
		const notYet = await starting(h.port);
		const lost = await createLead('Lost');
		await engine.flush();
		await closeServer(notYet);

		const after = await world().restart(h);
		const older = after.persisted();
		// the first delivery of the new process owes the catch-up and starts its request (sent a second later) ...
		await createLead('First');
		await engine.flush();
		expect((after.staticData.catchUp as IDataObject).owed).toEqual({ '2': { from: expect.any(Number) } });
		// ... and another request of the same moment, which had loaded the static data before, saves after it
		after.staticData = older;
		await waitFor('the lost lead, caught up', () => runs(items(after), 'lead.created', 'leadId', lost).length > 0, 20_000);
		await after.idle();
		expect(runs(items(after), 'lead.created', 'leadId', lost)).toEqual([expect.objectContaining({ caughtUp: true })]);
	}, LONG_TEST_MS);

	it('a first activation catches nothing up (it owes nothing from before it listened)', async () => {
		const h = await world().activeTrigger({ events: [2, 8] });
		expect((h.staticData.catchUp as IDataObject).owed).toBeUndefined();
		expect(typeof (h.staticData.catchUp as IDataObject).since).toBe('number');
	});

	it('a backlog larger than one budget is caught up over several requests, each lead once', async () => {
		const { engine } = world();
		const node = new LoftyTrigger({ catchUpBudgetMs: 1 } as Partial<TriggerTiming>);
		const h = world().track(await startTrigger({ params: { events: [2] }, credential: triggerApiKey(world().sb), node }));
		await h.activate();
		await createLead('Heard');
		await engine.flush();
		await h.stop();
		const notYet = await starting(h.port);
		const lost: string[] = [];
		for (let i = 0; i < 150; i++) lost.push(await createLead(`Backlog${i}`));
		await engine.flush();
		await closeServer(notYet);

		const after = await world().restart(h);
		await after.activate();
		await waitFor('every lost lead', () => lost.every((id) => runs(items(after), 'lead.created', 'leadId', id).length > 0), 120_000);
		await after.idle();
		const all = items(after);
		for (const id of lost) expect(runs(all, 'lead.created', 'leadId', id)).toHaveLength(1);
		expect(after.executions.length).toBeGreaterThanOrEqual(2);
	}, VERY_LONG_TEST_MS);
});
