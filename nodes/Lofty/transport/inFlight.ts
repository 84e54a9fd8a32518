/**
 * Requests in flight within one execution: the node's "Parallel Requests" setting. Against a remote
 * API each answer takes a round trip, so one request at a time cannot reach the rate limit; several
 * in flight can, and the credential's pacer (pacing.ts) still decides when each may go.
 */

/** At most `size` holders at once, served in the order they asked. */
export class Slots {
	private active = 0;
	private readonly waiters: Array<() => void> = [];

	constructor(readonly size: number) {}

	/** Waits for a free slot; call the returned function once to give it back. */
	async take(): Promise<() => void> {
		if (this.active < this.size) this.active++;
		else await new Promise<void>((resolve) => this.waiters.push(resolve));
		let given = false;
		return () => {
			if (given) return;
			given = true;
			const next = this.waiters.shift();
			// The slot passes straight to the next in line, so `active` stays the same.
			if (next) next();
			else this.active--;
		};
	}
}

const slotsByContext = new WeakMap<object, Slots>();

/** Every request made with this execution context takes one of `size` slots while it is sent. */
export function limitInFlight(ctx: object, size: number): Slots {
	const slots = new Slots(Math.max(1, Math.floor(size)));
	slotsByContext.set(ctx, slots);
	return slots;
}

/** The context's slots; none for contexts that never set them (editor lookups, the trigger): one request at a time there anyway. */
export function slotsOf(ctx: object): Slots | undefined {
	return slotsByContext.get(ctx);
}

/** How many requests this context may have in flight (1 when it set no limit). */
export function parallelOf(ctx: object): number {
	return slotsOf(ctx)?.size ?? 1;
}

/**
 * Calls `task(0 .. count-1)` with at most `parallel` running at once, starting them in index order.
 * Once a task throws, or returns false, no further task starts; the running ones settle; then the
 * error of the lowest index is thrown. Nothing is left running when this returns.
 */
export async function forEachInParallel(count: number, parallel: number, task: (index: number) => Promise<boolean | void>): Promise<void> {
	let next = 0;
	let stopped = false;
	let failure: { index: number; error: unknown } | undefined;
	const worker = async () => {
		while (!stopped && next < count) {
			const index = next++;
			try {
				if ((await task(index)) === false) stopped = true;
			} catch (error) {
				stopped = true;
				if (!failure || index < failure.index) failure = { index, error };
			}
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(parallel, count)) }, worker));
	if (failure) throw failure.error;
}
