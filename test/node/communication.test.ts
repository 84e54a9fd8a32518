import { READING_VALUES, SEED_IDS } from '../../sandbox';
import { COMM_SEED } from '../../sandbox/resources/communication';
import { communicationMethods } from '../../nodes/Lofty/methods/communication';
import { createContext } from '../harness/context';
import { apiKeyCredential, byId, node, run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const HISTORY = COMM_SEED.historyLeadId;
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const asOtherAgent = () => ({ credential: apiKeyCredential(sandbox(), sandbox().otherAgentApiKey) });
const comm = (operation: string, extra: Record<string, unknown> = {}) => ({ resource: 'communication', operation, ...extra });

// docs/api-readings.md, row 3: the spec's call lists need leadUserId, the OpenAPI's read leadId; the node sends both.
describe.each(READING_VALUES.callHistoryLead)('Communication: call history (callHistoryLead %s)', (reading) => {
	beforeEach(() => sandbox().readings.set({ callHistoryLead: reading }));
	const leadUserIdOf = (leadId: string) => String(sandbox().store.getLead(leadId)!.leadUserId);

	it('Get Call History (V2) returns dialer and logged calls, 1000 per request by currentId, with leadId and the looked-up leadUserId', async () => {
		const items = await run(sandbox(), comm('getCallHistory', { leadId: byId(HISTORY), returnAll: true }));
		expect(items).toHaveLength(COMM_SEED.historyDialerCalls + COMM_SEED.historyLoggedCalls);
		const requests = sandbox().requests;
		expect(requests.map((r) => r.path)).toEqual([`/v1.0/leads/${HISTORY}`, ...Array(3).fill('/v1.0/communication/call/v2')]);
		const pages = requests.slice(1);
		expect(pages.map((r) => r.query.limit)).toEqual(['1000', '1000', '1000']);
		expect(pages[0].query.currentId).toBeUndefined();
		expect(pages[1].query.currentId).toBe(items[999].json.id);
		for (const page of pages) expect(page.query).toMatchObject({ leadId: HISTORY, leadUserId: leadUserIdOf(HISTORY) });
		expect(new Set(items.map((i) => i.json.id)).size).toBe(items.length);
		expect(typeof items[0].json.id).toBe('string');
		expect(items.some((i) => i.json.communicationType === 'LOGGED')).toBe(true);
	});

	it('Limit asks for one page of that size; a given Lead User ID saves the lookup', async () => {
		const items = await run(sandbox(), comm('getCallHistory', { leadId: byId(HISTORY), limit: 7 }));
		expect(items).toHaveLength(7);
		expect(sandbox().requests.map((r) => [r.path, r.query.limit])).toEqual([[`/v1.0/leads/${HISTORY}`, undefined], ['/v1.0/communication/call/v2', '7']]);
		sandbox().requests.length = 0;
		const again = await run(sandbox(), comm('getCallHistory', { leadId: byId(HISTORY), limit: 5, options: { leadUserId: leadUserIdOf(HISTORY) } }));
		expect(again).toHaveLength(5);
		expect(sandbox().requests.map((r) => r.path)).toEqual(['/v1.0/communication/call/v2']);
	});

	it('Get Call History (V1): dialer calls only, simplified unless Simplify is off; one lookup per lead in an execution', async () => {
		const items = await run(sandbox(), comm('getCallHistoryV1', { leadId: byId(HISTORY), returnAll: true }));
		expect(items).toHaveLength(COMM_SEED.historyDialerCalls);
		expect(sandbox().count('GET', '/v1.0/communication/call')).toBe(2);
		expect(Object.keys(items[0].json).sort()).toEqual(
			['agentId', 'callingOutcome', 'dialerCallRecordId', 'direction', 'duration', 'id', 'leadId', 'leadPhoneNumber', 'note', 'startTime', 'status', 'userId'].sort(),
		);
		sandbox().requests.length = 0;
		const three = await run(sandbox(), comm('getCallHistoryV1', { leadId: byId(HISTORY), limit: 1, simplify: false }), { items: [{}, {}, {}] });
		expect(three).toHaveLength(3);
		expect(three[0].json).toHaveProperty('price');
		expect(three[0].json).toHaveProperty('recordingSwitch');
		expect(sandbox().count('GET', '/v1.0/leads/{leadId}')).toBe(1);
	});

	it('a lead that does not exist fails with the lookup\'s LEAD_NOT_EXIST, nothing else sent', async () => {
		const error = await runError(sandbox(), comm('getCallHistory', { leadId: byId('123456789') }));
		expect(error.message).toMatch(/^Lofty error \(HTTP 404 LEAD_NOT_EXIST\)/);
		expect(sandbox().count('GET', '/v1.0/communication/call/v2')).toBe(0);
	});
});

describe('Communication: history of a lead', () => {
	it('Get Email History and Get Text History return all entries of the lead', async () => {
		const emails = await run(sandbox(), comm('getEmailHistory', { leadId: byId(HISTORY), returnAll: true }));
		expect(emails).toHaveLength(COMM_SEED.historyEmails);
		expect(emails[0].json).toHaveProperty('emailSubject');
		const texts = await run(sandbox(), comm('getTextHistory', { leadId: byId(HISTORY), returnAll: true }));
		expect(texts).toHaveLength(COMM_SEED.historyTexts);
		expect(sandbox().count('GET', '/v1.0/communication/email')).toBe(1);
		expect(sandbox().count('GET', '/v1.0/communication/text')).toBe(1);
	});

	it('explains LEAD_NOT_EXIST for a trashed lead', async () => {
		const error = await runError(sandbox(), comm('getTextHistory', { leadId: byId(SEED_IDS.trashedLeadId) }));
		expect(error.message).toMatch(/^Lofty error \(HTTP 404 LEAD_NOT_EXIST\)/);
		expect(error.description).toMatch(/not in your Lofty team/);
	});
});

describe('Communication: single lookups (V2)', () => {
	it('Get Email, Get Text and Get Call return the record, IDs as exact strings', async () => {
		const [email] = await run(sandbox(), comm('getEmail', { communicationId: COMM_SEED.bigLeadLoggedEmailId }));
		expect(email.json).toMatchObject({ id: COMM_SEED.bigLeadLoggedEmailId, leadId: SEED_IDS.bigLeadId, emailSubject: 'Follow-up on Austin listings' });
		const [text] = await run(sandbox(), comm('getText', { communicationId: COMM_SEED.bigLeadTextId }));
		expect(text.json).toMatchObject({ id: COMM_SEED.bigLeadTextId, textOutcome: 'Delivered' });
		const [call] = await run(sandbox(), comm('getCall', { communicationId: COMM_SEED.bigLeadCallId }));
		expect(call.json).toMatchObject({ id: COMM_SEED.bigLeadCallId, dialerCallRecordId: COMM_SEED.bigLeadCallDialerId, duration: 225 });
		expect(call.json).not.toHaveProperty('price');
	});

	it('explains PERMISSION_DENIED (HTTP 400) for an ID of another kind or another agent\'s lead', async () => {
		for (const [operation, id] of [
			['getEmail', COMM_SEED.bigLeadTextId],
			['getText', COMM_SEED.notSharedTextId],
			['getCall', COMM_SEED.bigLeadEmailId],
		]) {
			const error = await runError(sandbox(), comm(operation, { communicationId: id }));
			expect(error.message).toMatch(/^Lofty error \(HTTP 400 PERMISSION_DENIED\)/);
			expect(error.description).toMatch(/timelineId/);
		}
	});

	it('refuses an ID that is not a whole number before sending', async () => {
		const error = await runError(sandbox(), comm('getEmail', { communicationId: '12ab' }));
		expect(error.message).toMatch(/^Invalid value for "Communication ID": must be a Lofty ID/);
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('Communication: Search Agent Communications (V2, cursor)', () => {
	const window = { startTime: iso(COMM_SEED.windowStart), endTime: iso(COMM_SEED.windowEnd) };

	it('Return All follows nextCursor to the end, including an empty last page', async () => {
		const items = await run(sandbox(), comm('searchByAgent', { ...window, returnAll: true, filters: { type: 'CALL' } }));
		expect(items).toHaveLength(COMM_SEED.windowCalls);
		// 1000 calls: a full page, then the empty page that carries nextCursor null
		expect(sandbox().requests).toHaveLength(2);
		const [first, second] = sandbox().requests;
		expect(first.query).toMatchObject({ startTime: String(COMM_SEED.windowStart), endTime: String(COMM_SEED.windowEnd), type: 'CALL', limit: '1000' });
		expect(first.query.cursor).toBeUndefined();
		expect(typeof second.query.cursor).toBe('string');
	});

	it('all kinds together: 2000 entries in 3 requests; Limit asks for one page', async () => {
		const items = await run(sandbox(), comm('searchByAgent', { ...window, returnAll: true }));
		expect(items).toHaveLength(COMM_SEED.windowCalls + COMM_SEED.windowTexts + COMM_SEED.windowEmails);
		expect(sandbox().count('GET', '/v2.0/communication/agent')).toBe(3);
		sandbox().reset();
		const some = await run(sandbox(), comm('searchByAgent', { ...window, limit: 25 }));
		expect(some).toHaveLength(25);
		expect(sandbox().requests.map((r) => r.query.limit)).toEqual(['25']);
	});

	it('Whole Team needs ACCESS_ALL_TEAM_LEADS: 403 explained for an agent', async () => {
		const team = await run(sandbox(), comm('searchByAgent', { ...window, returnAll: true, filters: { teamView: true } }));
		expect(team.length).toBe(COMM_SEED.windowCalls + COMM_SEED.windowTexts + COMM_SEED.windowEmails + COMM_SEED.windowOtherAgent);
		const error = await runError(sandbox(), comm('searchByAgent', { ...window, filters: { teamView: true } }), asOtherAgent());
		expect(error.message).toMatch(/^Lofty error \(HTTP 403 ACCESS_ALL_TEAM_LEADS\)/);
		expect(error.description).toMatch(/Access All Team Leads/);
	});

	it('checks the period before sending: at most 90 days, To not before From, required dates', async () => {
		const tooLong = await runError(sandbox(), comm('searchByAgent', { startTime: iso(COMM_SEED.windowStart), endTime: iso(COMM_SEED.windowStart + 90 * DAY + 1000) }));
		expect(tooLong.message).toMatch(/^Invalid value for "To": must be at most 90 days after From/);
		const reversed = await runError(sandbox(), comm('searchByAgent', { startTime: window.endTime, endTime: window.startTime }));
		expect(reversed.message).toBe('Invalid value for "To": must not be earlier than From');
		const missing = await runError(sandbox(), comm('searchByAgent', { startTime: window.startTime, endTime: '' }));
		expect(missing.message).toBe('Invalid value for "To": is required');
		expect(sandbox().requests).toHaveLength(0);
	});
});

// docs/api-readings.md, row 8: without type, Lofty's default is undocumented (the spec describes ALL): type=ALL is sent.
describe.each(READING_VALUES.communicationType)('Communication: Search Agent Communications without a type (communicationType %s)', (reading) => {
	beforeEach(() => sandbox().readings.set({ communicationType: reading }));
	const window = { startTime: iso(COMM_SEED.windowStart), endTime: iso(COMM_SEED.windowEnd) };

	it('returns calls, texts and emails, sending type=ALL on every page', async () => {
		const items = await run(sandbox(), comm('searchByAgent', { ...window, returnAll: true }));
		expect(items).toHaveLength(COMM_SEED.windowCalls + COMM_SEED.windowTexts + COMM_SEED.windowEmails);
		expect(sandbox().requests.map((r) => r.query.type)).toEqual(['ALL', 'ALL', 'ALL']);
	});
});

// docs/api-readings.md, row 9: currentId is the last record's id, the next page after it (spec) or from it (inclusive).
describe.each(READING_VALUES.currentId)('Communication: history paging (currentId %s)', (reading) => {
	beforeEach(() => sandbox().readings.set({ currentId: reading }));

	it('Return All of the call history returns every call once', async () => {
		const items = await run(sandbox(), comm('getCallHistory', { leadId: byId(HISTORY), returnAll: true }));
		const ids = items.map((i) => i.json.id);
		expect(ids).toHaveLength(COMM_SEED.historyDialerCalls + COMM_SEED.historyLoggedCalls);
		expect(new Set(ids).size).toBe(ids.length);
		const pages = sandbox().requests.filter((r) => r.path === '/v1.0/communication/call/v2');
		expect(pages).toHaveLength(3);
		expect(pages[1].query.currentId).toBe(ids[999]);
	});

	it('a Limit across pages gets exactly that many, each once', async () => {
		const items = await run(sandbox(), comm('getCallHistory', { leadId: byId(HISTORY), limit: 1500 }));
		expect(new Set(items.map((i) => i.json.id)).size).toBe(1500);
	});
});

describe('Communication: Search Agent Communications (V1, 24 hours)', () => {
	const day = { startTime: iso(COMM_SEED.busyDay), endTime: iso(COMM_SEED.busyDay + DAY - 1) };

	it('Return All pages offset/limit in the body until hasMore is false', async () => {
		const items = await run(sandbox(), comm('searchByAgentV1', { type: 'ALL', ...day, returnAll: true }));
		expect(items).toHaveLength(COMM_SEED.busyDayCount);
		const bodies = sandbox().requests.map((r) => JSON.parse(r.body));
		expect(bodies.map((b) => [b.offset, b.limit])).toEqual([
			[0, 1000],
			[1000, 1000],
		]);
		expect(bodies[0]).toMatchObject({ type: 'ALL', startTime: COMM_SEED.busyDay, endTime: COMM_SEED.busyDay + DAY - 1 });
	});

	it('refuses a period over 24 hours before sending; explains a refused team view', async () => {
		const error = await runError(sandbox(), comm('searchByAgentV1', { type: 'TEXT', startTime: day.startTime, endTime: iso(COMM_SEED.busyDay + DAY + 1) }));
		expect(error.message).toMatch(/^Invalid value for "To": must be at most 24 hours after From/);
		expect(sandbox().requests).toHaveLength(0);
		const denied = await runError(sandbox(), comm('searchByAgentV1', { type: 'ALL', ...day, filters: { teamView: true } }), asOtherAgent());
		expect(denied.message).toMatch(/HTTP 403 ACCESS_ALL_TEAM_LEADS/);
	});
});

describe('Communication: Send SMS and Send Email', () => {
	it('sends an SMS to a chosen number of the lead and it shows in the text history', async () => {
		sandbox().store.getLead(SEED_IDS.bigLeadId)!.phones = ['+14155551234', '+14155559876'];
		const [sent] = await run(sandbox(), comm('sendSms', { leadId: byId(SEED_IDS.bigLeadId), content: 'See you at 5', additionalFields: { phoneNumber: '4155559876', phoneCode: '1' } }));
		expect(sent.json).toMatchObject({ phoneNumber: '4155559876', phoneCode: '1' });
		expect(Object.keys(JSON.parse(sandbox().requests[0].body)).sort()).toEqual(['content', 'leadId', 'phoneCode', 'phoneNumber']);
		expect(sandbox().requests[0].body).toContain(`"leadId":${SEED_IDS.bigLeadId}`);
		const texts = await run(sandbox(), comm('getTextHistory', { leadId: byId(SEED_IDS.bigLeadId), returnAll: true }));
		expect(texts.map((t) => t.json.textContent)).toContain('See you at 5');
	});

	it('refuses Country Code without Phone Number before sending', async () => {
		const error = await runError(sandbox(), comm('sendSms', { leadId: byId(SEED_IDS.bigLeadId), content: 'x', additionalFields: { phoneCode: '1' } }));
		expect(error.message).toMatch(/^Invalid value for "Country Code": is used only together with Phone Number/);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('explains PERMISSION_DENIED for another agent\'s lead and 20012 without a virtual number', async () => {
		const denied = await runError(sandbox(), comm('sendSms', { leadId: byId(SEED_IDS.notSharedLeadId), content: 'x' }));
		expect(denied.message).toMatch(/^Lofty error \(HTTP 400 PERMISSION_DENIED\)/);
		expect(denied.description).toMatch(/may not message this lead/);
		const noNumber = await runError(sandbox(), comm('sendSms', { leadId: byId(SEED_IDS.sharedLeadId), content: 'x' }), asOtherAgent());
		expect(noNumber.message).toMatch(/HTTP 400 20012.*virtual number/);
		expect(noNumber.description).toMatch(/virtual number/);
	});

	it('sends an email to the chosen address; the dropdown lists the lead\'s addresses', async () => {
		sandbox().store.getLead(SEED_IDS.bigLeadId)!.emails = ['first@example.com', 'second@example.com'];
		const ctx = Object.assign(createContext(node, { params: { authentication: 'apiKey' }, credential: apiKeyCredential(sandbox()) }), {
			getCurrentNodeParameter: (name: string) => (name === 'leadId' ? SEED_IDS.bigLeadId : undefined),
		}) as any;
		const options = await communicationMethods.loadOptions.getLeadEmails.call(ctx);
		expect(options).toEqual([
			{ name: 'first@example.com (primary)', value: 'first@example.com' },
			{ name: 'second@example.com', value: 'second@example.com' },
		]);
		const [sent] = await run(sandbox(), comm('sendEmail', { leadId: byId(SEED_IDS.bigLeadId), subject: 'Open house', content: 'Saturday 2pm', additionalFields: { toEmail: 'second@example.com' } }));
		expect(sent.json).toMatchObject({ toEmail: 'second@example.com', subject: 'Open house' });
		const emails = await run(sandbox(), comm('getEmailHistory', { leadId: byId(SEED_IDS.bigLeadId), returnAll: true }));
		expect(emails.map((e) => e.json.emailSubject)).toContain('Open house');
	});

	it('needs a subject before sending; explains PERMISSION_DENIED', async () => {
		const error = await runError(sandbox(), comm('sendEmail', { leadId: byId(SEED_IDS.bigLeadId), subject: ' ', content: 'x' }));
		expect(error.message).toBe('Invalid value for "Subject": is required');
		expect(sandbox().requests).toHaveLength(0);
		const denied = await runError(sandbox(), comm('sendEmail', { leadId: byId(SEED_IDS.notSharedLeadId), subject: 's', content: 'x' }));
		expect(denied.message).toMatch(/HTTP 400 PERMISSION_DENIED/);
	});
});
