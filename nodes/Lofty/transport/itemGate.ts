import type { IExecuteFunctions } from 'n8n-workflow';

import type { LoftyRequest } from './request';

/**
 * What an item's request passes just before it is sent (after its slot of Parallel Requests and the credential's
 * pace): the execution's stop, and the item's turn on the records it reads (model/turns.ts registers that).
 *
 * Stop: once the execution is cancelled (n8n's cancel signal; n8n lines without `getExecutionCancelSignal` have
 * none), no request is sent. Once an item has failed the run (without Continue On Fail), a later item that has sent
 * nothing yet sends nothing: it does not start, as at Parallel Requests 1 (an earlier one still runs: at Parallel
 * Requests 1 it would have run first). An item that has sent a request goes on
 * to the end of its work. An item kept from starting is marked for the execute loop (wasStopped).
 */

interface RunState {
	/** The lowest item that failed the run. */
	failed?: number;
	/** Items that have sent a request. */
	started: Set<number>;
	/** Items the stop kept from starting. */
	stopped: Set<number>;
	/** The item's turn: what it does around a request (may wait for a record's turn, may read again within it). */
	turns: Map<number, RequestTurn>;
}

export type RequestTurn = (request: LoftyRequest, send: () => Promise<unknown>) => Promise<unknown>;

const runs = new WeakMap<object, RunState>();

function stateOf(ctx: object): RunState {
	let state = runs.get(ctx);
	if (!state) runs.set(ctx, (state = { started: new Set(), stopped: new Set(), turns: new Map() }));
	return state;
}

/** Whether n8n has cancelled the execution (a person stopped it, or its timeout ended it). */
export function cancelled(ctx: object): boolean {
	const signal = (ctx as Partial<Pick<IExecuteFunctions, 'getExecutionCancelSignal'>>).getExecutionCancelSignal?.();
	return signal?.aborted === true;
}

/** The item failed the run (without Continue On Fail): later items that have not started stay so. */
export function failRun(ctx: object, itemIndex: number): void {
	const state = stateOf(ctx);
	state.failed = Math.min(state.failed ?? itemIndex, itemIndex);
}

/** Why an item that has sent nothing may not start now; undefined when it may. */
export function stopReason(ctx: object, itemIndex: number): string | undefined {
	if (cancelled(ctx)) return 'the execution was stopped';
	const state = runs.get(ctx);
	if (state?.failed !== undefined && itemIndex > state.failed && !state.started.has(itemIndex)) return `item ${state.failed} failed the run`;
	return undefined;
}

/** Whether the stop kept this item from starting. */
export const wasStopped = (ctx: object, itemIndex: number): boolean => runs.get(ctx)?.stopped.has(itemIndex) === true;

/**
 * The stop, checked just before a request is sent: why the request may not go (the item is then marked as kept from
 * starting), or undefined, and the item counts as started.
 */
export function passGate(ctx: object, itemIndex: number): string | undefined {
	const why = stopReason(ctx, itemIndex);
	if (why) stateOf(ctx).stopped.add(itemIndex);
	else stateOf(ctx).started.add(itemIndex);
	return why;
}

/** Sets (or with undefined clears) what the item's turn does around each of its requests. */
export function setRequestTurn(ctx: object, itemIndex: number, turn: RequestTurn | undefined): void {
	if (turn) stateOf(ctx).turns.set(itemIndex, turn);
	else runs.get(ctx)?.turns.delete(itemIndex);
}

export const requestTurnOf = (ctx: object, itemIndex: number): RequestTurn | undefined => runs.get(ctx)?.turns.get(itemIndex);
