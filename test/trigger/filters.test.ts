/**
 * The trigger's content filters (Only When Stage Changes To / From, Only When These Fields Changed) against the
 * sandbox's real webhook deliveries. Most cases are differential: two triggers subscribe to the same events, one
 * filtered, one not; the filtered one must start exactly the items the unfiltered one gives after an IF node's
 * logic (written here from the event's own fields), under both readings of the loose payload shapes.
 */
import type { IDataObject } from 'n8n-workflow';

import { type Sandbox } from '../../sandbox';
import { READING_VALUES } from '../../sandbox/core/readings';
import { type DeliveryEngine } from '../../sandbox/resources/webhook/delivery';
import { SECOND } from '../../sandbox/resources/webhook/delivery/schedule';
import { webhookState } from '../../sandbox/resources/webhook';
import { LoftyTrigger } from '../../nodes/LoftyTrigger/LoftyTrigger.node';
import { forgetStageNames } from '../../nodes/LoftyTrigger/filters';
import { client } from '../sandbox/helpers';
import { createContext } from '../harness/context';
import { TriggerHarness, triggerApiKey } from '../harness/trigger';
import { T0, useTriggerWorld } from '../harness/triggerSandbox';

const world = useTriggerWorld();
let sb: Sandbox;
let engine: DeliveryEngine;
beforeEach(() => {
	({ sb, engine } = world());
	forgetStageNames();
});

const api = () => client(sb.url, { token: sb.apiKey });
const activeTrigger = (params: Record<string, unknown>) => world().activeTrigger(params);

async function deliverAll(...hs: TriggerHarness[]): Promise<void> {
	await engine.flush();
	for (const h of hs) await h.idle();
}

/** Each change one millisecond after the last: two changes of one record in the same millisecond are one event to dedupe. */
let clock = T0;
const tick = () => {
	const at = ++clock;
	sb.store.now = () => at;
};
beforeEach(() => (clock = T0));

/** The delivery attempts to this trigger's subscription (the seed has subscriptions of its own). */
const attempts = (h: TriggerHarness) => {
	const ids = new Set([...webhookState(sb.store).subscriptions.values()].filter((s) => s.callbackUrl === h.callbackUrl).map((s) => s.subscribeId.toString()));
	return engine.log.filter((e) => ids.has(e.subscribeId)).map((e) => e.outcome);
};

/** Items as the workflow sees them, without what differs between two subscriptions. */
const comparable = (items: IDataObject[]) =>
	items.map((item) => Object.fromEntries(Object.entries(item).filter(([key]) => key !== 'deliveryId')));

/** Three leads move: two into Under Contract (from different stages), one into Hot. */
async function moveLeads(): Promise<string[]> {
	const leads: string[] = [];
	for (const firstName of ['Ann', 'Ben', 'Cy']) leads.push(String((await api().post('/v1.0/leads', { body: { firstName, stage: 'Active' } })).body.leadId));
	for (const [lead, stage] of [[0, 'Under Contract'], [1, 'Hot'], [2, 'Nurture'], [2, 'Under Contract']] as const) {
		tick();
		await api().put(`/v1.0/leads/${leads[lead]}`, { body: { stage } });
	}
	return leads;
}

