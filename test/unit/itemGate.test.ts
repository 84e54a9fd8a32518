/**
 * The gate before each request (transport/itemGate.ts): a cancelled execution, or an earlier item that failed the run,
 * keeps an item that has sent nothing from starting; an item that has sent goes on; the item's request turn is kept
 * per execution and item. The sandbox runs of the same rules: test/resilience/stop.test.ts.
 */
import { cancelled, failRun, passGate, requestTurnOf, setRequestTurn, stopReason, wasStopped } from '../../nodes/Lofty/transport/itemGate';

const withSignal = (aborted: boolean) => ({ getExecutionCancelSignal: () => ({ aborted }) as AbortSignal });

describe('the stop', () => {
	it('an execution is cancelled only when its signal says so; an n8n without a signal never is', () => {
		expect(cancelled(withSignal(true))).toBe(true);
		expect(cancelled(withSignal(false))).toBe(false);
		expect(cancelled({})).toBe(false);
		expect(cancelled({ getExecutionCancelSignal: () => undefined })).toBe(false);
	});

	it('a cancelled execution starts no item, and the item is marked as kept from starting', () => {
		const ctx = withSignal(true);
		expect(stopReason(ctx, 0)).toBe('the execution was stopped');
		expect(passGate(ctx, 0)).toBe('the execution was stopped');
		expect(wasStopped(ctx, 0)).toBe(true);
		expect(wasStopped(ctx, 1)).toBe(false);
	});

	it('after a failed item, later items that have sent nothing do not start; earlier ones and started ones go on', () => {
		const ctx = {};
		expect(passGate(ctx, 4)).toBeUndefined();
		expect(wasStopped(ctx, 4)).toBe(false);
		failRun(ctx, 3);
		failRun(ctx, 1);
		failRun(ctx, 2);
		expect(stopReason(ctx, 0)).toBeUndefined();
		expect(stopReason(ctx, 1)).toBeUndefined();
		expect(stopReason(ctx, 2)).toBe('item 1 failed the run');
		expect(stopReason(ctx, 4)).toBeUndefined();
		expect(passGate(ctx, 4)).toBeUndefined();
		expect(passGate(ctx, 5)).toBe('item 1 failed the run');
		expect(wasStopped(ctx, 5)).toBe(true);
		expect(wasStopped(ctx, 4)).toBe(false);
		// A later call of the gate for the kept item still keeps it (it never counted as started).
		expect(passGate(ctx, 5)).toBe('item 1 failed the run');
	});

	it('item 0 failing stops item 1; without a failure nothing stops', () => {
		const ctx = {};
		expect(stopReason(ctx, 1)).toBeUndefined();
		failRun(ctx, 0);
		expect(stopReason(ctx, 1)).toBe('item 0 failed the run');
		expect(wasStopped({}, 0)).toBe(false);
	});
});

describe("the item's request turn", () => {
	it('is kept per execution and item until cleared', () => {
		const [ctx, other] = [{}, {}];
		const turn = async (_: unknown, send: () => Promise<unknown>) => await send();
		expect(requestTurnOf(ctx, 0)).toBeUndefined();
		setRequestTurn(ctx, 0, turn);
		expect(requestTurnOf(ctx, 0)).toBe(turn);
		expect(requestTurnOf(ctx, 1)).toBeUndefined();
		expect(requestTurnOf(other, 0)).toBeUndefined();
		setRequestTurn(other, 0, undefined);
		expect(requestTurnOf(ctx, 0)).toBe(turn);
		setRequestTurn(ctx, 0, undefined);
		expect(requestTurnOf(ctx, 0)).toBeUndefined();
	});
});
