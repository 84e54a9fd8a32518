/**
 * n8n's rules require-continue-on-fail and node-operation-error-itemindex (test/unit/n8nRules.test.ts checks their
 * letter on the node files), held for every path an item's work can take, not only the shared catch in execute():
 * every operation of every resource, failing at Lofty (a refusal), on the way (the connection cut, a read not
 * retried) and as an AI agent's tool (whose message is rewritten), and the Lofty Trigger's execute().
 *
 * Each case runs two items: item 0 a read on a path item 1 never requests, item 1 the operation, with every request
 * it sends to any other path failing. Without Continue On Fail the node's error names item 1
 * (`context.itemIndex`, which n8n shows and pairs); with it, item 1 ends as one error item paired with it, and
 * item 0's output stands. (The fuzz test, test/fuzz/operations.test.ts, covers the same for input the node refuses
 * before sending.)
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { type Sandbox, SEED_IDS, startSandbox } from '../../sandbox';
import type { FaultSpec } from '../../sandbox/core/faults';
import { RESOURCES } from '../../nodes/Lofty/resources';
import type { OperationDef } from '../../nodes/Lofty/model/types';
import { resetPacing } from '../../nodes/Lofty/transport/pacing';
import { LoftyTrigger } from '../../nodes/LoftyTrigger/LoftyTrigger.node';
import { createContext } from '../harness/context';
import { apiKeyCredential, byId, node } from '../harness/sandbox';
import { observe } from '../secrets/observe';
import { valid } from '../fuzz/inputs';

// One sandbox for the file, never reset: the failing requests change nothing, item 0 only reads.
let started: Sandbox | undefined;
const sandbox = (): Sandbox => started!;
beforeAll(async () => {
	started = await startSandbox({ port: 0, rateLimit: { perWindow: 1_000_000_000, windowMs: 60_000 } });
});
afterAll(async () => await started?.stop());
beforeEach(() => resetPacing());

type Failure = Error & { context?: IDataObject };
type Params = Record<string, unknown>;

/** Reads that item 0 can be: the first whose path the operation under test does not request. */
const GOOD: Array<{ params: Params; path: string; id: string }> = [
	{ params: { resource: 'lead', operation: 'get', leadId: byId(SEED_IDS.bigLeadId) }, path: `/v1.0/leads/${SEED_IDS.bigLeadId}`, id: 'leadId' },
	{ params: { resource: 'member', operation: 'getMe' }, path: '/v1.0/me', id: 'id' },
];

/** The operation with valid values for what it requires, Return All off, the fewest retries. */
function paramsOf(resource: string, op: OperationDef): Params {
	const params: Params = { resource, operation: op.value, requestOptions: { readRetries: 0 } };
	for (const p of op.params.filter((q) => q.required)) params[p.name] = valid(p);
	if (op.pagination) params.limit = 5;
	for (const p of op.params.filter((q) => !q.required && q.top && q.type === 'boolean')) params[p.name] = false;
	return params;
}

/** Runs [good, failing] as the editor does or as the tool n8n generates; resolves the items or the error. */
async function attempt(good: Params, failing: Params, { continueOnFail = false, asTool = false } = {}): Promise<{ items?: INodeExecutionData[]; error?: Failure }> {
	const context = createContext(node, {
		params: (i: number) => ({ authentication: 'apiKey', ...(i === 0 ? good : failing) }),
		credential: apiKeyCredential(sandbox()),
		items: [{}, {}],
		continueOnFail,
	});
	if (asTool) {
		const plain = context.getNode();
		(context as unknown as { getNode: () => unknown }).getNode = () => ({ ...plain, type: 'n8n-nodes-lofty.loftyTool' });
	}
	try {
		const [items] = (await node.execute.call(context)) as INodeExecutionData[][];
		observe('Lofty output', items);
		return { items };
	} catch (error) {
		observe('Lofty error', error);
		return { error: error as Failure };
	}
}

/** Every request to a path other than `goodPath` fails as `kind` says. */
function failAllBut(goodPath: string, kind: 'refusal' | 'cut'): FaultSpec {
	const path = new RegExp(`^(?!${goodPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$)`);
	return kind === 'refusal' ? { kind: '500', status: 400, code: 400, message: 'refused for the test', times: 1_000, match: { path } } : { kind: 'drop', when: 'before', times: 1_000, match: { path } };
}

