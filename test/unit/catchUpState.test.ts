/**
 * What the Lofty Trigger owes a catch-up (LoftyTrigger/catchUpState.ts) as a rule of its own, on a clock the test
 * names: when listening began, what an activation, a new process's first request and a catch-up's answer owe, and
 * what a stop changes. The trigger runs: test/trigger/catchUp*.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	CATCH_UP_LISTS,
	CATCH_UP_MARGIN_MS,
	CATCH_UP_MAX_BACK_MS,
	RESUME_AFTER_STOP_MS,
	catchUpStateOf,
	mergeOwed,
	noteListened,
	noteStopped,
	oweOnActivation,
	oweOnFirstRequest,
	owedOf,
} from '../../nodes/LoftyTrigger/catchUpState';

const T = 1_800_000_000_000;
const HOUR = 60 * 60 * 1000;

describe('the state in the static data', () => {
	it('made when absent or unreadable; kept when it is an object', () => {
		for (const catchUp of [undefined, null, 'x', 5, [1]]) {
			const data: IDataObject = { catchUp };
			expect(catchUpStateOf(data)).toEqual({});
			expect(data.catchUp).toEqual({});
			expect(catchUpStateOf(data)).toBe(data.catchUp);
		}
		const kept = { since: 1 };
		expect(catchUpStateOf({ catchUp: kept })).toBe(kept);
		expect(CATCH_UP_LISTS).toEqual({ 2: 'lead', 6: 'call', 7: 'email', 8: 'text' });
	});

	it('owedOf: only lists that can be read back with a finite start; an end only when finite', () => {
		const owed = { 2: { from: 5, to: 9 }, 6: { from: 5, to: Number.NaN }, 7: { from: 'x' }, 8: null, 4: { from: 1 }, 1: { from: 1 } };
		expect(owedOf({ owed } as never)).toEqual({ 2: { from: 5, to: 9 }, 6: { from: 5 } });
		expect(owedOf({})).toEqual({});
	});
});

describe('noteListened and noteStopped', () => {
	it('the first delivery sets since; listenedAt only moves forward; the team is kept when given', () => {
		const data: IDataObject = {};
		noteListened(data, T, '88');
		noteListened(data, T - 10);
		expect(data.catchUp).toEqual({ since: T, listenedAt: T, teamId: '88' });
		noteListened(data, T + 10, '89');
		expect(data.catchUp).toEqual({ since: T, listenedAt: T + 10, teamId: '89' });
		const bad: IDataObject = { catchUp: { since: 1, listenedAt: 'x' } };
		noteListened(bad, 3);
		expect(bad.catchUp).toEqual({ since: 1, listenedAt: 3 });
	});

	it('a stop is noted only once listening began', () => {
		const data: IDataObject = {};
		noteStopped(data, T);
		expect(data.catchUp).toEqual({});
		noteListened(data, T);
		noteStopped(data, T + 1);
		expect(data.catchUp).toEqual({ since: T, listenedAt: T, stoppedAt: T + 1 });
	});
});

describe('oweOnActivation', () => {
	it('a first activation owes nothing and starts listening', () => {
		const data: IDataObject = {};
		expect(oweOnActivation(data, [2, 6], T)).toEqual({});
		expect(data.catchUp).toEqual({ since: T, listenedAt: T, activatedAt: T });
		// An activation by this version owns the catch-up: a first request owes nothing after it.
		expect(oweOnFirstRequest(data, [2, 6], T + HOUR)).toEqual({});
	});

	it('after a short stop: from when it last listened less the margin, for the chosen lists that can be read back', () => {
		const data: IDataObject = { catchUp: { since: T - 10 * HOUR, listenedAt: T - 2 * HOUR, stoppedAt: T - 60_000, teamId: '88' } };
		const now = T - 60_000 + RESUME_AFTER_STOP_MS;
		const from = T - 2 * HOUR - CATCH_UP_MARGIN_MS;
		expect(oweOnActivation(data, [2, 4, 7], now)).toEqual({ 2: { from }, 7: { from } });
		expect(data.catchUp).toEqual({ since: T - 10 * HOUR, listenedAt: now, activatedAt: now, teamId: '88', owed: { 2: { from }, 7: { from } } });
	});

	it('a re-publish (stop and start again within five minutes) goes on; six minutes is a new start', () => {
		const stopped = () => ({ catchUp: { since: T - 10 * HOUR, listenedAt: T - HOUR, stoppedAt: T } }) as IDataObject;
		const from = T - HOUR - CATCH_UP_MARGIN_MS;
		expect(oweOnActivation(stopped(), [2], T + 4 * 60_000 + 59_000)).toEqual({ 2: { from } });
		expect(oweOnActivation(stopped(), [2], T + 6 * 60_000)).toEqual({});
	});

	it('a long stop starts afresh, keeping the team', () => {
		const data: IDataObject = { catchUp: { since: T - 10 * HOUR, listenedAt: T - 2 * HOUR, stoppedAt: T, teamId: '88', owed: { 2: { from: 1 } } } };
		expect(oweOnActivation(data, [2], T + RESUME_AFTER_STOP_MS + 1)).toEqual({});
		expect(data.catchUp).toEqual({ since: T + RESUME_AFTER_STOP_MS + 1, listenedAt: T + RESUME_AFTER_STOP_MS + 1, activatedAt: T + RESUME_AFTER_STOP_MS + 1, teamId: '88' });
		const noTeam: IDataObject = { catchUp: { since: 1, stoppedAt: T } };
		oweOnActivation(noTeam, [2], T + RESUME_AFTER_STOP_MS + 1);
		expect(noTeam.catchUp).toEqual({ since: T + RESUME_AFTER_STOP_MS + 1, listenedAt: T + RESUME_AFTER_STOP_MS + 1, activatedAt: T + RESUME_AFTER_STOP_MS + 1 });
	});

	it('never before since nor more than a day back; without listenedAt from since', () => {
		const recent: IDataObject = { catchUp: { since: T - 30 * 60_000, listenedAt: T - 60_000 } };
		expect(oweOnActivation(recent, [2], T)).toEqual({ 2: { from: T - 30 * 60_000 } });
		const old: IDataObject = { catchUp: { since: T - 100 * HOUR, listenedAt: T - 50 * HOUR } };
		expect(oweOnActivation(old, [2], T)).toEqual({ 2: { from: T - CATCH_UP_MAX_BACK_MS } });
		const never: IDataObject = { catchUp: { since: T - 5 * HOUR } };
		expect(oweOnActivation(never, [8], T)).toEqual({ 8: { from: T - 5 * HOUR } });
	});

	it('joins what was owed already: the earlier start, up to now; a list no longer chosen is dropped', () => {
		const data: IDataObject = { catchUp: { since: T - 10 * HOUR, listenedAt: T - 2 * HOUR, owed: { 2: { from: T - 9 * HOUR, to: T - 8 * HOUR }, 6: { from: T - HOUR }, 7: { from: 1 } } } };
		const from = T - 3 * HOUR;
		expect(oweOnActivation(data, [2, 6], T)).toEqual({ 2: { from: T - 9 * HOUR }, 6: { from } });
		expect((data.catchUp as IDataObject).owed).toEqual({ 2: { from: T - 9 * HOUR }, 6: { from } });
	});
});

describe('oweOnFirstRequest', () => {
	it('nothing before listening began; else as an activation, without touching a stop', () => {
		const none: IDataObject = {};
		expect(oweOnFirstRequest(none, [2], T)).toEqual({});
		expect(none.catchUp).toEqual({});
		const data: IDataObject = { catchUp: { since: T - 10 * HOUR, listenedAt: T - 2 * HOUR, stoppedAt: T - HOUR } };
		expect(oweOnFirstRequest(data, [6], T)).toEqual({ 6: { from: T - 3 * HOUR } });
		expect(data.catchUp).toEqual({ since: T - 10 * HOUR, listenedAt: T, stoppedAt: T - HOUR, owed: { 6: { from: T - 3 * HOUR } } });
	});
});

describe('mergeOwed', () => {
	const state = () => ({ catchUp: { since: T - 30 * HOUR, owed: { 2: { from: T - 5 * HOUR, to: T - 4 * HOUR } } } }) as IDataObject;

	it('adds what a catch-up brought: the union per list, an end kept only when both have one', () => {
		const data = state();
		mergeOwed(data, { 2: { from: T - 6 * HOUR, to: T - 3 * HOUR }, 6: { from: T - HOUR, to: T } }, [2, 6], T);
		expect((data.catchUp as IDataObject).owed).toEqual({ 2: { from: T - 6 * HOUR, to: T - 3 * HOUR }, 6: { from: T - HOUR, to: T } });
		mergeOwed(data, { 2: { from: T - 2 * HOUR } }, [2, 6], T);
		expect((data.catchUp as IDataObject).owed).toEqual({ 2: { from: T - 6 * HOUR }, 6: { from: T - HOUR, to: T } });
	});

	it('the brought range wins its own end when the stored one has an end too, whichever is later', () => {
		const data = state();
		mergeOwed(data, { 2: { from: T - 4.5 * HOUR, to: T - 4.5 * HOUR } }, [2], T);
		expect((data.catchUp as IDataObject).owed).toEqual({ 2: { from: T - 5 * HOUR, to: T - 4 * HOUR } });
	});

	it('only chosen lists; never before since nor more than a day back', () => {
		const data = state();
		mergeOwed(data, { 6: { from: T - 2 * HOUR }, 7: { from: T - 40 * HOUR }, 8: { from: T - 26 * HOUR } }, [2, 7, 8], T);
		const young: IDataObject = { catchUp: { since: T - HOUR } };
		mergeOwed(young, { 2: { from: T - 2 * HOUR, to: T } }, [2], T);
		expect((data.catchUp as IDataObject).owed).toEqual({ 2: { from: T - 5 * HOUR, to: T - 4 * HOUR }, 7: { from: T - CATCH_UP_MAX_BACK_MS }, 8: { from: T - CATCH_UP_MAX_BACK_MS } });
		expect((young.catchUp as IDataObject).owed).toEqual({ 2: { from: T - HOUR, to: T } });
	});

	it('nothing brought, or listening never began: nothing changes', () => {
		// an array is not lists by index: its element 2 is not list 2's range
		for (const brought of [undefined, null, 'x', [{ from: 1 }], [0, 0, { from: T - HOUR }]]) {
			const data = state();
			mergeOwed(data, brought, [2], T);
			expect(data).toEqual(state());
		}
		const none: IDataObject = {};
		mergeOwed(none, { 2: { from: T } }, [2], T);
		expect(none.catchUp).toEqual({});
	});
});
