import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { type LoftyRequest, loftyRequest } from '../transport/request';
import { InvalidValue, invalid } from './invalid';

/** Most requests one execution may have in flight (Request Options > Parallel Requests), and the default. */
export const MAX_PARALLEL_REQUESTS = 32;
export const DEFAULT_PARALLEL_REQUESTS = 8;

interface RequestSettings {
	timeout?: number;
	readRetries?: number;
	parallelRequests?: number;
}

function wholeNumber(ctx: IExecuteFunctions, itemIndex: number, raw: unknown, field: string, min: number, max: number): number | undefined {
	if (raw === undefined || raw === '') return undefined;
	const value = Number(raw);
	if (!(Number.isInteger(value) && value >= min && value <= max)) {
		throw invalid(ctx, itemIndex, new InvalidValue(field, `must be a whole number from ${min} to ${max}, got ${String(raw)}`));
	}
	return value;
}

/** The node's Request Options for one item: timeout, read retries and parallel requests, checked. */
export function requestSettings(ctx: IExecuteFunctions, itemIndex: number): RequestSettings {
	const raw = ctx.getNodeParameter('requestOptions', itemIndex, {}) as IDataObject;
	const settings: RequestSettings = {};
	if (raw.timeout !== undefined && raw.timeout !== '') {
		const timeout = Number(raw.timeout);
		if (!(Number.isFinite(timeout) && timeout >= 1)) {
			throw invalid(ctx, itemIndex, new InvalidValue('Timeout', `must be a number of milliseconds of at least 1, got ${String(raw.timeout)}`));
		}
		settings.timeout = timeout;
	}
	settings.readRetries = wholeNumber(ctx, itemIndex, raw.readRetries, 'Read Retries', 0, 10);
	settings.parallelRequests = wholeNumber(ctx, itemIndex, raw.parallelRequests, 'Parallel Requests', 1, MAX_PARALLEL_REQUESTS);
	return settings;
}

/**
 * A read an operation makes for its item (a lookup before or after its own request): sent with the item's Timeout
 * and Read Retries, unless the request sets its own.
 */
export async function itemRead(ctx: IExecuteFunctions, itemIndex: number, request: LoftyRequest): Promise<unknown> {
	const { timeout, readRetries } = requestSettings(ctx, itemIndex);
	const settings: Pick<LoftyRequest, 'timeout' | 'readRetries'> = {};
	if (timeout !== undefined) settings.timeout = timeout;
	if (readRetries !== undefined) settings.readRetries = readRetries;
	return await loftyRequest(ctx, { ...settings, ...request }, itemIndex);
}
