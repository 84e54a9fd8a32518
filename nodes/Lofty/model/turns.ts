import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { type RequestTurn, setRequestTurn } from '../transport/itemGate';
import { accountOf } from '../transport/target';
import { readsCurrentEntries } from './customFields';
import type { OperationDef, RecordsRead, TurnScope } from './types';

/**
 * Turns: which items wait for which. An item that writes takes a turn on the keys of what it changes before its first
 * await (executeOperation); its whole work (reads of current values, lookups, prepare, the write, the read-back) then
 * runs after every earlier item holding one of those keys has finished, and before every later one. Items with no
 * key in common run at once. Reads take no turn.
 *
 * Keys: `name=value` per record parameter (the ID parameters in the path, or the table's `record`: an ID in the
 * body, one key per entry of a list), `#name` for an entry of `record` that is not a parameter (one thing of the team
 * such as the license seats), or the operation's own `turn.keys` (a person by every email and phone given).
 *
 * Scope: every key is held within the item's execution. A record's key (`name=value`) is also held across every
 * execution of this n8n process that acts as the same Lofty account (transport/target.ts accountOf: the user's API key
 * or Customer Key, as a fingerprint, whichever n8n credential holds it), so that writes naming one record meet
 * whichever workflow sends them. The other keys are held on the account where the write sends what the item
 * read first: a whole list replaced with the values read (a transaction's custom fields), and the operations whose
 * table says `turn.scope: 'account'` (Create or Update: the person). Another n8n process (a queue-mode worker) does
 * not see these turns.
 *
 * Records read: an operation that finds its record by reading (Create or Update finds the lead by a search) names
 * the records of its reads (`turn.reads`); before such a read is used, the item takes the account's turn on those
 * records and reads again within it, so what it decides from the read and what it writes meet Lead > Update and
 * every other write of that record (requests pass the item's turn in transport/itemGate.ts).
 *
 * No deadlock. An item waits in three steps, each only after the one before: (1) its keys in its execution, taken
 * all at once at its start, and the earlier items of its execution in its lines (below), all of which started before
 * it; (2) its keys on the account, all at once; (3) records read, all at once, holding at most one such set (a new
 * set gives up the old one first). A wait is always for places taken earlier on the same key, so waits within one
 * step never go round. Across steps: an item in (2) or (3) holds account keys but waits for nothing of (1) again,
 * and only Create or Update (person keys, no record keys of its own) waits in (3) while holding keys of (2); a record
 * holder waits for no person key. So every chain of waits ends at an item that is only talking to Lofty.
 *
 * Lines: a step whose outcome later items of the execution take over (the tag spellings) runs in item order, each
 * item's place taken at its start like its turn (placeInLine).
 */

/** Whether an operation only reads (lists are reads even when they search by POST). */
export const isRead = (op: OperationDef): boolean => op.method === 'GET' || op.pagination !== undefined;

/** What names the record a write changes: parameter names and team-wide names (none for reads and plain creates). */
export function recordParams(op: OperationDef): string[] {
	if (isRead(op)) return [];
	if (op.record) return op.record;
	return op.params.filter((p) => p.in === 'path' && (p.type === 'id' || p.type === 'locator')).map((p) => p.name);
}

/** The keys of one item's turn (none for reads, and for writes that name no record such as plain creates). */
export function turnKeys(op: OperationDef, values: IDataObject): string[] {
	if (isRead(op)) return [];
	if (op.turn?.keys) return [...new Set(op.turn.keys(values))];
	const keys: string[] = [];
	for (const name of recordParams(op)) {
		if (!op.params.some((p) => p.name === name)) keys.push(`#${name}`);
		else if (Array.isArray(values[name])) keys.push(...(values[name] as unknown[]).map((v) => `${name}=${String(v)}`));
		else if (values[name] !== undefined && values[name] !== '') keys.push(`${name}=${String(values[name])}`);
	}
	return [...new Set(keys)];
}

/** Where an operation's turns hold: its execution, or every execution of this process on the same Lofty account. */
export function turnScope(op: OperationDef): TurnScope {
	if (op.turn?.scope) return op.turn.scope;
	return readsCurrentEntries(op) ? 'account' : 'execution';
}

/** The place in line of the last holder of each key (`<scope>|<key>`); a key is removed when its last holder finishes. */
const tails = new Map<string, Promise<void>>();
const executionIds = new WeakMap<object, number>();
let executions = 0;

function executionOf(ctx: object): string {
	let id = executionIds.get(ctx);
	if (id === undefined) executionIds.set(ctx, (id = ++executions));
	return `execution ${id}`;
}

/** A place taken on some keys: `ready` once every earlier holder has finished; `release` once (further calls do nothing). */
interface Place {
	ready: Promise<void>;
	release: () => void;
}

