/**
 * Lead > Create or Update (resources/lead/upsert.ts) with a scripted Lofty: what it searches by, what it creates or
 * updates and sends, what it remembers for the next item, and when it refuses (several matches, a lead found by the
 * phone alone, an earlier create without a certain answer). The waits are recorded, not slept. The node runs against
 * the sandbox: test/node/leadUpsert.test.ts, leadUpsertExisting.test.ts, leadUpsertNotMerged.test.ts,
 * leadUpsertPerson.test.ts.
 */
import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { findOperation } from '../../nodes/Lofty/resources';
import { emailKey, forgetRecentLeads, phoneKey, recall, remember } from '../../nodes/Lofty/resources/lead/keys';
import { forgetUncertainCreates, rememberUncertainCreate, uncertainCreateFor } from '../../nodes/Lofty/resources/lead/uncertainCreates';
import { checkMatch, mayBeThePerson, withKnown } from '../../nodes/Lofty/resources/lead/upsert';
import type { OperationContext } from '../../nodes/Lofty/model/types';
import { toNodeApiError } from '../../nodes/Lofty/transport/errors';
import { loftyRequest } from '../../nodes/Lofty/transport/request';

const mockSlept: number[] = [];
jest.mock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), sleep: async (ms: number) => void mockSlept.push(ms) }));
jest.mock('../../nodes/Lofty/transport/request', () => ({ ...jest.requireActual('../../nodes/Lofty/transport/request'), loftyRequest: jest.fn(), accountOf: async () => 'acct' }));
const lofty = loftyRequest as jest.MockedFunction<typeof loftyRequest>;

const upsert = findOperation('lead', 'upsert')!.op;
let typeVersion = 1.4;
let choicesMode = 'add';
const node = () => ({ name: 'Lofty', type: 'n8n-nodes-lofty.lofty', typeVersion, position: [0, 0], parameters: {} }) as unknown as INode;
const ctx = {
	getNode: () => node(),
	getNodeParameter: (name: string, _i: number, fallback: unknown) => (name === 'multiChoiceMode' ? choicesMode : fallback),
	getExecutionId: () => '41',
} as unknown as IExecuteFunctions;
const op = (values: IDataObject): OperationContext => ({ ctx, itemIndex: 1, values: { matchBy: 'emailThenPhone', ...values } });
const run = async (values: IDataObject) => await upsert.run!(op(values));
const error = (httpCode: number, message = 'no') => toNodeApiError(node(), { httpCode, message }, 0);

/** Lofty's answers in order: a value, or an error to throw. */
function answers(...list: unknown[]) {
	lofty.mockImplementation(async () => {
		const next = list.shift();
		if (next instanceof Error) throw next;
		return next;
	});
}
const sent = () => lofty.mock.calls.map(([, r]) => `${r.method} ${r.path}${r.qs && Object.keys(r.qs).length ? ` ${JSON.stringify(r.qs)}` : ''}`);
const bodies = () => lofty.mock.calls.filter(([, r]) => r.method !== 'GET').map(([, r]) => r.body);
const search = (by: string, value: string) => `GET /v1.0/leads ${JSON.stringify({ [by]: value, preciseSearchFlag: true, sort: 'CreateTime', desc: true, limit: 100 })}`;
const found = (...leads: IDataObject[]) => ({ leads });
const ann = { leadId: '5', firstName: 'Ann', lastName: 'Lee', emails: ['ann@x.com'], phones: ['+14155550101'], source: 'Open House' };

beforeEach(() => {
	mockSlept.length = 0;
	lofty.mockReset();
	forgetRecentLeads();
	forgetUncertainCreates();
	typeVersion = 1.4;
	choicesMode = 'add';
});

describe('checkMatch', () => {
	it('names the field a Match By needs, and asks for one of them', () => {
		expect(() => checkMatch(op({ matchBy: 'email', phone: '1' }))).toThrow('is required when Match By is Email');
		expect(() => checkMatch(op({ matchBy: 'phone', email: 'a@x.com' }))).toThrow('is required when Match By is Phone');
		expect(() => checkMatch(op({}))).toThrow('give an email or a phone to find the lead by');
		for (const values of [{ matchBy: 'email', email: 'a' }, { matchBy: 'phone', phone: '1' }, { phone: '1' }, { email: 'a' }]) expect(() => checkMatch(op(values))).not.toThrow();
		expect(() => upsert.validate!(op({}))).toThrow('give an email or a phone');
	});
});

