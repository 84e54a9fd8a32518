/**
 * Lead > Create or Update against the sandbox: every branch (none, one, several by email, by phone), tags added
 * or replaced, the checks before sending, and two items about the same new person in one run, one after the
 * other and at the same time.
 */
import type { IDataObject } from 'n8n-workflow';

import { Lofty } from '../../nodes/Lofty/Lofty.node';
import { executeOperation } from '../../nodes/Lofty/model/execute';
import { findOperation } from '../../nodes/Lofty/resources';
import { parseJson } from '../../sandbox';
import { leadPersistence } from '../../sandbox/resources/lead';
import { createContext } from '../harness/context';
import { apiKeyCredential, run, runError, useSandbox } from '../harness/sandbox';
import { TEST_TIMEOUT_MS } from '../harness/budgets';

const sandbox = useSandbox();
const upsert = (params: Record<string, unknown>) => ({ resource: 'lead', operation: 'upsert', ...params });
const requests = () => sandbox().requests.map((r) => `${r.method} ${r.path}${r.method === 'GET' && r.path === '/v1.0/leads' ? `?${new URLSearchParams(r.query as Record<string, string>)}` : ''}`);
const bodyOf = (method: string, path: RegExp) => parseJson(sandbox().requests.find((r) => r.method === method && path.test(r.path))!.body) as IDataObject;

/** Creates a lead straight through the sandbox's API (as another tool would have). */
async function existing(body: IDataObject): Promise<string> {
	const [item] = await run(sandbox(), { resource: 'lead', operation: 'create', firstName: String(body.firstName), additionalFields: body });
	return item.json.leadId as string;
}

async function leadById(leadId: string): Promise<IDataObject> {
	const [item] = await run(sandbox(), { resource: 'lead', operation: 'get', leadId: { __rl: true, mode: 'id', value: leadId } });
	return item.json;
}

