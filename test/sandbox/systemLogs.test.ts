import { DEMO_API_KEY, OTHER_AGENT_API_KEY, SEED_IDS } from '../../sandbox';
import { client, useSandbox } from './helpers';

const sb = useSandbox();

const api = () => client(sb.url, { token: DEMO_API_KEY });
const logs = (params: Record<string, unknown>) => api().get('/v1.0/systemLogs', { params });
const LOGS = SEED_IDS.logsLeadId;

/** Error bodies of this endpoint are bare JSON strings whose text is {code, message}. */
function stringError(body: unknown): { code: unknown; message: string } {
	expect(typeof body).toBe('string');
	return JSON.parse(body as string);
}

describe('GET /v1.0/systemLogs parameters', () => {
	it('leadId is required: 400 MISSING_PARAMETER as a plain JSON string', async () => {
		const r = await logs({});
		expect(r.status).toBe(400);
		expect(r.text.startsWith('"')).toBe(true);
		expect(stringError(r.body).code).toBe('MISSING_PARAMETER');
	});

	it('leadId minimum 1: 0 gives 400 20012', async () => {
		const r = await logs({ leadId: 0 });
		expect(r.status).toBe(400);
		expect(stringError(r.body).code).toBe(20012);
	});

	it('pageSize defaults to 100, accepts 1 and 1000, rejects 0 and 1001 with 20012', async () => {
		expect((await logs({ leadId: LOGS })).body.timeLines).toHaveLength(100);
		expect((await logs({ leadId: LOGS, pageSize: 1 })).body.timeLines).toHaveLength(1);
		expect((await logs({ leadId: LOGS, pageSize: 1000 })).body.timeLines).toHaveLength(1000);
		for (const bad of [0, 1001, -5]) {
			const r = await logs({ leadId: LOGS, pageSize: bad });
			expect(r.status).toBe(400);
			expect(stringError(r.body).code).toBe(20012);
		}
	});

	it('pageNumber is 0-based, default 0, minimum 0', async () => {
		const first = await logs({ leadId: LOGS, pageSize: 5 });
		const explicit = await logs({ leadId: LOGS, pageSize: 5, pageNumber: 0 });
		expect(explicit.body).toEqual(first.body);
		const second = await logs({ leadId: LOGS, pageSize: 5, pageNumber: 1 });
		expect(second.body.timeLines[0].id).not.toBe(first.body.timeLines[0].id);
		const r = await logs({ leadId: LOGS, pageNumber: -1 });
		expect(r.status).toBe(400);
		expect(stringError(r.body).code).toBe(20012);
	});

	it('an unparsable timestamp gives 400 code 20012 naming the value and the expected format', async () => {
		const r = await logs({ leadId: LOGS, startTime: '2024-01-01T00:00:00Z' });
		expect(r.status).toBe(400);
		const err = stringError(r.body);
		expect(err.code).toBe(20012);
		expect(err.message).toContain("'2024-01-01T00:00:00Z'");
		expect(err.message).toMatch(/epoch milliseconds/);
		const e2 = stringError((await logs({ leadId: LOGS, endTime: 'yesterday' })).body);
		expect(e2.message).toContain("'yesterday'");
	});

	it('non-integer pageSize is 20012', async () => {
		expect(stringError((await logs({ leadId: LOGS, pageSize: 'ten' })).body).code).toBe(20012);
	});
});

