/**
 * Every operation, every field, fed generated bad input: wrong types, empty, very long strings, HTML,
 * out-of-range numbers, bad dates, IDs like 2^63-1, 0 and -1, malformed JSON. Each case runs three
 * items (a good lead read, the bad item, another good lead read) with "Continue On Fail":
 * - no unhandled exception, and one output per good item, untouched;
 * - the bad item ends with data or a clear error: "Invalid value for "<the field>": ..." for input
 *   the node can judge itself (and nothing sent), else Lofty's own error with status and code.
 * Each operation has a sandbox of its own, stopped when its tests end, and each field a test of its own: a test that
 * ran out of time (a loaded machine) cannot send requests into the next one's sandbox or counts.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { collectionOf } from '../../nodes/Lofty/model/describe';
import type { OperationDef, ParamDef } from '../../nodes/Lofty/model/types';
import type { Case } from './inputs';
import { RESOURCES } from '../../nodes/Lofty/resources';
import { SEED_IDS, type Sandbox, startSandbox } from '../../sandbox';
import { apiKeyCredential, byId, run } from '../harness/sandbox';
import { cases, HTML, valid } from './inputs';

let runs = 0;
/** An API key for one run: the requests the sandbox logs under its application are that run's alone. */
function ownKey(sandbox: Sandbox): { key: string; appId: string } {
	runs++;
	const key = `lofty_sbx_fuzz_run_${runs.toString(16).padStart(16, '0')}`;
	const appId = `apikey:fuzz-run-${runs}`;
	sandbox.auth.addApiKey({ key, userId: BigInt(SEED_IDS.demoUserId), appId });
	return { key, appId };
}

/** A sandbox of its own for each describe block; a test takes it once, so that a test that outlived its timeout keeps sending to its own, stopped one. */
function ownSandbox(): () => Sandbox {
	let own: Sandbox | undefined;
	beforeAll(async () => {
		own = await startSandbox({ port: 0, rateLimit: { perWindow: 1_000_000_000, windowMs: 60_000 } });
	});
	afterAll(async () => await own?.stop());
	return () => own!;
}

const goodItem = { resource: 'lead', operation: 'get', leadId: byId(SEED_IDS.bigLeadId) };
const SMELLS = /TypeError|is not a function|Cannot read|undefined is not|\[object Object\]|\bNaN\b|Maximum call stack/;

function paramsFor(resource: string, op: OperationDef, fuzzed: ParamDef, value: unknown): Record<string, unknown> {
	const params: Record<string, unknown> = { resource, operation: op.value };
	for (const p of op.params.filter((q) => q.required)) params[p.name] = valid(p);
	if (op.pagination) params.limit = 5;
	if (fuzzed.required) params[fuzzed.name] = value;
	else if (fuzzed.top) params[fuzzed.name] = value;
	else params[collectionOf(op, fuzzed).name] = { [fuzzed.name]: value };
	return params;
}

