/** The building blocks of requests in flight: slots, the item pool, writes to one record in order. */
import { Slots, forEachInParallel, inOrder } from '../../nodes/Lofty/transport/inFlight';

const tick = async (n = 5) => {
	for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** A task that ends when the test says so, recording when it ran. */
function gate() {
	let open!: () => void;
	let fail!: (error: Error) => void;
	const promise = new Promise<void>((resolve, reject) => ((open = resolve), (fail = reject)));
	return { promise, open, fail };
}

describe('Slots', () => {
	it('lets at most `size` holders in, and the next in line gets a freed slot', async () => {
		const slots = new Slots(2);
		const order: number[] = [];
		const held = await Promise.all([slots.take(), slots.take()]);
		const waiting = [3, 4].map((n) => slots.take().then((release) => (order.push(n), release)));
		await tick();
		expect(order).toEqual([]);
		held[0]();
		held[0](); // a second release of the same slot is ignored
		await tick();
		expect(order).toEqual([3]);
		held[1]();
		await tick();
		expect(order).toEqual([3, 4]);
		for (const release of await Promise.all(waiting)) release();
		// All free again: two at once, no more.
		const again = await Promise.all([slots.take(), slots.take()]);
		let third = false;
		void slots.take().then(() => (third = true));
		await tick();
		expect(third).toBe(false);
		again[0]();
		await tick();
		expect(third).toBe(true);
	});
});

describe('forEachInParallel', () => {
	it('runs tasks in index order, at most `parallel` at once', async () => {
		const started: number[] = [];
		let running = 0;
		let most = 0;
		await forEachInParallel(20, 4, async (i) => {
			started.push(i);
			most = Math.max(most, ++running);
			await new Promise((resolve) => setTimeout(resolve, (i * 7) % 5));
			running--;
		});
		expect(started).toEqual(Array.from({ length: 20 }, (_, i) => i));
		expect(most).toBe(4);
	});

	it('after a failure starts nothing new, lets the running ones finish, then throws the lowest index', async () => {
		const gates = Array.from({ length: 10 }, gate);
		const finished: number[] = [];
		const run = forEachInParallel(10, 3, async (i) => {
			await gates[i].promise;
			finished.push(i);
		});
		let outcome: unknown = 'pending';
		run.then(
			() => (outcome = 'resolved'),
			(error: Error) => (outcome = error.message),
		);
		gates[2].fail(new Error('item 2'));
		await tick();
		gates[1].fail(new Error('item 1'));
		await tick();
		expect(outcome).toBe('pending'); // item 0 still running
		gates[0].open();
		await tick();
		expect(outcome).toBe('item 1');
		expect(finished).toEqual([0]);
		for (const g of gates.slice(3)) g.open();
		await tick();
		expect(finished).toEqual([0]); // items 3 to 9 never started
	});

	it('stops starting tasks once one returns false', async () => {
		const started: number[] = [];
		await forEachInParallel(10, 2, async (i) => {
			started.push(i);
			return i !== 3;
		});
		expect(started.length).toBeLessThanOrEqual(5);
		expect(started).not.toContain(6);
	});
});

describe('inOrder', () => {
	it('runs tasks of one key one after another in call order, other keys alongside', async () => {
		const ctx = {};
		const log: string[] = [];
		const gates = [gate(), gate(), gate()];
		const a0 = inOrder(ctx, 'a', async () => (log.push('a0 start'), await gates[0].promise, log.push('a0 end')));
		const a1 = inOrder(ctx, 'a', async () => log.push('a1'));
		const b0 = inOrder(ctx, 'b', async () => (log.push('b0 start'), await gates[1].promise, log.push('b0 end')));
		await tick();
		expect(log).toEqual(['a0 start', 'b0 start']);
		gates[1].open();
		await tick();
		expect(log).toEqual(['a0 start', 'b0 start', 'b0 end']);
		gates[0].fail(new Error('a0 failed'));
		await expect(a0).rejects.toThrow('a0 failed');
		// A failure of the earlier task does not stop the later one.
		await a1;
		await b0;
		expect(log).toEqual(['a0 start', 'b0 start', 'b0 end', 'a1']);
	});
});

describe('inOrder with several keys (an item on two records)', () => {
	it('waits for the earlier tasks of every key it names, and later tasks of either key wait for it', async () => {
		const ctx = {};
		const log: string[] = [];
		const gates = [gate(), gate(), gate()];
		const a = inOrder(ctx, ['a'], async () => (log.push('a start'), await gates[0].promise, log.push('a end')));
		const b = inOrder(ctx, 'b', async () => (log.push('b start'), await gates[1].promise, log.push('b end')));
		const ab = inOrder(ctx, ['a', 'b'], async () => (log.push('ab start'), await gates[2].promise, log.push('ab end')));
		const b2 = inOrder(ctx, 'b', async () => log.push('b2'));
		const none = inOrder(ctx, [], async () => log.push('no key'));
		await tick();
		// A task without keys starts at once; keyed ones on the next turn of the event loop.
		expect(log).toEqual(['no key', 'a start', 'b start']);
		gates[0].open();
		await tick();
		expect(log).toEqual(['no key', 'a start', 'b start', 'a end']);
		gates[1].open();
		await tick();
		expect(log).toEqual(['no key', 'a start', 'b start', 'a end', 'b end', 'ab start']);
		gates[2].open();
		await Promise.all([a, b, ab, b2, none]);
		expect(log.slice(-2)).toEqual(['ab end', 'b2']);
	});
});
