/**
 * The other reading of an ambiguous contract (model/readings.ts) as a rule of its own, with a scripted `send`: which
 * refusals switch, what is sent again, what is learned for the execution or the account, and who waits for whom. The
 * node runs of real readings against the sandbox: test/node/leadTagRefusal.test.ts, leadTagShape.test.ts.
 */
import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { forgetAccountReadings, sendByReading } from '../../nodes/Lofty/model/readings';
import type { BuiltRequest, OtherReading } from '../../nodes/Lofty/model/types';
import { toNodeApiError } from '../../nodes/Lofty/transport/errors';

const node = { name: 'Lofty', type: 'n8n-nodes-lofty.lofty', typeVersion: 1, position: [0, 0], parameters: {} } as unknown as INode;
/** An execution's context: `apiKey` names the Lofty account (transport/target.ts). */
const context = (apiKey = 'key-1') => ({
	getNode: () => node,
	getNodeParameter: () => 'apiKey',
	getCredentials: async () => ({ apiKey }),
});
const FIRST: BuiltRequest = { method: 'POST', path: '/v1.0/leads', qs: {}, body: { shape: 'first' } };
const refusal = (message = 'shape is wrong', httpCode = 400, code?: string | number) => toNodeApiError(node, { httpCode, code, message }, 0);

/** A reading whose refusal says "shape", rewriting the body's shape to `other`; what `detect` saw is kept. */
function readingOf(extra: Partial<OtherReading> = {}) {
	const seen: Array<{ httpCode: number; code?: string | number; message: string }> = [];
	const reading: OtherReading = {
		name: 'shape',
		detect: (failure) => {
			seen.push(failure);
			return /shape/.test(failure.message);
		},
		rewrite: (request, values) => ({ ...request, body: { shape: 'other', ...values } }),
		...extra,
	};
	return { reading, seen };
}

/** A `send` answering from a script: each entry an answer, an error to throw, or a promise still to settle. */
function scripted(...answers: unknown[]) {
	const sent: BuiltRequest[] = [];
	const send = async (request: BuiltRequest) => {
		sent.push(request);
		const next = answers.shift() ?? 'ok';
		if (next instanceof Error) throw next;
		return await (next as Promise<unknown>);
	};
	return { send, sent, shapes: () => sent.map((r) => (r.body as { shape: string }).shape) };
}

const settle = async () => await new Promise((resolve) => setImmediate(resolve));

function deferred() {
	let resolve!: (value: unknown) => void;
	let reject!: (error: unknown) => void;
	const promise = new Promise((res, rej) => ((resolve = res), (reject = rej)));
	return { promise, resolve, reject };
}

beforeEach(() => forgetAccountReadings());