describe('Lead > Create or Update', () => {
	it('no lead has the email or the phone: creates one (email and phone searched precisely), output action "created" with the lead', async () => {
		const [item] = await run(sandbox(), upsert({ firstName: 'Nora', email: 'nora.new@example.com', phone: '(415) 555-0101', additionalFields: { lastName: 'Nguyen', tags: ['Web Form'] } }));
		expect(item.json).toMatchObject({ action: 'created', firstName: 'Nora', lastName: 'Nguyen', emails: ['nora.new@example.com'], phones: ['+14155550101'] });
		expect((item.json.tags as IDataObject[]).map((t) => t.tagName)).toEqual(['Web Form']);
		expect(item.json.leadId).toMatch(/^\d+$/);
		expect(requests()).toEqual([
			// The tag names are matched against the team's tags (spelling) before the search.
			'GET /v1.0/teamFeatures/listTag',
			'GET /v1.0/leads?email=nora.new%40example.com&preciseSearchFlag=true&sort=CreateTime&desc=true&limit=100',
			// The phone as digits: its 10, then with its 1 (for a search comparing all digits; docs/api-readings.md row 15).
			'GET /v1.0/leads?phone=4155550101&preciseSearchFlag=true&sort=CreateTime&desc=true&limit=100',
			'GET /v1.0/leads?phone=14155550101&preciseSearchFlag=true&sort=CreateTime&desc=true&limit=100',
			'POST /v1.0/leads',
			`GET /v1.0/leads/${item.json.leadId as string}`,
		]);
		expect(bodyOf('POST', /^\/v1\.0\/leads$/)).toEqual({ firstName: 'Nora', lastName: 'Nguyen', emails: ['nora.new@example.com'], phones: ['+14155550101'], tags: ['Web Form'] });
	});

	it('one lead has the email, Update All Given Fields: updates it, tags added (not replaced), emails untouched, output action "updated"', async () => {
		const leadId = await existing({ firstName: 'Omar', emails: ['omar@example.com'], tags: ['Buyer'] });
		sandbox().requests.length = 0;
		const [item] = await run(sandbox(), upsert({ firstName: 'Omar', email: 'OMAR@example.com', additionalFields: { stage: 'Hot', tags: ['Web Form'] }, options: { whenExists: 'updateAll' } }));
		expect(item.json).toMatchObject({ action: 'updated', matchedBy: 'email', leadId, stage: 'Hot', emails: ['omar@example.com'] });
		expect((item.json.tags as IDataObject[]).map((t) => t.tagName).sort()).toEqual(['Buyer', 'Web Form']);
		expect(bodyOf('PUT', /^\/v1\.0\/leads\/\d+$/)).toEqual({ firstName: 'Omar', stage: 'Hot', tagsAdd: ['Web Form'] });
		expect(sandbox().count('POST', '/v1.0/leads')).toBe(0);
	});

	it('Replace Tags: the given tags replace the lead\'s', async () => {
		const leadId = await existing({ firstName: 'Pia', emails: ['pia@example.com'], tags: ['Old'] });
		const [item] = await run(sandbox(), upsert({ firstName: 'Pia', email: 'pia@example.com', additionalFields: { tags: ['New'] }, options: { replaceTags: true } }));
		expect(item.json.leadId).toBe(leadId);
		expect((item.json.tags as IDataObject[]).map((t) => t.tagName)).toEqual(['New']);
	});

	it('no lead has the email but one has the phone: updates that one and adds the email to its emails', async () => {
		const leadId = await existing({ firstName: 'Quinn', emails: ['quinn@work.example.com'], phones: ['4155550102'] });
		// Another email alone keeps a lead found by the phone apart by default (leadUpsertNotMerged.test.ts); the name agrees here.
		const [item] = await run(sandbox(), upsert({ firstName: 'Quinn', email: 'quinn@home.example.com', phone: '+1 415 555 0102', options: { phoneOnly: 'nameAgrees' } }));
		expect(item.json).toMatchObject({ action: 'updated', matchedBy: 'phone', leadId, emails: ['quinn@work.example.com', 'quinn@home.example.com'], phones: ['+14155550102'] });
	});

	it('Match By Email: a lead with the phone only is not used; a new lead is created', async () => {
		const other = await existing({ firstName: 'Rae', phones: ['4155550103'] });
		const [item] = await run(sandbox(), upsert({ firstName: 'Rae', matchBy: 'email', email: 'rae@example.com', phone: '4155550103' }));
		expect(item.json.action).toBe('created');
		expect(item.json.leadId).not.toBe(other);
		expect(requests().filter((r) => r.includes('phone='))).toEqual([]);
	});

	it('Match By Phone: the email is not searched', async () => {
		const leadId = await existing({ firstName: 'Sol', emails: ['sol@example.com'], phones: ['4155550104'] });
		sandbox().requests.length = 0;
		const [item] = await run(sandbox(), upsert({ firstName: 'Sol', matchBy: 'phone', email: 'other@example.com', phone: '415-555-0104' }));
		expect(item.json).toMatchObject({ action: 'updated', matchedBy: 'phone', leadId });
		expect(requests().filter((r) => r.includes('email='))).toEqual([]);
	});

	describe('several leads have the email', () => {
		let older: string;
		let newer: string;
		beforeEach(async () => {
			older = await existing({ firstName: 'Twin', emails: ['twin@example.com'] });
			await new Promise((resolve) => setTimeout(resolve, 5));
			newer = await existing({ firstName: 'Twin', emails: ['twin@example.com'] });
		});

		it('by default updates the most recently created and names the others', async () => {
			const [item] = await run(sandbox(), upsert({ firstName: 'Twin', email: 'twin@example.com', additionalFields: { lastName: 'Newest' } }));
			expect(item.json).toMatchObject({ action: 'updated', leadId: newer, otherMatches: [older], lastName: 'Newest' });
			expect((await leadById(older)).lastName).not.toBe('Newest');
		});

		it('"Fail the Item": nothing is changed, the error lists the IDs found; with Continue On Fail the other items go on', async () => {
			const error = await runError(sandbox(), upsert({ firstName: 'Twin', email: 'twin@example.com', options: { onMultiple: 'fail' } }));
			expect(error.message).toBe(`2 leads match this email: ${newer}, ${older}`);
			expect(error.description).toMatch(/^Nothing was changed/);
			expect(sandbox().count('PUT', '/v1.0/leads/{leadId}')).toBe(0);

			const items = await run(
				sandbox(),
				(i) => upsert({ firstName: 'Item', email: i === 0 ? 'twin@example.com' : 'solo.item@example.com', options: { onMultiple: 'fail' } }),
				{ items: [{}, {}], continueOnFail: true },
			);
			expect(items.map((i) => [i.pairedItem, i.json.action ?? i.json.error])).toEqual([
				[{ item: 0 }, `2 leads match this email: ${newer}, ${older}`],
				[{ item: 1 }, 'created'],
			]);
		});
	});

	it('two items for the same new person in one run: the first creates, the second updates that lead without searching for it again', async () => {
		const items = await run(sandbox(), (i) => upsert({ firstName: 'Uma', email: 'uma@example.com', additionalFields: { tags: [`Form ${i + 1}`] } }), { items: [{}, {}] });
		expect(items.map((i) => i.json.action)).toEqual(['created', 'updated']);
		expect(items[1].json.leadId).toBe(items[0].json.leadId);
		expect(sandbox().count('POST', '/v1.0/leads')).toBe(1);
		expect(requests().filter((r) => r.includes('email=uma'))).toHaveLength(1);
		expect((items[1].json.tags as IDataObject[]).map((t) => t.tagName).sort()).toEqual(['Form 1', 'Form 2']);
	});

	it('Lofty makes a new lead readable only after a while: the second item still updates the lead the first created', async () => {
		leadPersistence(sandbox().store).readDelayMs = 60_000;
		const items = await run(sandbox(), (i) => upsert({ firstName: 'Ines', email: 'ines@example.com', additionalFields: { tags: [`Form ${i + 1}`] } }), { items: [{}, {}] });
		expect(items.map((i) => [i.json.action, i.json.leadId])).toEqual([
			['created', items[0].json.leadId],
			['updated', items[0].json.leadId],
		]);
		// Neither could be read back yet: the items say so instead of failing.
		for (const item of items) expect(item.json.note).toMatch(/not made the new lead readable yet/);
		expect(sandbox().count('POST', '/v1.0/leads')).toBe(1);
		expect(sandbox().count('PUT', '/v1.0/leads/{leadId}')).toBe(1);
		leadPersistence(sandbox().store).readableAt.clear();
		const [lead] = await run(sandbox(), { resource: 'lead', operation: 'get', leadId: { __rl: true, mode: 'id', value: items[0].json.leadId } });
		expect((lead.json.tags as IDataObject[]).map((t) => t.tagName).sort()).toEqual(['Form 1', 'Form 2']);
	}, TEST_TIMEOUT_MS);

	it('items for the same person running at the same time are taken one after the other: one lead, not two', async () => {
		const ctx = createContext(new Lofty(), {
			params: (i) => ({ authentication: 'apiKey', ...upsert({ firstName: 'Vic', email: i === 2 ? 'vic.other@example.com' : 'vic@example.com', phone: '4155550105', options: { phoneOnly: 'nameAgrees' } }) }),
			credential: apiKeyCredential(sandbox()),
			items: [{}, {}, {}],
		});
		const { op } = findOperation('lead', 'upsert')!;
		const results = await Promise.all([0, 1, 2].map(async (i) => (await executeOperation(ctx, op, i))[0]));
		// The second item gives nothing the lead lacks: nothing is sent.
		expect(results.map((r) => r.action)).toEqual(['created', 'unchanged', 'updated']);
		expect(new Set(results.map((r) => r.leadId)).size).toBe(1);
		expect(sandbox().count('POST', '/v1.0/leads')).toBe(1);
		// The third item shares only the phone: it waited for the first and found its lead by the phone.
		expect(results[2]).toMatchObject({ matchedBy: 'phone', emails: ['vic@example.com', 'vic.other@example.com'] });
	});

	it('sets custom fields by name on the lead it creates', async () => {
		const [item] = await run(sandbox(), upsert({
			firstName: 'Wes',
			email: 'wes@example.com',
			customFieldValues: { mappingMode: 'defineBelow', value: { Financing: 'Cash' }, matchingColumns: [], schema: [] },
		}));
		expect(item.json.customAttributes).toEqual([{ attributeName: 'Financing', attributeType: 'single_select', value: 'Cash' }]);
	});

	it.each([
		[{ matchBy: 'email', phone: '4155550106' }, 'Email', 'is required when Match By is Email'],
		[{ matchBy: 'phone', email: 'x@example.com' }, 'Phone', 'is required when Match By is Phone'],
		[{}, 'Email', 'give an email or a phone to find the lead by'],
		[{ email: 'not-an-email' }, 'Email', 'must be an email address such as jane@example.com, got "not-an-email"'],
		[{ phone: 'n/a' }, 'Phone', 'must be a phone number such as 4155551234, got "n/a": it may hold only digits, spaces and + ( ) - . / (and an extension such as x12 at the end)'],
	])('refuses %j before sending anything', async (params, field, rule) => {
		const error = await runError(sandbox(), upsert({ firstName: 'Bad', ...params }));
		expect(error.message).toBe(`Invalid value for "${field}": ${rule}`);
		expect(sandbox().requests).toHaveLength(0);
	});
});
