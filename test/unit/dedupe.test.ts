/**
 * Exactly once (LoftyTrigger/dedupe.ts) as a rule of its own, on times the test names: what a delivery claims, when
 * its marks reach the static data, who is answered "seen" or "busy", what a catch-up skips, what executions note, and
 * the bounds of the memory. The trigger runs against the harness: test/trigger/dedupe.test.ts, lastSaveWins.test.ts.
 */
import { EventEmitter } from 'events';
import type { IDataObject, INode } from 'n8n-workflow';

import {
	type DedupeEvent,
	MAX_DELIVERIES,
	MAX_SCOPES,
	MARK_CHANGED_MAX_MS,
	MEMORY_MS,
	PENDING_MAX_MS,
	TRACK_AFTER_ANSWER_MS,
	DEDUPE_WINDOW_MS,
	alreadyRan,
	claim,
	claimRuns,
	deliveryKey,
	eventKey,
	eventScope,
	forgetProcessMemory,
	knowsMark,
	markChangedUntilAnswered,
	noteRan,
	track,
} from '../../nodes/LoftyTrigger/dedupe';

const T = 1_800_000_000_000;
const node = { id: 'n1', name: 'Lofty Trigger', webhookId: 'wh' } as INode;
const SCOPE = eventScope(node, 'secret', false);
const timed = (key: string, extra: Partial<DedupeEvent> = {}): DedupeEvent => ({ key, timed: true, ...extra });
const ALERT: DedupeEvent = { key: 'alert', timed: false };
const seen = (data: IDataObject) => (data.seen ?? {}) as { deliveries?: IDataObject; events?: IDataObject; held?: IDataObject };
type New = Extract<ReturnType<typeof claim>, { kind: 'new' }>;
const isNew = (decision: ReturnType<typeof claim>): New => {
	expect(decision.kind).toBe('new');
	return decision as New;
};

let now = T;
beforeEach(() => {
	forgetProcessMemory();
	now = T;
	jest.spyOn(Date, 'now').mockImplementation(() => now);
});
afterEach(() => jest.restoreAllMocks());

describe('scopes', () => {
	it('by webhook (else node ID, else name) and secret; test requests apart', () => {
		expect(eventScope(node, 's', false)).toBe('live|wh|s');
		expect(eventScope(node, undefined, true)).toBe('test|wh|');
		expect(eventScope({ id: 'n1', name: 'N' } as INode, 's', false)).toBe('live|n1|s');
		expect(eventScope({ name: 'N' } as INode, 's', false)).toBe('live|N|s');
	});
});

