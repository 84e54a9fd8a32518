import { DEMO_API_KEY, OTHER_AGENT_API_KEY, SEED_IDS, type Sandbox, startSandbox } from '../../sandbox';
import { COMM_SEED, commState } from '../../sandbox/resources/communication';
import { client, s } from './helpers';

let sb: Sandbox;
let realNow: () => number;
let clock = 0;
beforeAll(async () => {
	sb = await startSandbox({ port: 0 });
	realNow = sb.store.now;
});
afterAll(() => sb.stop());
beforeEach(() => {
	sb.reset();
	clock = Date.UTC(2026, 0, 10, 12, 0, 0);
	sb.store.now = () => clock;
});
afterEach(() => {
	sb.store.now = realNow;
});

const api = () => client(sb.url, { token: DEMO_API_KEY });
const other = () => client(sb.url, { token: OTHER_AGENT_API_KEY });
const HISTORY = COMM_SEED.historyLeadId;
const del = (id: string) => api().delete(`/v1.0/logType/${id}`, { headers: { 'Content-Type': 'application/json' } });
const callLog = (extra: Record<string, unknown> = {}) => ({
	leadId: SEED_IDS.bigLeadId,
	logType: 'logCall',
	content: 'Talked about financing',
	leadPhoneNumber: '5865865860',
	...extra,
});

describe('POST /v1.0/logType (asynchronous)', () => {
	it('returns the new id at once; the entry is readable only after the delay', async () => {
		const r = await api().post('/v1.0/logType', { body: callLog({ callingOutcome: 'VoiceMessage', isPin: true }) });
		expect(r.status).toBe(200);
		const id = s(r.body.logType.id);
		expect(BigInt(id)).toBeGreaterThan(9007199254740993n);
		const early = await api().get(`/v1.0/logType/${id}`);
		expect([early.status, early.body.code]).toEqual([404, 'RESOURCE_NOT_EXIST']);
		const listed = async () => (await api().get('/v1.0/logType', { params: { leadId: SEED_IDS.bigLeadId, logType: 'logCall' } })).body.logType.map((e: { id: bigint }) => s(e.id));
		expect(await listed()).not.toContain(id);
		clock += commState(sb.store).manualLogDelayMs - 1;
		expect((await api().get(`/v1.0/logType/${id}`)).status).toBe(404);
		clock += 1;
		const late = await api().get(`/v1.0/logType/${id}`);
		expect(late.status).toBe(200);
		expect(late.body.logType).toMatchObject({
			content: 'Talked about financing',
			leadPhoneNumber: '5865865860',
			callingOutcome: 'VoiceMessage',
			outboundOrInbound: 'outbound',
			isPin: true,
			createTime: '2026-01-10 12:00:00',
		});
		expect(s(late.body.logType.agentId)).toBe(SEED_IDS.demoUserId);
		expect(await listed()).toContain(id);
		// a logged call is a LOGGED communication: the V2 call lookup finds it too
		expect((await api().get(`/v2.0/communication/call/${id}`)).status).toBe(200);
	});

	it('keeps email fields for logEmail only, cuts content to 5000 characters, normalises an unknown outcome to Talked', async () => {
		const email = await api().post('/v1.0/logType', {
			body: { leadId: SEED_IDS.bigLeadId, logType: 'logEmail', content: 'x'.repeat(6000), emailSubject: 'Hi', toEmail: 'a@example.com', fromEmail: 'b@example.com', outboundOrInbound: 'inbound' },
		});
		const call = await api().post('/v1.0/logType', { body: callLog({ callingOutcome: 'Chatted', emailSubject: 'dropped' }) });
		clock += 5000;
		const e = (await api().get(`/v1.0/logType/${s(email.body.logType.id)}`)).body.logType;
		expect(e).toMatchObject({ emailSubject: 'Hi', toEmail: 'a@example.com', fromEmail: 'b@example.com', outboundOrInbound: 'inbound' });
		expect(e.content).toHaveLength(5000);
		const c = (await api().get(`/v1.0/logType/${s(call.body.logType.id)}`)).body.logType;
		expect(c.callingOutcome).toBe('Talked');
		expect(c).not.toHaveProperty('emailSubject');
	});

	it('400 20012 for missing or invalid fields, 20043 for values above 20 characters', async () => {
		const cases: Array<[Record<string, unknown>, unknown]> = [
			[callLog({ leadId: undefined }), 20012],
			[callLog({ content: '  ' }), 20012],
			[callLog({ logType: 'LogCall' }), 20012],
			[callLog({ outboundOrInbound: 'Outbound' }), 20012],
			[callLog({ leadPhoneNumber: undefined }), 20012],
			[callLog({ leadPhoneNumber: '1'.repeat(21) }), 20043],
			[callLog({ callingOutcome: 'x'.repeat(21) }), 20043],
		];
		for (const [body, code] of cases) {
			const r = await api().post('/v1.0/logType', { body });
			expect([body, r.status, r.body.code]).toEqual([body, 400, code]);
		}
		expect((await api().post('/v1.0/logType', { body: { leadId: SEED_IDS.bigLeadId, logType: 'logText', content: 'ok' } })).status).toBe(200);
	});

	it('404 LEAD_NOT_EXIST for an unknown, trashed or inaccessible lead; an assigned lender may log', async () => {
		for (const leadId of ['123456789', SEED_IDS.trashedLeadId, SEED_IDS.notSharedLeadId]) {
			const r = await api().post('/v1.0/logType', { body: callLog({ leadId }) });
			expect([leadId, r.status, r.body.code]).toEqual([leadId, 404, 'LEAD_NOT_EXIST']);
		}
		sb.store.getLead(SEED_IDS.bigLeadId)!.lenderUserId = BigInt(SEED_IDS.otherAgentUserId);
		expect((await other().post('/v1.0/logType', { body: callLog() })).status).toBe(200);
	});
});

