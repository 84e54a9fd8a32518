/** Small tools for tests that decide when concurrent work goes on. */

/** Lets the event loop run `n` rounds (promise callbacks and setImmediate work). */
export const tick = async (n = 5): Promise<void> => {
	for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** A promise that settles when the test says so: `open()` fulfils it, `fail(error)` rejects it. */
export function gate(): { promise: Promise<void>; open: () => void; fail: (error: Error) => void } {
	let open!: () => void;
	let fail!: (error: Error) => void;
	const promise = new Promise<void>((resolve, reject) => ((open = resolve), (fail = reject)));
	return { promise, open, fail };
}

/** Waits, round by round of the event loop, until `seen()` holds (what a test waits for, not a time). */
export async function until(seen: () => boolean): Promise<void> {
	while (!seen()) await tick(1);
}