describe('no lead for the person: a lead is created', () => {
	it('searched by the email, then the phone (its 10 digits, then with its 1); created with every email and phone once; remembered', async () => {
		answers(found({ leadId: '8', emails: ['other@x.com'] }), found(), found(), { leadId: '77' }, { lead: { leadId: '77', firstName: 'Ann' } });
		const out = await run({ firstName: 'Ann', email: 'ann@x.com', phone: '(415) 555-0101', emails: ['ANN@x.com', 'b@x.com'], phones: ['+1 415 555 0101'], tags: ['Hot'] });
		expect(out).toEqual({ action: 'created', leadId: '77', firstName: 'Ann' });
		expect(sent()).toEqual([search('email', 'ann@x.com'), search('phone', '4155550101'), search('phone', '14155550101'), 'POST /v1.0/leads', 'GET /v1.0/leads/77']);
		expect(bodies()).toEqual([{ firstName: 'Ann', emails: ['ann@x.com', 'b@x.com'], phones: ['(415) 555-0101'], tags: ['Hot'] }]);
		expect(recall('acct', emailKey('b@x.com'))).toEqual(expect.objectContaining({ leadId: '77', alone: true, recent: false }));
	});

	it('Match By Email searches only the email; nothing to add: no emails, phones or tags sent', async () => {
		answers(found(), { leadId: '78' }, { leadId: '78' });
		await run({ matchBy: 'email', email: 'z@x.com', phone: '4155550101', lastName: 'Z' });
		expect(sent()).toEqual([search('email', 'z@x.com'), 'POST /v1.0/leads', 'GET /v1.0/leads/78']);
		answers(found(), { leadId: '79' }, { leadId: '79' });
		lofty.mockClear();
		await run({ matchBy: 'phone', phone: '+44 7700 900123', email: '' });
		expect(sent()).toEqual([search('phone', '447700900123'), 'POST /v1.0/leads', 'GET /v1.0/leads/79']);
		expect(bodies()).toEqual([{ phones: ['+44 7700 900123'] }]);
	});

	it('a lead found by the phone alone that is someone else: a new lead, and the output says which and why', async () => {
		answers(found(), found({ ...ann, firstName: 'Bob' }), { leadId: '80' }, { leadId: '80' });
		const out = await run({ firstName: 'Ann', email: 'ann2@x.com', phone: '4155550101' });
		expect(out).toEqual({
			action: 'created',
			notMergedWith: [{ leadId: '5', matchedBy: 'phone', differs: ['firstName', 'emails'], why: expect.stringContaining('Lead 5 has this phone but another first name (Bob)') }],
			leadId: '80',
		});
		// With Match By Phone the phone is the person (the lead just made is forgotten: a search).
		forgetRecentLeads();
		answers(found({ ...ann, firstName: 'Bob' }), { lead: { ...ann, firstName: 'Bob' } });
		await expect(run({ matchBy: 'phone', firstName: 'Ann', phone: '4155550101' })).resolves.toEqual(expect.objectContaining({ action: 'unchanged', matchedBy: 'phone', keptFields: ['firstName'], leadId: '5' }));
	});
});

