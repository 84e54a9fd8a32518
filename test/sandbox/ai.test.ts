import { DEMO_API_KEY, OTHER_AGENT_API_KEY, SEED_IDS } from '../../sandbox';
import { AI_IDS, DEFAULT_AI_RATE_LIMIT, SUMMARY_READY_MS, setAiRateLimit } from '../../sandbox/resources/ai';
import { client, useSandbox } from './helpers';

const sb = useSandbox();

const api = () => client(sb.url, { token: DEMO_API_KEY });
const json = (text: string) => ({ rawBody: text, headers: { 'Content-Type': 'application/json' } });

describe('POST /v2.0/ai/call-script and /prepare-insight', () => {
	it('both IDs required (MISSING_PARAMETER), at least 1 (20012), and the lead must be visible (20012)', async () => {
		for (const [path, second] of [
			['/v2.0/ai/call-script', 'taskId'],
			['/v2.0/ai/prepare-insight', 'appointmentId'],
		]) {
			expect((await api().post(path, { body: { leadId: 1 } })).body.code).toBe('MISSING_PARAMETER');
			expect((await api().post(path, { body: { [second]: 1 } })).body.code).toBe('MISSING_PARAMETER');
			expect((await api().post(path, { body: { leadId: 0, [second]: 1 } })).body.code).toBe(20012);
			const hidden = await api().post(path, json(`{"leadId":${SEED_IDS.notSharedLeadId},"${second}":1}`));
			expect([hidden.status, hidden.body.code]).toEqual([400, 20012]);
		}
	});

	it('call script shape and insight in the {code, message, data} envelope', async () => {
		const script = await api().post('/v2.0/ai/call-script', json(`{"leadId":${SEED_IDS.bigLeadId},"taskId":300001}`));
		expect(Object.keys(script.body).sort()).toEqual(['context', 'keyTalkingPoints', 'objectiveSuggestion']);
		expect(script.body.keyTalkingPoints[0]).toEqual({ title: expect.any(String), value: expect.any(Array) });
		const insight = await api().post('/v2.0/ai/prepare-insight', json(`{"leadId":${SEED_IDS.bigLeadId},"appointmentId":200001}`));
		expect(insight.body).toMatchObject({ code: 0, message: 'success' });
		expect(insight.text).toContain(`"leadId":${SEED_IDS.bigLeadId}`);
	});
});

describe('call summary', () => {
	it('generate answers {message}; the summary goes pending -> processing -> finished with the clock', async () => {
		const gen = await api().post('/v2.0/ai/call-summary/generate', json(`{"callRecordId":42,"leadId":${SEED_IDS.bigLeadId}}`));
		expect(gen.body).toEqual({ message: expect.any(String) });
		const read = async () => (await api().get('/v2.0/ai/call-summary', { params: { callRecordId: 42 } })).body;
		expect((await read()).status).toEqual({ code: 0, msg: 'ok' });
		expect((await read()).data).toMatchObject({ status: 0, summary: '' });
		const realNow = sb.store.now;
		const start = realNow();
		try {
			sb.store.now = () => start + SUMMARY_READY_MS / 2 + 1000;
			expect((await read()).data.status).toBe(1);
			sb.store.now = () => start + SUMMARY_READY_MS + 1000;
			const done = (await read()).data;
			expect(done.status).toBe(2);
			expect(Object.keys(done).sort()).toEqual(['comment', 'id', 'keywords', 'recordingId', 'score', 'status', 'summary', 'text', 'userId']);
		} finally {
			sb.store.now = realNow;
		}
	});

	it('callRecordId required (MISSING_PARAMETER); unknown or another team\'s (20012)', async () => {
		expect((await api().get('/v2.0/ai/call-summary')).body.code).toBe('MISSING_PARAMETER');
		expect((await api().get('/v2.0/ai/call-summary', { params: { callRecordId: AI_IDS.unknownCallRecordId } })).body.code).toBe(20012);
		const seeded = await api().get('/v2.0/ai/call-summary', { params: { callRecordId: AI_IDS.finishedCallRecordId } });
		expect(seeded.text).toContain('"id":9007199254789999');
		expect(seeded.body.data.status).toBe(2);
		expect((await api().post('/v2.0/ai/call-summary/generate', { body: { callRecordId: 1 } })).body.code).toBe('MISSING_PARAMETER');
	});
});

describe('lead analysis', () => {
	it('create: leadIds required and not empty (400); answers {code, message, data}', async () => {
		expect((await api().post('/v2.0/ai/lead-analysis', { body: {} })).body.code).toBe('MISSING_PARAMETER');
		expect((await api().post('/v2.0/ai/lead-analysis', { body: { leadIds: [] } })).body.code).toBe(20012);
		const r = await api().post('/v2.0/ai/lead-analysis', json(`{"leadIds":[${SEED_IDS.bigLeadId}]}`));
		expect(r.body).toMatchObject({ code: 0, message: 'success', data: { leadCount: 1, status: 'PENDING' } });
	});

	it('list: pageNum from 1 (default 1), pageSize default 10 up to 100; only open tasks of the last 3 months of the caller', async () => {
		const first = await api().get('/v2.0/ai/lead-analysis');
		expect(first.body.data).toMatchObject({ pageNum: 1, pageSize: 10, totalCount: AI_IDS.visibleAnalyses });
		expect(first.body.data.pageData).toHaveLength(10);
		const last = await api().get('/v2.0/ai/lead-analysis', { params: { pageNum: 2, pageSize: 100 } });
		expect(last.body.data.pageData).toHaveLength(30);
		for (const bad of [{ pageNum: 0 }, { pageSize: 0 }, { pageSize: 101 }]) {
			expect((await api().get('/v2.0/ai/lead-analysis', { params: bad })).body.code).toBe(20012);
		}
		const other = await client(sb.url, { token: OTHER_AGENT_API_KEY }).get('/v2.0/ai/lead-analysis');
		expect(other.body.data.totalCount).toBe(1);
	});
});

describe('the AI rate limit', () => {
	it('is lower than the application limit and answers 429 {message} with X-RateLimit headers', async () => {
		expect(DEFAULT_AI_RATE_LIMIT.perWindow).toBeLessThan(100);
		setAiRateLimit(sb.store, { perWindow: 2, windowMs: 60_000 });
		expect((await api().get('/v2.0/ai/lead-analysis')).status).toBe(200);
		expect((await api().get('/v2.0/ai/lead-analysis')).status).toBe(200);
		const refused = await api().post('/v2.0/ai/call-script', json(`{"leadId":${SEED_IDS.bigLeadId},"taskId":1}`));
		expect(refused.status).toBe(429);
		expect(refused.body).toEqual({ message: 'Too Many Requests' });
		expect(refused.headers['x-ratelimit-limit']).toBe('2');
		expect(refused.headers['x-ratelimit-remaining']).toBe('0');
		expect(Number(refused.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
		// other endpoints are not affected
		expect((await api().get('/v2.0/sales-agents/quota')).status).toBe(200);
	});

	it('is restored by reset', async () => {
		setAiRateLimit(sb.store, { perWindow: 0, windowMs: 60_000 });
		expect((await api().get('/v2.0/ai/lead-analysis')).status).toBe(429);
		sb.reset();
		expect((await api().get('/v2.0/ai/lead-analysis')).status).toBe(200);
	});
});
