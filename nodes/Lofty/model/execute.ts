import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { paginate, valueAt } from '../transport/pagination';
import type { QueryValue } from '../transport/request';
import { loftyRequest } from '../transport/request';
import { CUSTOM_FIELDS_BY_NAME, applyMappedFields, withFieldsByName } from './customFields';
import { outputFieldsFor, pickFields } from './output';
import { InvalidValue, invalid, readValues } from './params';
import { sendByReading } from './readings';
import type { BuiltRequest, OperationDef, ParamDef } from './types';

function setPath(target: IDataObject, key: string, value: unknown): void {
	const parts = key.split('.');
	let node = target;
	for (const part of parts.slice(0, -1)) {
		if (node[part] === undefined || typeof node[part] !== 'object') node[part] = {};
		node = node[part] as IDataObject;
	}
	node[parts[parts.length - 1]] = value as IDataObject;
}

/** IDs travel in JSON bodies as bigints, which the transport writes as exact integer literals. */
function bodyValue(p: ParamDef, value: unknown): unknown {
	if ((p.type === 'id' && value !== '') || (p.type === 'locator' && p.locator?.idKind !== 'text')) return BigInt(value as string);
	if (p.type === 'idList') return (value as string[]).map((v) => BigInt(v));
	if (p.type === 'fixedCollection') {
		return (value as IDataObject[]).map((row) => {
			const out: IDataObject = { ...row };
			for (const field of p.fields ?? []) {
				const key = field.key ?? field.name;
				if (out[key] !== undefined) out[key] = bodyValue(field, out[key]) as IDataObject;
			}
			return out;
		});
	}
	return value;
}

function queryValue(p: ParamDef, value: unknown): QueryValue {
	if (Array.isArray(value)) return p.queryArray === 'repeat' ? (value as string[]) : value.join(',');
	if (p.type === 'json') return JSON.stringify(value);
	return value as QueryValue;
}

/** Places each converted value in the path, the query or the body, as its definition says. */
export function buildRequest(op: OperationDef, values: IDataObject): BuiltRequest {
	let path = op.path;
	const qs: Record<string, QueryValue> = {};
	let body: IDataObject | IDataObject[] | undefined;
	for (const p of op.params) {
		const value = values[p.name];
		if (value === undefined) continue;
		const key = p.key ?? p.name;
		if (p.in === 'local') continue;
		if (p.in === 'path') path = path.replace(`{${key}}`, encodeURIComponent(String(value)));
		else if (p.in === 'query') qs[key] = queryValue(p, value);
		else if (op.bodyFromList === p.name) body = bodyValue(p, value) as IDataObject[];
		else if (key === '$merge') body = { ...(body as IDataObject), ...(value as IDataObject) };
		else setPath((body ??= {}) as IDataObject, key, bodyValue(p, value));
	}
	if (body === undefined && (op.method === 'POST' || op.method === 'PUT') && (op.params.some((p) => p.in === 'body') || op.fixedBody)) {
		body = op.bodyFromList ? [] : {};
	}
	if (op.fixedBody && body && !Array.isArray(body)) body = { ...body, ...op.fixedBody };
	return { method: op.method, path, qs, body };
}

/** Turns an answer into output records: unwrapped (when the key is there), arrays split, bare values wrapped. */
export function toRecords(response: unknown, unwrap?: string): IDataObject[] {
	let value = response;
	if (unwrap) {
		const inner = valueAt(response, unwrap);
		if (inner !== undefined && inner !== null) value = inner;
	}
	if (Array.isArray(value)) {
		return value.map((v) => (v !== null && typeof v === 'object' ? (v as IDataObject) : { value: v as string }));
	}
	if (value !== null && typeof value === 'object') return [value as IDataObject];
	if (value === undefined || value === '') return [{ success: true }];
	return [{ result: value as string }];
}

const asList = (shaped: IDataObject | IDataObject[]): IDataObject[] => (Array.isArray(shaped) ? shaped : [shaped]);

/** The node's Request Options for one item: timeout and read retries, checked. */
export function requestSettings(ctx: IExecuteFunctions, itemIndex: number): { timeout?: number; readRetries?: number } {
	const raw = ctx.getNodeParameter('requestOptions', itemIndex, {}) as IDataObject;
	const settings: { timeout?: number; readRetries?: number } = {};
	if (raw.timeout !== undefined && raw.timeout !== '') {
		const timeout = Number(raw.timeout);
		if (!(Number.isFinite(timeout) && timeout >= 1)) {
			throw invalid(ctx, itemIndex, new InvalidValue('Timeout', `must be a number of milliseconds of at least 1, got ${String(raw.timeout)}`));
		}
		settings.timeout = timeout;
	}
	if (raw.readRetries !== undefined && raw.readRetries !== '') {
		const retries = Number(raw.readRetries);
		if (!(Number.isInteger(retries) && retries >= 0 && retries <= 10)) {
			throw invalid(ctx, itemIndex, new InvalidValue('Read Retries', `must be a whole number from 0 to 10, got ${String(raw.readRetries)}`));
		}
		settings.readRetries = retries;
	}
	return settings;
}

