/**
 * The sandbox's whole state as comparable text, for the differential test (test/resilience/differential.test.ts):
 * two runs that did the same work end with the same text. Records a run created get IDs in the order their
 * requests arrived, which parallel items may change without changing what was done, so IDs that are new (not in
 * the seed and not given by the items) read `#new`, and lists of records are compared as sets.
 */
import { isDeepStrictEqual } from 'node:util';

import type { Sandbox } from '../../sandbox';

type Canon = null | boolean | number | string | Canon[] | { [key: string]: Canon };

const ID_TEXT = /^-?\d{4,}$/;

/** Every ID-like value (bigint, or digits as text or number) anywhere in `value`. */
export function idsIn(value: unknown, into = new Set<string>(), seen = new Set<unknown>()): Set<string> {
	if (typeof value === 'bigint') into.add(value.toString());
	else if (typeof value === 'number' && Number.isInteger(value) && Math.abs(value) >= 1000) into.add(String(value));
	else if (typeof value === 'string') {
		if (ID_TEXT.test(value)) into.add(value);
		// Composite IDs (calendar entries `123-task`), and IDs inside texts such as error messages.
		for (const m of value.matchAll(/\d{6,}/g)) into.add(m[0]);
	} else if (value !== null && typeof value === 'object') {
		if (seen.has(value)) return into;
		seen.add(value);
		// Counters (`nextLeadId`) hold the IDs the next records will get: those are new, not known.
		const fields = Object.entries(value as object).filter(([key]) => !/^next[A-Z]/.test(key));
		const entries = value instanceof Map ? [...value.entries()].flat() : value instanceof Set ? [...value] : fields.map(([, v]) => v as unknown);
		for (const v of entries) idsIn(v, into, seen);
	}
	return into;
}

/**
 * `value` as plain JSON-like data: maps and sets as sorted lists, bigints as text, IDs not in `known` as `#new`.
 * `unordered`: lists of values (tags, emails) sorted too, for runs whose order of writes may differ.
 */
export function canonical(value: unknown, known: Set<string>, seen = new Set<unknown>(), unordered = false): Canon {
	const text = (s: string): string => s.replace(/\d{6,}/g, (id) => (known.has(id) ? id : '#new'));
	if (value === undefined || value === null || typeof value === 'function') return null;
	if (typeof value === 'bigint') return text(value.toString());
	if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) >= 100000 ? text(String(value)) : value;
	if (typeof value === 'string') return text(value);
	if (typeof value === 'boolean') return value;
	if (value instanceof Date) return value.toISOString();
	if (seen.has(value)) return '#cycle';
	seen.add(value);
	try {
		const asSet = (list: unknown[]): Canon[] => sortByText(list.map((v) => canonical(v, known, seen, unordered)));
		if (value instanceof Map) return asSet([...value.entries()].map(([k, v]) => ({ key: k, value: v })));
		if (value instanceof Set) return asSet([...value]);
		if (Array.isArray(value)) {
			// Lists of records (objects): a set; lists of values (tags, emails): in order.
			const items = value.map((v) => canonical(v, known, seen, unordered));
			return unordered || value.some((v) => v !== null && typeof v === 'object') ? sortByText(items) : items;
		}
		const out: { [key: string]: Canon } = {};
		for (const key of Object.keys(value as object).sort()) out[text(key)] = canonical((value as Record<string, unknown>)[key], known, seen, unordered);
		return out;
	} finally {
		seen.delete(value);
	}
}

function sortByText(list: Canon[]): Canon[] {
	return list
		.map((value) => ({ value, text: JSON.stringify(value) }))
		.sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0))
		.map((entry) => entry.value);
}

/** The store with its resource modules' state (the sandbox's `store.ext` extensions), as one object. */
export function storeState(sandbox: Sandbox): Record<string, unknown> {
	const store = sandbox.store as unknown as Record<string, unknown>;
	const state: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(store)) if (typeof value !== 'function') state[key] = value;
	return state;
}

/** The top-level parts of the state (store fields, and each resource module's state), by name. */
function parts(sandbox: Sandbox): Map<string, unknown> {
	const out = new Map<string, unknown>();
	for (const [key, value] of Object.entries(storeState(sandbox))) {
		if (key === 'extensions' && value instanceof Map) for (const [name, ext] of value) out.set(`ext ${String(name)}`, ext);
		else out.set(key, value);
	}
	return out;
}


/** The first place the states of two sandboxes differ (after making differing parts canonical), shortened for a failure message. */
export function stateDifference(one: Sandbox, eight: Sandbox, known: Set<string>, unordered = false): string | undefined {
	const a = parts(one);
	const b = parts(eight);
	for (const name of new Set([...a.keys(), ...b.keys()])) {
		// Parts equal as stored (fast) need nothing more; only differing parts are made canonical.
		if (isDeepStrictEqual(a.get(name), b.get(name))) continue;
		const x = JSON.stringify(canonical(a.get(name), known, undefined, unordered));
		const y = JSON.stringify(canonical(b.get(name), known, undefined, unordered));
		if (x === y) continue;
		let at = 0;
		while (at < x.length && x[at] === y[at]) at++;
		const from = Math.max(0, at - 200);
		return `${name} differs at ${at}:\n  P1: …${x.slice(from, at + 200)}\n  P8: …${y.slice(from, at + 200)}`;
	}
	return undefined;
}