describe('a lead found: it is updated', () => {
	it('Only Fill Empty Fields (the default): emails and phones added, tags added, the lead\'s values kept and listed', async () => {
		answers(found(ann), {}, { lead: { ...ann, lastName: 'Lee' } });
		const out = await run({ firstName: 'Annie', lastName: 'Lee', email: 'ANN@x.com', phone: '415 555 0199', source: 'Web', stage: 'New', tags: ['Hot'] });
		// The email it has already (in other case) is not sent again.
		expect(bodies()).toEqual([{ stage: 'New', phones: ['+14155550101', '415 555 0199'], tagsAdd: ['Hot'] }]);
		expect(sent().slice(1)).toEqual(['PUT /v1.0/leads/5', 'GET /v1.0/leads/5']);
		expect(out).toEqual({ action: 'updated', matchedBy: 'email', keptFields: ['firstName', 'source'], ...ann, lastName: 'Lee' });
		// The new phone leads to this lead from now on (Lofty may not search by it yet); the old keys were not remembered.
		expect(recall('acct', phoneKey('4155550199'))).toEqual(expect.objectContaining({ leadId: '5', alone: true, recent: false, phones: ['+14155550101', '415 555 0199'] }));
		expect(recall('acct', emailKey('ann@x.com'))).toBeUndefined();
	});

	it('Update All Given Fields with Replace Tags: every value sent, the tags replace', async () => {
		answers(found(ann), {}, { lead: ann });
		await run({ firstName: 'Annie', email: 'ann@x.com', source: 'Web', tags: ['Hot'], whenExists: 'updateAll', replaceTags: true });
		expect(bodies()).toEqual([{ firstName: 'Annie', source: 'Web', tags: ['Hot'] }]);
	});

	it('nothing to change: nothing sent, "unchanged"', async () => {
		answers(found(ann), { lead: ann });
		await expect(run({ firstName: 'Ann', email: 'ann@x.com', phone: '4155550101' })).resolves.toEqual({ action: 'unchanged', matchedBy: 'email', ...ann });
		expect(sent()).toEqual([search('email', 'ann@x.com'), 'GET /v1.0/leads/5']);
	});

	it('several leads: the newest updated and the others listed; with "Fail the Item" nothing is sent and the IDs are named', async () => {
		const older = { ...ann, leadId: '4' };
		answers(found(ann, older), {}, { lead: ann });
		await expect(run({ email: 'ann@x.com', stage: 'New' })).resolves.toEqual(expect.objectContaining({ action: 'updated', otherMatches: ['4'], leadId: '5' }));
		// It may have others: not remembered as the person's only lead.
		lofty.mockClear();
		answers(found(ann, older));
		const failed = await run({ email: 'ann@x.com', stage: 'New', onMultiple: 'fail' }).catch((e: unknown) => e);
		expect(failed).toBeInstanceOf(NodeOperationError);
		expect((failed as NodeOperationError).message).toBe('2 leads match this email: 5, 4');
		expect((failed as NodeOperationError).description).toMatch(/^Nothing was changed\./);
		expect((failed as NodeOperationError).context.itemIndex).toBe(1);
		expect(sent()).toEqual([search('email', 'ann@x.com')]);
	});

	it('multi-choice custom fields: added to the lead\'s in both modes, replaced when the node says so', async () => {
		const lead = { ...ann, customAttributes: [{ attributeName: 'Areas', value: '["North"]' }] };
		const areas = { customAttributeList: [{ attributeName: 'Areas', value: '["South"]' }] };
		answers(found(lead), {}, { lead });
		await run({ email: 'ann@x.com', whenExists: 'updateAll', ...areas });
		expect(bodies()).toEqual([{ customAttributeList: [{ attributeName: 'Areas', value: '["North","South"]' }] }]);
		lofty.mockClear();
		choicesMode = 'replace';
		answers(found(lead), {}, { lead });
		await run({ email: 'ann@x.com', whenExists: 'updateAll', ...areas });
		expect(bodies()).toEqual([areas]);
		lofty.mockClear();
		answers(found(lead), { lead });
		await expect(run({ email: 'ann@x.com', ...areas })).resolves.toEqual(expect.objectContaining({ action: 'unchanged', keptFields: ['customFields.Areas'] }));
		// Before 1.4, Only Fill Empty Fields added the choices and Update All replaced them.
		typeVersion = 1.3;
		lofty.mockClear();
		answers(found(lead), {}, { lead });
		await run({ email: 'ann@x.com', ...areas });
		expect(bodies()).toEqual([{ customAttributeList: [{ attributeName: 'Areas', value: '["North","South"]' }] }]);
	});

	it('a search is a read (retried), for the item; answers without the exact email or phone, or without leads, are no match', async () => {
		answers({}, found({ ...ann, phones: ['+14155550199'] }), found(), { leadId: '90' }, { leadId: '90' });
		await expect(run({ email: 'x@x.com', phone: '4155550101' })).resolves.toEqual(expect.objectContaining({ action: 'created', leadId: '90' }));
		expect(lofty.mock.calls[0][1]).toEqual(expect.objectContaining({ idempotent: true }));
		expect(lofty.mock.calls[0][2]).toBe(1);
	});

	it('a phone given twice is added once; with one match "Fail the Item" updates it; a lead read back as gone says the update was done', async () => {
		answers(found(ann), {}, error(404, 'gone'));
		const out = await run({ email: 'ann@x.com', phone: '415 555 0199', phones: ['+1 415-555-0199'], onMultiple: 'fail' });
		expect(bodies()).toEqual([{ phones: ['+14155550101', '415 555 0199'] }]);
		expect(out).toEqual({ action: 'updated', matchedBy: 'email', leadId: '5', note: 'The lead was updated; reading it back failed (Lofty error (HTTP 404): gone). Read it later with Lead > Get.' });
	});

	it('by the phone alone: the leads of other people are passed over, the person\'s own is updated', async () => {
		answers(found(), found({ ...ann, leadId: '6', firstName: 'Bob' }, ann), {}, { lead: ann });
		await expect(run({ firstName: 'Ann', email: 'ann@x.com', phone: '4155550101', stage: 'New' })).resolves.toEqual(expect.objectContaining({ action: 'updated', matchedBy: 'phone', leadId: '5' }));
		expect(sent()).toContain('PUT /v1.0/leads/5');
	});

	it('several leads and a new phone: the newest is remembered with it, as a lead that may have others', async () => {
		answers(found(ann, { ...ann, leadId: '4' }), {}, { lead: ann });
		await run({ email: 'ann@x.com', phone: '4155550177' });
		expect(recall('acct', phoneKey('4155550177'))).toEqual(expect.objectContaining({ leadId: '5', alone: false }));
	});

	it("a refused update fails the item as Lofty answered", async () => {
		const refused = error(400, 'bad stage');
		answers(found(ann), refused);
		await expect(run({ email: 'ann@x.com', stage: 'X' })).rejects.toThrow('bad stage');
	});
});

