import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { credentialType } from '../transport/request';
import { keepsCurrentEntries } from './customFields';
import type { OperationDef, TurnScope } from './types';

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
 * Scope: a plain write's turn holds within its execution. A write that sends what the item read first holds its turn
 * across every execution of this n8n process that uses the same Lofty credential (`account`): a whole list replaced
 * with the values read (a transaction's custom fields), and the operations whose table says `turn.scope: 'account'`
 * (Create or Update). Such an item also holds its keys within its execution, so it keeps its place among that
 * execution's plain writes. Another n8n process (a queue-mode worker) does not see these turns.
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
	return keepsCurrentEntries(op) ? 'account' : 'execution';
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

/**
 * The Lofty account as far as it is known without an await: the node's credential (its type and n8n's ID). Two n8n
 * credentials for one Lofty account are two accounts here.
 */
function accountOf(ctx: IExecuteFunctions): string {
	const type = credentialType(ctx);
	return `account ${type} ${ctx.getNode().credentials?.[type]?.id ?? ''}`;
}

/**
 * Runs `work` in the item's turn: after every earlier holder of one of its keys has finished. The place in line is
 * taken when this is called, for all keys at once (so two items never wait for each other); call it before the
 * item's first await. No keys: runs at once.
 */
export function inTurn<T>(ctx: IExecuteFunctions, op: OperationDef, values: IDataObject, work: () => Promise<T>): Promise<T> {
	const keys = turnKeys(op, values);
	if (keys.length === 0) return work();
	const scopes = turnScope(op) === 'account' ? [executionOf(ctx), accountOf(ctx)] : [executionOf(ctx)];
	const places = scopes.flatMap((scope) => keys.map((key) => `${scope}|${key}`));
	const earlier = [...new Set(places.map((place) => tails.get(place)).filter((p): p is Promise<void> => p !== undefined))];
	let release!: () => void;
	const mine = new Promise<void>((resolve) => (release = resolve));
	for (const place of places) tails.set(place, mine);
	const finished = () => {
		release();
		for (const place of places) if (tails.get(place) === mine) tails.delete(place);
	};
	const result = Promise.all(earlier).then(work);
	result.then(finished, finished);
	return result;
}

/** One step of an item in an execution-wide line: `run` it once when the item gets there; `release` when it will not. */
export interface PlaceInLine {
	run<T>(step: () => Promise<T>): Promise<T>;
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
		release: finished,
	};
}

/** How many keys are held or waited for (tests: none once every run has ended). */
export const heldTurns = (): number => tails.size;

/** Forgets every turn (tests: each case starts from nothing). */
export function forgetTurns(): void {
	tails.clear();
}