describe('one request', () => {
	it('no reading: the request as it is, once', async () => {
		const { send, sent } = scripted('answer');
		await expect(sendByReading(context(), undefined, FIRST, {}, send)).resolves.toBe('answer');
		expect(sent).toEqual([FIRST]);
	});

	it('a recognised 400 sends the other reading once with the values, and the execution keeps it; another execution starts again', async () => {
		const { reading } = readingOf();
		const ctx = context();
		const { send, shapes, sent } = scripted(refusal(), 'second', 'third');
		await expect(sendByReading(ctx, reading, FIRST, { v: 1 }, send)).resolves.toBe('second');
		expect(sent[1].body).toEqual({ shape: 'other', v: 1 });
		await expect(sendByReading(ctx, reading, FIRST, {}, send)).resolves.toBe('third');
		expect(shapes()).toEqual(['first', 'other', 'other']);
		const again = scripted();
		await sendByReading(context(), reading, FIRST, {}, again.send);
		expect(again.shapes()).toEqual(['first']);
	});

	it('two readings learned in one execution are both kept', async () => {
		const { reading: shape } = readingOf();
		const { reading: size } = readingOf({ name: 'size' });
		const ctx = context();
		const { send, shapes } = scripted(refusal(), 'a', refusal(), 'b', 'c', 'd');
		await sendByReading(ctx, shape, FIRST, {}, send);
		await sendByReading(ctx, size, FIRST, {}, send);
		await sendByReading(ctx, shape, FIRST, {}, send);
		await sendByReading(ctx, size, FIRST, {}, send);
		expect(shapes()).toEqual(['first', 'other', 'first', 'other', 'other', 'other']);
	});

	it('what the reading adds to every first request (base) is sent', async () => {
		const { reading } = readingOf({ base: (request) => ({ ...request, qs: { both: 'yes' } }) });
		const { send, sent } = scripted();
		await sendByReading(context(), reading, FIRST, {}, send);
		expect(sent[0].qs).toEqual({ both: 'yes' });
	});

	it('a 2xx with a business code is a refusal too; 20005, a 5xx, a 408, another 4xx message or no answer is passed on unsent', async () => {
		const switched = scripted(refusal('shape is wrong', 200, 'INVALID_PARAMETER'));
		await sendByReading(context(), readingOf().reading, FIRST, {}, switched.send);
		expect(switched.shapes()).toEqual(['first', 'other']);
		for (const error of [refusal('shape', 200, '20005'), refusal('shape', 500), refusal('shape', 408), refusal('stage is wrong')]) {
			const { send, sent } = scripted(error);
			await expect(sendByReading(context(), readingOf().reading, FIRST, {}, send)).rejects.toBe(error);
			expect(sent).toHaveLength(1);
		}
		const cut = new Error('socket hang up');
		const { reading, seen } = readingOf();
		const { send, sent } = scripted(cut);
		const thrown = await sendByReading(context(), reading, FIRST, {}, send).catch((error: unknown) => error);
		expect(thrown).toBeInstanceOf(NodeOperationError);
		expect((thrown as Error).message).toBe('socket hang up');
		expect(sent).toHaveLength(1);
		expect(seen).toEqual([]);
	});

	it('detect sees the status, the code and Lofty\'s message (else the error\'s), the status from the answer when the error has none', async () => {
		const seen: Array<{ httpCode: number; code?: string | number; message: string }> = [];
		const { reading } = readingOf({
			detect: (failure) => {
				seen.push(failure);
				return false;
			},
		});
		const withCode = refusal('bad', 422, 'X1');
		const numeric = refusal('bad', 400, 7);
		const noMessage = new NodeApiError(node, { httpCode: 409, code: true }, { message: 'from the error', httpCode: '409' });
		const noStatus = refusal('bad', 403);
		noStatus.httpCode = null;
		for (const error of [withCode, numeric, noMessage, noStatus]) await sendByReading(context(), reading, FIRST, {}, scripted(error).send).catch(() => undefined);
		expect(seen).toEqual([
			{ httpCode: 422, code: 'X1', message: 'bad' },
			{ httpCode: 400, code: 7, message: 'bad' },
			{ httpCode: 409, code: undefined, message: 'from the error' },
			{ httpCode: 403, code: undefined, message: 'bad' },
		]);
	});

	it('nothing the other reading would change: the refusal is passed on and nothing is learned', async () => {
		const { reading } = readingOf({ rewrite: (request) => request });
		const ctx = context();
		const error = refusal();
		const { send, sent } = scripted(error, 'ok');
		await expect(sendByReading(ctx, reading, FIRST, {}, send)).rejects.toBe(error);
		await sendByReading(ctx, reading, FIRST, {}, send);
		expect(sent).toEqual([FIRST, FIRST]);
	});

	it('refused in the other reading too: the first refusal, naming the second; nothing learned', async () => {
		const ctx = context();
		const { reading } = readingOf();
		const first = refusal('shape one');
		first.description = 'Lofty said so.';
		const { send, shapes } = scripted(first, refusal('shape two', 422), 'ok');
		await expect(sendByReading(ctx, reading, FIRST, {}, send)).rejects.toBe(first);
		expect(first.description).toBe(
			"Lofty said so. Sent once more in Lofty's other reading of the contract (docs/api-readings.md), it was refused too (HTTP 422: shape two); nothing was applied.",
		);
		await sendByReading(ctx, reading, FIRST, {}, send);
		expect(shapes()).toEqual(['first', 'other', 'first']);
		const bare = refusal('shape one');
		bare.description = null;
		await expect(sendByReading(context(), reading, FIRST, {}, scripted(bare, refusal('shape two')).send)).rejects.toBe(bare);
		expect(bare.description).toMatch(/^Sent once more in Lofty's other reading/);
	});

	it('the other reading failing otherwise (a 500): that error as it is, nothing learned', async () => {
		const ctx = context();
		const { reading } = readingOf();
		const failed = refusal('shape', 500);
		const { send, shapes } = scripted(refusal(), failed, 'ok');
		await expect(sendByReading(ctx, reading, FIRST, {}, send)).rejects.toBe(failed);
		await sendByReading(ctx, reading, FIRST, {}, send);
		expect(shapes()).toEqual(['first', 'other', 'first']);
	});
});

describe('switching back (bothWays)', () => {
	it('a recognised refusal of the other reading sends the first once more and unlearns; without bothWays it is passed on', async () => {
		const ctx = context();
		const { reading } = readingOf({ bothWays: true });
		const { send, shapes } = scripted(refusal(), 'learned', refusal(), 'back', 'first again');
		await sendByReading(ctx, reading, FIRST, {}, send);
		await expect(sendByReading(ctx, reading, FIRST, {}, send)).resolves.toBe('back');
		await expect(sendByReading(ctx, reading, FIRST, {}, send)).resolves.toBe('first again');
		expect(shapes()).toEqual(['first', 'other', 'other', 'first', 'first']);

		const oneWay = readingOf().reading;
		const once = context();
		const error = refusal();
		const plain = scripted(refusal(), 'learned', error);
		await sendByReading(once, oneWay, FIRST, {}, plain.send);
		await expect(sendByReading(once, oneWay, FIRST, {}, plain.send)).rejects.toBe(error);
		expect(plain.shapes()).toEqual(['first', 'other', 'other']);
	});

	it('a refusal of the other reading about something else is passed on, and the reading kept', async () => {
		const ctx = context();
		const { reading } = readingOf({ bothWays: true });
		const other = refusal('stage is wrong');
		const { send, shapes } = scripted(refusal(), 'learned', other, 'ok');
		await sendByReading(ctx, reading, FIRST, {}, send);
		await expect(sendByReading(ctx, reading, FIRST, {}, send)).rejects.toBe(other);
		await sendByReading(ctx, reading, FIRST, {}, send);
		expect(shapes()).toEqual(['first', 'other', 'other', 'other']);
	});

	it('an other reading that changes nothing for this request is sent once, its refusal passed on', async () => {
		const ctx = context();
		let rewrites = 0;
		const { reading } = readingOf({ bothWays: true, rewrite: (request) => (rewrites++ === 0 ? { ...request, body: { shape: 'other' } } : request) });
		const error = refusal();
		const { send, shapes } = scripted(refusal(), 'learned', error);
		await sendByReading(ctx, reading, FIRST, {}, send);
		await expect(sendByReading(ctx, reading, FIRST, {}, send)).rejects.toBe(error);
		expect(shapes()).toEqual(['first', 'other', 'first']);
	});
});

describe('several requests at once', () => {
	it('while the first request finds out, the others wait, then follow what it learned', async () => {
		const ctx = context();
		const { reading } = readingOf();
		const answer = deferred();
		const { send, shapes } = scripted(answer.promise, 'other answer', 'b');
		const a = sendByReading(ctx, reading, FIRST, {}, send);
		const b = sendByReading(ctx, reading, FIRST, {}, send);
		await settle();
		expect(shapes()).toEqual(['first']);
		answer.reject(refusal());
		await expect(a).resolves.toBe('other answer');
		await expect(b).resolves.toBe('b');
		expect(shapes()).toEqual(['first', 'other', 'other']);
	});

	it('an answer to the first reading settles it: the others send the first reading, and later ones no longer wait', async () => {
		const ctx = context();
		const { reading } = readingOf();
		const answer = deferred();
		const { send, shapes } = scripted(answer.promise, 'b', deferred().promise, 'd');
		const a = sendByReading(ctx, reading, FIRST, {}, send);
		const b = sendByReading(ctx, reading, FIRST, {}, send);
		await settle();
		answer.resolve('a');
		await expect(Promise.all([a, b])).resolves.toEqual(['a', 'b']);
		void sendByReading(ctx, reading, FIRST, {}, send);
		const d = sendByReading(ctx, reading, FIRST, {}, send);
		await settle();
		expect(shapes()).toEqual(['first', 'first', 'first', 'first']);
		await expect(d).resolves.toBe('d');
	});

	it('a confirmed first reading still switches on a recognised refusal', async () => {
		const ctx = context();
		const { reading } = readingOf();
		const { send, shapes } = scripted('a', refusal(), 'b', 'c');
		await sendByReading(ctx, reading, FIRST, {}, send);
		await expect(sendByReading(ctx, reading, FIRST, {}, send)).resolves.toBe('b');
		await sendByReading(ctx, reading, FIRST, {}, send);
		expect(shapes()).toEqual(['first', 'first', 'other', 'other']);
	});
});

describe("remember: 'account'", () => {
	it('learned for the Lofty account across executions; another account, or a fresh process, starts with the first reading', async () => {
		const { reading } = readingOf({ remember: 'account' });
		const { send, shapes } = scripted(refusal());
		await sendByReading(context('key-1'), reading, FIRST, {}, send);
		await sendByReading(context('key-1'), reading, FIRST, {}, send);
		await sendByReading(context('key-2'), reading, FIRST, {}, send);
		forgetAccountReadings();
		await sendByReading(context('key-1'), reading, FIRST, {}, send);
		expect(shapes()).toEqual(['first', 'other', 'other', 'first', 'first']);
	});
});
