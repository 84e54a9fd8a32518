/**
 * Never lose, never double, across the copies of the static data that requests hold at once (dedupe.ts), generated
 * with fast-check so that a failure shrinks to its smallest schedule. Lofty's deliveries (two carry an event another
 * one carries, under their own IDs) arrive as requests that interleave step by step as in n8n: a request loads its
 * copy of the stored static data, the trigger claims the delivery, then either fails (n8n saves nothing and answers
 * 500) or commits, n8n creates the execution and saves the copy, answers, and at the execution's end saves the copy
 * again. Then n8n restarts (this process's memory is gone), Lofty sends again what was not answered 2xx, and every
 * delivery comes again, and every event under a new ID. Each event must have started exactly once.
 *
 * The last save wins here: a request's copy loaded before another's marks and saved after them must carry them
 * (dedupe.ts writes what this process confirms into every copy a request holds). Restarts between a save and its
 * answer are the windows dedupe.test.ts and lastSaveWins.test.ts describe; they are not generated here.
 */
import { EventEmitter } from 'events';
import fc from 'fast-check';
import type { IDataObject, INode } from 'n8n-workflow';

import { claim, eventScope, forgetProcessMemory, track, type Decision } from '../../nodes/LoftyTrigger/dedupe';

const SCOPE = eventScope({ id: 'n1', name: 'Lofty Trigger', webhookId: 'copies' } as INode, 'secret', false);
const DELIVERIES = [
	{ id: 'd0', events: ['a'] },
	{ id: 'd1', events: ['b'] },
	{ id: 'd2', events: ['c', 'a'] },
	{ id: 'd3', events: ['b'] },
	{ id: 'd4', events: ['e'] },
];
const EVENTS = [...new Set(DELIVERIES.flatMap((d) => d.events))];

interface Request {
	delivery: (typeof DELIVERIES)[number];
	copy: IDataObject;
	phase: 'loaded' | 'claimed' | 'saved' | 'running' | 'done';
	fails: boolean;
	res?: EventEmitter & { statusCode?: number };
	decision?: Decision;
}

/** n8n with its database (`db`: the saved static data, as JSON) and Lofty's view: which deliveries were answered 2xx. */
function world() {
	let db = '{}';
	const started = new Map<string, number>();
	const acked = new Set<string>();
	const load = (delivery: Request['delivery'], fails = false): Request => ({ delivery, copy: JSON.parse(db) as IDataObject, phase: 'loaded', fails });
	const answer = (r: Request, status: number) => {
		r.res!.statusCode = status;
		r.res!.emit('finish');
		if (status < 300) acked.add(r.delivery.id);
	};
	/** One step of a request, as n8n and the trigger take it. */
	const step = (r: Request): void => {
		if (r.phase === 'loaded') {
			r.res = new EventEmitter();
			track(SCOPE, r.copy, r.res);
			r.decision = claim(SCOPE, r.copy, r.delivery.id, r.delivery.events.map((key) => ({ key, timed: true })), Date.now());
			if (r.decision.kind !== 'new') {
				db = JSON.stringify(r.copy);
				answer(r, r.decision.kind === 'seen' ? 200 : 503);
				r.phase = 'done';
				return;
			}
			const { settle } = r.decision;
			r.res.once('finish', () => settle(r.res!.statusCode! < 300));
			r.phase = 'claimed';
		} else if (r.phase === 'claimed') {
			const decision = r.decision as Extract<Decision, { kind: 'new' }>;
			if (r.fails) {
				answer(r, 500);
				r.phase = 'done';
				return;
			}
			decision.commit();
			for (const index of decision.fresh) started.set(r.delivery.events[index], (started.get(r.delivery.events[index]) ?? 0) + 1);
			db = JSON.stringify(r.copy);
			r.phase = 'saved';
		} else if (r.phase === 'saved') {
			answer(r, 200);
			r.phase = (r.decision as Extract<Decision, { kind: 'new' }>).fresh.length > 0 ? 'running' : 'done';
		} else if (r.phase === 'running') {
			// the execution ends: n8n saves the static data it shares with the request
			db = JSON.stringify(r.copy);
			r.phase = 'done';
		}
	};
	const runThrough = (r: Request) => {
		while (r.phase !== 'done') step(r);
	};
	return { load, step, runThrough, started, acked };
}

type Move = ['start' | 'step', number];

describe('copies of the static data held at once: every event starts once (generated schedules)', () => {
	beforeEach(() => forgetProcessMemory());

	it('deliveries and their repeats interleaved step by step, some failing, then a restart and every delivery again', () => {
		const move = fc.tuple(fc.constantFrom<'start' | 'step'>('start', 'step', 'step', 'step'), fc.nat(99)) as fc.Arbitrary<Move>;
		fc.assert(
			fc.property(fc.array(move, { minLength: 1, maxLength: 60 }), (moves) => {
				forgetProcessMemory();
				const w = world();
				const inFlight: Request[] = [];
				for (const [kind, n] of moves) {
					if (kind === 'start') inFlight.push(w.load(DELIVERIES[n % DELIVERIES.length], n % 7 === 0));
					else if (inFlight.length > 0) {
						const r = inFlight[n % inFlight.length];
						w.step(r);
						if (r.phase === 'done') inFlight.splice(inFlight.indexOf(r), 1);
					}
				}
				for (const r of inFlight) w.runThrough(r);
				const before = new Map(w.started);
				forgetProcessMemory(); // n8n restarts: what it saved last is all that is left
				// Lofty sends again what was not answered 2xx, and every delivery comes again, each event under a new ID too
				for (let round = 0; round < 3; round++) for (const d of DELIVERIES) if (!w.acked.has(d.id)) w.runThrough(w.load(d));
				for (const d of DELIVERIES) {
					w.runThrough(w.load(d));
					w.runThrough(w.load({ id: `${d.id}-again`, events: d.events }));
				}
				expect(DELIVERIES.filter((d) => !w.acked.has(d.id))).toEqual([]);
				// started once: an event that ran before the restart never runs again, one that had not runs now
				const once = Object.fromEntries(EVENTS.map((e) => [e, 1]));
				expect(Object.fromEntries(EVENTS.map((e) => [e, w.started.get(e) ?? 0]))).toEqual(once);
				expect([...before.values()].every((n) => n === 1)).toBe(true);
			}),
			{ numRuns: Number(process.env.LOFTY_DEDUPE_RUNS ?? 300) },
		);
	});
});
