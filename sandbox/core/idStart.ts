/**
 * Where the ID counters of a sandbox start. A sandbox started again with the same file (the try-out's `npm start`
 * after Ctrl-C) hands out no ID an earlier start handed out: clients such as the Polling Trigger remember the IDs they
 * have seen, as they may with Lofty's. The demo data keeps its IDs; the counters of new records (every field named
 * `nextId` or `next…Id` of the store and of the resources' states) start ID_STRIDE × (earlier starts) above the
 * seed's.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** How many IDs of one kind a start may hand out before the next start's range begins. */
export const ID_STRIDE = 10_000_000_000n;

const COUNTER = /^next(\w*Id)?$/;

/** Adds `by` to every ID counter field of `state` (bigint, or number for the text IDs made from one). */
export function shiftCounters(state: object, by: bigint): void {
	if (by === 0n) return;
	const fields = state as Record<string, unknown>;
	for (const [name, value] of Object.entries(fields)) {
		if (!COUNTER.test(name)) continue;
		if (typeof value === 'bigint') fields[name] = value + by;
		else if (typeof value === 'number') fields[name] = value + Number(by);
	}
}

/** Counts this start in `file` (a JSON `{starts}`) and returns where its counters start above the seed's. */
export function claimIdStart(file: string): bigint {
	let starts = 0;
	try {
		starts = Number((JSON.parse(fs.readFileSync(file, 'utf8')) as { starts?: unknown }).starts) || 0;
	} catch {
		starts = 0;
	}
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.writeFileSync(`${file}.tmp`, `${JSON.stringify({ starts: starts + 1 })}\n`);
	fs.renameSync(`${file}.tmp`, file);
	return BigInt(starts) * ID_STRIDE;
}
