import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { parallelOf } from '../transport/inFlight';
import { valueAt } from '../transport/pagination';
import { paginateInParallel } from '../transport/parallelPages';
import type { QueryValue } from '../transport/request';
import { encodeComponent, loftyRequest } from '../transport/request';
import { needsUserZone } from './agentZone';
import { agentReading } from './assigneeZone';
import { CUSTOM_FIELDS_BY_NAME, applyMappedFields, withFieldsByName } from './customFields';
import { timeFactsOf } from './dates';
import { DEFAULT_PARALLEL_REQUESTS, MAX_PARALLEL_REQUESTS, requestSettings } from './itemRead';
import { downloadFile } from './download';
import { outputFieldsFor, pickFields, sentFacts, tagsByName } from './output';
import { runsAsTool } from './toolMessages';
import { InvalidValue, invalid, readValues } from './params';
import { sendByReading } from './readings';
import { matchStages } from './stages';
import { matchTagSpellings } from './tags';
import { type PlaceInLine, inTurn, isRead, placeInLine } from './turns';
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
		if (p.in === 'path') path = path.replace(`{${key}}`, encodeComponent(String(value)));
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

export { DEFAULT_PARALLEL_REQUESTS, MAX_PARALLEL_REQUESTS, requestSettings };

/**
 * How many requests the execution keeps in flight: the first item's Parallel Requests (one value for
 * the whole run). An invalid value is reported by that item's own check; the run meanwhile uses 1.
 */
export function parallelRequests(ctx: IExecuteFunctions): number {
	try {
		return requestSettings(ctx, 0).parallelRequests ?? DEFAULT_PARALLEL_REQUESTS;
	} catch {
		return 1;
	}
}

/**
 * Runs one operation for one item: read and check the fields, call Lofty, shape the result. An item that writes
 * takes its turn (turns.ts) before its first await, so its whole work runs after the earlier items on the same
 * record or person and before the later ones.
 */
export async function executeOperation(
	ctx: IExecuteFunctions,
	op: OperationDef,
	itemIndex: number,
	resourceHints: Record<string, string> = {},
): Promise<IDataObject[]> {
	// The keys of the item's turn do not depend on the zone its agent times are read in: the turn is taken before
	// any await, and an item whose agent times are read in the Lofty user's zone asks for it in its turn (once per
	// execution).
	const keyed = readValues(ctx, op, itemIndex);
	const zoned = needsUserZone(ctx, op, itemIndex);
	// The tag names of the items are spelled in item order (turns.ts), whichever record each waits for.
	const spelling = op.params.some((p) => p.type === 'tagList' && Array.isArray(keyed[p.name])) ? placeInLine(ctx, 'tag spellings') : undefined;
	try {
		return await inTurn(ctx, op, keyed, async () => {
			const values = zoned ? readValues(ctx, op, itemIndex, await agentReading(ctx, op, itemIndex)) : keyed;
			return await runItem(ctx, op, itemIndex, values, resourceHints, spelling);
		}, { itemIndex, lines: spelling ? [spelling] : [] });
	} finally {
		spelling?.release();
	}
}

async function runItem(
	ctx: IExecuteFunctions,
	op: OperationDef,
	itemIndex: number,
	values: IDataObject,
	resourceHints: Record<string, string>,
	spelling: PlaceInLine | undefined,
): Promise<IDataObject[]> {
	const context = { ctx, itemIndex, values };
	const asTool = runsAsTool(ctx.getNode());
	let keep: string[] | undefined;
	let tagsNote: string | undefined;
	let stagesNote: string | undefined;
	try {
		keep = outputFieldsFor(ctx, op, itemIndex);
		await applyMappedFields(op, context);
		op.validate?.(context);
		op.toWire?.(context);
		if (spelling) tagsNote = await spelling.run(async () => await matchTagSpellings(op, context));
		else tagsNote = await matchTagSpellings(op, context);
		stagesNote = await matchStages(op, context);
	} catch (error) {
		// Re-wrapping a NodeApiError (the custom-field listing failed) hands back the same error.
		if (error instanceof NodeApiError) throw new NodeApiError(ctx.getNode(), error as unknown as JsonObject);
		throw error instanceof InvalidValue ? invalid(ctx, itemIndex, error) : new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
	}
	await op.prepare?.(context);
	// The zone an agent's times were read in, and those already past, are in every output (model/dates.ts).
	const facts = timeFactsOf(values);
	const finish = async (records: IDataObject[]) => {
		const shaped = await withFieldsByName(op, context, records);
		const fields = keep && (values[CUSTOM_FIELDS_BY_NAME.name] === true ? [...keep, 'customFields'] : keep);
		// As a tool, Simplified and Selected Fields give tags by name (Raw keeps Lofty's records).
		const picked = fields ? shaped.map((r) => pickFields(r, fields, op.unsetNumbers)).map((r) => (asTool ? tagsByName(r) : r)) : shaped;
		const extra: IDataObject = { ...(tagsNote ? { tagsNote } : {}), ...(stagesNote ? { stagesNote } : {}), ...facts };
		return picked.map((r) => ({ ...r, ...sentFacts(op, values, r), ...extra }));
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
	const { timeout, readRetries } = requestSettings(ctx, itemIndex);
	// Lists are reads even when they search by POST: safe to retry.
	const transport = { timeout, readRetries, idempotent: isRead(op) };
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
	if (op.file) return await downloadFile(context, op.file, call, { timeout, readRetries });
	if (op.pagination) {
		const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) as boolean;
		const limit = Number(ctx.getNodeParameter('limit', itemIndex, 50));
		if (!returnAll && !(Number.isInteger(limit) && limit >= 1)) {
			throw invalid(ctx, itemIndex, new InvalidValue('Limit', `must be a whole number of at least 1, got ${limit}`));
		}
		const want = returnAll ? Infinity : limit;
		const log = (message: string) => ctx.logger?.debug(message);
		const records = await paginateInParallel(op.pagination, call, want, parallelOf(ctx), log);
		return await finish(op.output ? shape(records) : records);
	}
	const response = routed === null ? undefined : await call();
	if (op.output) return await finish(shape(response));
	if (op.accept === 'xml' && typeof response === 'string') return [{ xml: response }];
	return await finish(toRecords(response, op.unwrap));
}
