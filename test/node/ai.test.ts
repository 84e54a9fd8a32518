import { READING_VALUES, SEED_IDS } from '../../sandbox';
import { AI_IDS, SUMMARY_READY_MS, setAiRateLimit } from '../../sandbox/resources/ai';
import { byId, run, runError, useSandbox } from '../harness/sandbox';
import { TEST_TIMEOUT_MS } from '../harness/budgets';

const sandbox = useSandbox();
const AI = { resource: 'ai' };

describe('AI: Generate Call Script', () => {
	it('returns the script for a lead and task, sending both IDs exactly', async () => {
		const [item] = await run(sandbox(), { ...AI, operation: 'generateCallScript', leadId: byId(SEED_IDS.bigLeadId), taskId: '9007199254740999' });
		expect(typeof item.json.context).toBe('string');
		expect(item.json.objectiveSuggestion).toHaveLength(2);
		expect((item.json.keyTalkingPoints as Array<{ title: string }>)[0].title).toBe('Opening');
		expect(sandbox().requests[0].body).toBe(`{"leadId":${SEED_IDS.bigLeadId},"taskId":9007199254740999}`);
	});

	it('explains 400 20012 for a lead the user cannot see', async () => {
		const error = await runError(sandbox(), { ...AI, operation: 'generateCallScript', leadId: byId(SEED_IDS.notSharedLeadId), taskId: '1' });
		expect(error.message).toMatch(/HTTP 400 20012/);
		expect(error.description).toMatch(/visible to the Lofty user/);
	});

	it('needs the task before sending', async () => {
		const error = await runError(sandbox(), { ...AI, operation: 'generateCallScript', leadId: byId(SEED_IDS.bigLeadId), taskId: '' });
		expect(error.message).toMatch(/"Task ID": is required/);
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('AI: Generate Call Summary and Get Call Summary', () => {
	it('starts a summary that is pending at first and finished later', async () => {
		const store = sandbox().store;
		const [started] = await run(sandbox(), { ...AI, operation: 'generateCallSummary', callRecordId: '555', leadId: byId(SEED_IDS.bigLeadId) });
		expect(started.json.message).toMatch(/triggered/);
		const [pending] = await run(sandbox(), { ...AI, operation: 'getCallSummary', callRecordId: '555' });
		expect(pending.json).toMatchObject({ status: 0, statusName: 'pending', recordingId: '555' });
		const realNow = store.now;
		store.now = () => realNow() + SUMMARY_READY_MS + 1000;
		try {
			const [done] = await run(sandbox(), { ...AI, operation: 'getCallSummary', callRecordId: '555' });
			expect(done.json).toMatchObject({ status: 2, statusName: 'finished', score: 85 });
			expect(String(done.json.summary)).not.toBe('');
		} finally {
			store.now = realNow;
		}
	});

	// docs/api-readings.md, row 11: failures as HTTP errors (spec) or as HTTP 200 {status: {code != 0, msg}} (OpenAPI).
	describe.each(READING_VALUES.statusEnvelope)('Get Call Summary (statusEnvelope %s)', (reading) => {
		beforeEach(() => sandbox().readings.set({ statusEnvelope: reading }));

		it('reads a finished summary with 64-bit IDs intact', async () => {
			const [item] = await run(sandbox(), { ...AI, operation: 'getCallSummary', callRecordId: AI_IDS.finishedCallRecordId });
			expect(item.json).toMatchObject({ id: '9007199254789999', recordingId: AI_IDS.finishedCallRecordId, statusName: 'finished', userId: SEED_IDS.demoUserId });
			expect(item.json.keywords).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'apptTime' })]));
		});

		it('names a failed summary', async () => {
			const [item] = await run(sandbox(), { ...AI, operation: 'getCallSummary', callRecordId: AI_IDS.failedCallRecordId });
			expect(item.json).toMatchObject({ status: 3, statusName: 'failed' });
		});

		it('explains 400 20012 for a call without a summary', async () => {
			const error = await runError(sandbox(), { ...AI, operation: 'getCallSummary', callRecordId: AI_IDS.unknownCallRecordId });
			expect(error.message).toMatch(reading === 'spec' ? /^Lofty error \(HTTP 400 20012\)/ : /^Lofty error \(HTTP 200 20012\)/);
			expect(error.message).toMatch(/no call summary for call record/);
			expect(error.description).toMatch(/Generate Call Summary/);
		});
	});

	it('explains 400 20012 when generating for a lead the user cannot see', async () => {
		const error = await runError(sandbox(), { ...AI, operation: 'generateCallSummary', callRecordId: '1', leadId: byId(SEED_IDS.notSharedLeadId) });
		expect(error.message).toMatch(/HTTP 400 20012/);
	});
});