describe('claim', () => {
	it('a delivery claims its ID and timed events; nothing stored before commit; its retry meanwhile is busy, after it seen', () => {
		const data: IDataObject = {};
		const first = isNew(claim(SCOPE, data, 'd1', [timed('k1'), ALERT], T));
		expect(first.fresh).toEqual([0, 1]);
		expect(data.seen).toBeUndefined();
		expect(claim(SCOPE, {}, 'd1', [], T).kind).toBe('busy');
		expect(claim(SCOPE, {}, 'd2', [timed('k1')], T).kind).toBe('busy');
		first.commit();
		expect(seen(data)).toEqual({ deliveries: { [deliveryKey('d1')]: T }, events: { [eventKey('k1')]: T } });
		first.settle(true);
		expect(claim(SCOPE, {}, 'd1', [], T + 1).kind).toBe('seen');
		// the same timed event under another ID is skipped; an event without a time always starts
		expect(isNew(claim(SCOPE, {}, 'd2', [timed('k1'), ALERT], T + 1)).fresh).toEqual([1]);
	});

	it('a delivery whose request failed (settled not ok) is taken again; settling twice changes nothing', () => {
		const first = isNew(claim(SCOPE, {}, 'd1', [timed('k1')], T));
		first.settle(false);
		first.settle(true);
		expect(isNew(claim(SCOPE, {}, 'd1', [timed('k1')], T)).fresh).toEqual([0]);
		// a late settle of the old claim does not decide the new one: its retry is still busy, not seen
		first.settle(true);
		expect(claim(SCOPE, {}, 'd1', [timed('k1')], T).kind).toBe('busy');
	});

	it('without a delivery ID: only the events', () => {
		const data: IDataObject = {};
		const first = isNew(claim(SCOPE, data, undefined, [timed('k1'), timed('k1'), timed('k2')], T));
		expect(first.fresh).toEqual([0, 2]);
		first.commit();
		expect(seen(data)).toEqual({ deliveries: {}, events: { [eventKey('k1')]: T, [eventKey('k2')]: T } });
	});

	it("an event's other keys: known under one, it is skipped; pending under one, busy; its marks are stored with it", () => {
		noteRan(SCOPE, ['ran|x'], T);
		expect(isNew(claim(SCOPE, {}, 'd1', [timed('k1', { seenAs: ['ran|x'] })], T)).fresh).toEqual([]);
		const data: IDataObject = {};
		const marked = isNew(claim(SCOPE, data, 'd2', [timed('k2', { marks: ['heard|2'] })], T));
		expect(claim(SCOPE, {}, 'd3', [timed('k3', { seenAs: ['k2'] })], T).kind).toBe('busy');
		expect(claim(SCOPE, {}, 'd3', [timed('k3', { seenAs: ['heard|2'] })], T).kind).toBe('busy');
		marked.commit();
		// the copy was tracked by the claim: it holds the run mark noted before, then the delivery's marks
		expect(Object.keys(seen(data).events!)).toEqual([eventKey('ran|x'), eventKey('k2'), eventKey('heard|2')]);
	});

	it('stored marks count in a new process, for 48 hours; marks from the future are dropped', () => {
		const data: IDataObject = {};
		const first = isNew(claim(SCOPE, data, 'd1', [timed('k1')], T));
		first.commit();
		first.settle(true);
		forgetProcessMemory();
		expect(claim(SCOPE, data, 'd1', [], T + DEDUPE_WINDOW_MS - 1).kind).toBe('seen');
		forgetProcessMemory();
		expect(isNew(claim(SCOPE, { seen: { deliveries: { [deliveryKey('d1')]: T }, events: {} } }, 'd1', [], T + DEDUPE_WINDOW_MS)).fresh).toEqual([]);
		forgetProcessMemory();
		const future = { seen: { deliveries: { [deliveryKey('d1')]: T + 2 * DEDUPE_WINDOW_MS }, events: { [eventKey('k1')]: 'x' } } };
		expect(isNew(claim(SCOPE, future, 'd1', [timed('k1')], T)).fresh).toEqual([0]);
	});

	it('a claim never reported back stops blocking after PENDING_MAX_MS; one its own request stored is confirmed', () => {
		isNew(claim(SCOPE, {}, 'd1', [], T));
		expect(claim(SCOPE, {}, 'd1', [], T + PENDING_MAX_MS).kind).toBe('busy');
		isNew(claim(SCOPE, {}, 'd1', [], T + PENDING_MAX_MS + 1));
		const data: IDataObject = {};
		isNew(claim(SCOPE, data, 'd2', [], T)).commit();
		expect(claim(SCOPE, data, 'd2', [], T + 1).kind).toBe('seen');
		expect(claim(SCOPE, {}, 'd2', [], T + 2).kind).toBe('seen');
	});

	it('committed and not answered: written as held into the other copies; only a catch-up skips held events', () => {
		const other: IDataObject = {};
		track(SCOPE, other, undefined, T);
		const delivery = isNew(claim(SCOPE, {}, 'd1', [timed('k1')], T));
		delivery.commit();
		expect(seen(other)).toEqual({ deliveries: {}, events: {}, held: { [eventKey('k1')]: T } });
		const later: IDataObject = {};
		track(SCOPE, later, undefined, T + 1);
		expect(seen(later).held).toEqual({ [eventKey('k1')]: T });
		delivery.settle(false);
		expect(isNew(claim(SCOPE, other, undefined, [timed('k1')], T + 2, true)).fresh).toEqual([]);
		forgetProcessMemory();
		expect(isNew(claim(SCOPE, other, undefined, [timed('k1')], T + 2)).fresh).toEqual([0]);
	});

	it('a commit never answered is held in new copies only for PENDING_MAX_MS', () => {
		isNew(claim(SCOPE, {}, 'd1', [timed('k1')], T)).commit();
		const late: IDataObject = {};
		track(SCOPE, late, undefined, T + PENDING_MAX_MS + 1);
		expect(seen(late).held).toBeUndefined();
	});

	it('once its own request stored an event, the same event under another delivery is skipped, not busy', () => {
		const data: IDataObject = {};
		isNew(claim(SCOPE, data, 'd1', [timed('k1')], T)).commit();
		isNew(claim(SCOPE, structuredClone(data), 'd2', [], T + 1));
		expect(isNew(claim(SCOPE, {}, 'd3', [timed('k1')], T + 2)).fresh).toEqual([]);
	});

	it('unreadable stored marks are read as none', () => {
		const data: IDataObject = { seen: { deliveries: null, events: 'e:k1', held: 5 } };
		expect(isNew(claim(SCOPE, data, 'd1', [timed('k1')], T)).fresh).toEqual([0]);
	});
});

