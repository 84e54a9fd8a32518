/**
 * Turns (model/turns.ts) at their edges: what names a record, whose places a finished holder gives back, lines kept
 * apart, record keys met across executions, and the records a read names (step 3). Found by mutation testing
 * (npm run test:mutation -- turns): each case fails on a mutant the other turn tests let live.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { forgetTurns, heldTurns, inTurn, placeInLine, recordParams, turnKeys } from '../../nodes/Lofty/model/turns';
import type { OperationDef, RecordsRead } from '../../nodes/Lofty/model/types';
import { requestTurnOf } from '../../nodes/Lofty/transport/itemGate';
import { gate, tick } from '../harness/gates';
import { secondWaits } from './turnWaits';

const execution = (apiKey = 'key-1') =>
	({
		getNodeParameter: (name: string, __: number, fallback: unknown) => (name === 'authentication' ? 'apiKey' : fallback),
		getNode: () => ({ credentials: { loftyApi: { id: '1', name: 'Lofty' } } }),
		getCredentials: async () => ({ apiKey }),
	}) as unknown as IExecuteFunctions;

/** Parameters of an operation: [name, where, type] each. */
const params = (...specs: [string, string, string][]) => specs.map(([name, where, type]) => ({ name, label: name, in: where, type })) as unknown as OperationDef['params'];
/** An operation as far as turns read it. */
const operation = (fields: Partial<OperationDef>): OperationDef =>
	({ value: 'o', name: 'O', action: 'o', description: 'o', method: 'PUT', effect: 'write', path: '/o', params: [], ...fields }) as OperationDef;

afterEach(() => forgetTurns());

describe('what names the record', () => {
	it('a list sent by POST is a read: no turn, whatever its path names', () => {
		const list = operation({ method: 'POST', pagination: { style: 'page' } as OperationDef['pagination'], params: params(['id', 'path', 'id']) });
		expect(turnKeys(list, { id: '1' })).toEqual([]);
		expect(recordParams(list)).toEqual([]);
	});

	it('a GET names no record even with an ID in its path, nor by keys of its own', () => {
		expect(turnKeys(operation({ method: 'GET', turn: { keys: () => ['person'] } }), {})).toEqual([]);
		expect(recordParams(operation({ method: 'GET', params: params(['id', 'path', 'id']) }))).toEqual([]);
	});

	it('only ID and locator parameters in the path name the record; an empty one names nothing', () => {
		const put = operation({ params: params(['a', 'path', 'id'], ['b', 'path', 'string'], ['c', 'path', 'locator'], ['d', 'query', 'id']) });
		expect(recordParams(put)).toEqual(['a', 'c']);
		expect(turnKeys(put, { a: '1', b: '2', c: '3', d: '4' })).toEqual(['a=1', 'c=3']);
		expect(turnKeys(put, { a: '', c: '3' })).toEqual(['c=3']);
	});
});

describe('places given back', () => {
	it('a holder that finishes gives back only its own place: a later item still waits for the one before it', async () => {
		const ctx = execution();
		// A team-wide name: held in the execution only, so nothing but that place orders the items.
		const w = operation({ record: ['team'] });
		const log: string[] = [];
		const [first, second] = [gate(), gate()];
		const a0 = inTurn(ctx, w, {}, async () => (log.push('a0'), await first.promise));
		const a1 = inTurn(ctx, w, {}, async () => (log.push('a1'), await second.promise, log.push('a1 end')));
		first.open();
		await a0;
		await tick();
		const a2 = inTurn(ctx, w, {}, async () => log.push('a2'));
		await tick();
		expect(log).toEqual(['a0', 'a1']);
		second.open();
		await Promise.all([a1, a2]);
		expect(log).toEqual(['a0', 'a1', 'a1 end', 'a2']);
		expect(heldTurns()).toBe(0);
	});

	it('a place in a line given back leaves nothing held; a later place still waits for the one before it', async () => {
		const ctx = execution();
		placeInLine(ctx, 'alone').release();
		expect(heldTurns()).toBe(0);
		const log: string[] = [];
		const [p0, p1] = [placeInLine(ctx, 'l'), placeInLine(ctx, 'l')];
		p0.release();
		const p2 = placeInLine(ctx, 'l');
		const third = p2.run(async () => log.push('item 2'));
		await tick();
		expect(log).toEqual([]);
		await p1.run(async () => log.push('item 1'));
		await third;
		expect(log).toEqual(['item 1', 'item 2']);
		expect(heldTurns()).toBe(0);
	});

	it('lines of other names, or of another execution, do not wait for each other', async () => {
		const [ctx, other] = [execution(), execution()];
		const held = placeInLine(ctx, 'tags');
		expect(await placeInLine(ctx, 'other').run(async () => 'ran')).toBe('ran');
		expect(await placeInLine(other, 'tags').run(async () => 'ran')).toBe('ran');
		held.release();
	});

	it('forgetTurns forgets every place', () => {
		placeInLine(execution(), 'l');
		expect(heldTurns()).toBe(1);
		forgetTurns();
		expect(heldTurns()).toBe(0);
	});
});

