/**
 * Runs work one after the other when it shares a key (an email, a phone), within one scope (the node's execution
 * context, shared by all its items): items that run concurrently and concern the same person then see each other's
 * writes. Work without a common key runs freely. All keys are taken at once, in the order callers arrive, so two
 * callers never wait for each other.
 */
const tails = new WeakMap<object, Map<string, Promise<void>>>();

export async function serialised<T>(scope: object, keys: string[], work: () => Promise<T>): Promise<T> {
	let held = tails.get(scope);
	if (!held) tails.set(scope, (held = new Map()));
	const before = [...new Set(keys)].map((key) => held.get(key)).filter((p): p is Promise<void> => p !== undefined);
	let release = (): void => undefined;
	const mine = new Promise<void>((resolve) => (release = resolve));
	for (const key of keys) held.set(key, mine);
	try {
		await Promise.all(before);
		return await work();
	} finally {
		release();
		for (const key of keys) if (held.get(key) === mine) held.delete(key);
	}
}