describe('copies of the static data', () => {
	it.each(['finish', 'close'])('what this process confirms is written into every copy a request holds, until shortly after its answer (%s)', (event) => {
		const answer = new EventEmitter();
		const copy: IDataObject = {};
		const untracked: IDataObject = {};
		track(SCOPE, copy, answer, T);
		noteRan(SCOPE, ['ran|a'], T);
		expect(seen(copy).events).toEqual({ [eventKey('ran|a')]: T });
		expect(untracked.seen).toBeUndefined();
		now = T + 10;
		answer.emit(event);
		noteRan(SCOPE, ['ran|b'], T + 10 + TRACK_AFTER_ANSWER_MS);
		expect(Object.keys(seen(copy).events!)).toHaveLength(2);
		noteRan(SCOPE, ['ran|c'], T + 11 + TRACK_AFTER_ANSWER_MS);
		expect(Object.keys(seen(copy).events!)).toHaveLength(2);
	});

	it('an unanswered copy is written into for PENDING_MAX_MS; a new copy gets what was confirmed; nothing new writes nothing', () => {
		const copy: IDataObject = {};
		track(SCOPE, copy, undefined, T);
		noteRan(SCOPE, ['ran|a'], T + PENDING_MAX_MS);
		noteRan(SCOPE, ['ran|b'], T + PENDING_MAX_MS + 1);
		expect(Object.keys(seen(copy).events!)).toEqual([eventKey('ran|a')]);
		const fresh: IDataObject = {};
		track(SCOPE, fresh, undefined, T + PENDING_MAX_MS + 1);
		expect(Object.keys(seen(fresh).events!)).toEqual([eventKey('ran|a'), eventKey('ran|b')]);
		const before = fresh.seen;
		track(SCOPE, fresh, undefined, T + PENDING_MAX_MS + 2);
		expect(fresh.seen).toBe(before);
	});

	it('at most MAX_DELIVERIES delivery IDs stored, the oldest dropped; merged marks kept in time order', () => {
		const deliveries: IDataObject = {};
		for (let i = 0; i < MAX_DELIVERIES; i++) deliveries[`d:${i}`] = T - MAX_DELIVERIES + i;
		const data: IDataObject = { seen: { deliveries, events: { 'e:late': T + 5 } } };
		isNew(claim(SCOPE, data, 'new', [timed('k1')], T)).commit();
		const stored = seen(data);
		expect(Object.keys(stored.deliveries!)).toHaveLength(MAX_DELIVERIES);
		expect(stored.deliveries).not.toHaveProperty('d:0');
		expect(stored.deliveries).toHaveProperty('d:1');
		expect(Object.keys(stored.deliveries!).at(-1)).toBe(deliveryKey('new'));
		expect(Object.keys(stored.events!)).toEqual([eventKey('k1'), 'e:late']);
	});
});

