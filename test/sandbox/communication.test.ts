import { DEMO_API_KEY, OTHER_AGENT_API_KEY, SEED_IDS } from '../../sandbox';
import { COMM_SEED } from '../../sandbox/resources/communication';
import { client, s, useSandbox } from './helpers';

const sb = useSandbox();

const api = () => client(sb.url, { token: DEMO_API_KEY });
const other = () => client(sb.url, { token: OTHER_AGENT_API_KEY });
const HISTORY = COMM_SEED.historyLeadId;
const DAY = 86_400_000;
/** leadId with its leadUserId: what the call lists need under the spec's reading (and the node sends). */
const leadParams = (leadId: string) => ({ leadId, leadUserId: s(sb.store.getLead(leadId)!.leadUserId) });

describe('GET /v1.0/communication/{call,call/v2,email,text}', () => {
	it('default page of 10, oldest first by id, keyed by calls / emails / texts', async () => {
		for (const [path, key] of [
			['/v1.0/communication/call', 'calls'],
			['/v1.0/communication/call/v2', 'calls'],
			['/v1.0/communication/email', 'emails'],
			['/v1.0/communication/text', 'texts'],
		]) {
			const r = await api().get(path, { params: leadParams(HISTORY) });
			expect(r.status).toBe(200);
			const ids = r.body[key].map((e: { id: bigint }) => BigInt(e.id));
			expect(ids).toHaveLength(10);
			expect([...ids].sort((a, b) => (a < b ? -1 : 1))).toEqual(ids);
		}
	});

	it('V1 call history has dialer calls only; V2 adds logged calls and lower-case directions', async () => {
		const count = async (path: string) => {
			let n = 0;
			let currentId: string | undefined;
			for (;;) {
				const r = await api().get(path, { params: { ...leadParams(HISTORY), limit: 1000, currentId } });
				n += r.body.calls.length;
				if (r.body.calls.length < 1000) return { n, last: r.body.calls };
				currentId = s(r.body.calls[r.body.calls.length - 1].id);
			}
		};
		expect((await count('/v1.0/communication/call')).n).toBe(COMM_SEED.historyDialerCalls);
		const v2 = await count('/v1.0/communication/call/v2');
		expect(v2.n).toBe(COMM_SEED.historyDialerCalls + COMM_SEED.historyLoggedCalls);
		expect(['outbound', 'inbound']).toContain(v2.last[0].direction);
		const v1 = await api().get('/v1.0/communication/call', { params: { ...leadParams(HISTORY), limit: 1 } });
		expect(v1.body.calls[0]).toHaveProperty('dialerCallRecordId');
		expect(v1.body.calls[0].startTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
	});

	it('currentId returns the entries after that id, ignoring offset', async () => {
		const first = await api().get('/v1.0/communication/email', { params: { leadId: HISTORY, limit: 20 } });
		const tenth = s(first.body.emails[9].id);
		const next = await api().get('/v1.0/communication/email', { params: { leadId: HISTORY, limit: 5, currentId: tenth, offset: 100 } });
		expect(next.body.emails.map((e: { id: bigint }) => s(e.id))).toEqual(first.body.emails.slice(10, 15).map((e: { id: bigint }) => s(e.id)));
		const byOffset = await api().get('/v1.0/communication/email', { params: { leadId: HISTORY, limit: 5, offset: 10 } });
		expect(byOffset.body.emails.map((e: { id: bigint }) => s(e.id))).toEqual(first.body.emails.slice(10, 15).map((e: { id: bigint }) => s(e.id)));
	});

	it('currentId inclusive: the page starts at that id', async () => {
		const first = await api().get('/v1.0/communication/text', { params: { leadId: HISTORY, limit: 20 } });
		const ids = first.body.texts.map((e: { id: bigint }) => s(e.id));
		sb.readings.set({ currentId: 'inclusive' });
		const next = await api().get('/v1.0/communication/text', { params: { leadId: HISTORY, limit: 5, currentId: ids[9] } });
		expect(next.body.texts.map((e: { id: bigint }) => s(e.id))).toEqual(ids.slice(9, 14));
	});

	it('limit 1 to 1000: 0 is LIMIT_NOT_VALID, 1001 LIMIT_PARAM_OVERSIZE; a negative offset is 20012', async () => {
		expect((await api().get('/v1.0/communication/text', { params: { leadId: HISTORY, limit: 1000 } })).body.texts).toHaveLength(COMM_SEED.historyTexts);
		const zero = await api().get('/v1.0/communication/text', { params: { leadId: HISTORY, limit: 0 } });
		expect([zero.status, zero.body.code]).toEqual([400, 'LIMIT_NOT_VALID']);
		const big = await api().get('/v1.0/communication/text', { params: { leadId: HISTORY, limit: 1001 } });
		expect([big.status, big.body.code]).toEqual([400, 'LIMIT_PARAM_OVERSIZE']);
		const neg = await api().get('/v1.0/communication/text', { params: { leadId: HISTORY, offset: -1 } });
		expect([neg.status, neg.body.code]).toEqual([400, 20012]);
	});

	it('email and text lists take leadId or leadUserId, refuse neither and a mismatch', async () => {
		const lead = sb.store.getLead(HISTORY)!;
		const byUser = await api().get('/v1.0/communication/email', { params: { leadUserId: s(lead.leadUserId) } });
		const byLead = await api().get('/v1.0/communication/email', { params: { leadId: HISTORY } });
		expect(byUser.text).toBe(byLead.text);
		const none = await api().get('/v1.0/communication/text');
		expect([none.status, none.body.code]).toEqual([400, 'MISSING_PARAMETER']);
		const mismatch = await api().get('/v1.0/communication/email', { params: { leadId: SEED_IDS.bigLeadId, leadUserId: s(lead.leadUserId) } });
		expect([mismatch.status, mismatch.body.code]).toEqual([400, 20012]);
	});

	it('callHistoryLead spec: the call lists need leadUserId (400 MISSING_PARAMETER naming it); a leadId beside it must name the same lead', async () => {
		const lead = sb.store.getLead(HISTORY)!;
		for (const path of ['/v1.0/communication/call', '/v1.0/communication/call/v2']) {
			const r = await api().get(path, { params: { leadId: HISTORY } });
			expect([r.status, r.body.code]).toEqual([400, 'MISSING_PARAMETER']);
			expect(r.body.message).toMatch(/leadUserId/);
			const byUser = await api().get(path, { params: { leadUserId: s(lead.leadUserId) } });
			expect((await api().get(path, { params: leadParams(HISTORY) })).text).toBe(byUser.text);
			const mismatch = await api().get(path, { params: { leadId: SEED_IDS.bigLeadId, leadUserId: s(lead.leadUserId) } });
			expect([mismatch.status, mismatch.body.code]).toEqual([400, 20012]);
		}
	});

	it('callHistoryLead openapi: the call lists read leadId (400 MISSING_PARAMETER without it); leadUserId is ignored', async () => {
		sb.readings.set({ callHistoryLead: 'openapi' });
		const lead = sb.store.getLead(HISTORY)!;
		for (const path of ['/v1.0/communication/call', '/v1.0/communication/call/v2']) {
			const byLead = await api().get(path, { params: { leadId: HISTORY } });
			expect(byLead.status).toBe(200);
			expect((await api().get(path, { params: { leadId: HISTORY, leadUserId: s(sb.store.getLead(SEED_IDS.bigLeadId)!.leadUserId) } })).text).toBe(byLead.text);
			const r = await api().get(path, { params: { leadUserId: s(lead.leadUserId) } });
			expect([r.status, r.body.code]).toEqual([400, 'MISSING_PARAMETER']);
			expect(r.body.message).toMatch(/leadId/);
		}
	});

	it('404 LEAD_NOT_EXIST for an unknown or trashed lead; a lead of the team is readable', async () => {
		for (const leadId of ['123456789', SEED_IDS.trashedLeadId]) {
			const r = await api().get('/v1.0/communication/email', { params: { leadId } });
			expect([r.status, r.body.code]).toEqual([404, 'LEAD_NOT_EXIST']);
		}
		const teamLead = await api().get('/v1.0/communication/email', { params: { leadId: SEED_IDS.notSharedLeadId } });
		expect(teamLead.status).toBe(200);
	});

	it('writes ids above 2^53 exactly', async () => {
		const r = await api().get('/v1.0/communication/call/v2', { params: leadParams(SEED_IDS.bigLeadId) });
		expect(r.text).toContain(`"id":${COMM_SEED.bigLeadCallId}`);
		expect(r.text).toContain(`"leadId":${SEED_IDS.bigLeadId}`);
	});
});

describe('GET /v2.0/communication/{email,text,call}/{communicationId}', () => {
	it('returns the record of the requested kind', async () => {
		const email = await api().get(`/v2.0/communication/email/${COMM_SEED.bigLeadLoggedEmailId}`);
		expect(email.status).toBe(200);
		expect(email.body).toMatchObject({ direction: 'Outbound', emailType: 'Manual', emailSubject: 'Follow-up on Austin listings' });
		expect(Object.keys(email.body).sort()).toEqual(['agentId', 'direction', 'emailEventTime', 'emailSubject', 'emailType', 'eventType', 'fromPond', 'id', 'leadId']);
		const text = await api().get(`/v2.0/communication/text/${COMM_SEED.bigLeadTextId}`);
		expect(text.body).toMatchObject({ textOutcome: 'Delivered', textType: 'Manual' });
		const call = await api().get(`/v2.0/communication/call/${COMM_SEED.bigLeadCallId}`);
		expect(s(call.body.dialerCallRecordId)).toBe(COMM_SEED.bigLeadCallDialerId);
	});

	it('a logged call comes without dialer-only fields', async () => {
		const r = await api().get(`/v2.0/communication/call/${COMM_SEED.bigLeadLoggedCallId}`);
		expect(r.status).toBe(200);
		expect(r.body.leadPhoneNumber).toBe('5865865860');
		for (const field of ['dialerCallRecordId', 'status', 'elapsedTime', 'price']) expect(r.body).not.toHaveProperty(field);
	});

	it('400 PERMISSION_DENIED, the same for wrong kind, unknown id and a lead the caller cannot manage', async () => {
		const cases = [
			`/v2.0/communication/email/${COMM_SEED.bigLeadTextId}`,
			`/v2.0/communication/text/${COMM_SEED.bigLeadCallId}`,
			`/v2.0/communication/call/${COMM_SEED.bigLeadEmailId}`,
			'/v2.0/communication/email/424242',
			`/v2.0/communication/email/${COMM_SEED.notSharedEmailId}`,
			`/v2.0/communication/call/${COMM_SEED.trashedLeadCallId}`,
		];
		for (const path of cases) {
			const r = await api().get(path);
			expect([path, r.status, r.body.code]).toEqual([path, 400, 'PERMISSION_DENIED']);
		}
		expect((await other().get(`/v2.0/communication/email/${COMM_SEED.notSharedEmailId}`)).status).toBe(200);
		expect((await api().get(`/v2.0/communication/email/${COMM_SEED.sharedLeadEmailId}`)).status).toBe(200);
	});

	it('communicationId must be an integer of at least 1 (20012)', async () => {
		for (const bad of ['0', 'abc']) {
			const r = await api().get(`/v2.0/communication/text/${bad}`);
			expect([r.status, r.body.code]).toEqual([400, 20012]);
		}
	});
});

describe('GET /v2.0/communication/agent', () => {
	const window = { startTime: COMM_SEED.windowStart, endTime: COMM_SEED.windowEnd };

	it('pages with an opaque cursor; a full last page is followed by an empty page with nextCursor null', async () => {
		const first = await api().get('/v2.0/communication/agent', { params: { ...window, type: 'CALL', limit: 1000 } });
		expect(first.status).toBe(200);
		expect(first.body).toMatchObject({ limit: 1000, totalCount: COMM_SEED.windowCalls, hasMore: true });
		expect(first.body.data).toHaveLength(1000);
		expect(typeof first.body.nextCursor).toBe('string');
		const last = await api().get('/v2.0/communication/agent', { params: { ...window, type: 'CALL', limit: 1000, cursor: first.body.nextCursor } });
		expect(last.body.data).toEqual([]);
		expect(last.body.nextCursor).toBeNull();
		expect(last.body.hasMore).toBe(false);
	});

	it('type ALL (the default) merges calls, texts and emails, oldest first', async () => {
		const r = await api().get('/v2.0/communication/agent', { params: { ...window, limit: 5 } });
		const total = COMM_SEED.windowCalls + COMM_SEED.windowTexts + COMM_SEED.windowEmails;
		expect(r.body.totalCount).toBe(total);
		const kinds = new Set<string>();
		let cursor: string | null = null;
		let n = 0;
		do {
			const page: any = await api().get('/v2.0/communication/agent', { params: { ...window, type: 'ALL', limit: 1000, ...(cursor ? { cursor } : {}) } });
			page.body.data.forEach((e: { eventType: string }) => kinds.add(e.eventType.replace(/^\w+ Email$/, 'Email')));
			const times = page.body.data.map((e: { communicationTime: string }) => Date.parse(e.communicationTime));
			expect([...times].sort((a, b) => a - b)).toEqual(times);
			n += page.body.data.length;
			cursor = page.body.nextCursor;
		} while (cursor);
		expect(n).toBe(total);
		expect([...kinds].sort()).toEqual(['Call', 'Email', 'Text']);
	});

	it('teamView adds the team\'s communications for an owner; 403 ACCESS_ALL_TEAM_LEADS for an agent', async () => {
		const team = await api().get('/v2.0/communication/agent', { params: { ...window, teamView: true, limit: 1 } });
		expect(team.body.totalCount).toBe(COMM_SEED.windowCalls + COMM_SEED.windowTexts + COMM_SEED.windowEmails + COMM_SEED.windowOtherAgent);
		const own = await other().get('/v2.0/communication/agent', { params: { ...window, limit: 1 } });
		expect(own.body.totalCount).toBe(COMM_SEED.windowOtherAgent);
		const denied = await other().get('/v2.0/communication/agent', { params: { ...window, teamView: true } });
		expect([denied.status, denied.body.code]).toEqual([403, 'ACCESS_ALL_TEAM_LEADS']);
	});

	it('validates the window, limit, type and cursor', async () => {
		const cases: Array<[Record<string, unknown>, number, unknown]> = [
			[{ endTime: COMM_SEED.windowEnd }, 400, 'MISSING_PARAMETER'],
			[{ ...window, endTime: COMM_SEED.windowStart + 90 * DAY + 1 }, 400, 20012],
			[{ ...window, endTime: COMM_SEED.windowStart - 1 }, 400, 20012],
			[{ ...window, startTime: '2025-03-01' }, 400, 20012],
			[{ ...window, limit: 0 }, 400, 'LIMIT_NOT_VALID'],
			[{ ...window, limit: 1001 }, 400, 'LIMIT_PARAM_OVERSIZE'],
			[{ ...window, type: 'call' }, 400, 20012],
			[{ ...window, cursor: 'not-a-cursor' }, 400, 20012],
		];
		for (const [params, status, code] of cases) {
			const r = await api().get('/v2.0/communication/agent', { params });
			expect([params, r.status, r.body.code]).toEqual([params, status, code]);
		}
		expect((await api().get('/v2.0/communication/agent', { params: { ...window, endTime: COMM_SEED.windowStart + 90 * DAY } })).status).toBe(200);
		const first = await api().get('/v2.0/communication/agent', { params: { ...window, type: 'CALL', limit: 10 } });
		const reused = await api().get('/v2.0/communication/agent', { params: { ...window, type: 'TEXT', limit: 10, cursor: first.body.nextCursor } });
		expect([reused.status, reused.body.code]).toEqual([400, 20012]);
	});
});

describe('POST /v1.0/agent/communication', () => {
	const day = { startTime: COMM_SEED.busyDay, endTime: COMM_SEED.busyDay + DAY - 1 };

	it('offset/limit in the body, PageResult with a boolean hasMore', async () => {
		const first = await api().post('/v1.0/agent/communication', { body: { ...day, type: 'ALL', limit: 1000 } });
		expect(first.status).toBe(200);
		expect(first.body).toMatchObject({ offset: 0, limit: 1000, hasMore: true });
		expect(first.body.pageData).toHaveLength(1000);
		const second = await api().post('/v1.0/agent/communication', { body: { ...day, type: 'ALL', limit: 1000, offset: 1000 } });
		expect(second.body.pageData).toHaveLength(COMM_SEED.busyDayCount - 1000);
		expect(second.body.hasMore).toBe(false);
		const texts = await api().post('/v1.0/agent/communication', { body: { ...day, type: 'TEXT' } });
		expect(texts.body.limit).toBe(10);
		expect(texts.body.pageData.every((e: { eventType: string }) => e.eventType === 'Text')).toBe(true);
	});

	it('needs type, startTime and endTime, a window of at most 24 hours, and the permission for teamView', async () => {
		for (const body of [{ startTime: day.startTime, endTime: day.endTime }, { type: 'ALL', startTime: day.startTime }, { ...day, type: 'ALL', endTime: day.startTime + DAY + 1 }]) {
			const r = await api().post('/v1.0/agent/communication', { body });
			expect([r.status, r.body.code]).toEqual([400, 20012]);
		}
		const r = await api().post('/v1.0/agent/communication', { body: { ...day, type: 'ALL', limit: 1001 } });
		expect([r.status, r.body.code]).toEqual([400, 'LIMIT_PARAM_OVERSIZE']);
		const denied = await other().post('/v1.0/agent/communication', { body: { ...day, type: 'ALL', teamView: true } });
		expect([denied.status, denied.body.code]).toEqual([403, 'ACCESS_ALL_TEAM_LEADS']);
	});
});

describe('POST /v1.0/message/sms/send and /v1.0/message/email/send', () => {
	it('sends an SMS to the lead\'s primary phone and records it in the text history', async () => {
		const lead = sb.store.getLead(SEED_IDS.bigLeadId)!;
		lead.phones = ['+14155551234', '+14155559876'];
		const r = await api().post('/v1.0/message/sms/send', { body: { leadId: SEED_IDS.bigLeadId, content: 'Hello!' } });
		expect(r.status).toBe(200);
		expect(r.body).toMatchObject({ phoneNumber: '4155551234', phoneCode: '1' });
		expect(typeof r.body.messageId).toBe('string');
		const chosen = await api().post('/v1.0/message/sms/send', { body: { leadId: SEED_IDS.bigLeadId, content: 'Hi', phoneNumber: '4155559876', phoneCode: '1' } });
		expect(chosen.body.phoneNumber).toBe('4155559876');
		const texts = await api().get('/v1.0/communication/text', { params: { leadId: SEED_IDS.bigLeadId, limit: 100 } });
		expect(texts.body.texts.map((t: { textContent: string }) => t.textContent)).toEqual(expect.arrayContaining(['Hello!', 'Hi']));
	});

	it('refuses SMS without content, to a lead without phone, without a virtual number, or to a lead the caller cannot manage', async () => {
		const noContent = await api().post('/v1.0/message/sms/send', { body: { leadId: SEED_IDS.bigLeadId, content: ' ' } });
		expect([noContent.status, noContent.body.code]).toEqual([400, 20012]);
		sb.store.getLead(SEED_IDS.bigLeadId2)!.phones = [];
		const noPhone = await api().post('/v1.0/message/sms/send', { body: { leadId: SEED_IDS.bigLeadId2, content: 'x' } });
		expect([noPhone.status, noPhone.body.code]).toEqual([400, 20012]);
		const noNumber = await other().post('/v1.0/message/sms/send', { body: { leadId: SEED_IDS.sharedLeadId, content: 'x' } });
		expect([noNumber.status, noNumber.body.code]).toEqual([400, 20012]);
		expect(noNumber.body.message).toMatch(/virtual number/);
		const denied = await api().post('/v1.0/message/sms/send', { body: { leadId: SEED_IDS.notSharedLeadId, content: 'x' } });
		expect([denied.status, denied.body.code]).toEqual([400, 'PERMISSION_DENIED']);
	});

	it('sends an email to the chosen address of the lead, else to the primary one', async () => {
		const lead = sb.store.getLead(SEED_IDS.bigLeadId)!;
		lead.emails = ['first@example.com', 'second@example.com'];
		const chosen = await api().post('/v1.0/message/email/send', { body: { leadId: SEED_IDS.bigLeadId, subject: 'S', content: 'C', toEmail: 'second@example.com' } });
		expect(chosen.body).toMatchObject({ toEmail: 'second@example.com', subject: 'S' });
		const fallback = await api().post('/v1.0/message/email/send', { body: { leadId: SEED_IDS.bigLeadId, subject: 'S', content: 'C', toEmail: 'stranger@example.com' } });
		expect(fallback.body.toEmail).toBe('first@example.com');
		const missing = await api().post('/v1.0/message/email/send', { body: { leadId: SEED_IDS.bigLeadId, content: 'C' } });
		expect([missing.status, missing.body.code]).toEqual([400, 20012]);
		const denied = await api().post('/v1.0/message/email/send', { body: { leadId: '123456789', subject: 'S', content: 'C' } });
		expect([denied.status, denied.body.code]).toEqual([400, 'PERMISSION_DENIED']);
	});
});