describe('the leads this process remembers', () => {
	it("a lead it made is updated without a search: read first, its new keys remembered as not readable yet", async () => {
		remember('acct', [emailKey('ann@x.com')], { leadId: '9', emails: ['ann@x.com'], phones: [], fields: { firstName: 'Ann' }, recent: true, alone: true });
		answers(error(404), {}, error(404));
		const out = await run({ firstName: 'Ann', lastName: 'Lee', email: 'ann@x.com', phone: '4155550101' });
		expect(sent()).toEqual(['GET /v1.0/leads/9', 'PUT /v1.0/leads/9', 'GET /v1.0/leads/9']);
		expect(bodies()).toEqual([{ lastName: 'Lee', phones: ['4155550101'] }]);
		expect(out).toEqual({ action: 'updated', matchedBy: 'email', leadId: '9', note: 'Lofty has not made the new lead readable yet; read it later with Lead > Get' });
		// Lofty cannot search it yet: every key leads to it, with what was written.
		const known = recall('acct', phoneKey('4155550101'));
		expect(known).toEqual({ leadId: '9', emails: ['ann@x.com'], phones: ['4155550101'], fields: { firstName: 'Ann', lastName: 'Lee' }, recent: true, alone: true });
		expect(recall('acct', emailKey('ann@x.com'))).toBe(known);
	});

	it('a remembered lead that may have others (Lead > Create made it) is searched for too, and comes first', async () => {
		remember('acct', [emailKey('ann@x.com')], { leadId: '9', emails: ['ann@x.com'], phones: [], fields: {}, recent: false, alone: false });
		answers(found(ann), { lead: { ...ann, leadId: '9' } }, {}, { lead: { ...ann, leadId: '9' } });
		await expect(run({ email: 'ann@x.com', stage: 'New' })).resolves.toEqual(expect.objectContaining({ leadId: '9', otherMatches: ['5'] }));
		expect(sent()).toEqual([search('email', 'ann@x.com'), 'GET /v1.0/leads/9', 'PUT /v1.0/leads/9', 'GET /v1.0/leads/9']);
	});

	it('a remembered lead gone from Lofty (read, or the update answers 404) is forgotten and the person found again', async () => {
		remember('acct', [emailKey('ann@x.com')], { leadId: '9', emails: ['ann@x.com'], phones: [], fields: {}, recent: false, alone: true });
		answers(error(404), found(ann), {}, { lead: ann });
		await expect(run({ email: 'ann@x.com', stage: 'New' })).resolves.toEqual(expect.objectContaining({ leadId: '5', action: 'updated' }));
		expect(sent()).toEqual(['GET /v1.0/leads/9', search('email', 'ann@x.com'), 'PUT /v1.0/leads/5', 'GET /v1.0/leads/5']);

		lofty.mockClear();
		forgetRecentLeads();
		remember('acct', [emailKey('ann@x.com')], { leadId: '9', emails: ['ann@x.com'], phones: [], fields: {}, recent: false, alone: true });
		answers({ lead: { leadId: '9' } }, error(404), found(), { leadId: '10' }, { leadId: '10' });
		await expect(run({ email: 'ann@x.com', stage: 'New' })).resolves.toEqual(expect.objectContaining({ leadId: '10', action: 'created' }));
		expect(sent()).toEqual(['GET /v1.0/leads/9', 'PUT /v1.0/leads/9', search('email', 'ann@x.com'), 'POST /v1.0/leads', 'GET /v1.0/leads/10']);

		// The search again asks Lofty by every key: a lead remembered by the person's other key is not taken from memory.
		for (const goneBy of ['read', 'update'] as const) {
			lofty.mockClear();
			forgetRecentLeads();
			remember('acct', [emailKey('ann@x.com')], { leadId: '9', emails: ['ann@x.com'], phones: [], fields: {}, recent: false, alone: true });
			remember('acct', [phoneKey('4155550101')], { leadId: '12', emails: [], phones: ['4155550101'], fields: {}, recent: false, alone: true });
			answers(...(goneBy === 'read' ? [error(404)] : [{ lead: { leadId: '9' } }, error(404)]), found(), found(ann), {}, { lead: ann });
			await expect(run({ email: 'ann@x.com', phone: '4155550101', stage: 'New' })).resolves.toEqual(expect.objectContaining({ leadId: '5', matchedBy: 'phone' }));
			const gone = goneBy === 'read' ? ['GET /v1.0/leads/9'] : ['GET /v1.0/leads/9', 'PUT /v1.0/leads/9'];
			expect(sent()).toEqual([...gone, search('email', 'ann@x.com'), search('phone', '4155550101'), 'PUT /v1.0/leads/5', 'GET /v1.0/leads/5']);
		}

		// A lead the search found that answers 404 is not searched again.
		lofty.mockClear();
		forgetRecentLeads();
		answers(found(ann), error(404, 'gone'));
		await expect(run({ email: 'ann@x.com', stage: 'New' })).rejects.toThrow('gone');
	});
});

