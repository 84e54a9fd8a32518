import { DEMO_API_KEY, OTHER_AGENT_API_KEY, SEED_IDS } from '../../sandbox';
import { SALES_AGENT_IDS, salesAgentState } from '../../sandbox/resources/salesAgent';
import { client, s, useSandbox } from './helpers';

const sb = useSandbox();

const api = () => client(sb.url, { token: DEMO_API_KEY });
const other = () => client(sb.url, { token: OTHER_AGENT_API_KEY });

describe('GET /v2.0/sales-agents/current, /quota, /by-lead', () => {
	it('current: the SalesAgentResponseV2 of the caller, id above 2^53 exact; 404 without one', async () => {
		const r = await api().get('/v2.0/sales-agents/current');
		expect(r.status).toBe(200);
		expect(r.text).toContain(`"id":${SALES_AGENT_IDS.demoSalesAgentId}`);
		expect(Object.keys(r.body).sort()).toEqual(
			['agentExperience', 'agentHeadUrl', 'agentName', 'assistantHeadUrl', 'assistantName', 'borrowId', 'borrowLevel', 'createdAt', 'email', 'followUpRole', 'hasQuotaSeat', 'id', 'status', 'updatedAt', 'userId', 'virtualNumber', 'virtualNumberCountry'].sort(),
		);
		expect(r.body.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
		const none = await other().get('/v2.0/sales-agents/current');
		expect(none.status).toBe(404);
		expect(none.body.code).toBe('RESOURCE_NOT_EXIST');
	});

	it('quota: used = working leads; a user without a Sales Agent has none', async () => {
		expect((await api().get('/v2.0/sales-agents/quota')).body).toEqual({
			totalQuota: 200,
			usedQuota: 130,
			remainingQuota: 70,
			hasQuotaAvailable: true,
			usagePercentage: 65,
			isBorrowed: false,
			borrowLevel: 'SELF',
			borrowedFrom: null,
		});
		expect((await other().get('/v2.0/sales-agents/quota')).body).toMatchObject({ totalQuota: 0, hasQuotaAvailable: false });
	});

	it('by-lead: leadId required (400 MISSING_PARAMETER), minimum 1 (400 20012), 403 without access', async () => {
		expect((await api().get('/v2.0/sales-agents/by-lead')).body.code).toBe('MISSING_PARAMETER');
		for (const bad of ['0', 'x1']) {
			const r = await api().get('/v2.0/sales-agents/by-lead', { params: { leadId: bad } });
			expect(r.status).toBe(400);
			expect(r.body.code).toBe(20012);
		}
		const denied = await api().get('/v2.0/sales-agents/by-lead', { params: { leadId: SEED_IDS.notSharedLeadId } });
		expect(denied.status).toBe(403);
		expect(denied.body.code).toBe('PERMISSION_DENIED');
		const missing = await api().get('/v2.0/sales-agents/by-lead', { params: { leadId: '999999999' } });
		expect(missing.status).toBe(403);
	});
});

describe('/v2.0/sales-agent/settings', () => {
	const put = (body: Record<string, unknown>) => api().put('/v2.0/sales-agent/settings', { body: { id: SALES_AGENT_IDS.demoSalesAgentId, ...body } });

	it('GET returns the settings; 404 for a user without a Sales Agent', async () => {
		const r = await api().get('/v2.0/sales-agent/settings');
		expect(r.body).toMatchObject({ assistantName: 'Anna', callTransferType: 'Disabled', followUpRole: 'AI', hostedStatus: 'ACTIVE' });
		expect(r.text).toContain(`"id":${SALES_AGENT_IDS.demoSalesAgentId}`);
		expect((await other().get('/v2.0/sales-agent/settings')).status).toBe(404);
	});

	it('PUT needs the id (MISSING_PARAMETER), > 0, and the caller\'s own Sales Agent (400 20012)', async () => {
		const missing = await api().put('/v2.0/sales-agent/settings', { body: { assistantName: 'X' } });
		expect([missing.status, missing.body.code]).toEqual([400, 'MISSING_PARAMETER']);
		for (const id of [0, -1, 12345]) {
			const r = await api().put('/v2.0/sales-agent/settings', { body: { id, assistantName: 'X' } });
			expect([r.status, r.body.code]).toEqual([400, 20012]);
		}
		const none = await other().put('/v2.0/sales-agent/settings', { body: { id: 5, assistantName: 'X' } });
		expect([none.status, none.body.code]).toEqual([400, 20012]);
	});

	it('PUT checks hours 0-23, days 0-6, the enums, and IDs (-1 only where it means all)', async () => {
		for (const bad of [
			{ startActiveHour: 24 },
			{ endActiveHour: -1 },
			{ activeDays: [7] },
			{ callTransferType: 'Always' },
			{ followUpRole: 'Robot' },
			{ leadSources: [-1] },
			{ agentIds: [0] },
			{ textChannel: 'yes' },
		]) {
			const r = await put(bad);
			expect([r.status, r.body.code]).toEqual([400, 20012]);
		}
		expect((await put({ agentIds: [-1], officeIds: [-1], leadPondIds: [301] })).body).toEqual({ message: 'success' });
	});

	it('PUT changes only the given fields', async () => {
		await put({ assistantName: 'Ava', endActiveHour: 18 });
		const r = await api().get('/v2.0/sales-agent/settings');
		expect(r.body).toMatchObject({ assistantName: 'Ava', endActiveHour: 18, startActiveHour: 8, textChannel: true });
		expect((await api().get('/v2.0/sales-agents/current')).body.assistantName).toBe('Ava');
	});
});

describe('working lead check, mute and mute status', () => {
	it('check returns the WorkingLeadV2 record for a working lead and false otherwise', async () => {
		const yes = await api().get(`/v2.0/sales-agents/working-lead/${SEED_IDS.bigLeadId}`);
		expect(yes.text).toContain(`"leadId":${SEED_IDS.bigLeadId}`);
		expect(yes.body).toMatchObject({ aiStage: expect.any(String), createdAt: expect.any(String) });
		const no = await api().get(`/v2.0/sales-agents/working-lead/${SALES_AGENT_IDS.notWorkingLeadId}`);
		expect([no.status, no.text]).toEqual([200, 'false']);
		expect((await api().get('/v2.0/sales-agents/working-lead/abc')).body.code).toBe(20012);
		expect((await api().get(`/v2.0/sales-agents/working-lead/${SEED_IDS.notSharedLeadId}`)).status).toBe(403);
	});

	it('mute is a PUT without body; the status is the text "true"/"false" under data', async () => {
		const before = await api().get('/v2.0/sales-agent/lead/mute-status', { params: { leadId: SEED_IDS.bigLeadId } });
		expect(before.body).toEqual({ data: { mute: 'false' } });
		const muted = await api().put(`/v2.0/sales-agents/working-lead/${SEED_IDS.bigLeadId}/mute`);
		expect(muted.status).toBe(200);
		expect(typeof muted.body.message).toBe('string');
		expect((await api().get('/v2.0/sales-agent/lead/mute-status', { params: { leadId: SEED_IDS.bigLeadId } })).body).toEqual({ data: { mute: 'true' } });
		expect((await api().put(`/v2.0/sales-agents/working-lead/${SEED_IDS.notSharedLeadId}/mute`)).status).toBe(403);
		expect((await api().get('/v2.0/sales-agent/lead/mute-status')).body.code).toBe('MISSING_PARAMETER');
	});
});

describe('GET /v2.0/working-leads', () => {
	const list = (params: Record<string, unknown> = {}) => api().get('/v2.0/working-leads', { params });

	it('defaults: limit 20, offset 0, sorted by UpdateTime descending, with metadata', async () => {
		const r = await list();
		expect(r.body.workingLeads).toHaveLength(20);
		expect(r.body.metadata).toEqual({ total: 130, count: 20, offset: 0, limit: 20 });
		const updated = r.body.workingLeads.map((w: { updatedAt: string }) => w.updatedAt);
		expect(updated).toEqual([...updated].sort().reverse());
		expect(Object.keys(r.body.workingLeads[0])).toEqual(expect.arrayContaining(['leadId', 'firstName', 'lastName', 'email', 'phone', 'createdAt']));
	});

	it('limit 1..100 (LIMIT_NOT_VALID), integers only (20012), offset >= 0', async () => {
		expect((await list({ limit: 100 })).body.workingLeads).toHaveLength(100);
		for (const limit of [0, 101]) {
			const r = await list({ limit });
			expect([r.status, r.body.code]).toEqual([400, 'LIMIT_NOT_VALID']);
		}
		expect((await list({ limit: 'ten' })).body.code).toBe(20012);
		expect((await list({ offset: -1 })).body.code).toBe(20012);
		const last = await list({ offset: 120, limit: 100 });
		expect(last.body.metadata).toEqual({ total: 130, count: 10, offset: 120, limit: 100 });
	});

	it('aiStage, sort and desc are checked (20012) and applied', async () => {
		for (const bad of [{ aiStage: 'HOT' }, { sort: 'Name' }, { desc: 'yes' }]) {
			const r = await list(bad);
			expect([r.status, r.body.code]).toEqual([400, 20012]);
		}
		const r = await list({ aiStage: 'AI_MONITORING', limit: 100, sort: 'Default', desc: 'false' });
		expect(r.body.metadata.total).toBe(43);
		const ids = r.body.workingLeads.map((w: { leadId: bigint | number }) => BigInt(w.leadId));
		expect(ids).toEqual([...ids].sort((a: bigint, b: bigint) => (a < b ? -1 : 1)));
	});

	it('is the caller\'s own pool: another agent sees none', async () => {
		expect((await other().get('/v2.0/working-leads')).body.metadata.total).toBe(0);
	});
});

describe('POST /v2.0/working-leads/add and /v2.0/plan-tasks/create', () => {
	it('leadIds required, not empty, at most 100 (400)', async () => {
		for (const body of [{}, { leadIds: [] }, { leadIds: Array.from({ length: 101 }, (_, i) => i + 1) }, { leadIds: ['x'] }]) {
			for (const path of ['/v2.0/working-leads/add', '/v2.0/plan-tasks/create']) {
				const r = await api().post(path, { body });
				expect(r.status).toBe(400);
			}
		}
	});

	it('add reports succeeded and failed IDs; quota limits the pool', async () => {
		const state = salesAgentState(sb.store);
		state.agentOf(BigInt(SEED_IDS.demoUserId))!.totalQuota = 131;
		const fresh = sb.store.addLead({ ownerUserId: SEED_IDS.demoUserId, firstName: 'Q' }).leadId.toString();
		const r = await api().post('/v2.0/working-leads/add', {
			rawBody: `{"leadIds":[${SALES_AGENT_IDS.notWorkingLeadId},${fresh},${SEED_IDS.notSharedLeadId},${SEED_IDS.bigLeadId}]}`,
			headers: { 'Content-Type': 'application/json' },
		});
		expect(r.status).toBe(200);
		expect(r.body.succeededLeadIds.map(s)).toEqual([SALES_AGENT_IDS.notWorkingLeadId, SEED_IDS.bigLeadId]);
		expect(r.body.failedLeadIds.map(s)).toEqual([fresh, SEED_IDS.notSharedLeadId]);
		expect(typeof r.body.message).toBe('string');
	});

	it('plan tasks need working leads; the answer is the {code, message, data} envelope', async () => {
		const r = await api().post('/v2.0/plan-tasks/create', { rawBody: `{"leadIds":[${SEED_IDS.bigLeadId},${SALES_AGENT_IDS.notWorkingLeadId}]}`, headers: { 'Content-Type': 'application/json' } });
		expect(r.body.code).toBe(0);
		expect(r.body.data.succeededLeadIds.map(s)).toEqual([SEED_IDS.bigLeadId]);
		expect(r.body.data.failedLeadIds.map(s)).toEqual([SALES_AGENT_IDS.notWorkingLeadId]);
		const tasks = await api().get(`/v2.0/plan-tasks/lead/${SEED_IDS.bigLeadId}`);
		expect(tasks.body).toHaveLength(6);
		expect(Object.keys(tasks.body[0]).sort()).toEqual(['assignedTo', 'content', 'createdAt', 'creatorId', 'dueAt', 'id', 'status', 'taskType']);
	});

	it('a user without a Sales Agent gets 400 20012 on writes', async () => {
		for (const path of ['/v2.0/working-leads/add', '/v2.0/plan-tasks/create']) {
			const r = await other().post(path, { body: { leadIds: [1] } });
			expect([r.status, r.body.code]).toEqual([400, 20012]);
		}
	});

	it('plan tasks of a lead: bare array, 403 without access, 400 for a bad id', async () => {
		expect((await api().get(`/v2.0/plan-tasks/lead/${SALES_AGENT_IDS.notWorkingLeadId}`)).body).toEqual([]);
		expect((await api().get(`/v2.0/plan-tasks/lead/${SEED_IDS.notSharedLeadId}`)).status).toBe(403);
		expect((await api().get('/v2.0/plan-tasks/lead/0')).status).toBe(400);
	});
});

describe('POST /v2.0/sales-agent/ai-number/send-sms-to-agent', () => {
	it('sends from the AI number to the caller; blank content and a missing AI number are 400', async () => {
		const ok = await api().post('/v2.0/sales-agent/ai-number/send-sms-to-agent', { body: { content: 'Hello' } });
		expect(ok.body).toEqual({ message: 'SMS sent successfully' });
		expect(salesAgentState(sb.store).aiSms[0]).toMatchObject({ from: '+15125550199', content: 'Hello' });
		expect((await api().post('/v2.0/sales-agent/ai-number/send-sms-to-agent', { body: { content: ' ' } })).body.code).toBe(20012);
		expect((await api().post('/v2.0/sales-agent/ai-number/send-sms-to-agent', { body: {} })).body.code).toBe('MISSING_PARAMETER');
		const token = sb.issueToken({ userId: SALES_AGENT_IDS.noNumberUserId });
		const none = await client(sb.url, { bearer: token }).post('/v2.0/sales-agent/ai-number/send-sms-to-agent', { body: { content: 'Hi' } });
		expect([none.status, none.body.code]).toEqual([400, 20012]);
		expect(none.body.message).toMatch(/no AI virtual number/);
	});

	it('needs Content-Type: application/json (20001)', async () => {
		const r = await api().post('/v2.0/sales-agent/ai-number/send-sms-to-agent', { rawBody: '{"content":"x"}', headers: { 'Content-Type': 'text/plain' } });
		expect([r.status, r.body.code]).toEqual([400, 20001]);
	});
});
