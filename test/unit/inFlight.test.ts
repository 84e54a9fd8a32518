/** The building blocks of requests in flight: slots, the item pool. */
import { Slots, forEachInParallel } from '../../nodes/Lofty/transport/inFlight';
import { gate, tick } from '../harness/gates';

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