describe.each(READING_VALUES.stageChange)('Pipeline Change filters (stageChange %s)', (reading) => {
	beforeEach(() => sb.readings.set({ stageChange: reading }));
	/** What an IF node after an unfiltered trigger would test: the stage's name, whichever way Lofty sent it. */
	const stageName = (value: unknown) => sb.store.stages.find((s) => s.id.toString() === String(value))?.name ?? String(value);

	it('a batch with some matching stage changes starts one execution with only those, as an IF node would keep', async () => {
		const all = await activeTrigger({ events: [12] });
		const filtered = await activeTrigger({ events: [12], options: { stageTo: ['  under   CONTRACT '] } });
		const leads = await moveLeads();
		await deliverAll(all, filtered);

		expect(all.executions).toHaveLength(1);
		expect(all.items).toHaveLength(4);
		expect(filtered.executions).toHaveLength(1);
		const kept = all.items.filter((i) => stageName(i.newStage) === 'Under Contract');
		expect(kept.map((i) => i.leadId)).toEqual([leads[0], leads[2]]);
		expect(comparable(filtered.items)).toEqual(comparable(kept));
		expect(filtered.answers.map((a) => a.status)).toEqual([200]);
	});

	it('To and From together keep a change only when both match; stage IDs given by expression name the same stages', async () => {
		const all = await activeTrigger({ events: [12] });
		const byName = await activeTrigger({ events: [12], options: { stageTo: ['Under Contract'], stageFrom: ['nurture'] } });
		const idOf = (name: string) => sb.store.stageByName(name, false)!.id.toString();
		const byId = await activeTrigger({ events: [12], options: { stageTo: `${idOf('Under Contract')}`, stageFrom: `${idOf('Nurture')}, ${idOf('Hot')}` } });
		const leads = await moveLeads();
		await deliverAll(all, byName, byId);

		const kept = all.items.filter((i) => stageName(i.newStage) === 'Under Contract' && stageName(i.oldStage) === 'Nurture');
		expect(kept.map((i) => i.leadId)).toEqual([leads[2]]);
		expect(comparable(byName.items)).toEqual(comparable(kept));
		expect(comparable(byId.items)).toEqual(comparable(kept));
		// names against names need no lookup; an ID on either side is named through Lofty's stage list, once per delivery
		const lookups = sb.count('GET', '/v1.0/teamFeatures/lead-pipelines');
		expect(lookups).toBeGreaterThanOrEqual(1);
		expect(lookups).toBeLessThanOrEqual(reading === 'ids' ? 2 : 1);
	});

	it('a delivery whose changes all filter out is answered 2xx, starts nothing, and is not sent again', async () => {
		const h = await activeTrigger({ events: [12], options: { stageTo: ['Closed'] } });
		await moveLeads();
		await deliverAll(h);
		await engine.advance(10 * 60 * SECOND);
		await h.idle();
		expect(h.executions).toHaveLength(0);
		expect(h.answers).toHaveLength(1);
		expect(h.answers[0]).toMatchObject({ status: 200, body: { received: 4, started: 0 } });
		expect(attempts(h)).toEqual(['delivered']);
	});

	it('a retried delivery of a matching change (its first answer lost) starts it once', async () => {
		const h = await activeTrigger({ events: [12], options: { stageTo: ['Under Contract'] } });
		h.loseNextAnswer = true;
		const leads = await moveLeads();
		await deliverAll(h);
		await engine.advance(40 * SECOND);
		await h.idle();
		expect(attempts(h)).toEqual(['retry-scheduled', 'delivered']);
		expect(h.answers.filter((a) => a.status === 200)).toHaveLength(2);
		expect(h.executions).toHaveLength(1);
		expect(h.items.map((i) => i.leadId)).toEqual([leads[0], leads[2]]);
	});
});

describe('Pipeline Change filter: Lofty\'s stage list unreadable', () => {
	it('stage IDs that cannot be named get 5xx (Lofty sends again) and the matching change runs once when it can', async () => {
		sb.readings.set({ stageChange: 'ids' });
		const h = await activeTrigger({ events: [12], options: { stageTo: ['Under Contract'] } });
		sb.faults.inject({ kind: '500', times: 20, match: { method: 'GET', path: '/v1.0/teamFeatures/lead-pipelines' } });
		const leads = await moveLeads();
		await deliverAll(h);
		expect(h.answers[0].status).toBeGreaterThanOrEqual(500);
		expect(h.executions).toHaveLength(0);
		sb.faults.clear();
		await engine.advance(40 * SECOND);
		await h.idle();
		expect(h.executions).toHaveLength(1);
		expect(h.items.map((i) => i.leadId)).toEqual([leads[0], leads[2]]);
	});
});

describe.each(READING_VALUES.updatedFields)('Transaction field filter (updatedFields %s)', (reading) => {
	beforeEach(() => sb.readings.set({ updatedFields: reading }));

	/** An IF node after an unfiltered trigger: does the event list this field, whatever the entry's shape? */
	const lists = (item: IDataObject, field: string) =>
		JSON.stringify((item.raw as IDataObject).updatedFields ?? []).includes(`"${field}"`);

	it('keeps updates that changed any chosen field (names in any case and spacing); creates and deletes pass', async () => {
		const all = await activeTrigger({ events: [5] });
		const filtered = await activeTrigger({ events: [5], options: { changedFields: ['Home Price', 'expected_close_date'] } });
		const updatesOnly = await activeTrigger({ events: [5], options: { actions: ['updated'], changedFields: 'homeprice' } });
		const lead = String((await api().post('/v1.0/leads', { body: { firstName: 'Deal' } })).body.leadId);
		const tx = String((await api().post(`/v1.0/leads/${lead}/transaction`, { body: { transactionName: '1 Oak St' } })).body.transactionId);
		const path = `/v1.0/leads/${lead}/transaction/${tx}`;
		for (const body of [{ transactionName: '1 Oak Street' }, { homePrice: 450000 }, { expectedCloseDate: Date.UTC(2026, 5, 1) }]) {
			tick();
			await api().put(path, { body });
		}
		await deliverAll(all, filtered, updatesOnly);

		expect(all.items.map((i) => i.event)).toEqual(['transaction.created', 'transaction.updated', 'transaction.updated', 'transaction.updated']);
		const kept = all.items.filter((i) => i.action !== 'updated' || lists(i, 'homePrice') || lists(i, 'expectedCloseDate'));
		expect(kept).toHaveLength(3);
		expect(filtered.executions).toHaveLength(1);
		expect(comparable(filtered.items)).toEqual(comparable(kept));
		expect(comparable(updatesOnly.items)).toEqual(comparable(all.items.filter((i) => i.action === 'updated' && lists(i, 'homePrice'))));
	});
});