describe('AI: Prepare Insight', () => {
	it('returns the insight unwrapped from the data envelope', async () => {
		const [item] = await run(sandbox(), { ...AI, operation: 'prepareInsight', leadId: byId(SEED_IDS.bigLeadId), appointmentId: '200001' });
		expect(item.json).toMatchObject({ leadId: SEED_IDS.bigLeadId, appointmentId: '200001' });
		expect(typeof item.json.insight).toBe('string');
		expect(item.json.code).toBeUndefined();
	});

	it('refuses an appointment ID that is not a number before sending', async () => {
		const error = await runError(sandbox(), { ...AI, operation: 'prepareInsight', leadId: byId(SEED_IDS.bigLeadId), appointmentId: 'appt-1' });
		expect(error.message).toMatch(/^Invalid value for "Appointment ID": must be a Lofty ID/);
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('AI: Create Lead Analysis and Get Lead Analysis Tasks', () => {
	it('creates a task that then appears first in the list', async () => {
		const [created] = await run(sandbox(), { ...AI, operation: 'createLeadAnalysis', leadIds: [SEED_IDS.bigLeadId, SEED_IDS.bigLeadId2] });
		expect(created.json).toMatchObject({ leadCount: 2, status: 'PENDING' });
		expect(sandbox().requests[0].body).toBe(`{"leadIds":[${SEED_IDS.bigLeadId},${SEED_IDS.bigLeadId2}]}`);
		const [first] = await run(sandbox(), { ...AI, operation: 'getLeadAnalyses', limit: 1 });
		expect(first.json.id).toBe(created.json.taskId);
		expect(first.json.leadIds).toEqual([SEED_IDS.bigLeadId, SEED_IDS.bigLeadId2]);
	});

	it('refuses an empty lead list before sending', async () => {
		const error = await runError(sandbox(), { ...AI, operation: 'createLeadAnalysis', leadIds: [] });
		expect(error.message).toMatch(/"Lead IDs": is required/);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('explains 400 20012 for a lead the user cannot see', async () => {
		const error = await runError(sandbox(), { ...AI, operation: 'createLeadAnalysis', leadIds: [SEED_IDS.notSharedLeadId] });
		expect(error.message).toMatch(/HTTP 400 20012/);
	});

	it('Return All pages with pageNum from 1 and the largest page size: ceil(N/100) requests', async () => {
		const items = await run(sandbox(), { ...AI, operation: 'getLeadAnalyses', returnAll: true });
		expect(items).toHaveLength(AI_IDS.visibleAnalyses);
		expect(new Set(items.map((i) => i.json.id)).size).toBe(AI_IDS.visibleAnalyses);
		expect(sandbox().requests.map((r) => r.query)).toEqual([
			{ pageNum: '1', pageSize: '100' },
			{ pageNum: '2', pageSize: '100' },
		]);
		for (const { json } of items) expect(['PENDING', 'RUNNING']).toContain(json.status);
	});

	it('Limit asks for one page of that size', async () => {
		const items = await run(sandbox(), { ...AI, operation: 'getLeadAnalyses', limit: 15 });
		expect(items).toHaveLength(15);
		expect(sandbox().requests.map((r) => r.query)).toEqual([{ pageNum: '1', pageSize: '15' }]);
	});
});

describe('AI: the lower rate limit of AI features', () => {
	it('waits out a 429 from the AI limit and succeeds', async () => {
		setAiRateLimit(sandbox().store, { perWindow: 2, windowMs: 3000 });
		const items = await run(sandbox(), () => ({ ...AI, operation: 'prepareInsight', leadId: byId(SEED_IDS.bigLeadId), appointmentId: '7' }), {
			items: [{}, {}, {}],
		});
		expect(items).toHaveLength(3);
		expect(sandbox().requests.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(1);
		expect(sandbox().requests.filter((r) => r.status === 200)).toHaveLength(3);
	});

	it('explains the AI limit when it is still exceeded after the retries', async () => {
		setAiRateLimit(sandbox().store, { perWindow: 0, windowMs: 1 });
		const error = await runError(sandbox(), { ...AI, operation: 'getLeadAnalyses', limit: 5 });
		expect(error.message).toMatch(/HTTP 429/);
		expect(error.description).toMatch(/AI features have a lower rate limit/);
		expect(sandbox().count('GET', '/v2.0/ai/lead-analysis')).toBe(5);
	}, TEST_TIMEOUT_MS);
});