describe('GET /v1.0/systemLogs pages', () => {
	it('returns 2,500 system entries over pages; hasMore is an integer 1 until the last page, then 0', async () => {
		const p0 = await logs({ leadId: LOGS, pageSize: 1000, pageNumber: 0 });
		const p1 = await logs({ leadId: LOGS, pageSize: 1000, pageNumber: 1 });
		const p2 = await logs({ leadId: LOGS, pageSize: 1000, pageNumber: 2 });
		const p3 = await logs({ leadId: LOGS, pageSize: 1000, pageNumber: 3 });
		expect([p0.body.hasMore, p1.body.hasMore, p2.body.hasMore, p3.body.hasMore]).toEqual([1, 1, 0, 0]);
		expect(p0.text).toContain('"hasMore":1');
		expect(p2.body.timeLines).toHaveLength(500);
		expect(p3.body.timeLines).toHaveLength(0);
		const ids = new Set([...p0.body.timeLines, ...p1.body.timeLines, ...p2.body.timeLines].map((e: any) => e.id));
		expect(ids.size).toBe(2500);
	});

	it('hasMore is 0 when the page ends exactly at the last entry', async () => {
		const r = await logs({ leadId: LOGS, pageSize: 500, pageNumber: 4 });
		expect(r.body.timeLines).toHaveLength(500);
		expect(r.body.hasMore).toBe(0);
	});

	it('entries are newest first by timelineTime', async () => {
		const r = await logs({ leadId: LOGS, pageSize: 1000 });
		const times = r.body.timeLines.map((e: any) => Date.parse(e.timelineTime));
		for (let i = 1; i < times.length; i++) expect(times[i - 1]).toBeGreaterThanOrEqual(times[i]);
	});

	it('returns only system types (no call, text, email, site activity, add-note), with notes edit/delete (17, 18) included', async () => {
		const all: any[] = [];
		for (let p = 0; p < 3; p++) all.push(...(await logs({ leadId: LOGS, pageSize: 1000, pageNumber: p })).body.timeLines);
		const types = new Set(all.map((e) => e.timelineType));
		for (const excluded of [1, 2, 3, 10, 11, 12, 16]) expect(types.has(excluded)).toBe(false);
		expect(types.has(17)).toBe(true);
		expect(types.has(18)).toBe(true);
		expect(types.has(38)).toBe(true);
		// the stored timeline holds non-system entries too
		expect(sb.store.timelineOf(LOGS).length).toBeGreaterThan(2500);
	});

	it('entry shape: id as string, timelineTypeDesc, ISO times with offset, code 38 carries fromStageName/toStageName', async () => {
		const r = await logs({ leadId: LOGS, pageSize: 50 });
		expect(r.text).toMatch(/"id":"\d+"/);
		const e38 = r.body.timeLines.find((e: any) => e.timelineType === 38);
		expect(e38.timelineTypeDesc).toBe('TeamStageChange');
		expect(typeof e38.content.fromStageName).toBe('string');
		expect(typeof e38.content.toStageName).toBe('string');
		expect(e38.timelineTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
		const e103 = r.body.timeLines.find((e: any) => e.timelineType === 103);
		expect(Object.keys(e103.content).sort()).toEqual(['planName', 'taskContent', 'taskType']);
		expect(String(r.body.timeLines[0].leadId)).toBe(LOGS);
	});

	it('startTime and endTime are inclusive bounds; -1 means unbounded', async () => {
		const page = (await logs({ leadId: LOGS, pageSize: 20 })).body.timeLines;
		const hi = Date.parse(page[2].timelineTime);
		const lo = Date.parse(page[10].timelineTime);
		const r = await logs({ leadId: LOGS, startTime: lo, endTime: hi });
		const ids = r.body.timeLines.map((e: any) => e.id);
		expect(ids[0]).toBe(page[2].id);
		expect(ids[ids.length - 1]).toBe(page[10].id);
		expect(ids).toHaveLength(9);
		const unbounded = await logs({ leadId: LOGS, startTime: -1, endTime: -1, pageSize: 20 });
		expect(unbounded.body.timeLines.map((e: any) => e.id)).toEqual(page.map((e: any) => e.id));
	});
});

describe('GET /v1.0/systemLogs access', () => {
	it('403 (plain string) when the caller neither owns nor shares the lead', async () => {
		const r = await logs({ leadId: SEED_IDS.notSharedLeadId });
		expect(r.status).toBe(403);
		expect(stringError(r.body).code).toBe('PERMISSION_DENIED');
	});

	it('the owning agent may read it; a shared lead is readable by the demo user', async () => {
		const own = await client(sb.url, { token: OTHER_AGENT_API_KEY }).get('/v1.0/systemLogs', { params: { leadId: SEED_IDS.notSharedLeadId } });
		expect(own.status).toBe(200);
		expect(own.body.timeLines.length).toBeGreaterThan(0);
		expect((await logs({ leadId: SEED_IDS.sharedLeadId })).status).toBe(200);
	});

	it('403 for a lead that does not exist', async () => {
		expect((await logs({ leadId: '999999999' })).status).toBe(403);
	});

	it('auth errors keep the {code, message} object form', async () => {
		const r = await client(sb.url, { bearer: DEMO_API_KEY }).get('/v1.0/systemLogs', { params: { leadId: LOGS } });
		expect(r.status).toBe(400);
		expect(r.body).toEqual({ code: 200058, message: 'User in token does not exist.' });
	});
});

describe('leads and system logs are linked', () => {
	it('a stage change through PUT appends a TeamStageChange (38) entry at the top', async () => {
		const id = SEED_IDS.bigLeadId;
		const before = (await api().get(`/v1.0/leads/${id}`)).body.lead.stage;
		const target = before === 'Closed' ? 'Nurture' : 'Closed';
		expect((await api().put(`/v1.0/leads/${id}`, { body: { stage: target } })).status).toBe(200);
		const top = (await logs({ leadId: id, pageSize: 1 })).body.timeLines[0];
		expect(top.timelineType).toBe(38);
		expect(top.content).toEqual({ fromStageName: before, toStageName: target });
		expect(String(top.agentId)).toBe(SEED_IDS.demoUserId);
	});

	it('creating a lead logs its routing and stage', async () => {
		const created = await api().post('/v1.0/leads', { body: { firstName: 'Rita', stage: 'Hot' } });
		const leadId = created.body.leadId;
		const r = await logs({ leadId: String(leadId) });
		const types = r.body.timeLines.map((e: any) => e.timelineType);
		expect(types).toContain(38);
		expect(types).toContain(41);
	});

	it('an assignment appends a LeadAssign (40) entry naming the new agent', async () => {
		const id = SEED_IDS.bigLeadId;
		await api().post(`/v1.0/leads/${id}/assignment`, { body: [{ role: 'Agent', assignee: 'other.agent@example.com' }] });
		const top = (await logs({ leadId: id, pageSize: 1 })).body.timeLines[0];
		expect(top.timelineType).toBe(40);
		expect(String(top.toId)).toBe(SEED_IDS.otherAgentUserId);
		expect(top.toFirstName).toBe('Oscar');
	});
});