describe('filter dropdowns load from Lofty', () => {
	const loadOptions = async (method: 'getPipelineStages' | 'getTransactionFieldNames') => {
		const node = new LoftyTrigger();
		const ctx = createContext(node, { params: { authentication: 'apiKey' }, credential: triggerApiKey(sb) });
		return await node.methods.loadOptions[method].call(ctx as never);
	};

	it('stages are the team\'s lead pipeline stages, in order, by name', async () => {
		sb.store.stageByName('Waiting On Lender');
		const options = await loadOptions('getPipelineStages');
		expect(options.map((o) => o.value)).toEqual(sb.store.stages.map((s) => s.name));
		expect(options.map((o) => o.value)).toContain('Waiting On Lender');
	});

	it('transaction fields are the standard fields, then the team\'s custom fields', async () => {
		const options = await loadOptions('getTransactionFieldNames');
		const values = options.map((o) => o.value);
		expect(values).toEqual(expect.arrayContaining(['transactionName', 'transactionStatus', 'homePrice', 'expectedCloseDate']));
		const custom = (await api().get('/v1.0/transaction/customfields')).body as Array<{ name: string }>;
		expect(custom.length).toBeGreaterThan(0);
		expect(values.slice(-custom.length).sort()).toEqual(custom.map((c) => c.name).sort());
	});
});

describe('Transaction field filter: what an update says about its fields', () => {
	/** A trigger not behind a sandbox: payloads written here, each a delivery of its own. */
	const receiveAll = async (changedFields: string[], entries: IDataObject[]) => {
		const h = new TriggerHarness({ params: { events: [5], options: { changedFields } }, credential: triggerApiKey(sb) });
		h.staticData.secret = 'b'.repeat(64);
		for (const [i, entry] of entries.entries()) {
			const body = { teamId: 88001, listId: 5, updatedTransaction: [{ leadId: 7, transactionId: 100 + i, updateTime: T0 + i, ...entry }] };
			expect((await h.receive({ body, headers: { 'service-webhook-id': `tx-${i}` } })).status).toBe(200);
		}
		return h.items.map((item) => Number(item.transactionId) - 100);
	};
	const entries: IDataObject[] = [
		/* 0 */ { updatedField: null, updatedFields: null },
		/* 1 */ {},
		/* 2 */ { updatedField: null, updatedFields: [] },
		/* 3 */ { updatedFields: ['customFields'] },
		/* 4 */ { updatedFields: [{ fieldName: 'Lender Name', newValue: 'Acme' }] },
		/* 5 */ { updatedField: { HOME_PRICE: 1 }, updatedFields: null },
		/* 6 */ { updatedFields: [{ name: 'homePrice' }, 'closeDate'] },
	];

	it('unknown changes (null or absent) pass; an empty list does not; customFields passes a custom field only', async () => {
		expect(await receiveAll(['Lender Name'], entries)).toEqual([0, 1, 3, 4]);
		expect(await receiveAll(['homePrice'], entries)).toEqual([0, 1, 5, 6]);
		expect(await receiveAll(['close date', 'lender name'], entries)).toEqual([0, 1, 3, 4, 6]);
		expect(await receiveAll([], entries)).toEqual([0, 1, 2, 3, 4, 5, 6]);
	});
});

describe('two changes of one lead in one millisecond', () => {
	it('are two events, so a filter on the second stage still gets it (the same change re-sent is still one)', async () => {
		const all = await activeTrigger({ events: [12] });
		const filtered = await activeTrigger({ events: [12], options: { stageTo: ['Under Contract'] } });
		const lead = String((await api().post('/v1.0/leads', { body: { firstName: 'Quick', stage: 'Active' } })).body.leadId);
		await api().put(`/v1.0/leads/${lead}`, { body: { stage: 'Hot' } });
		await api().put(`/v1.0/leads/${lead}`, { body: { stage: 'Under Contract' } });
		await deliverAll(all, filtered);
		expect(all.items.map((i) => [i.updateTime, i.newStage])).toEqual([
			[T0, 'Hot'],
			[T0, 'Under Contract'],
		]);
		expect(filtered.items.map((i) => i.newStage)).toEqual(['Under Contract']);
		// the same body under another Service-Webhook-Id (a second subscription, say): nothing new. deliverAll waited until
		// each answer went out (the harness's idle()), so the first delivery is settled: not "still being processed" (503)
		const body = { teamId: 88001, listId: 12, updatedLeadstage: [(all.items[1].raw as IDataObject)] };
		const again = await filtered.receive({ body, headers: { 'service-webhook-id': 'another-id' } });
		expect(again).toMatchObject({ status: 200, body: { received: 1, started: 0 } });
		expect(filtered.executions).toHaveLength(1);
	});
});