const operations = RESOURCES.flatMap((r) => r.operations.map((op) => ({ resource: r.value, op })));

describe('every operation: a failing item is named by its index, and Continue On Fail keeps the others', () => {
	it('covers every operation', () => expect(operations.length).toBeGreaterThanOrEqual(137));

	describe.each(operations.map((o) => [`${o.resource}: ${o.op.value}`, o] as const))('%s', (_name, { resource, op }) => {
		it('refused by Lofty (also as a tool) and cut on the way: the error names item 1; with Continue On Fail item 1 is one error item and item 0 stands', async () => {
			const failing = paramsOf(resource, op);
			// the operation's own paths, so that item 0 is a read it never makes
			const before = sandbox().requests.length;
			await attempt(failing, failing, { continueOnFail: true });
			const paths = new Set(sandbox().requests.slice(before).map((r) => r.path));
			const good = GOOD.find((g) => !paths.has(g.path) || g === GOOD[GOOD.length - 1])!;
			expect({ good: good.path, requestedByTheOperation: paths.has(good.path) }).toEqual({ good: good.path, requestedByTheOperation: false });
			const outcomes: string[] = [];
			for (const kind of ['refusal', 'cut'] as const) {
				// as a tool only the message differs from the editor's path: once is enough
				for (const mode of kind === 'refusal' ? [{}, { asTool: true }, { continueOnFail: true }] : [{}, { continueOnFail: true }]) {
					sandbox().faults.clear();
					sandbox().faults.inject(failAllBut(good.path, kind));
					const { items, error } = await attempt(good.params, failing, mode);
					const where = `${kind} ${JSON.stringify(mode)}`;
					if (mode.continueOnFail !== true) {
						expect({ where, thrown: error !== undefined, nodeError: error instanceof NodeApiError || error instanceof NodeOperationError, itemIndex: error?.context?.itemIndex }).toEqual({
							where,
							thrown: true,
							nodeError: true,
							itemIndex: 1,
						});
					} else {
						const of = (i: number) => (items ?? []).filter((item) => (item.pairedItem as { item: number }).item === i);
						expect({ where, first: of(0).map((item) => item.json.error === undefined && item.json[good.id] !== undefined), second: of(1).map((item) => typeof item.json.error) }).toEqual({
							where,
							first: [true],
							second: ['string'],
						});
					}
					outcomes.push(where);
				}
			}
			expect(outcomes).toHaveLength(5);
		});
	});
});

describe('the Lofty Trigger: its execute() (an event already run is dropped) under Continue On Fail', () => {
	/** The trigger's execute() with two delivered items, where deciding which already ran throws. */
	async function runTrigger(continueOnFail: boolean): Promise<{ out?: INodeExecutionData[]; error?: Failure }> {
		const items: INodeExecutionData[] = [{ json: { event: 'lead.created', leadId: '1' } }, { json: { event: 'lead.created', leadId: '2' } }];
		const ctx = {
			getInputData: () => items,
			getMode: () => 'webhook',
			getNode: () => ({ id: 't', name: 'Lofty Trigger', type: 'n8n-nodes-lofty.loftyTrigger', typeVersion: 1, position: [0, 0], parameters: {} }),
			getWorkflowStaticData: () => {
				throw new Error('the workflow static data could not be read');
			},
			continueOnFail: () => continueOnFail,
			logger: { info: () => undefined, warn: () => undefined, debug: () => undefined, error: () => undefined },
		} as unknown as IExecuteFunctions;
		try {
			return { out: (await new LoftyTrigger().execute.call(ctx))[0] };
		} catch (error) {
			return { error: error as Failure };
		}
	}

	it('without Continue On Fail: a node error', async () => {
		const { error } = await runTrigger(false);
		expect(error instanceof NodeOperationError).toBe(true);
		expect(error?.message).toMatch(/static data could not be read/);
	});

	it('with Continue On Fail: each event comes out with the error, paired with its item; none is dropped', async () => {
		const { out } = await runTrigger(true);
		expect(out?.map((item) => [item.pairedItem, item.json.leadId, item.json.error])).toEqual([
			[{ item: 0 }, '1', expect.stringMatching(/static data could not be read/)],
			[{ item: 1 }, '2', expect.stringMatching(/static data could not be read/)],
		]);
	});
});