describe('GET /v1.0/logType', () => {
	const list = (params: Record<string, unknown>) => api().get('/v1.0/logType', { params: { leadId: HISTORY, logType: 'logCall', ...params } });

	it('lists one channel, oldest first by default, newest first with order=desc', async () => {
		const asc = await list({ limit: 1000 });
		expect(asc.body.logType).toHaveLength(1000);
		const times = asc.body.logType.map((e: { createTime: string }) => e.createTime);
		expect([...times].sort()).toEqual(times);
		const desc = await list({ limit: 5, order: 'desc' });
		const descTimes = desc.body.logType.map((e: { createTime: string }) => e.createTime);
		expect([...descTimes].sort().reverse()).toEqual(descTimes);
		const texts = await list({ logType: 'logText', limit: 1000 });
		expect(texts.body.logType).toHaveLength(COMM_SEED.historyLoggedTexts);
	});

	it('manualLogSort openapi: currentId pages by id in the direction of order, ignoring sort', async () => {
		sb.readings.set({ manualLogSort: 'openapi' });
		const all = (await list({ limit: 1000, sort: 'id' })).body.logType.map((e: { id: bigint }) => s(e.id));
		const after = await list({ limit: 3, currentId: all[10] });
		expect(after.body.logType.map((e: { id: bigint }) => s(e.id))).toEqual(all.slice(11, 14));
		const before = await list({ limit: 3, currentId: all[10], order: 'desc' });
		expect(before.body.logType.map((e: { id: bigint }) => s(e.id))).toEqual([all[9], all[8], all[7]]);
		const rest = await list({ limit: 1000, currentId: all[999] });
		expect(rest.body.logType).toHaveLength(COMM_SEED.historyLoggedCalls - 1000);
	});

	/** Three logged calls on a fresh lead whose times run against their ids: the id order is not the time order. */
	function shuffledLogs(): string[] {
		const lead = sb.store.addLead({ firstName: 'Sorted', ownerUserId: SEED_IDS.demoUserId });
		const state = commState(sb.store);
		const at = [3, 1, 2].map((h) => Date.UTC(2026, 0, 1, h));
		const ids = at.map((time) => state.add({ leadId: lead.leadId, agentId: BigInt(SEED_IDS.demoUserId), kind: 'CALL', communicationType: 'LOGGED', direction: 'Outbound', time, logType: 'logCall', content: 'x' }).id.toString());
		sortedLead = lead.leadId.toString();
		return ids;
	}
	let sortedLead = '';

	it.each([
		{ reading: 'spec', what: 'keeps the sort: the page after an entry follows it in logged time' },
		{ reading: 'openapi', what: 'ignores the sort: the page after an entry follows it by id' },
	] as const)('manualLogSort $reading: a currentId page $what', async ({ reading }) => {
		const [a, b, c] = shuffledLogs(); // times: a 03:00, b 01:00, c 02:00
		sb.readings.set({ manualLogSort: reading });
		const page = async (currentId: string) =>
			(await api().get('/v1.0/logType', { params: { leadId: sortedLead, logType: 'logCall', sort: 'createTime', currentId } })).body.logType.map((e: { id: bigint }) => s(e.id));
		expect(await page(c)).toEqual(reading === 'spec' ? [a] : []);
		expect(await page(b)).toEqual(reading === 'spec' ? [c, a] : [c]);
	});

	it('currentId inclusive: the page starts at that entry', async () => {
		const all = (await list({ limit: 20, sort: 'id' })).body.logType.map((e: { id: bigint }) => s(e.id));
		sb.readings.set({ currentId: 'inclusive' });
		expect((await list({ limit: 3, sort: 'id', currentId: all[10] })).body.logType.map((e: { id: bigint }) => s(e.id))).toEqual(all.slice(10, 13));
	});

	it('limit outside 1..1000 silently becomes 10, a negative offset 0; offset + limit above 20000 is 400 200104', async () => {
		expect((await list({ limit: 0 })).body.logType).toHaveLength(10);
		expect((await list({ limit: 5000 })).body.logType).toHaveLength(10);
		expect((await list({ offset: -3, limit: 2 })).text).toBe((await list({ limit: 2 })).text);
		const over = await list({ offset: 19500, limit: 501 });
		expect([over.status, over.body.code]).toEqual([400, 200104]);
		expect((await list({ offset: 19500, limit: 500 })).status).toBe(200);
	});

	it('needs leadId and a valid logType; 404 LEAD_NOT_EXIST without access', async () => {
		const noType = await api().get('/v1.0/logType', { params: { leadId: HISTORY } });
		expect([noType.status, noType.body.code]).toEqual([400, 20012]);
		const badType = await list({ logType: 'logNote' });
		expect([badType.status, badType.body.code]).toEqual([400, 20012]);
		const noLead = await api().get('/v1.0/logType', { params: { logType: 'logCall' } });
		expect([noLead.status, noLead.body.code]).toEqual([400, 20012]);
		const badSort = await list({ sort: 'time' });
		expect([badSort.status, badSort.body.code]).toEqual([400, 20012]);
		const denied = await list({ leadId: SEED_IDS.notSharedLeadId });
		expect([denied.status, denied.body.code]).toEqual([404, 'LEAD_NOT_EXIST']);
	});
});

