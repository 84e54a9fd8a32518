/**
 * Issue 46, item 3: Multi-Choice Values (node version 1.4) on the writes to an existing record: "Add to the Current
 * Choices" (the default) keeps the record's choices and adds the given ones it lacks; "Replace the Current Choices"
 * sends exactly the given ones (with Only Fill Empty Fields a set field then keeps its value and is listed in
 * keptFields). Earlier versions keep what they did: replace, but Only Fill Empty Fields adds.
 */
import type { IDataObject } from 'n8n-workflow';

import { parseJson } from '../../sandbox';
import { byId, run, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const mapped = (value: IDataObject) => ({ mappingMode: 'defineBelow', value, matchingColumns: [], schema: [] });
const custom = (lead: IDataObject) => Object.fromEntries((lead.customAttributes as IDataObject[]).map((a) => [a.attributeName, a.value]));
const V14 = { typeVersion: 1.4 };

let people = 0;
/** A lead with Must-Haves set to `mustHaves`; its ID and email. */
async function lead(mustHaves: string[]): Promise<{ leadId: string; email: string }> {
	const email = `choices${++people}@example.com`;
	const [item] = await run(sandbox(), { resource: 'lead', operation: 'create', firstName: 'Uma', additionalFields: { emails: [email] }, customFieldValues: mapped({ 'Must-Haves': mustHaves.join(', ') }) });
	return { leadId: item.json.leadId as string, email };
}

async function mustHavesOf(leadId: string): Promise<unknown> {
	const [read] = await run(sandbox(), { resource: 'lead', operation: 'get', leadId: byId(leadId), output: 'raw' }, V14);
	return custom(read.json)['Must-Haves'];
}

describe('Lead > Update: Multi-Choice Values', () => {
	it('Add (the default from 1.4): the lead keeps Pool and Garage and gets Yard, picked in the dropdown', async () => {
		const { leadId } = await lead(['Pool', 'Garage']);
		await run(sandbox(), { resource: 'lead', operation: 'update', leadId: byId(leadId), customFieldChoices: [JSON.stringify(['Must-Haves', 'Yard'])] }, V14);
		expect(await mustHavesOf(leadId)).toBe('["Pool","Garage","Yard"]');
	});

	it('Replace: the lead ends up with exactly the choices given (typed in the mapper)', async () => {
		const { leadId } = await lead(['Pool', 'Garage']);
		await run(sandbox(), { resource: 'lead', operation: 'update', leadId: byId(leadId), multiChoiceMode: 'replace', customFieldValues: mapped({ 'Must-Haves': 'Yard' }) }, V14);
		expect(await mustHavesOf(leadId)).toBe('["Yard"]');
	});

	it('a saved 1.3 workflow replaces, as it did', async () => {
		const { leadId } = await lead(['Pool', 'Garage']);
		await run(sandbox(), { resource: 'lead', operation: 'update', leadId: byId(leadId), customFieldValues: mapped({ 'Must-Haves': 'Yard' }) }, { typeVersion: 1.3 });
		expect(await mustHavesOf(leadId)).toBe('["Yard"]');
	});

	it('Add reads the lead only when a multi-choice field is given', async () => {
		const { leadId } = await lead(['Pool']);
		sandbox().requests.length = 0;
		await run(sandbox(), { resource: 'lead', operation: 'update', leadId: byId(leadId), customFieldValues: mapped({ Financing: 'VA' }) }, V14);
		expect(sandbox().count('GET', '/v1.0/leads/{leadId}')).toBe(0);
	});
});

describe('Lead > Create or Update: Multi-Choice Values with When the Lead Exists', () => {
	const again = (email: string, extra: IDataObject) => ({ resource: 'lead', operation: 'upsert', firstName: 'Uma', email, output: 'raw', customFieldChoices: [JSON.stringify(['Must-Haves', 'Yard'])], ...extra });

	it('Only Fill Empty Fields + Replace: the set field keeps its choices and keptFields names it (the issue: it was merged, unnamed)', async () => {
		const { leadId, email } = await lead(['Pool', 'Garage']);
		const [item] = await run(sandbox(), again(email, { multiChoiceMode: 'replace' }), V14);
		expect(item.json).toMatchObject({ leadId, keptFields: ['customFields.Must-Haves'] });
		expect(await mustHavesOf(leadId)).toBe('["Pool","Garage"]');
	});

	it('Only Fill Empty Fields + Add: Yard joins', async () => {
		const { leadId, email } = await lead(['Pool', 'Garage']);
		const [item] = await run(sandbox(), again(email, {}), V14);
		expect(item.json.keptFields).toBeUndefined();
		expect(await mustHavesOf(leadId)).toBe('["Pool","Garage","Yard"]');
	});

	it('Update All Fields + Add: Yard joins; + Replace: Yard alone', async () => {
		const one = await lead(['Pool', 'Garage']);
		await run(sandbox(), again(one.email, { options: { whenExists: 'updateAll' } }), V14);
		expect(await mustHavesOf(one.leadId)).toBe('["Pool","Garage","Yard"]');
		const two = await lead(['Pool', 'Garage']);
		await run(sandbox(), again(two.email, { options: { whenExists: 'updateAll' }, multiChoiceMode: 'replace' }), V14);
		expect(await mustHavesOf(two.leadId)).toBe('["Yard"]');
	});
});

describe('Transaction > Update: Multi-Choice Values', () => {
	const showingDays = async (transactionId: string, leadId: string): Promise<unknown> => {
		const [read] = await run(sandbox(), { resource: 'transaction', operation: 'get', leadId: byId(leadId), transactionId: byId(transactionId), output: 'raw' }, V14);
		return ((read.json.customFields as IDataObject[]) ?? []).find((f) => String(f.id) === '1004')?.value;
	};

	it('Add keeps Saturday and adds Sunday; Replace leaves Sunday alone (1.4 names: transactionCustomFieldValues)', async () => {
		const [created] = await run(sandbox(), { resource: 'transaction', operation: 'getAll', limit: 1, output: 'raw' }, V14);
		const transactionId = String(created.json.id ?? created.json.transactionId);
		const leadId = String(created.json.leadId);
		await run(sandbox(), { resource: 'transaction', operation: 'update', leadId: byId(leadId), transactionId: byId(transactionId), multiChoiceMode: 'replace', transactionCustomFieldValues: mapped({ '1004': 'Saturday' }) }, V14);
		expect(await showingDays(transactionId, leadId)).toBe('["sat"]');
		await run(sandbox(), { resource: 'transaction', operation: 'update', leadId: byId(leadId), transactionId: byId(transactionId), transactionCustomFieldValues: mapped({ '1004': 'Sunday' }) }, V14);
		expect(await showingDays(transactionId, leadId)).toBe('["sat","sun"]');
		await run(sandbox(), { resource: 'transaction', operation: 'update', leadId: byId(leadId), transactionId: byId(transactionId), multiChoiceMode: 'replace', transactionCustomFieldChoices: [JSON.stringify(['1004', 'sun'])] }, V14);
		expect(await showingDays(transactionId, leadId)).toBe('["sun"]');
		const put = parseJson(sandbox().requests.filter((r) => r.method === 'PUT').pop()!.body) as { customFields: IDataObject[] };
		expect(put.customFields.map((f) => [String(f.id), f.value])).toContainEqual(['1004', '["sun"]']);
	});
});