function take(places: string[]): Place {
	const earlier = [...new Set(places.map((place) => tails.get(place)).filter((p): p is Promise<void> => p !== undefined))];
	let resolve!: () => void;
	const mine = new Promise<void>((r) => (resolve = r));
	for (const place of places) tails.set(place, mine);
	let done = false;
	const release = () => {
		if (done) return;
		done = true;
		resolve();
		for (const place of places) if (tails.get(place) === mine) tails.delete(place);
	};
	return { ready: Promise.all(earlier).then(() => undefined), release };
}

/**
 * Step (3): around each request of the item, the account's turn on the records it names. Before the request, the
 * records its path names; after a read, the records its answer names, and if those were not all held, the read is
 * sent again within their turn (at most three times).
 */
function recordsTurn(reads: RecordsRead, account: string, held: Place[]): RequestTurn {
	let keys: string[] = [];
	let records: Place | undefined;
	const hold = async (named: string[]): Promise<boolean> => {
		if (named.every((key) => keys.includes(key))) return false;
		records?.release();
		keys = [...new Set([...keys, ...named])];
		records = take(keys.map((key) => `${account}|${key}`));
		held.push(records);
		await records.ready;
		return true;
	};
	return async (request, send) => {
		await hold(reads(request));
		let answer = await send();
		if (request.method !== 'GET') return answer;
		for (let again = 0; again < 3 && (await hold(reads(request, answer))); again++) answer = await send();
		return answer;
	};
}

/**
 * Runs `work` in the item's turn: after every earlier holder of one of its keys has finished. Step (1) is taken when
 * this is called (call it before the item's first await); then the item waits for the earlier items of its `lines`,
 * then takes step (2). No keys: runs at once. `itemIndex` names the item's requests for step (3).
 */
export function inTurn<T>(
	ctx: IExecuteFunctions,
	op: OperationDef,
	values: IDataObject,
	work: () => Promise<T>,
	item: { itemIndex: number; lines?: PlaceInLine[] } = { itemIndex: -1 },
): Promise<T> {
	const keys = turnKeys(op, values);
	if (keys.length === 0) return work();
	const held = [take(keys.map((key) => `${executionOf(ctx)}|${key}`))];
	const onAccount = turnScope(op) === 'account' ? keys : keys.filter((key) => !key.startsWith('#') && !op.turn?.keys);
	// The account (transport/target.ts), when a turn holds on it: read as the item starts, before it waits.
	const accountRead = onAccount.length || op.turn?.reads ? accountOf(ctx) : undefined;
	accountRead?.catch(() => undefined);
	const finished = () => {
		setRequestTurn(ctx, item.itemIndex, undefined);
		for (const place of held) place.release();
	};
	const result = (async () => {
		await held[0].ready;
		for (const line of item.lines ?? []) await line.reached();
		const account = (await accountRead) ?? '';
		if (onAccount.length) {
			held.push(take(onAccount.map((key) => `${account}|${key}`)));
			await held[1].ready;
		}
		if (op.turn?.reads) setRequestTurn(ctx, item.itemIndex, recordsTurn(op.turn.reads, account, held));
		return await work();
	})();
	result.then(finished, finished);
	return result;
}

/** One step of an item in an execution-wide line: `run` it once when the item gets there; `release` when it will not. */
export interface PlaceInLine {
	run<T>(step: () => Promise<T>): Promise<T>;
	/** Settles once the earlier items' steps have run (or their places were released). */
	reached(): Promise<void>;
	release(): void;
}

/**
 * A place for one step of the item in a line of its execution, taken now (in item order): the step runs after the
 * earlier items' steps in that line, whatever turns the items wait for in between. The team's tag spellings are such
 * a line (a name learned from an earlier item is used by the later ones): `line` names it. An item that does not
 * reach the step must release its place, or the later items' steps wait for it.
 */
export function placeInLine(ctx: object, line: string): PlaceInLine {
	const place = `${executionOf(ctx)}|#line ${line}`;
	const earlier = tails.get(place);
	let release!: () => void;
	const mine = new Promise<void>((resolve) => (release = resolve));
	tails.set(place, mine);
	let done = false;
	const finished = () => {
		if (done) return;
		done = true;
		release();
		if (tails.get(place) === mine) tails.delete(place);
	};
	return {
		run: async (step) => {
			try {
				await earlier;
				return await step();
			} finally {
				finished();
			}
		},
		reached: async () => await earlier,
		release: finished,
	};
}

/** How many keys are held or waited for (tests: none once every run has ended). */
export const heldTurns = (): number => tails.size;

/** Forgets every turn (tests: each case starts from nothing). */
export function forgetTurns(): void {
	tails.clear();
}
