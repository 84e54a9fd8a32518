/**
 * The Lofty Trigger's execute() (LoftyTrigger/runOnce.ts) asking its own webhook which events ran, on a scripted
 * webhook and n8n's clock (sleep recorded, not slept): what counts as an answer, how it retries and for how long, and
 * what it logs. The whole execute() against a trigger harness: test/trigger/runOnce.test.ts.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { forgetProcessMemory } from '../../nodes/LoftyTrigger/dedupe';
import { askLimits, runOnce } from '../../nodes/LoftyTrigger/runOnce';

const waits: number[] = [];
let now = 0;
jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: async (ms: number) => {
		waits.push(ms);
		now += ms;
	},
}));

const T = Date.UTC(2026, 0, 2, 3, 4, 5);
const created = (leadId: number): INodeExecutionData => ({
	json: { listId: 2, action: 'created', leadId: String(leadId), eventKey: 'createdLead', raw: { leadId, updateTime: T } },
});

/** An execution of the trigger whose webhook answers with `answers` in turn (the last one again after). */
function execution(items: INodeExecutionData[], answers: Array<{ statusCode: number; body?: unknown }>) {
	const asked: IDataObject[] = [];
	const logs: string[] = [];
	const staticData: IDataObject = { secret: 's'.repeat(64), liveUrl: 'http://127.0.0.1:9/webhook/x' };
	const ctx = {
		getInputData: () => items,
		getMode: () => 'webhook',
		getWorkflowStaticData: () => staticData,
		getNode: () => ({ id: 'n1', name: 'Lofty Trigger', webhookId: 'wh' }),
		logger: { info: (m: string) => logs.push(`info ${m}`), warn: (m: string) => logs.push(`warn ${m}`) },
		helpers: {
			httpRequest: async (options: { body: IDataObject }) => {
				asked.push(options.body);
				return answers[Math.min(asked.length - 1, answers.length - 1)];
			},
		},
	} as unknown as IExecuteFunctions;
	return { run: () => runOnce(ctx), asked, logs };
}
const leadIds = (out: INodeExecutionData[][]) => out[0].map((i) => i.json.leadId);

beforeEach(() => {
	forgetProcessMemory();
	waits.length = 0;
	now = T;
	jest.spyOn(Date, 'now').mockImplementation(() => now);
});
afterEach(() => jest.restoreAllMocks());

it('only a 2xx answer with its list of fresh keys decides; until then it asks again, waiting 0.5 s doubling up to 5 s', async () => {
	const fresh = { fresh: ['ran|2|created|5'] };
	const e = execution([created(5), created(6)], [{ statusCode: 404, body: fresh }, { statusCode: 199, body: fresh }, { statusCode: 300, body: fresh }, { statusCode: 200 }, { statusCode: 0 }, { statusCode: 200, body: fresh }]);
	expect(leadIds(await e.run())).toEqual(['5']);
	expect(e.asked).toHaveLength(6);
	expect(waits).toEqual([500, 1000, 2000, 4000, 5000]);
	expect(e.logs).toEqual(['info Lofty Trigger: 1 event(s) already run were dropped']);
});

it('gives up after askLimits.withinMs and decides with what this process knows, saying so', async () => {
	const e = execution([created(5)], [{ statusCode: 404 }]);
	expect(leadIds(await e.run())).toEqual(['5']);
	expect(waits).toEqual([500, 1000, 2000, 4000, 5000, 5000, 5000, 5000]);
	expect(e.asked).toHaveLength(9);
	expect(waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(askLimits.withinMs);
	expect(e.logs).toEqual([expect.stringMatching(/^warn Lofty Trigger: could not ask its webhook at http:\/\/127\.0\.0\.1:9\/webhook\/x/)]);
});

it('a wait that ends exactly at the limit is waited, and the webhook asked once more', async () => {
	const within = askLimits.withinMs;
	askLimits.withinMs = 27_500;
	try {
		const e = execution([created(5)], [{ statusCode: 404 }]);
		await e.run();
		expect(waits).toEqual([500, 1000, 2000, 4000, 5000, 5000, 5000, 5000]);
	} finally {
		askLimits.withinMs = within;
	}
});

it('nothing dropped, nothing logged', async () => {
	const e = execution([created(5)], [{ statusCode: 200, body: { fresh: ['ran|2|created|5'] } }]);
	expect(leadIds(await e.run())).toEqual(['5']);
	expect(e.logs).toEqual([]);
});
