import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { LoftyContext } from '../transport/request';
import { accountOf } from '../transport/request';
import { answeredOutcome } from '../transport/writeOutcome';
import type { BuiltRequest, OtherReading } from './types';

/**
 * Where one request cannot satisfy both readings of the contract (docs/api-readings.md), the node sends the
 * first reading's request and switches once Lofty's refusal shows it follows the other. What it learned holds
 * for the rest of the execution (all items and pages; the context object is the execution's), or, for a reading
 * with `remember: 'account'`, for the Lofty account in this process (one object per account stands for it), so
 * the refusal is met at most once per execution (or account) and reading. With items in flight (Parallel
 * Requests), one request finds out while the others of that reading wait for it, and an answer to the first
 * reading settles it too. A `bothWays` reading switches back when the other reading's request is refused so.
 *
 * A request goes out a second time only here, and only after a 4xx that the reading recognises as about its own
 * fields: Lofty read the request and refused it, so nothing was applied. A reading is learned (or unlearned) only
 * when Lofty answered its request 2xx.
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

function unlearn(ctx: object, reading: OtherReading): void {
	learned.get(ctx)?.delete(reading.name);
}

/** One object per Lofty account: the scope of what `remember: 'account'` readings learn. */
const accounts = new Map<string, object>();

async function scopeOf(ctx: { getNode(): INode }, reading: OtherReading): Promise<object> {
	if (reading.remember !== 'account') return ctx;
	const account = await accountOf(ctx as LoftyContext);
	let scope = accounts.get(account);
	if (!scope) accounts.set(account, (scope = {}));
	return scope;
}

/** Forgets what the readings learned per account (tests: a fresh process). */
export function forgetAccountReadings(): void {
	accounts.clear();
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
	return await inScope(ctx, await scopeOf(ctx, reading), reading, request, values, send);
}

async function inScope<T>(
	ctx: { getNode(): INode },
	scope: object,
	reading: OtherReading,
	request: BuiltRequest,
	values: IDataObject,
	send: (request: BuiltRequest) => Promise<T>,
): Promise<T> {
	const first = reading.base ? reading.base(request) : request;
	if (follows(scope, reading)) return await sendOther(ctx, scope, reading, first, values, send);
	// Lofty already took the first reading in this scope: no waiting, though a refusal still switches.
	if (confirmed.get(scope)?.has(reading.name)) return await findOut(ctx, scope, reading, first, values, send);
	let pending = finding.get(scope);
	if (!pending) finding.set(scope, (pending = new Map()));
	const other = pending.get(reading.name);
	if (other) {
		await other;
		return await inScope(ctx, scope, reading, request, values, send);
	}
	let settle!: () => void;
	pending.set(reading.name, new Promise<void>((resolve) => (settle = resolve)));
	try {
		return await findOut(ctx, scope, reading, first, values, send);
	} finally {
		pending.delete(reading.name);
		settle();
	}
}

/** The other reading's request; for a `bothWays` reading, its recognised refusal switches back to the first. */
async function sendOther<T>(ctx: { getNode(): INode }, scope: object, reading: OtherReading, first: BuiltRequest, values: IDataObject, send: (request: BuiltRequest) => Promise<T>): Promise<T> {
	const other = reading.rewrite(first, values);
	if (!reading.bothWays || other === first) return await send(other);
	try {
		return await send(other);
	} catch (error) {
		if (!recognised(reading, error, other)) passOn(ctx, error);
		return await resend(ctx, reading, error, first, send, () => unlearn(scope, reading));
	}
}

async function findOut<T>(ctx: { getNode(): INode }, scope: object, reading: OtherReading, first: BuiltRequest, values: IDataObject, send: (request: BuiltRequest) => Promise<T>): Promise<T> {
	try {
		const answer = await send(first);
		mark(confirmed, scope, reading.name);
		return answer;
	} catch (error) {
		if (!recognised(reading, error, first)) passOn(ctx, error);
		const other = reading.rewrite(first, values);
		// Nothing the other reading changes in this request: the refusal was about something else.
		if (other === first) passOn(ctx, error);
		return await resend(ctx, reading, error, other, send, () => learn(scope, reading));
	}
}

/**
 * Whether a failed request may go out again in the other reading: Lofty refused it before applying anything (a 4xx,
 * or a 2xx with a business error code: transport/writeOutcome.ts) and the reading recognises the refusal as about its
 * own fields. A 5xx, a 2xx with Lofty's internal-error code or no answer never is: the request may have been applied.
 */
function recognised(reading: OtherReading, error: unknown, request: BuiltRequest): boolean {
	const failure = failureOf(error);
	return failure !== undefined && answeredOutcome(failure) === 'refused' && reading.detect(failure, request);
}

/**
 * The request in the other reading, after `refused`. What the scope follows changes (`settle`) only once Lofty
 * answered it 2xx. Refused again about the reading's fields too: the item fails with the first refusal (Lofty's words
 * about what was sent first), the second named in its description. Any other failure (a refusal of something else,
 * no answer, a 5xx) is the item's error as it is.
 */
async function resend<T>(ctx: { getNode(): INode }, reading: OtherReading, refused: unknown, request: BuiltRequest, send: (request: BuiltRequest) => Promise<T>, settle: () => void): Promise<T> {
	let answer: T;
	try {
		answer = await send(request);
	} catch (error) {
		if (!recognised(reading, error, request)) passOn(ctx, error);
		const again = failureOf(error)!;
		const first = refused as NodeApiError;
		first.description = `${first.description ? `${first.description} ` : ''}Sent once more in Lofty's other reading of the contract (docs/api-readings.md), it was refused too (HTTP ${again.httpCode}: ${again.message}); nothing was applied.`;
		passOn(ctx, first);
	}
	settle();
	return answer;
}
