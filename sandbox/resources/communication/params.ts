/** Query readers of the communication, call and manual-log lists: limit, offset, int64 ids. */
import { ApiError, Codes, invalidParam } from '../../core/errors';
import { toInt64 } from '../../core/json';
import { has } from '../../core/params';

/** Integer query parameter with LIMIT_NOT_VALID below `min` and LIMIT_PARAM_OVERSIZE above `max`. */
export function limitParam(q: URLSearchParams, def: number, max: number): number {
	if (!has(q, 'limit')) return def;
	const raw = q.get('limit')!.trim();
	if (!/^[+-]?\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw invalidParam(`'limit' must be an integer, got '${raw}'`);
	return checkLimit(Number(raw), max);
}

export function checkLimit(limit: number, max: number): number {
	if (limit < 1) throw new ApiError(400, Codes.LIMIT_NOT_VALID, `limit must be between 1 and ${max}, got ${limit}`);
	if (limit > max) throw new ApiError(400, Codes.LIMIT_PARAM_OVERSIZE, `limit must not exceed ${max}, got ${limit}`);
	return limit;
}

export function offsetParam(q: URLSearchParams): number {
	if (!has(q, 'offset')) return 0;
	const raw = q.get('offset')!.trim();
	if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw invalidParam(`'offset' must be an integer of at least 0, got '${raw}'`);
	return Number(raw);
}

export function int64Query(q: URLSearchParams, name: string): bigint | undefined {
	if (!has(q, name)) return undefined;
	const v = toInt64(q.get(name)!);
	if (v === null || v === undefined) throw invalidParam(`'${name}' must be an int64 integer, got '${q.get(name)}'`);
	return v;
}