function check(op: OperationDef, p: ParamDef, fuzz: Case, items: INodeExecutionData[], sentForBadItem: number): void {
	const where = `${op.value} / ${p.name} / ${fuzz.label}`;
	const byItem = (i: number) => items.filter((item) => (item.pairedItem as { item: number }).item === i);
	// The good items are untouched.
	for (const i of [0, 2]) {
		const out = byItem(i);
		expect({ where, out: out.map((o) => o.json.leadId ?? o.json.error) }).toEqual({ where, out: [SEED_IDS.bigLeadId] });
	}
	const bad = byItem(1);
	// Only a list may end with no output (nothing matched).
	expect({ where, outputs: bad.length > 0 || op.pagination !== undefined || op.output !== undefined }).toEqual({ where, outputs: true });
	const error = bad.find((item) => item.json.error !== undefined)?.json as IDataObject | undefined;
	if (fuzz.local) {
		expect({ where, error: error?.error }).toEqual({ where, error: expect.stringMatching(new RegExp(`^Invalid value for "${escape(p.label)}": `)) });
		expect({ where, sentForBadItem }).toEqual({ where, sentForBadItem: 0 });
	}
	if (error) {
		const message = String(error.error);
		expect({ where, message }).toEqual({ where, message: expect.stringMatching(/^(Invalid value for "[^"]+": .+|Lofty error \(HTTP \d{3}( [\w.-]+)?\): .+)$/s) });
		expect({ where, smell: SMELLS.test(message.startsWith('Lofty error') ? '' : message) }).toEqual({ where, smell: false });
		expect({ where, long: message.length < 2000 }).toEqual({ where, long: true });
	}
}

function escape(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const operations = RESOURCES.flatMap((resource) => resource.operations.map((op) => ({ resource: resource.value, op })));

describe('fuzzing every operation with bad input', () => {
	it('covers every operation', () => {
		expect(operations.length).toBeGreaterThanOrEqual(134);
	});

	describe.each(operations.map((o) => [`${o.resource}: ${o.op.value}`, o] as const))('%s', (_name, { resource, op }) => {
		const own = ownSandbox();
		const fields = op.params.map((p) => [p.name, p] as const);
		it.each(fields.length ? fields : [['(none)', undefined] as const])('field %s: data or a clear error naming the field, other items unaffected', async (_field, p) => {
			const sandbox = own();
			if (!p) {
				const items = await run(sandbox, (i) => (i === 1 ? { resource, operation: op.value, ...(op.pagination ? { limit: 5 } : {}) } : goodItem), {
					items: [{}, {}, {}],
					continueOnFail: true,
				});
				expect(items.length).toBeGreaterThanOrEqual(3);
				return;
			}
			expect(cases(p).length).toBeGreaterThan(0);
			for (const fuzz of cases(p)) {
				const { key, appId } = ownKey(sandbox);
				const items = await run(sandbox, (i) => (i === 1 ? paramsFor(resource, op, p, fuzz.value) : goodItem), {
					items: [{}, {}, {}],
					continueOnFail: true,
					credential: apiKeyCredential(sandbox, key),
				});
				// The good items make one request each; the run's requests are those of its own key.
				const sent = sandbox.requests.filter((r) => r.appId === appId).length - 2;
				check(op, p, fuzz, items, sent);
			}
		});

		it('without Continue On Fail, a bad item stops the run with a node error naming the item', async () => {
			const sandbox = own();
			const p = op.params.find((q) => cases(q).some((c) => c.local));
			if (!p) return;
			const fuzz = cases(p).find((c) => c.local)!;
			let thrown: unknown;
			try {
				await run(sandbox, (i) => (i === 1 ? paramsFor(resource, op, p, fuzz.value) : goodItem), { items: [{}, {}, {}] });
			} catch (error) {
				thrown = error;
			}
			expect(thrown instanceof NodeOperationError || thrown instanceof NodeApiError).toBe(true);
			expect((thrown as NodeOperationError).message).toMatch(new RegExp(`^Invalid value for "${escape(p.label)}": `));
			expect((thrown as NodeOperationError).context.itemIndex).toBe(1);
		});
	});
});

describe('fuzzing the Request Options', () => {
	const own = ownSandbox();

	it.each([
		['timeout text', { timeout: 'soon' }, 'Timeout'],
		['timeout 0', { timeout: 0 }, 'Timeout'],
		['timeout negative', { timeout: -5 }, 'Timeout'],
		['retries 11', { readRetries: 11 }, 'Read Retries'],
		['retries decimal', { readRetries: 1.5 }, 'Read Retries'],
		['retries HTML', { readRetries: HTML }, 'Read Retries'],
		['parallel 0', { parallelRequests: 0 }, 'Parallel Requests'],
		['parallel above the maximum', { parallelRequests: 33 }, 'Parallel Requests'],
		['parallel decimal', { parallelRequests: 2.5 }, 'Parallel Requests'],
		['parallel text', { parallelRequests: 'many' }, 'Parallel Requests'],
	])('%s', async (_name, requestOptions, field) => {
		const sandbox = own();
		const items = await run(sandbox, (i) => (i === 1 ? { ...goodItem, requestOptions } : goodItem), { items: [{}, {}, {}], continueOnFail: true });
		expect(items.map((i) => i.json.leadId ?? i.json.error)).toEqual([
			SEED_IDS.bigLeadId,
			expect.stringMatching(new RegExp(`^Invalid value for "${field}": `)),
			SEED_IDS.bigLeadId,
		]);
	});
});