describe('a record met across executions of one account', () => {
	const waits = (op: OperationDef, values: IDataObject, first = execution(), second = execution()) => secondWaits(first, second, op, values);

	it("a plain write's record ID is held on the account; a team-wide name and a table's own keys only in the execution", async () => {
		expect(await waits(operation({ params: params(['id', 'path', 'id']) }), { id: '7' })).toBe(true);
		expect(await waits(operation({ params: params(['id', 'path', 'id']) }), { id: '7' }, execution('key-1'), execution('key-2'))).toBe(false);
		expect(await waits(operation({ record: ['team'] }), {})).toBe(false);
		expect(await waits(operation({ turn: { keys: () => ['person'] } }), {})).toBe(false);
	});
});

describe("the records a read names (step 3, the item's request turn)", () => {
	const reader = (reads: RecordsRead) => operation({ method: 'POST', turn: { keys: () => ['person'], scope: 'account', reads } });
	const lead = operation({ params: params(['leadId', 'path', 'id']) });

	it('a read whose answer names a record another execution holds waits for it and is sent again once; a write is sent once', async () => {
		const ctx = execution();
		const held = gate();
		const other = inTurn(execution(), lead, { leadId: '5' }, async () => await held.promise);
		await tick();
		let sends = 0;
		const send = async () => (sends++, { leadId: '5' });
		// After the write's answer its reads name another record: a write is never sent again for that.
		const reads: RecordsRead = (request, answer) => (answer ? [request.method === 'GET' ? 'leadId=5' : 'leadId=8'] : []);
		const work = inTurn(ctx, reader(reads), {}, async () => {
			const turn = requestTurnOf(ctx, 3)!;
			const read = turn({ method: 'GET', path: '/v1.0/leads' }, send);
			await tick();
			expect(sends).toBe(1);
			held.open();
			expect(await read).toEqual({ leadId: '5' });
			expect(sends).toBe(2);
			await turn({ method: 'POST', path: '/v1.0/leads' }, send);
			return sends;
		}, { itemIndex: 3 });
		expect(await work).toBe(3);
		await other;
		expect(requestTurnOf(ctx, 3)).toBeUndefined();
		expect(heldTurns()).toBe(0);
	});

	it('a read is sent again at most three times when each answer names new records', async () => {
		const ctx = execution();
		let sends = 0;
		const send = async () => ++sends;
		const reads: RecordsRead = (_, answer) => (answer === undefined ? ['leadId=0'] : [`leadId=${String(answer)}`]);
		const sent = await inTurn(ctx, reader(reads), {}, async () => {
			await requestTurnOf(ctx, -1)!({ method: 'GET', path: '/v1.0/leads' }, send);
			return sends;
		});
		expect(sent).toBe(4);
		expect(heldTurns()).toBe(0);
	});

	it('an answer naming a record not yet held besides one held is read again within both', async () => {
		const ctx = execution();
		let sends = 0;
		const send = async () => ++sends;
		const reads: RecordsRead = (_, answer) => (answer === undefined ? ['leadId=5'] : ['leadId=5', 'leadId=6']);
		const sent = await inTurn(ctx, reader(reads), {}, async () => {
			await requestTurnOf(ctx, -1)!({ method: 'GET', path: '/v1.0/leads' }, send);
			return sends;
		});
		expect(sent).toBe(2);
	});

	it('the records of the path are held before the request: a write waits for the record another execution holds', async () => {
		const ctx = execution();
		const held = gate();
		const other = inTurn(execution(), lead, { leadId: '9' }, async () => await held.promise);
		await tick();
		let sends = 0;
		const work = inTurn(ctx, reader(() => ['leadId=9']), {}, async () => {
			const write = requestTurnOf(ctx, 0)!({ method: 'PUT', path: '/v1.0/leads/9' }, async () => ++sends);
			await tick();
			expect(sends).toBe(0);
			held.open();
			await write;
			return sends;
		}, { itemIndex: 0 });
		expect(await work).toBe(1);
		await other;
	});
});
