/**
 * Lofty Trigger: the first step of its executions (execute(), runOnce.ts). n8n runs it for every execution the
 * trigger starts, recovered ones included: an event already run is dropped, one not run passes and is remembered,
 * in this process and (through the static data its requests save) in the next; an execution whose event's own mark
 * is missing (n8n recovered it at its start) asks the webhook, which saves the mark before the event passes; a test
 * execution passes all.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { parsePayload } from '../../nodes/LoftyTrigger/parse';
import { askLimits } from '../../nodes/LoftyTrigger/runOnce';
import { type TriggerHarness, newProcess, startTrigger } from '../harness/trigger';

const SECRET = 'a'.repeat(64);
const TEAM = 88001;
const T = Date.UTC(2026, 0, 2, 3, 4, 5);

const started: TriggerHarness[] = [];
/** A trigger whose webhook n8n serves (execute() may ask it). */
async function harness(): Promise<TriggerHarness> {
	const h = await startTrigger({ params: { events: [2, 4, 10] }, credential: { type: 'loftyApi', data: { apiKey: 'k', baseUrl: 'http://127.0.0.1:9' } } });
	h.staticData.secret = SECRET;
	started.push(h);
	return h;
}

/** The items a delivery of this body starts, as the trigger emits them. */
function itemsOf(body: IDataObject, deliveryId = 'd-1'): INodeExecutionData[] {
	const parsed = parsePayload(body, deliveryId);
	if (parsed.kind !== 'events') throw new Error('not events');
	return parsed.events.map((e) => ({ json: e.json }));
}

const created = (leadId: number) => ({ teamId: TEAM, listId: 2, createdLead: [{ leadId, updateTime: T }] });
const updated = (leadId: number) => ({ teamId: TEAM, listId: 2, updatedLead: [{ leadId, updateTime: T }] });
const alert = { teamId: TEAM, listId: 4, alertId: 7 };
const leadIds = (items: INodeExecutionData[]) => items.map((i) => i.json.leadId);

afterEach(async () => {
	for (const h of started.splice(0)) await h.stop();
	newProcess();
});

describe('execute(): an event runs once', () => {
	it('an event not run passes with its pairing; the same event in a later execution (a recovered one, a retry) is dropped', async () => {
		const h = await harness();
		const first = await h.execute([...itemsOf(created(1)), ...itemsOf(updated(2))]);
		expect(leadIds(first)).toEqual(['1', '2']);
		expect(first.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		// the retry of the delivery, then its catch-up (same record, another item shape): nothing runs again
		expect(await h.execute(itemsOf(created(1), 'd-2'))).toEqual([]);
		expect(await h.execute([{ json: { event: 'lead.created', listId: 2, action: 'created', leadId: '1', caughtUp: true, raw: {} } }])).toEqual([]);
		const again = await h.execute([...itemsOf(updated(2), 'd-3'), ...itemsOf(created(3))]);
		expect(again.map((i) => [i.json.leadId, i.pairedItem])).toEqual([['3', { item: 1 }]]);
	});

	it('what this process ran is written into the next delivery it commits, so a new process drops it too', async () => {
		const h = await harness();
		expect(leadIds(await h.execute(itemsOf(created(1))))).toEqual(['1']);
		const answer = await h.receive({ body: created(5), headers: { 'service-webhook-id': 'other' } });
		expect(answer.status).toBe(200);
		newProcess();
		expect(await h.execute(itemsOf(created(1), 'd-9'))).toEqual([]);
		expect(leadIds(await h.execute(itemsOf(created(6))))).toEqual(['6']);
	});

	it('items without their own time (listing alerts) always pass', async () => {
		const h = await harness();
		expect(await h.execute(itemsOf(alert))).toHaveLength(1);
		expect(await h.execute(itemsOf(alert, 'd-2'))).toHaveLength(1);
	});

	it('a test (manual) execution, or a retry from the executions list, passes every item unchanged and remembers nothing', async () => {
		const h = await harness();
		const items = itemsOf(created(1));
		await h.execute(items, 'manual');
		expect(await h.execute(items, 'retry')).toEqual(items);
		const passed = await h.execute(items, 'manual');
		expect(passed).toEqual(items);
		expect(passed[0]).toBe(items[0]);
		expect(leadIds(await h.execute(items))).toEqual(['1']);
		expect(h.staticData.seen).toBeUndefined();
	});

	it('an execution n8n recovered at its start (its delivery left no mark) passes its event only once the webhook saved it as run: n8n stopping again at once, or another process, drops it', async () => {
		const h = await harness();
		// a delivery: the webhook's production URL is known
		expect((await h.receive({ body: created(10), headers: { 'service-webhook-id': 'first' } })).status).toBe(200);
		const recovered = itemsOf(created(3), 'lost');
		expect(leadIds(await h.execute(recovered))).toEqual(['3']);
		// no other request of the trigger was saved since; n8n stops and runs the same execution again at its next start
		newProcess();
		expect(await h.execute(recovered)).toEqual([]);
		// and Lofty's retry of that delivery starts nothing
		expect((await h.receive({ body: created(3), headers: { 'service-webhook-id': 'lost' } })).body).toMatchObject({ started: 0 });
		expect(h.executions.flat().map((i) => i.leadId)).toEqual(['10']);
	});

	it('an execution that cannot ask its webhook (n8n does not serve it) decides with what its process knows, and says so in the log', async () => {
		const h = await harness();
		expect((await h.receive({ body: created(12), headers: { 'service-webhook-id': 'first' } })).status).toBe(200);
		await h.stop();
		newProcess();
		const keep = askLimits.withinMs;
		askLimits.withinMs = 1500;
		try {
			expect(leadIds(await h.execute(itemsOf(created(13), 'lost')))).toEqual(['13']);
			expect(h.warnings).toEqual([expect.stringContaining('could not ask its webhook')]);
			// its process remembers it, without asking again
			expect(await h.execute(itemsOf(created(13), 'lost'))).toEqual([]);
			expect(h.warnings).toHaveLength(1);
		} finally {
			askLimits.withinMs = keep;
		}
	});

	it('an execution of a delivery that saved its mark decides without asking the webhook', async () => {
		const h = await harness();
		expect((await h.receive({ body: created(11), headers: { 'service-webhook-id': 'saved' } })).status).toBe(200);
		const asked = h.answers.length;
		expect(leadIds(await h.execute(h.executions[0].map((json) => ({ json }))))).toEqual(['11']);
		expect(h.answers.length).toBe(asked);
	});
});