describe('an earlier create without a certain answer', () => {
	const earlier = (over: IDataObject = {}) => ({
		execution: '41',
		itemIndex: 0,
		readableBy: Date.now() + 3000,
		what: 'Lofty error (HTTP 500): down',
		keys: [emailKey('ann@x.com'), phoneKey('4155550101')],
		person: { firstName: 'Ann', lastName: 'Lee', emails: ['ann@x.com'] },
		...over,
	});

	it('the search again once Lofty can read that lead: found, it is updated and the create settled', async () => {
		rememberUncertainCreate('acct', earlier());
		answers(found(), found(), found(), found(ann), {}, { lead: ann });
		await expect(run({ email: 'ann@x.com', phone: '4155550101', stage: 'New' })).resolves.toEqual(expect.objectContaining({ action: 'updated', leadId: '5' }));
		expect(mockSlept).toHaveLength(1);
		expect(mockSlept[0]).toBeGreaterThan(2900);
		expect(mockSlept[0]).toBeLessThanOrEqual(3000);
		expect(uncertainCreateFor('acct', [emailKey('ann@x.com')])).toBeUndefined();
	});

	it('the lead found at once: no wait, no second search, the earlier create kept', async () => {
		rememberUncertainCreate('acct', earlier());
		answers(found(ann), {}, { lead: ann });
		await run({ email: 'ann@x.com', stage: 'New' });
		expect(mockSlept).toEqual([]);
		expect(sent()).toEqual([search('email', 'ann@x.com'), 'PUT /v1.0/leads/5', 'GET /v1.0/leads/5']);
		expect(uncertainCreateFor('acct', [emailKey('ann@x.com')])).toBeDefined();
	});

	it('still nothing: the item fails naming the earlier item, creates nothing, and says which lead has the phone', async () => {
		rememberUncertainCreate('acct', earlier({ readableBy: Date.now() - 1 }));
		answers(found(), found(), found(), found(), found({ ...ann, leadId: '6', firstName: 'Ann', emails: ['x@x.com'] }));
		const failed = (await run({ firstName: 'Ann', email: 'ann@x.com', phone: '4155550101' }).catch((e: unknown) => e)) as NodeOperationError;
		expect(mockSlept).toEqual([]);
		expect(failed.message).toBe('A create for this person by item 0 of this execution got no certain answer, and Lofty shows no lead for them yet: this item created none, so that the person does not get two');
		expect(failed.description).toBe(
			'item 0 of this execution failed with "Lofty error (HTTP 500): down", so Lofty may have made the lead without saying so. Lofty shows lead 6 with this phone, which Options > If Only the Phone Matches takes for another person. Search Lofty for the person (Lead > Get Many by email or phone): if the lead is there, run this item again and it is updated; if not, run it again after a few minutes (the earlier create is forgotten after 5 minutes), or create the lead with Lead > Create.',
		);
		expect(failed.context.itemIndex).toBe(1);
		expect(bodies()).toEqual([]);
		expect(uncertainCreateFor('acct', [emailKey('ann@x.com')])).toBeDefined();

		answers(found(), found(), found(), found(), found(), found());
		const plain = (await run({ email: 'ann@x.com', phone: '4155550101' }).catch((e: unknown) => e)) as NodeOperationError;
		expect(plain.description).toMatch(/so Lofty may have made the lead without saying so\. Search Lofty/);
	});

	it('mayBeThePerson: a shared email is the person; a shared phone only by the item\'s rules; no shared key never', () => {
		const person = (email: string | undefined, phone: string | undefined) => {
			const fields = [...(email ? [{ field: 'email' as const, value: email, key: emailKey(email) }] : []), ...(phone ? [{ field: 'phone' as const, value: phone, key: phoneKey(phone) }] : [])];
			return { fields, emails: email ? [email] : [], phones: phone ? [phone] : [] };
		};
		const create = earlier();
		expect(mayBeThePerson({ firstName: 'Bob' }, person('ann@x.com', undefined), create)).toBe(true);
		expect(mayBeThePerson({}, person('z@x.com', '4155550199'), create)).toBe(false);
		expect(mayBeThePerson({ firstName: 'Ann' }, person(undefined, '4155550101'), create)).toBe(true);
		expect(mayBeThePerson({ firstName: 'Bob' }, person(undefined, '4155550101'), create)).toBe(false);
		expect(mayBeThePerson({ firstName: 'Bob', matchBy: 'phone' }, person(undefined, '4155550101'), create)).toBe(true);
		expect(mayBeThePerson({ firstName: 'Ann' }, person('z@x.com', '4155550101'), create)).toBe(false);
		expect(mayBeThePerson({ firstName: 'Ann', phoneOnly: 'nameAgrees' }, person('z@x.com', '4155550101'), create)).toBe(true);
		// Not the item's person: it is created without waiting.
		rememberUncertainCreate('acct', create);
		answers(found(), found(), found(), { leadId: '12' }, { leadId: '12' });
		return expect(run({ firstName: 'Bob', email: 'bob@x.com', phone: '4155550101' })).resolves.toEqual(expect.objectContaining({ action: 'created' }));
	});
});

