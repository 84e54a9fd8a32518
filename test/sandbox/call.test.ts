import { DEMO_API_KEY, OTHER_AGENT_API_KEY, SEED_IDS } from '../../sandbox';
import { COMM_SEED } from '../../sandbox/resources/communication';
import { client, s, useSandbox } from './helpers';

const sb = useSandbox();

const api = () => client(sb.url, { token: DEMO_API_KEY });
const other = () => client(sb.url, { token: OTHER_AGENT_API_KEY });
const HISTORY = COMM_SEED.historyLeadId;
const ALL_CALLS = COMM_SEED.historyDialerCalls + COMM_SEED.historyLoggedCalls;

describe('GET /v1.0/calls', () => {
	it('pages by offset/limit (default 10) with _metadata.total', async () => {
		const first = await api().get('/v1.0/calls', { params: { leadId: HISTORY } });
		expect(first.status).toBe(200);
		expect(first.body._metadata).toMatchObject({ collection: 'calls', limit: 10, offset: 0, total: ALL_CALLS });
		expect(first.body.calls).toHaveLength(10);
		const page = await api().get('/v1.0/calls', { params: { leadId: HISTORY, limit: 100, offset: ALL_CALLS - 50 } });
		expect(page.body.calls).toHaveLength(50);
		expect(page.body._metadata.offset).toBe(ALL_CALLS - 50);
	});

	it('limit 1 to 100, else LIMIT_NOT_VALID', async () => {
		for (const limit of [0, 101]) {
			const r = await api().get('/v1.0/calls', { params: { leadId: HISTORY, limit } });
			expect([r.status, r.body.code]).toEqual([400, 'LIMIT_NOT_VALID']);
		}
	});

	it('404 LEAD_NOT_FOUND for a missing, non-positive, unknown or trashed lead; 400 PERMISSION_DENIED without access', async () => {
		for (const params of [{}, { leadId: 0 }, { leadId: '123456789' }, { leadId: SEED_IDS.trashedLeadId }]) {
			const r = await api().get('/v1.0/calls', { params });
			expect([params, r.status, r.body.code]).toEqual([params, 404, 'LEAD_NOT_FOUND']);
		}
		const denied = await api().get('/v1.0/calls', { params: { leadId: SEED_IDS.notSharedLeadId } });
		expect([denied.status, denied.body.code]).toEqual([400, 'PERMISSION_DENIED']);
		expect((await other().get('/v1.0/calls', { params: { leadId: SEED_IDS.notSharedLeadId } })).status).toBe(200);
	});
});

describe('GET /v1.0/calls/{callId} and /v1.0/call/url/{callId}', () => {
	it('returns the call under "calls", by id or by dialer record id', async () => {
		const byId = await api().get(`/v1.0/calls/${COMM_SEED.bigLeadCallId}`);
		expect(byId.status).toBe(200);
		expect(s(byId.body.calls.id)).toBe(COMM_SEED.bigLeadCallId);
		expect(byId.body.calls).toMatchObject({ duration: 225, recordingSwitch: true, note: 'Discussed pre-approval timeline.' });
		expect(byId.text).toContain(`"leadId":${SEED_IDS.bigLeadId}`);
		const byDialer = await api().get(`/v1.0/calls/${COMM_SEED.bigLeadCallDialerId}`);
		expect(byDialer.text).toBe(byId.text);
	});

	it('gives a temporary recording URL, empty when the call was not recorded or logged', async () => {
		const recorded = await api().get(`/v1.0/call/url/${COMM_SEED.bigLeadCallId}`);
		expect(s(recorded.body.calls.id)).toBe(COMM_SEED.bigLeadCallId);
		expect(recorded.body.calls.url).toMatch(/^https:\/\/.+\.mp3/);
		for (const id of [COMM_SEED.bigLeadUnrecordedCallId, COMM_SEED.bigLeadLoggedCallId]) {
			expect((await api().get(`/v1.0/call/url/${id}`)).body.calls.url).toBe('');
		}
	});

	it('400 PERMISSION_DENIED for an unknown call, a non-call or another agent\'s lead; 404 LEAD_NOT_FOUND when the lead is trashed', async () => {
		for (const id of ['424242', COMM_SEED.bigLeadEmailId, COMM_SEED.notSharedCallId]) {
			for (const path of [`/v1.0/calls/${id}`, `/v1.0/call/url/${id}`]) {
				const r = await api().get(path);
				expect([path, r.status, r.body.code]).toEqual([path, 400, 'PERMISSION_DENIED']);
			}
		}
		const trashed = await api().get(`/v1.0/calls/${COMM_SEED.trashedLeadCallId}`);
		expect([trashed.status, trashed.body.code]).toEqual([404, 'LEAD_NOT_FOUND']);
		expect((await api().get('/v1.0/calls/0')).body.code).toBe(20012);
	});
});
