import { SEED_IDS } from '../../sandbox';
import { COMM_SEED } from '../../sandbox/resources/communication';
import { byId, run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const HISTORY = COMM_SEED.historyLeadId;
const ALL_CALLS = COMM_SEED.historyDialerCalls + COMM_SEED.historyLoggedCalls;
const call = (operation: string, extra: Record<string, unknown> = {}) => ({ resource: 'call', operation, ...extra });

describe('Call: Get Many', () => {
	it('Return All pages 100 at a time by offset until _metadata.total is reached', async () => {
		const items = await run(sandbox(), call('getAll', { leadId: byId(HISTORY), returnAll: true }));
		expect(items).toHaveLength(ALL_CALLS);
		expect(sandbox().requests).toHaveLength(Math.ceil(ALL_CALLS / 100));
		expect(sandbox().requests.slice(0, 3).map((r) => [r.query.offset, r.query.limit])).toEqual([
			['0', '100'],
			['100', '100'],
			['200', '100'],
		]);
		expect(new Set(items.map((i) => i.json.id)).size).toBe(ALL_CALLS);
	});

	it('Limit 150 asks for 100 then 50', async () => {
		const items = await run(sandbox(), call('getAll', { leadId: byId(HISTORY), limit: 150 }));
		expect(items).toHaveLength(150);
		expect(sandbox().requests.map((r) => [r.query.offset, r.query.limit])).toEqual([
			['0', '100'],
			['100', '50'],
		]);
	});

	it('explains LEAD_NOT_FOUND (trashed lead) and PERMISSION_DENIED (another agent\'s lead)', async () => {
		const gone = await runError(sandbox(), call('getAll', { leadId: byId(SEED_IDS.trashedLeadId) }));
		expect(gone.message).toMatch(/^Lofty error \(HTTP 404 LEAD_NOT_FOUND\)/);
		expect(gone.description).toMatch(/trash/);
		const denied = await runError(sandbox(), call('getAll', { leadId: byId(SEED_IDS.notSharedLeadId) }));
		expect(denied.message).toMatch(/^Lofty error \(HTTP 400 PERMISSION_DENIED\)/);
		expect(denied.description).toMatch(/shared with you/);
	});
});

describe('Call: Get', () => {
	it('unwraps "calls", keeps IDs exact and simplifies by default', async () => {
		const [item] = await run(sandbox(), call('get', { callId: COMM_SEED.bigLeadCallId }));
		expect(item.json).toMatchObject({ id: COMM_SEED.bigLeadCallId, leadId: SEED_IDS.bigLeadId, duration: 225, note: 'Discussed pre-approval timeline.' });
		expect(item.json).not.toHaveProperty('calls');
		expect(item.json).not.toHaveProperty('price');
		const [full] = await run(sandbox(), call('get', { callId: COMM_SEED.bigLeadCallDialerId, simplify: false }));
		expect(full.json).toMatchObject({ id: COMM_SEED.bigLeadCallId, recordingSwitch: true });
	});

	it('explains PERMISSION_DENIED for an unknown call and LEAD_NOT_FOUND when the lead is in the trash', async () => {
		const unknown = await runError(sandbox(), call('get', { callId: '424242' }));
		expect(unknown.message).toMatch(/HTTP 400 PERMISSION_DENIED/);
		expect(unknown.description).toMatch(/does not exist or its lead is not yours/);
		const trashed = await runError(sandbox(), call('get', { callId: COMM_SEED.trashedLeadCallId }));
		expect(trashed.message).toMatch(/HTTP 404 LEAD_NOT_FOUND/);
		expect(trashed.description).toMatch(/does not exist any more/);
	});

	it('refuses a Call ID that is not a whole number before sending', async () => {
		const error = await runError(sandbox(), call('get', { callId: '-5' }));
		expect(error.message).toMatch(/^Invalid value for "Call ID"/);
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('Call: Get Recording URL', () => {
	it('returns the temporary URL and says whether there is a recording', async () => {
		const [recorded] = await run(sandbox(), call('getRecordingUrl', { callId: COMM_SEED.bigLeadCallId }));
		expect(recorded.json).toMatchObject({ id: COMM_SEED.bigLeadCallId, hasRecording: true });
		expect(recorded.json.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/recordings\/\d+\.wav\?expires=\d+&signature=[0-9a-f]{32}$/);
		const [none] = await run(sandbox(), call('getRecordingUrl', { callId: COMM_SEED.bigLeadUnrecordedCallId }));
		expect(none.json).toEqual({ id: COMM_SEED.bigLeadUnrecordedCallId, url: '', hasRecording: false });
	});

	it('explains PERMISSION_DENIED for a call on another agent\'s lead', async () => {
		const error = await runError(sandbox(), call('getRecordingUrl', { callId: COMM_SEED.notSharedCallId }));
		expect(error.message).toMatch(/HTTP 400 PERMISSION_DENIED/);
	});
});

describe('Call: Get By Communication ID', () => {
	it('returns a logged call without dialer details, and explains PERMISSION_DENIED for a non-call', async () => {
		const [logged] = await run(sandbox(), call('getByCommunicationId', { communicationId: COMM_SEED.bigLeadLoggedCallId, simplify: false }));
		expect(logged.json).toMatchObject({ id: COMM_SEED.bigLeadLoggedCallId, leadPhoneNumber: '5865865860', callingOutcome: 'VoiceMessage' });
		expect(logged.json).not.toHaveProperty('dialerCallRecordId');
		const error = await runError(sandbox(), call('getByCommunicationId', { communicationId: COMM_SEED.bigLeadTextId }));
		expect(error.message).toMatch(/HTTP 400 PERMISSION_DENIED/);
		expect(error.description).toMatch(/not a call/);
	});
});
