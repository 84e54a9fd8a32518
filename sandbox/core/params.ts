/** Query-string and body-field readers that raise the API's validation errors. */
import { ApiError, invalidParam, missingParam } from './errors';
import { toInt64 } from './json';

export function has(q: URLSearchParams, name: string): boolean {
	const v = q.get(name);
	return v !== null && v.trim() !== '';
}

/** Integer query parameter; bounds give `outOfRange` (INVALID_PARAMETER by default). */
export function intParam(
	q: URLSearchParams,
	name: string,
	opts: { def: number; min?: number; max?: number; outOfRange?: (raw: string) => ApiError },
): number {
	if (!has(q, name)) return opts.def;
	const raw = q.get(name)!.trim();
	if (!/^[+-]?\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw invalidParam(`'${name}' must be an integer, got '${raw}'`);
	const n = Number(raw);
	if ((opts.min !== undefined && n < opts.min) || (opts.max !== undefined && n > opts.max)) {
		if (opts.outOfRange) throw opts.outOfRange(raw);
		const range = opts.max !== undefined ? `between ${opts.min} and ${opts.max}` : `at least ${opts.min}`;
		throw invalidParam(`'${name}' must be ${range}, got '${raw}'`);
	}
	return n;
}

export function int64Param(q: URLSearchParams, name: string, required: boolean): bigint | undefined {
	if (!has(q, name)) {
		if (required) throw missingParam(name);
		return undefined;
	}
	const raw = q.get(name)!;
	const v = toInt64(raw);
	if (v === null || v === undefined) throw invalidParam(`'${name}' must be an int64 integer, got '${raw}'`);
	return v;
}

export function boolParam(q: URLSearchParams, name: string): boolean | undefined {
	if (!has(q, name)) return undefined;
	const raw = q.get(name)!.trim().toLowerCase();
	if (raw === 'true') return true;
	if (raw === 'false') return false;
	throw invalidParam(`'${name}' must be true or false, got '${q.get(name)}'`);
}

/** Comma-separated and/or repeated parameter, trimmed, empty items dropped. */
export function listParam(q: URLSearchParams, name: string): string[] | undefined {
	const all = q.getAll(name).flatMap((v) => v.split(','));
	const items = all.map((s) => s.trim()).filter(Boolean);
	return items.length ? items : undefined;
}

/** Path id: int64, minimum 1. */
export function pathId(raw: string, name: string): bigint {
	const v = toInt64(raw);
	if (v === null || v === undefined) throw invalidParam(`'${name}' must be an int64 integer, got '${raw}'`);
	if (v < 1n) throw invalidParam(`'${name}' must be at least 1, got '${raw}'`);
	return v;
}

// ---- body fields ----

export type Obj = Record<string, unknown>;

export function asObject(body: unknown, what = 'request body'): Obj {
	if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalidParam(`${what} must be a JSON object`);
	return body as Obj;
}

export function optString(o: Obj, name: string, maxLen?: number): string | undefined {
	const v = o[name];
	if (v === undefined || v === null) return undefined;
	if (typeof v !== 'string') throw invalidParam(`'${name}' must be a string`);
	return maxLen !== undefined ? v.slice(0, maxLen) : v;
}

export function optBool(o: Obj, name: string): boolean | undefined {
	const v = o[name];
	if (v === undefined || v === null) return undefined;
	if (typeof v === 'boolean') return v;
	if (v === 'true' || v === 'false') return v === 'true';
	throw invalidParam(`'${name}' must be a boolean`);
}

export function optInt64(o: Obj, name: string): bigint | undefined {
	const v = toInt64(o[name]);
	if (v === null) throw invalidParam(`'${name}' must be an int64 integer`);
	return v;
}

export function optNumber(o: Obj, name: string): number | undefined {
	const v = o[name];
	if (v === undefined || v === null) return undefined;
	if (typeof v === 'number') return v;
	if (typeof v === 'bigint') return Number(v);
	if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) return Number(v);
	throw invalidParam(`'${name}' must be a number`);
}

export function optStringArray(o: Obj, name: string, maxLen?: number): string[] | undefined {
	const v = o[name];
	if (v === undefined || v === null) return undefined;
	if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw invalidParam(`'${name}' must be an array of strings`);
	return (v as string[]).map((s) => (maxLen !== undefined ? s.slice(0, maxLen) : s));
}

export function optIntArray(o: Obj, name: string): number[] | undefined {
	const v = o[name];
	if (v === undefined || v === null) return undefined;
	if (!Array.isArray(v)) throw invalidParam(`'${name}' must be an array of integers`);
	return v.map((x) => {
		const n = toInt64(x);
		if (n === null || n === undefined) throw invalidParam(`'${name}' must be an array of integers`);
		return Number(n);
	});
}

// ---- required body fields (the v2 Sales Agent, AI and Notification endpoints) ----

/** A required int64 body field, minimum 1. */
export function requiredId(o: Obj, name: string): bigint {
	if (o[name] === undefined || o[name] === null) throw missingParam(name);
	const v = toInt64(o[name]);
	if (v === null || v === undefined) throw invalidParam(`'${name}' must be an int64 integer`);
	if (v < 1n) throw invalidParam(`'${name}' must be at least 1, got ${v}`);
	return v;
}

/** A required, non-empty array of int64 IDs (each >= 1), at most `max` entries; duplicates removed. */
export function requiredIdArray(o: Obj, name: string, max?: number): bigint[] {
	const v = o[name];
	if (v === undefined || v === null) throw missingParam(name);
	if (!Array.isArray(v)) throw invalidParam(`'${name}' must be an array of int64 integers`);
	if (v.length === 0) throw invalidParam(`'${name}' must not be empty`);
	if (max !== undefined && v.length > max) throw invalidParam(`'${name}' takes at most ${max} entries, got ${v.length}`);
	const out: bigint[] = [];
	for (const x of v) {
		const id = toInt64(x);
		if (id === null || id === undefined || id < 1n) throw invalidParam(`'${name}' must contain int64 IDs of at least 1, got ${String(x)}`);
		if (!out.includes(id)) out.push(id);
	}
	return out;
}

/** A required string that must not be blank. */
export function requiredText(o: Obj, name: string): string {
	const v = o[name];
	if (v === undefined || v === null) throw missingParam(name);
	if (typeof v !== 'string') throw invalidParam(`'${name}' must be a string`);
	if (v.trim() === '') throw invalidParam(`'${name}' must not be blank`);
	return v;
}