/** Runs one operation for one item: read and check the fields, call Lofty, shape the result. */
export async function executeOperation(
	ctx: IExecuteFunctions,
	op: OperationDef,
	itemIndex: number,
	resourceHints: Record<string, string> = {},
): Promise<IDataObject[]> {
	const values = readValues(ctx, op, itemIndex);
	const context = { ctx, itemIndex, values };
	let keep: string[] | undefined;
	try {
		keep = outputFieldsFor(ctx, op, itemIndex);
		await applyMappedFields(op, context);
		op.validate?.(context);
		op.toWire?.(context);
	} catch (error) {
		// Re-wrapping a NodeApiError (the custom-field listing failed) hands back the same error.
		if (error instanceof NodeApiError) throw new NodeApiError(ctx.getNode(), error as unknown as JsonObject);
		throw error instanceof InvalidValue ? invalid(ctx, itemIndex, error) : new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
	}
	await op.prepare?.(context);
	const finish = async (records: IDataObject[]) => {
		const shaped = await withFieldsByName(op, context, records);
		if (!keep) return shaped;
		const fields = values[CUSTOM_FIELDS_BY_NAME.name] === true ? [...keep, 'customFields'] : keep;
		return shaped.map((r) => pickFields(r, fields));
	};
	if (op.run) {
		const result = await op.run(context);
		return await finish(Array.isArray(result) ? result : [result]);
	}
	const built = buildRequest(op, values);
	const { qs, body } = built;
	const routed = op.route ? op.route(context) : undefined;
	const path = routed ?? built.path;
	const hints = { ...resourceHints, ...op.errorHints };
	// Lists are reads even when they search by POST: safe to retry.
	const transport = { ...requestSettings(ctx, itemIndex), idempotent: op.method === 'GET' || op.pagination !== undefined };
	const call = async (paging: Record<string, QueryValue> = {}) => {
		const inBody = op.pagination?.in === 'body';
		const wire: BuiltRequest = {
			method: op.method,
			path,
			qs: inBody ? qs : { ...qs, ...paging },
			body: inBody ? ({ ...(body as IDataObject), ...paging } as IDataObject) : body,
		};
		const request = { ...wire, accept: op.accept, hints, ...transport };
		try {
			return await sendByReading(ctx, op.otherReading, wire, values, async (w) => await loftyRequest(ctx, { ...request, ...w }, itemIndex));
		} catch (error) {
			// The other reading cannot express the request (one member weight where several were asked for).
			if (error instanceof InvalidValue) throw invalid(ctx, itemIndex, error, 'refused');
			if (!(error instanceof NodeApiError)) throw new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
			if (op.explainFailure) {
				const failure = { httpCode: Number(error.httpCode), code: (error.errorResponse as IDataObject)?.code as string, message: error.message };
				const extra = await op.explainFailure(failure, { ctx, itemIndex, values }).catch(() => undefined);
				if (extra) error.description = [error.description, extra].filter(Boolean).join(' ');
			}
			// Re-wrapping a NodeApiError hands back the same error.
			throw new NodeApiError(ctx.getNode(), error as unknown as JsonObject);
		}
	};
	// An output that finds the answer cannot give what a field asks for names that field.
	const shape = (response: unknown): IDataObject[] => {
		try {
			return asList(op.output!(response, { ctx, itemIndex, values }));
		} catch (error) {
			if (error instanceof InvalidValue) throw invalid(ctx, itemIndex, error, 'answered');
			throw new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
		}
	};
	if (op.pagination) {
		const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) as boolean;
		const limit = Number(ctx.getNodeParameter('limit', itemIndex, 50));
		if (!returnAll && !(Number.isInteger(limit) && limit >= 1)) {
			throw invalid(ctx, itemIndex, new InvalidValue('Limit', `must be a whole number of at least 1, got ${limit}`));
		}
		const want = returnAll ? Infinity : limit;
		const records = await paginate(op.pagination, call, want);
		return await finish(op.output ? shape(records) : records);
	}
	const response = routed === null ? undefined : await call();
	if (op.output) return await finish(shape(response));
	if (op.accept === 'xml' && typeof response === 'string') return [{ xml: response }];
	return await finish(toRecords(response, op.unwrap));
}
