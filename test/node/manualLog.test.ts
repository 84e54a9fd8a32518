import { READING_VALUES, SEED_IDS } from '../../sandbox';
import { COMM_SEED, commState } from '../../sandbox/resources/communication';
import { manualLog } from '../../nodes/Lofty/resources/manualLog';
import { byId, node, run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const HISTORY = COMM_SEED.historyLeadId;
const log = (operation: string, extra: Record<string, unknown> = {}) => ({ resource: 'manualLog', operation, ...extra });
const createCall = (extra: Record<string, unknown> = {}) =>
	log('create', { leadId: byId(SEED_IDS.bigLeadId), logType: 'logCall', content: 'Talked about financing', additionalFields: { leadPhoneNumber: '5865865860' }, ...extra });

let realNow: () => number;
let clock = 0;
beforeEach(() => {
	realNow = sandbox().store.now;
	clock = Date.UTC(2026, 0, 10, 12, 0, 0);
	sandbox().store.now = () => clock;
});
afterEach(() => {
	sandbox().store.now = realNow;
});

describe('Manual Log: Create', () => {
	it('says in the editor that the write is asynchronous', () => {
		const notice = node.description.properties.find((p) => p.type === 'notice' && p.displayOptions?.show?.resource?.includes('manualLog'));
		expect(notice?.displayName).toMatch(/asynchronously/);
		expect(notice?.displayOptions?.show?.operation).toEqual(['create']);
		const direction = manualLog.operations[0].params.find((p) => p.name === 'outboundOrInbound');
		expect(direction?.description).toMatch(/outbound is agent to lead/);
	});

	it('returns the new ID at once; Get finds it only after the delay', async () => {
		const [created] = await run(sandbox(), createCall({ additionalFields: { leadPhoneNumber: '5865865860', callingOutcome: 'VoiceMessage', outboundOrInbound: 'inbound', isPin: true } }));
		expect(created.json).toMatchObject({ leadId: SEED_IDS.bigLeadId, logType: 'logCall' });
		const id = created.json.id as string;
		expect(id).toMatch(/^\d{16,}$/);
		expect(sandbox().requests[0].body).toContain(`"leadId":${SEED_IDS.bigLeadId}`);
		const early = await runError(sandbox(), log('get', { logTypeId: id }));
		expect(early.message).toMatch(/^Lofty error \(HTTP 404 RESOURCE_NOT_EXIST\)/);
		expect(early.description).toMatch(/asynchronously: wait a few seconds/);
		clock += commState(sandbox().store).manualLogDelayMs;
		const [entry] = await run(sandbox(), log('get', { logTypeId: id }));
		expect(entry.json).toMatchObject({ id, leadId: SEED_IDS.bigLeadId, callingOutcome: 'VoiceMessage', outboundOrInbound: 'inbound', isPin: true, leadPhoneNumber: '5865865860' });
	});

	it('logs an email with subject and addresses', async () => {
		const [created] = await run(sandbox(), log('create', {
			leadId: byId(SEED_IDS.bigLeadId),
			logType: 'logEmail',
			content: 'Sent the brochure',
			additionalFields: { emailSubject: 'Brochure', toEmail: 'lead@example.com', fromEmail: 'me@example.com' },
		}));
		clock += 60_000;
		const [entry] = await run(sandbox(), log('get', { logTypeId: created.json.id }));
		expect(entry.json).toMatchObject({ emailSubject: 'Brochure', toEmail: 'lead@example.com', fromEmail: 'me@example.com', outboundOrInbound: 'outbound' });
	});

	it('checks fields before sending: phone needed for calls, fields of the other log types, content length', async () => {
		const noPhone = await runError(sandbox(), createCall({ additionalFields: {} }));
		expect(noPhone.message).toBe('Invalid value for "Lead Phone Number": is required when Log Type is Call (add it under Additional Fields)');
		const emailOnCall = await runError(sandbox(), createCall({ additionalFields: { leadPhoneNumber: '4155550101', emailSubject: 'x' } }));
		expect(emailOnCall.message).toMatch(/^Invalid value for "Email Subject": is used only when Log Type is Email/);
		const outcomeOnText = await runError(sandbox(), createCall({ logType: 'logText', additionalFields: { callingOutcome: 'Talked' } }));
		expect(outcomeOnText.message).toMatch(/^Invalid value for "Call Outcome": is used only when Log Type is Call/);
		const longPhone = await runError(sandbox(), createCall({ additionalFields: { leadPhoneNumber: '+1 (415) 555-0101 x12345' } }));
		expect(longPhone.message).toBe('Invalid value for "Lead Phone Number": must be at most 20 characters, got 24');
		const longContent = await runError(sandbox(), createCall({ content: 'x'.repeat(5001) }));
		expect(longContent.message).toBe('Invalid value for "Content": must be at most 5000 characters, got 5001');
		expect(sandbox().requests).toHaveLength(0);
	});

	it('explains LEAD_NOT_EXIST for a lead the user cannot use', async () => {
		const error = await runError(sandbox(), createCall({ leadId: byId(SEED_IDS.notSharedLeadId) }));
		expect(error.message).toMatch(/^Lofty error \(HTTP 404 LEAD_NOT_EXIST\)/);
		expect(error.description).toMatch(/your user cannot use it/);
	});
});

describe('Manual Log: Get Many', () => {
	it('Return All pages 1000 at a time by currentId', async () => {
		const items = await run(sandbox(), log('getAll', { leadId: byId(HISTORY), logType: 'logCall', returnAll: true }));
		expect(items).toHaveLength(COMM_SEED.historyLoggedCalls);
		const requests = sandbox().requests;
		expect(requests.map((r) => [r.query.limit, r.query.currentId])).toEqual([
			['1000', undefined],
			['1000', items[999].json.id],
		]);
		expect(requests[0].query.logType).toBe('logCall');
	});

	it('newest first with Order, by ID in later pages', async () => {
		const items = await run(sandbox(), log('getAll', { leadId: byId(HISTORY), logType: 'logCall', returnAll: true, filters: { order: 'desc', sort: 'id' } }));
		expect(items).toHaveLength(COMM_SEED.historyLoggedCalls);
		const ids = items.map((i) => BigInt(i.json.id as string));
		expect([...ids].sort((a, b) => (a > b ? -1 : 1))).toEqual(ids);
		expect(sandbox().requests[1].query).toMatchObject({ order: 'desc', sort: 'id' });
	});

	it('Limit asks for one page; other log types are separate', async () => {
		const texts = await run(sandbox(), log('getAll', { leadId: byId(HISTORY), logType: 'logText', limit: 500 }));
		expect(texts).toHaveLength(COMM_SEED.historyLoggedTexts);
		expect(sandbox().requests.map((r) => r.query.limit)).toEqual(['500']);
	});

	it('explains LEAD_NOT_EXIST', async () => {
		const error = await runError(sandbox(), log('getAll', { leadId: byId(SEED_IDS.trashedLeadId), logType: 'logText' }));
		expect(error.message).toMatch(/HTTP 404 LEAD_NOT_EXIST/);
		expect(error.description).toMatch(/in the trash/);
	});
});

// docs/api-readings.md, row 9: with currentId the sort is kept (spec) or ignored, by id (OpenAPI); currentId is
// exclusive (spec) or inclusive. The node reads several pages by id and sorts them itself.
describe.each(
	READING_VALUES.manualLogSort.flatMap((manualLogSort) => READING_VALUES.currentId.map((currentId) => ({ manualLogSort, currentId }))),
)('Manual Log: Get Many over several pages (manualLogSort $manualLogSort, currentId $currentId)', (readings) => {
	beforeEach(() => sandbox().readings.set(readings));
	const COUNT = 1100;

	/** A lead with 1100 logged calls whose logged times run in another order than their ids. */
	function shuffledLead(): string {
		const lead = sandbox().store.addLead({ firstName: 'Shuffled', ownerUserId: SEED_IDS.demoUserId });
		const state = commState(sandbox().store);
		for (let k = 0; k < COUNT; k++) {
			const time = Date.UTC(2025, 0, 1) + ((k * 7919) % COUNT) * 60_000;
			state.add({ leadId: lead.leadId, agentId: BigInt(SEED_IDS.demoUserId), kind: 'CALL', communicationType: 'LOGGED', direction: 'Outbound', time, logType: 'logCall', content: `#${k}` });
		}
		return lead.leadId.toString();
	}

	it.each(['asc', 'desc'])('Return All sorted by logged time (%s): every entry once, in order, sort=id on every page', async (order) => {
		const leadId = shuffledLead();
		const items = await run(sandbox(), log('getAll', { leadId: byId(leadId), logType: 'logCall', returnAll: true, filters: { order } }));
		expect(items).toHaveLength(COUNT);
		expect(new Set(items.map((i) => i.json.id)).size).toBe(COUNT);
		const times = items.map((i) => String(i.json.createTime));
		const sorted = [...times].sort();
		expect(times).toEqual(order === 'asc' ? sorted : sorted.reverse());
		expect(sandbox().requests.map((r) => [r.query.sort, r.query.order])).toEqual([['id', order], ['id', order]]);
	});

	it('a Limit of at most one page keeps the sort asked for; above it, Sort By ID is needed', async () => {
		const leadId = shuffledLead();
		const items = await run(sandbox(), log('getAll', { leadId: byId(leadId), logType: 'logCall', limit: 5, filters: { sort: 'createTime' } }));
		const byTime = Array.from({ length: COUNT }, (_, k) => k).sort((a, b) => ((a * 7919) % COUNT) - ((b * 7919) % COUNT));
		expect(items.map((i) => i.json.content)).toEqual(byTime.slice(0, 5).map((k) => `#${k}`));
		expect(sandbox().requests[0].query).toMatchObject({ sort: 'createTime', limit: '5' });
		const error = await runError(sandbox(), log('getAll', { leadId: byId(leadId), logType: 'logCall', limit: 1050 }));
		expect(error.message).toMatch(/^Invalid value for "Limit": above 1000 needs Sort By ID/);
		const byId1050 = await run(sandbox(), log('getAll', { leadId: byId(leadId), logType: 'logCall', limit: 1050, filters: { sort: 'id' } }));
		expect(new Set(byId1050.map((i) => i.json.id)).size).toBe(1050);
	});
});

describe('Manual Log: Delete', () => {
	it('deletes and reports it; a second delete is RESOURCE_NOT_EXIST', async () => {
		const [deleted] = await run(sandbox(), log('delete', { logTypeId: COMM_SEED.bigLeadLoggedTextId }));
		expect(deleted.json).toEqual({ deleted: true, logTypeId: COMM_SEED.bigLeadLoggedTextId });
		const again = await runError(sandbox(), log('delete', { logTypeId: COMM_SEED.bigLeadLoggedTextId }));
		expect(again.message).toMatch(/HTTP 404 RESOURCE_NOT_EXIST/);
	});

	it('explains LEAD_NOT_EXIST for an entry on another agent\'s lead, and RESOURCE_NOT_EXIST for a non-manual entry', async () => {
		const denied = await runError(sandbox(), log('delete', { logTypeId: COMM_SEED.notSharedLoggedCallId }));
		expect(denied.message).toMatch(/HTTP 404 LEAD_NOT_EXIST/);
		expect(denied.description).toMatch(/cannot manage the lead/);
		const notManual = await runError(sandbox(), log('get', { logTypeId: COMM_SEED.bigLeadCallId }));
		expect(notManual.message).toMatch(/HTTP 404 RESOURCE_NOT_EXIST/);
		expect(notManual.description).toMatch(/another kind of timeline entry/);
	});
});
