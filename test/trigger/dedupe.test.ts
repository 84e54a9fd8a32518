/**
 * Lofty Trigger: exactly once. The delivery identity (`Service-Webhook-Id`) first, the content of timed
 * events as a fallback, listing alerts never collapsed; nothing remembered before its execution exists
 * (n8n failing or stopping in between); memory bounded.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { DEDUPE_WINDOW_MS, MAX_DELIVERIES, MAX_EVENT_KEYS, alreadyRan, claim, deliveryKey, eventKey, eventScope, forgetProcessMemory, noteRan, track } from '../../nodes/LoftyTrigger/dedupe';
import { parsePayload } from '../../nodes/LoftyTrigger/parse';
import { TriggerHarness } from '../harness/trigger';
import { VERY_LONG_TEST_MS } from '../harness/budgets';

const SECRET = 'a'.repeat(64);
const TEAM = 88001;
const T = Date.UTC(2026, 0, 2, 3, 4, 5);

function harness(params: Record<string, unknown> = { events: [2, 4, 10] }): TriggerHarness {
	const h = new TriggerHarness({ params, credential: { type: 'loftyApi', data: { apiKey: 'k', baseUrl: 'http://127.0.0.1:9' } } });
	h.staticData.secret = SECRET;
	return h;
}

let counter = 0;
const newId = () => `delivery-${++counter}`;
/** Lets the answer's 'finish' reach the node (n8n sends it after the node returned). */
const answered = () => new Promise((resolve) => setImmediate(resolve));

async function deliver(h: TriggerHarness, body: unknown, id: string | undefined = newId()) {
	const answer = await h.receive({ body, headers: id === undefined ? {} : { 'service-webhook-id': id } });
	await answered();
	return answer;
}

const leads = { teamId: TEAM, listId: 2, updatedLead: [{ leadId: 1, updateTime: T }], createdLead: [{ leadId: 2, updateTime: T }] };
const alert = (alertId: number) => ({ teamId: TEAM, listId: 4, alertId });

afterEach(() => forgetProcessMemory());

describe('the delivery identity: Service-Webhook-Id', () => {
	it('the same id again (a retry) starts nothing, and is answered 2xx', async () => {
		const h = harness();
		expect((await deliver(h, leads, 'retry-me')).status).toBe(200);
		expect((await deliver(h, leads, 'retry-me')).status).toBe(200);
		expect(h.executions).toHaveLength(1);
		expect(h.items).toHaveLength(2);
	});

	it('the same id is known from the stored static data alone (another n8n process, or after a restart)', async () => {
		const h = harness();
		await deliver(h, leads, 'stored');
		forgetProcessMemory();
		const restarted = new TriggerHarness({ params: h.params, credential: h.credential, staticData: h.persisted(), webhookId: h.webhookId });
		await deliver(restarted, leads, 'stored');
		expect(restarted.executions).toHaveLength(0);
	});

	it('a delivery answered while another one waits for its execution is not forgotten when the other is saved last (a restart then knows both)', async () => {
		const h = harness();
		let release = () => undefined as void;
		h.holdNextExecution = new Promise<void>((resolve) => (release = resolve));
		const slow = deliver(h, { ...leads, createdLead: [{ leadId: 3, updateTime: T }], updatedLead: [] }, 'slow');
		while (!h.held) await answered();
		await deliver(h, leads, 'quick');
		release();
		await slow;
		forgetProcessMemory();
		const restarted = new TriggerHarness({ params: h.params, credential: h.credential, staticData: h.persisted(), webhookId: h.webhookId });
		await deliver(restarted, leads, 'quick');
		await deliver(restarted, leads, 'slow');
		expect(restarted.executions).toHaveLength(0);
	});

	it('two listing alerts of one saved search (same alertId) under two ids are two items; a re-sent one (same id) is one', async () => {
		const h = harness();
		await deliver(h, alert(777), 'alert-a');
		await deliver(h, alert(777), 'alert-b');
		await deliver(h, alert(777), 'alert-b');
		expect(h.items.map((i) => [i.event, i.alertId, i.deliveryId])).toEqual([
			['listingAlert.triggered', '777', 'alert-a'],
			['listingAlert.triggered', '777', 'alert-b'],
		]);
	});
});