describe('GET and DELETE /v1.0/logType/{logTypeId}', () => {
	it('404 RESOURCE_NOT_EXIST for an id that is not a manual log, or another agent\'s entry', async () => {
		for (const id of [COMM_SEED.bigLeadCallId, '424242', COMM_SEED.notSharedLoggedCallId]) {
			const r = await api().get(`/v1.0/logType/${id}`);
			expect([id, r.status, r.body.code]).toEqual([id, 404, 'RESOURCE_NOT_EXIST']);
		}
		const ok = await api().get(`/v1.0/logType/${COMM_SEED.bigLeadLoggedEmailId}`);
		expect(ok.body.logType).toMatchObject({ emailSubject: 'Follow-up on Austin listings', toEmail: 'sarah.johnson@example.com', fromEmail: 'agent@lofty.com' });
	});

	it('deletes with an empty body; afterwards the entry is gone', async () => {
		const r = await del(COMM_SEED.bigLeadLoggedTextId);
		expect(r.status).toBe(200);
		expect(r.text).toBe('');
		expect((await api().get(`/v1.0/logType/${COMM_SEED.bigLeadLoggedTextId}`)).body.code).toBe('RESOURCE_NOT_EXIST');
		expect((await del(COMM_SEED.bigLeadLoggedTextId)).body.code).toBe('RESOURCE_NOT_EXIST');
	});

	it('refuses to delete other timeline entries (RESOURCE_NOT_EXIST), entries of inaccessible leads (LEAD_NOT_EXIST), and needs Content-Type', async () => {
		expect((await del(COMM_SEED.bigLeadTextId)).body.code).toBe('RESOURCE_NOT_EXIST');
		const denied = await del(COMM_SEED.notSharedLoggedCallId);
		expect([denied.status, denied.body.code]).toEqual([404, 'LEAD_NOT_EXIST']);
		const bare = await api().delete(`/v1.0/logType/${COMM_SEED.bigLeadLoggedCallId}`);
		expect([bare.status, bare.body.code]).toEqual([400, 20001]);
	});
});