describe('what executions ran', () => {
	it('noteRan and alreadyRan: in this process for MEMORY_MS, in the stored copy for 48 hours; per scope', () => {
		noteRan(SCOPE, ['ran|a'], T);
		expect(alreadyRan(SCOPE, {}, 'ran|a')).toBe(true);
		expect(alreadyRan(eventScope(node, 'other', false), {}, 'ran|a')).toBe(false);
		expect(alreadyRan(SCOPE, {}, 'ran|b')).toBe(false);
		now = T + 59 * 60_000;
		expect(alreadyRan(SCOPE, {}, 'ran|a')).toBe(true);
		now = T + MEMORY_MS - 1;
		expect(alreadyRan(SCOPE, {}, 'ran|a')).toBe(true);
		now = T + MEMORY_MS;
		expect(alreadyRan(SCOPE, {}, 'ran|a')).toBe(false);
		expect(alreadyRan(SCOPE, { seen: { events: { [eventKey('ran|a')]: T } } }, 'ran|a')).toBe(true);
	});

	it('knowsMark: pending, confirmed or stored', () => {
		isNew(claim(SCOPE, {}, 'd1', [timed('k1')], T));
		expect(knowsMark(SCOPE, {}, 'k1')).toBe(true);
		noteRan(SCOPE, ['k2'], T);
		expect(knowsMark(SCOPE, {}, 'k2')).toBe(true);
		expect(knowsMark(SCOPE, { seen: { events: { [eventKey('k3')]: T } } }, 'k3')).toBe(true);
		expect(knowsMark(SCOPE, {}, 'k4')).toBe(false);
	});

	it('claimRuns: the run keys no execution passed, once each, now marked and written into the asking copy', () => {
		noteRan(SCOPE, ['ran|a'], T);
		const data: IDataObject = { seen: { events: { [eventKey('ran|s')]: T } } };
		expect(claimRuns(SCOPE, data, ['ran|a', 'ran|b', 'ran|b', 'ran|s'], T)).toEqual(['ran|b']);
		expect(seen(data).events).toHaveProperty(eventKey('ran|b'));
		expect(alreadyRan(SCOPE, {}, 'ran|b')).toBe(true);
		expect(claimRuns(SCOPE, data, ['ran|b'], T)).toEqual([]);
	});

	it('at most MAX_SCOPES webhooks remembered, the least recently used forgotten', () => {
		noteRan(SCOPE, ['ran|a'], T);
		for (let i = 0; i < MAX_SCOPES - 1; i++) noteRan(`live|w${i}|s`, [], T);
		expect(alreadyRan(SCOPE, {}, 'ran|a')).toBe(true);
		for (let i = 0; i < MAX_SCOPES; i++) noteRan(`live|v${i}|s`, [], T);
		expect(alreadyRan(SCOPE, {}, 'ran|a')).toBe(false);
	});
});

describe('markChangedUntilAnswered', () => {
	it.each(['finish', 'close'])('writes the same marks again until the answer went out (%s)', async (event) => {
		jest.restoreAllMocks();
		const marks = { events: { a: 1 } };
		const data: IDataObject = { seen: marks };
		const answer = new EventEmitter();
		const done = markChangedUntilAnswered(data, answer);
		await new Promise((resolve) => setTimeout(resolve, 5));
		answer.emit(event);
		await done;
		expect(data.seen).not.toBe(marks);
		expect(data.seen).toEqual(marks);
	});

	it('gives up after MARK_CHANGED_MAX_MS without an answer', async () => {
		// n8n's clock moves 10 s a look; an answer comes only after 100 looks (so a wait without a bound still ends)
		const answer = new EventEmitter();
		let looks = 0;
		jest.spyOn(Date, 'now').mockImplementation(() => {
			if (++looks === 100) answer.emit('close');
			return T + looks * 10_000;
		});
		await markChangedUntilAnswered({ seen: { events: {} } }, answer);
		expect(looks * 10_000).toBeLessThanOrEqual(MARK_CHANGED_MAX_MS + 20_000);
	});
});