describe('the content key, only where it identifies one event', () => {
	it('a timed event re-sent under another id (a second subscription to this address) starts nothing', async () => {
		const h = harness();
		await deliver(h, leads, 'one');
		await deliver(h, { ...leads, createdLead: [{ leadId: 3, updateTime: T }] }, 'two');
		expect(h.items.map((i) => i.leadId)).toEqual(['1', '2', '3']);
	});

	it('without the header: the same listId + key + ids + updateTime is one event, a new updateTime another', async () => {
		const h = harness();
		await deliver(h, leads, undefined);
		await deliver(h, leads, undefined);
		await deliver(h, { teamId: TEAM, listId: 2, updatedLead: [{ leadId: 1, updateTime: T + 1 }, { leadId: 1, updateTime: T + 1 }] }, undefined);
		expect(h.items.map((i) => [i.event, i.leadId, i.updateTime])).toEqual([
			['lead.updated', '1', T],
			['lead.created', '2', T],
			['lead.updated', '1', T + 1],
		]);
	});

	it('an event without a time is never deduplicated by its content, even without the header', async () => {
		const h = harness();
		await deliver(h, alert(5), undefined);
		await deliver(h, alert(5), undefined);
		await deliver(h, { teamId: TEAM, listId: 2, updatedLead: [{ leadId: 9 }] }, 'x1');
		await deliver(h, { teamId: TEAM, listId: 2, updatedLead: [{ leadId: 9 }] }, 'x2');
		expect(h.items.map((i) => i.event)).toEqual(['listingAlert.triggered', 'listingAlert.triggered', 'lead.updated', 'lead.updated']);
	});
});

describe('nothing is remembered before its execution exists', () => {
	it('concurrent deliveries, each saved on its own copy of the static data (the last save wins): neither is forgotten', async () => {
		const h = harness();
		const other = { teamId: TEAM, listId: 2, createdLead: [{ leadId: 5, updateTime: T }] };
		const [a, b] = await Promise.all([deliver(h, leads, 'A'), deliver(h, other, 'B')]);
		expect([a.status, b.status]).toEqual([200, 200]);
		// the stored record holds only what the request saved last
		const stored = Object.keys((h.persisted().seen as { deliveries: object }).deliveries);
		expect(stored).toHaveLength(1);
		await deliver(h, leads, 'A');
		await deliver(h, other, 'B');
		expect(h.executions).toHaveLength(2);
		// and the next save carries both again
		expect(Object.keys((h.persisted().seen as { deliveries: object }).deliveries)).toHaveLength(2);
	});

	it('n8n fails to create the execution (500): the retry of that delivery runs', async () => {
		const h = harness();
		h.failExecutionNext = true;
		expect((await deliver(h, leads, 'failed-once')).status).toBe(500);
		expect(h.executions).toHaveLength(0);
		expect((await deliver(h, leads, 'failed-once')).status).toBe(200);
		expect(h.executions).toHaveLength(1);
		expect((await deliver(h, leads, 'failed-once')).status).toBe(200);
		expect(h.executions).toHaveLength(1);
	});

	it('n8n dies while the node handles the delivery: no answer, nothing remembered, the retry runs once', async () => {
		const h = harness();
		h.crashNext = 'inWebhook';
		await expect(h.receive({ body: leads, headers: { 'service-webhook-id': 'k1' } })).rejects.toThrow(/crashed/);
		expect(h.persisted().seen).toBeUndefined();
		await deliver(h, leads, 'k1');
		await deliver(h, leads, 'k1');
		expect(h.executions).toHaveLength(1);
	});

	it('n8n dies after it saved the record, before it answered: the execution exists, the retry starts nothing', async () => {
		const h = harness();
		h.crashNext = 'afterSave';
		await expect(h.receive({ body: leads, headers: { 'service-webhook-id': 'k2' } })).rejects.toThrow(/crashed/);
		expect(h.executions).toHaveLength(1);
		expect((await deliver(h, leads, 'k2')).status).toBe(200);
		expect(h.executions).toHaveLength(1);
	});

	it('the one window left: n8n dies between creating the execution and saving the record: the event runs again (never lost)', async () => {
		const h = harness();
		h.crashNext = 'afterExecution';
		await expect(h.receive({ body: leads, headers: { 'service-webhook-id': 'k3' } })).rejects.toThrow(/crashed/);
		await deliver(h, leads, 'k3');
		expect(h.executions).toHaveLength(2);
		expect(h.executions[0]).toEqual(h.executions[1]);
	});
});

describe('executions without the workflow\'s static data (no secret: n8n 2.41\'s at its start, a queue-mode worker\'s)', () => {
	it('share run marks with the scopes of their webhook in this process, made before or after; not with another webhook or with test requests', () => {
		const node = (webhookId: string) => ({ webhookId }) as unknown as INode;
		const bare = eventScope(node('w1'), undefined, false);
		const live = eventScope(node('w1'), SECRET, false);
		const ran = (id: number) => `ran|2|created|${id}`;
		noteRan(bare, [ran(1)]);
		// a scope made later (the activation at start) takes them: a catch-up of the event starts nothing
		const copy: IDataObject = {};
		track(live, copy, undefined);
		const catchUp = claim(live, copy, undefined, [{ key: 'caught|2|created|1', timed: true, seenAs: [ran(1)] }], Date.now(), true);
		expect(catchUp).toMatchObject({ kind: 'new', fresh: [] });
		// marks noted later reach the scope there and the static data its requests hold; the bare one reads the scope's
		noteRan(bare, [ran(2)]);
		noteRan(live, [ran(3)]);
		for (const id of [1, 2, 3]) expect([alreadyRan(live, {}, ran(id)), alreadyRan(bare, {}, ran(id))]).toEqual([true, true]);
		expect(Object.keys((copy.seen as IDataObject).events as IDataObject)).toEqual(expect.arrayContaining([eventKey(ran(1)), eventKey(ran(2))]));
		for (const other of [eventScope(node('w10'), SECRET, false), eventScope(node('w10'), undefined, false), eventScope(node('w1'), SECRET, true)]) {
			expect([1, 2, 3].map((id) => alreadyRan(other, {}, ran(id)))).toEqual([false, false, false]);
		}
	});
});

