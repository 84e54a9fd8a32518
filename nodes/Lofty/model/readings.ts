import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { BuiltRequest, OtherReading } from './types';

/**
 * Where one request cannot satisfy both readings of the contract (docs/api-readings.md), the node sends the
 * first reading's request and switches once Lofty's refusal shows it follows the other. What it learned holds
 * for the rest of the execution (all items and pages; the context object is the execution's), so the refusal
 * is met at most once per execution and reading. With items in flight (Parallel Requests), one request finds
 * out while the others of that reading wait for it, and an answer to the first reading settles it too.
 */
const learned = new WeakMap<object, Set<string>>();
const confirmed = new WeakMap<object, Set<string>>();
const finding = new WeakMap<object, Map<string, Promise<void>>>();

function mark(map: WeakMap<object, Set<string>>, ctx: object, name: string): void {
	let names = map.get(ctx);
	if (!names) map.set(ctx, (names = new Set()));
	names.add(name);
}

function follows(ctx: object, reading: OtherReading): boolean {
	return learned.get(ctx)?.has(reading.name) ?? false;
}

function learn(ctx: object, reading: OtherReading): void {
	mark(learned, ctx, reading.name);
}

/** Status, code and Lofty's own message of a failed answer (the transport's NodeApiError). */
function failureOf(error: unknown): { httpCode: number; code?: string | number; message: string } | undefined {
	if (!(error instanceof NodeApiError)) return undefined;
	const response = (error.errorResponse ?? {}) as JsonObject;
	const code = response.code;
	return {
		httpCode: Number(error.httpCode ?? response.httpCode),
		code: typeof code === 'string' || typeof code === 'number' ? code : undefined,
		message: typeof response.message === 'string' ? response.message : error.message,
	};
}

/** Hands a caught error on unchanged (re-wrapping a node error returns the same error). */
function passOn(ctx: { getNode(): INode }, error: unknown): never {
	if (error instanceof NodeApiError) throw new NodeApiError(ctx.getNode(), error as unknown as JsonObject);
	throw new NodeOperationError(ctx.getNode(), error as Error);
}

/** Sends `request` under the reading Lofty follows, learning it from the first refusal `reading` recognises. */
export async function sendByReading<T>(
	ctx: { getNode(): INode },
	reading: OtherReading | undefined,
	request: BuiltRequest,
	values: IDataObject,
	send: (request: BuiltRequest) => Promise<T>,
): Promise<T> {
	if (!reading) return await send(request);
	const first = reading.base ? reading.base(request) : request;
	if (follows(ctx, reading)) return await send(reading.rewrite(first, values));
	// Lofty already took the first reading in this execution: no waiting, though a refusal still switches.
	if (confirmed.get(ctx)?.has(reading.name)) return await findOut(ctx, reading, first, values, send);
	let pending = finding.get(ctx);
	if (!pending) finding.set(ctx, (pending = new Map()));
	const other = pending.get(reading.name);
	if (other) {
		await other;
		return await sendByReading(ctx, reading, request, values, send);
	}
	let settle!: () => void;
	pending.set(reading.name, new Promise<void>((resolve) => (settle = resolve)));
	try {
		return await findOut(ctx, reading, first, values, send);
	} finally {
		pending.delete(reading.name);
		settle();
	}
}

async function findOut<T>(ctx: { getNode(): INode }, reading: OtherReading, first: BuiltRequest, values: IDataObject, send: (request: BuiltRequest) => Promise<T>): Promise<T> {
	try {
		const answer = await send(first);
		mark(confirmed, ctx, reading.name);
		return answer;
	} catch (error) {
		const failure = failureOf(error);
		if (!failure || !reading.detect(failure, first)) passOn(ctx, error);
		const other = reading.rewrite(first, values);
		// Nothing the other reading changes in this request: the refusal was about something else.
		if (other === first) passOn(ctx, error);
		learn(ctx, reading);
		return await send(other);
	}
}
