/**
 * Lead > Create or Update, one lead per person: whatever order a person's email and phones appear in over the items
 * of a run, however a phone is written, and when two executions of one n8n process handle the same new person at
 * once. Lofty's delay before a new lead can be read (the sandbox's persistence switch) is on where it matters.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { READING_VALUES } from '../../sandbox/core/readings';
import { leadPersistence } from '../../sandbox/resources/lead';
import { createContext } from '../harness/context';
import { observe } from '../secrets/observe';
import { apiKeyCredential, byId, node, run, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const upsert = (params: Record<string, unknown>) => ({ resource: 'lead', operation: 'upsert', ...params });
const leadSearches = () => sandbox().requests.filter((r) => r.method === 'GET' && r.path === '/v1.0/leads').map((r) => new URLSearchParams(r.query as Record<string, string>).toString());
const readLater = () => (leadPersistence(sandbox().store).readDelayMs = 60_000);

async function existing(body: IDataObject): Promise<string> {
	const [item] = await run(sandbox(), { resource: 'lead', operation: 'create', firstName: String(body.firstName), additionalFields: body });
	return item.json.leadId as string;
}

async function leadById(leadId: string): Promise<IDataObject> {
	leadPersistence(sandbox().store).readableAt.clear();
	const [item] = await run(sandbox(), { resource: 'lead', operation: 'get', leadId: byId(leadId) });
	return item.json;
}

describe('one lead per person within a run, whatever order its keys appear in', () => {
	it('item 2 adds a phone to the lead item 1 created; item 3 has only that phone: it updates that lead (Lofty cannot read it yet)', async () => {
		readLater();
		const items = await run(
			sandbox(),
			(i) =>
				upsert([
					{ firstName: 'Ada', email: 'ada@example.com' },
					{ firstName: 'Ada', email: 'ada@example.com', phone: '(415) 555-0130', additionalFields: { lastName: 'Lovelace' } },
					// Another email: the lead found by the phone is taken for Ada because the name agrees (the option).
					{ firstName: 'Ada', email: 'ada.work@example.com', phone: '+1 415 555 0130', additionalFields: { tags: ['Phone Call'] }, options: { phoneOnly: 'nameAgrees' } },
				][i]),
			{ items: [{}, {}, {}] },
		);
		expect(items.map((i) => [i.json.action, i.json.matchedBy])).toEqual([
			['created', undefined],
			['updated', 'email'],
			['updated', 'phone'],
		]);
		expect(new Set(items.map((i) => i.json.leadId)).size).toBe(1);
		expect(sandbox().count('POST', '/v1.0/leads')).toBe(1);
		const lead = await leadById(items[0].json.leadId as string);
		expect(lead).toMatchObject({ lastName: 'Lovelace', emails: ['ada@example.com', 'ada.work@example.com'], phones: ['+14155550130'] });
	});

	it('the other way round: created by phone, item 2 adds an email, item 3 has only that email', async () => {
		readLater();
		const items = await run(
			sandbox(),
			(i) =>
				upsert([
					{ firstName: 'Bo', phone: '415-555-0131' },
					{ firstName: 'Bo', matchBy: 'phone', phone: '4155550131', additionalFields: { emails: ['bo@example.com'] } },
					{ firstName: 'Bo', email: 'BO@example.com', additionalFields: { lastName: 'Diddley' } },
				][i]),
			{ items: [{}, {}, {}] },
		);
		expect(items.map((i) => [i.json.action, i.json.matchedBy])).toEqual([
			['created', undefined],
			['updated', 'phone'],
			['updated', 'email'],
		]);
		expect(new Set(items.map((i) => i.json.leadId)).size).toBe(1);
		expect(sandbox().count('POST', '/v1.0/leads')).toBe(1);
	});
});

describe.each(READING_VALUES.phoneSearch)('phones are compared with their country code, extensions dropped (phoneSearch %s)', (reading) => {
	beforeEach(() => sandbox().readings.set({ phoneSearch: reading }));
	const writings = ['(415) 555-0120', '+1 415 555 0120', '1-415-555-0120', '415.555.0120 x7', '4155550120 ext. 12', '415-555-0120 ext 3'];

	it.each([
		['from memory (Lofty cannot read the new lead yet)', true],
		["from Lofty's search", false],
	])('six writings of one US number give one lead, found %s', async (_how, later) => {
		if (later) readLater();
		const items = await run(sandbox(), (i) => upsert({ firstName: 'Cy', phone: writings[i], additionalFields: { source: `Call ${i}` }, options: { whenExists: 'updateAll' } }), { items: writings.map(() => ({})) });
		expect(items.map((i) => i.json.action)).toEqual(['created', 'updated', 'updated', 'updated', 'updated', 'updated']);
		expect(new Set(items.map((i) => i.json.leadId)).size).toBe(1);
		expect(sandbox().count('POST', '/v1.0/leads')).toBe(1);
		// Each number went to Lofty's search as its 10 digits (then with its 1 while none matched), without the extension.
		if (!later) expect(new Set(leadSearches().map((q) => q.split('&')[0]))).toEqual(new Set(['phone=4155550120', 'phone=14155550120']));
	});

	it('+44 7700 900123 is not the lead of +1 770-090-0123 (the same last 10 digits), and the other way round', async () => {
		const american = await existing({ firstName: 'Dee', phones: ['+1 770-090-0123'] });
		const british = await existing({ firstName: 'Eve', phones: ['+44 7700 900123'] });
		sandbox().requests.length = 0;
		const items = await run(
			sandbox(),
			(i) => upsert({ firstName: ['Eve', 'Dee'][i], phone: ['+44 7700 900123', '(770) 090-0123'][i], additionalFields: { lastName: ['Fay', 'Gus'][i] }, options: { whenExists: 'updateAll' } }),
			{ items: [{}, {}] },
		);
		expect(items.map((i) => [i.json.action, i.json.leadId])).toEqual([
			['updated', british],
			['updated', american],
		]);
		const american10 = reading === 'digits' ? ['phone=7700900123', 'phone=17700900123'] : ['phone=7700900123'];
		// The search that found a lead is sent again within the lead's turn (model/turns.ts, records read); the two
		// people's searches go at once.
		const again = (searches: string[]) => [...searches, searches[searches.length - 1]];
		expect(leadSearches().map((q) => q.split('&')[0]).sort()).toEqual([...again(['phone=447700900123']), ...again(american10)].sort());
		expect((await leadById(british)).lastName).toBe('Fay');
		expect((await leadById(american)).lastName).toBe('Gus');
	});

	it('a lead whose phone is stored with +1 is found from the number without it (by the second search when Lofty compares all digits)', async () => {
		const leadId = await existing({ firstName: 'Jan', phones: ['+1 415 555 0160'] });
		sandbox().requests.length = 0;
		const [item] = await run(sandbox(), upsert({ firstName: 'Jan', phone: '415-555-0160' }));
		expect(item.json).toMatchObject({ action: 'unchanged', matchedBy: 'phone', leadId });
		// The search that found the lead is sent again within the lead's turn (model/turns.ts, records read).
		expect(leadSearches().map((q) => q.split('&')[0])).toEqual(
			reading === 'digits' ? ['phone=4155550160', 'phone=14155550160', 'phone=14155550160'] : ['phone=4155550160', 'phone=4155550160'],
		);
	});

	it('a UK number does not update an American lead that only shares its last 10 digits: a new lead is created', async () => {
		const american = await existing({ firstName: 'Hal', phones: ['770-090-0124'] });
		const [item] = await run(sandbox(), upsert({ firstName: 'Ivy', phone: '+44 7700 900124' }));
		expect(item.json.action).toBe('created');
		expect(item.json.leadId).not.toBe(american);
		expect((await leadById(american)).firstName).toBe('Hal');
	});
});

describe('two executions of one n8n process at once, for one new person', () => {
	/** Runs the node in its own execution context (one execution of a workflow), as n8n does per webhook call. */
	async function execution(params: Record<string, unknown>): Promise<INodeExecutionData> {
		const ctx = createContext(node, { params: { authentication: 'apiKey', ...upsert(params) }, credential: apiKeyCredential(sandbox()) });
		const result = (await node.execute!.call(ctx)) as INodeExecutionData[][];
		observe('Lofty output', result);
		return result[0][0];
	}

	it('a form sent twice gives one lead: the second execution updates what the first created', async () => {
		readLater();
		const [first, second] = await Promise.all([
			execution({ firstName: 'Jo', email: 'jo@example.com', phone: '4155550140', additionalFields: { source: 'Web Form', tags: ['Form A'] } }),
			execution({ firstName: 'Jo', email: 'jo@example.com', phone: '4155550140', additionalFields: { lastName: 'March', tags: ['Form B'] } }),
		]);
		expect([first.json.action, second.json.action]).toEqual(['created', 'updated']);
		expect(second.json.leadId).toBe(first.json.leadId);
		expect(sandbox().count('POST', '/v1.0/leads')).toBe(1);
		const lead = await leadById(first.json.leadId as string);
		expect(lead).toMatchObject({ source: 'Web Form', lastName: 'March' });
		expect((lead.tags as IDataObject[]).map((t) => t.tagName).sort()).toEqual(['Form A', 'Form B']);
	});

	it('the second shares only the phone, written differently: still one lead', async () => {
		readLater();
		const [first, second] = await Promise.all([
			execution({ firstName: 'Kai', email: 'kai@example.com', phone: '+1 (415) 555-0141' }),
			execution({ firstName: 'Kai', email: 'kai.home@example.com', phone: '415.555.0141 x2', options: { phoneOnly: 'nameAgrees' } }),
		]);
		expect([first.json.action, second.json.action, second.json.matchedBy]).toEqual(['created', 'updated', 'phone']);
		expect(second.json.leadId).toBe(first.json.leadId);
		expect(sandbox().count('POST', '/v1.0/leads')).toBe(1);
	});

	it('a remembered lead deleted in Lofty since: the next execution finds nothing and creates a new lead (no update is tried)', async () => {
		const first = await execution({ firstName: 'Lu', email: 'lu@example.com' });
		await run(sandbox(), { resource: 'lead', operation: 'delete', leadId: byId(first.json.leadId as string), reason: 'test' });
		sandbox().requests.length = 0;
		const again = await execution({ firstName: 'Lu', email: 'lu@example.com', additionalFields: { lastName: 'Again' } });
		expect(again.json).toMatchObject({ action: 'created', lastName: 'Again' });
		expect(again.json.leadId).not.toBe(first.json.leadId);
		// Its read answered 404: the record is dropped, the person searched and created; no update was tried.
		expect(sandbox().requests.map((r) => `${r.method} ${r.status}`)).toEqual(['GET 404', 'GET 200', 'POST 200', 'GET 200']);
	});

	it('an email added in Lofty since a remembered create is kept when the next execution adds another (lists are read, not remembered)', async () => {
		const first = await execution({ firstName: 'Max', email: 'max@example.com' });
		await run(sandbox(), { resource: 'lead', operation: 'update', leadId: byId(first.json.leadId as string), updateFields: { emails: ['max@example.com', 'max@agent-added.example.com'] } });
		const again = await execution({ firstName: 'Max', email: 'max@example.com', additionalFields: { emails: ['max@work.example.com'] }, options: { whenExists: 'updateAll' } });
		expect(again.json).toMatchObject({ action: 'updated', leadId: first.json.leadId });
		expect((await leadById(first.json.leadId as string)).emails).toEqual(['max@example.com', 'max@agent-added.example.com', 'max@work.example.com']);
	});
});