describe('bounded memory', () => {
	afterEach(() => jest.restoreAllMocks());

	it('forgets after 48 hours', async () => {
		const h = harness();
		let now = T;
		jest.spyOn(Date, 'now').mockImplementation(() => now);
		await deliver(h, leads, 'old');
		now = T + DEDUPE_WINDOW_MS - 1;
		await deliver(h, leads, 'old');
		expect(h.executions).toHaveLength(1);
		now = T + DEDUPE_WINDOW_MS + 1;
		await deliver(h, leads, 'old');
		expect(h.executions).toHaveLength(2);
	});

	it(`a week of 5000-event deliveries, one an hour, every 10th one retried: every retry starts nothing; the stored record stays within ${MAX_DELIVERIES} ids, ${MAX_EVENT_KEYS} event keys and 0.4 MB`, () => {
		// The trigger's own steps per delivery (parse, claim, answered 2xx), on static data stored as n8n stores it
		// (a JSON round trip per request): the harness would spend minutes copying 1.7 million items into its log.
		let stored: IDataObject = {};
		const deliveries = 7 * 24;
		let started = 0;
		let retriesStarted = 0;
		let largest = 0;
		let now = T;
		const deliver5000 = (id: string, n: number) => {
			const copy = JSON.parse(JSON.stringify(stored)) as IDataObject;
			const updatedLead = Array.from({ length: 5000 }, (_, i) => ({ leadId: String(9_007_199_254_740_993n + BigInt(n * 5000 + i)), updateTime: now + i }));
			const parsed = parsePayload({ teamId: TEAM, listId: 2, updatedLead }, id);
			if (parsed.kind !== 'events') throw new Error('unreachable');
			const decision = claim('week', copy, id, parsed.events.map((e) => ({ key: e.dedupeKey, timed: e.timed })), now);
			stored = copy;
			if (decision.kind !== 'new') return 0;
			decision.commit();
			decision.settle(true);
			return decision.fresh.length;
		};
		for (let n = 0; n < deliveries; n++) {
			started += deliver5000(`week-${n}`, n);
			if (n % 10 === 9) retriesStarted += deliver5000(`week-${n}`, n);
			largest = Math.max(largest, JSON.stringify(stored).length);
			now += 60 * 60 * 1000;
		}
		const seen = stored.seen as { deliveries: object; events: object };
		expect(started).toBe(deliveries * 5000);
		expect(retriesStarted).toBe(0);
		// 48 hours of deliveries, one an hour
		expect(Object.keys(seen.deliveries)).toHaveLength(48);
		expect(Object.keys(seen.events)).toHaveLength(MAX_EVENT_KEYS);
		expect(largest).toBeLessThan(0.4 * 1024 * 1024);
		// eslint-disable-next-line no-console
		console.log(`week: ${deliveries} deliveries of 5000 events; largest stored record ${(largest / 1024).toFixed(0)} KB; ids kept ${Object.keys(seen.deliveries).length}`);
	}, VERY_LONG_TEST_MS);

	it('at the caps: the most delivery ids and event keys a stored record can hold stay under 0.4 MB, and a new delivery keeps them there', () => {
		const at = (n: number) => T + n * 1000;
		const staticData: IDataObject = {
			seen: {
				deliveries: Object.fromEntries(Array.from({ length: MAX_DELIVERIES }, (_, n) => [deliveryKey(`00000000-0000-4000-8000-${String(n).padStart(12, '0')}`), at(n)])),
				events: Object.fromEntries(Array.from({ length: MAX_EVENT_KEYS }, (_, n) => [eventKey(`2|updatedLead|leadId=9007199254740993${n}|${at(n)}`), at(n)])),
			},
		};
		const decision = claim('caps', staticData, 'one-more', [{ key: 'new event', timed: true }], at(MAX_DELIVERIES));
		expect(decision).toMatchObject({ kind: 'new', fresh: [0] });
		if (decision.kind === 'new') decision.commit();
		const seen = staticData.seen as { deliveries: object; events: object };
		expect(Object.keys(seen.deliveries)).toHaveLength(MAX_DELIVERIES);
		expect(Object.keys(seen.events)).toHaveLength(MAX_EVENT_KEYS);
		const bytes = JSON.stringify(staticData).length;
		expect(bytes).toBeLessThan(0.4 * 1024 * 1024);
		// eslint-disable-next-line no-console
		console.log(`stored record at the caps: ${(bytes / 1024).toFixed(0)} KB`);
	});
});