describe('Create or Update: edges', () => {
	it('Match By Phone searches only the phone; an empty email is not searched; the rules name their field', async () => {
		answers(found(), { leadId: '91' }, { leadId: '91' });
		await run({ matchBy: 'phone', email: 'z@x.com', phone: '+44 7700 900123' });
		expect(sent()[0]).toBe(search('phone', '447700900123'));
		lofty.mockClear();
		forgetRecentLeads();
		answers(found(), found(), { leadId: '92' }, { leadId: '92' });
		await run({ email: '', phone: '4155550188' });
		expect(sent()[0]).toBe(search('phone', '4155550188'));
		expect(() => checkMatch(op({ matchBy: 'email', phone: '1' }))).toThrow('Email: is required when Match By is Email');
		expect(() => checkMatch(op({ matchBy: 'phone', email: 'a' }))).toThrow('Phone: is required when Match By is Phone');
		expect(() => checkMatch(op({}))).toThrow('Email: give an email or a phone');
	});

	it("the search's answers: emails compared without case or spaces, any of a lead's emails or phones, odd entries passed over, no answer", async () => {
		answers(found({ leadId: '5', emails: [7, 'other@x.com', ' Ann@x.com '], phones: [] }), {}, { lead: ann });
		await expect(run({ matchBy: 'email', email: 'ann@x.com', stage: 'New' })).resolves.toEqual(expect.objectContaining({ leadId: '5', action: 'updated' }));
		lofty.mockClear();
		answers(found({ leadId: '6', emails: [], phones: ['+19995550000', '+14155550101'] }), {}, { lead: ann });
		await expect(run({ matchBy: 'phone', phone: '4155550101', stage: 'New' })).resolves.toEqual(expect.objectContaining({ leadId: '6', action: 'updated' }));
		lofty.mockClear();
		answers(null, found(), { leadId: '93' }, { leadId: '93' });
		await expect(run({ matchBy: 'phone', phone: '4155550166' })).resolves.toEqual(expect.objectContaining({ action: 'created' }));
	});

	it('two other people by the phone alone: both passed over, both named when an uncertain create holds the item back', async () => {
		const bob = { ...ann, leadId: '6', firstName: 'Bob' };
		const carl = { ...ann, leadId: '7', firstName: 'Carl' };
		answers(found(), found(bob, carl, ann), {}, { lead: ann });
		await expect(run({ firstName: 'Ann', email: 'ann@x.com', phone: '4155550101', stage: 'New' })).resolves.toEqual(expect.objectContaining({ leadId: '5' }));
		lofty.mockClear();
		forgetRecentLeads();
		const now = Date.now();
		jest.spyOn(Date, 'now').mockReturnValue(now);
		rememberUncertainCreate('acct', { execution: '41', itemIndex: 0, readableBy: now, what: 'x', keys: [phoneKey('4155550101')], person: { firstName: 'Ann', emails: [] } });
		answers(found(), found(bob, carl), found(), found(bob, carl));
		const failed = (await run({ firstName: 'Ann', email: 'ann9@x.com', phone: '4155550101' }).catch((e: unknown) => e)) as NodeOperationError;
		jest.restoreAllMocks();
		// Lofty could read that create's lead already: no wait, not even of 0 ms.
		expect(mockSlept).toEqual([]);
		expect(failed.description).toContain('Lofty shows lead 6, lead 7 with this phone');
		expect(mayBeThePerson({ matchBy: 'phone' }, { fields: [{ field: 'phone', value: '1', key: phoneKey('4155550111') }], emails: [], phones: ['4155550111'] }, { execution: '1', itemIndex: 0, readableBy: 0, what: '', keys: [phoneKey('4155550101')], person: { emails: [] } })).toBe(false);
	});

	it('Update All Given Fields keeps nothing back and lists nothing; before 1.4 it replaced multi-choice values', async () => {
		const lead = { ...ann, customAttributes: [{ attributeName: 'Areas', value: '["North"]' }] };
		typeVersion = 1.3;
		answers(found(lead), {}, { lead });
		const out = await run({ email: 'ann@x.com', firstName: 'Annie', whenExists: 'updateAll', customAttributeList: [{ attributeName: 'Areas', value: '["South"]' }] });
		expect(bodies()).toEqual([{ firstName: 'Annie', customAttributeList: [{ attributeName: 'Areas', value: '["South"]' }] }]);
		expect((out as IDataObject).keptFields).toBeUndefined();
	});

	it('a lead Lofty read before, unreadable after the update: still remembered as readable', async () => {
		answers(found(ann), {}, error(500, 'down'));
		await run({ email: 'ann@x.com', phone: '4155550144' });
		expect(recall('acct', phoneKey('4155550144'))).toEqual(expect.objectContaining({ leadId: '5', recent: false }));
	});

	it('the leads it reads: only by the lead path and the lead search; odd entries of an answer', () => {
		const reads = upsert.turn!.reads!;
		expect(reads({ method: 'GET', path: '/v1.0/leads/12/notes' }, { leads: [{ leadId: 3 }] })).toEqual([]);
		expect(reads({ method: 'GET', path: '/v1.0/leads' }, { leads: [null] })).toEqual(['leadId=undefined']);
		expect([upsert.action, upsert.description].every((t) => typeof t === 'string' && t !== '')).toBe(true);
		const email = upsert.params.find((p) => p.name === 'email')!;
		const phone = upsert.params.find((p) => p.name === 'phone')!;
		expect([email.top, email.placeholder, phone.placeholder]).toEqual([true, 'name@email.com', 'e.g. 4155551234']);
		expect(upsert.params.find((p) => p.name === 'tags')!.description).toMatch(/^Tags added to the lead's tags \(see Options > Replace Tags\)\. /);
		expect(upsert.simplify!.at(-1)).toBe('customAttributes');
		// A remembered lead the search shows among others is not added again.
		const known = { leadId: '3', emails: [], phones: [], fields: {}, recent: false };
		const searched = [{ ...known, leadId: '2' }, known];
		expect(withKnown(searched, known)).toBe(searched);
	});
});
