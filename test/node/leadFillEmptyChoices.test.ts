/**
 * Create or Update, "Only Fill Empty Fields": a multi-choice custom field that already has values gets the given
 * choices it lacks added (as tags, emails and phones are), instead of keeping its value and listing it in keptFields.
 */
import type { IDataObject } from 'n8n-workflow';

import { parseJson } from '../../sandbox';
import { byId, run, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const mapped = (value: IDataObject) => ({ mappingMode: 'defineBelow', value, matchingColumns: [], schema: [] });
const custom = (lead: IDataObject) => Object.fromEntries((lead.customAttributes as IDataObject[]).map((a) => [a.attributeName, a.value]));

async function existing(mustHaves: string[]): Promise<string> {
	const [item] = await run(sandbox(), {
		resource: 'lead',
		operation: 'create',
		firstName: 'Uma',
		additionalFields: { emails: ['uma@example.com'] },
		customFieldValues: mapped({ 'Must-Haves': mustHaves.join(', '), Financing: 'Cash' }),
	});
	return item.json.leadId as string;
}

const again = (value: IDataObject) => ({ resource: 'lead', operation: 'upsert', firstName: 'Uma', email: 'uma@example.com', customFieldValues: mapped(value), output: 'raw' });

describe('Only Fill Empty Fields and a multi-choice custom field', () => {
	it('adds the choices the lead lacks to its own; a single-choice field keeps its value (listed)', async () => {
		const leadId = await existing(['Pool']);
		sandbox().requests.length = 0;
		const [item] = await run(sandbox(), again({ 'Must-Haves': 'Garage, pool', Financing: 'VA' }), { typeVersion: 1.2 });
		expect(item.json).toMatchObject({ action: 'updated', leadId, keptFields: ['customFields.Financing'] });
		const put = parseJson(sandbox().requests.find((r) => r.method === 'PUT')!.body) as IDataObject;
		expect(put.customAttributeList).toEqual([{ attributeName: 'Must-Haves', attributeType: 'multi_select', value: '["Pool","Garage"]' }]);
		const [lead] = await run(sandbox(), { resource: 'lead', operation: 'get', leadId: byId(leadId) });
		expect(custom(lead.json)).toMatchObject({ 'Must-Haves': '["Pool","Garage"]', Financing: 'Cash' });
	});

	it('nothing new among the choices: nothing is sent, the lead is unchanged', async () => {
		const leadId = await existing(['Pool', 'Garage']);
		sandbox().requests.length = 0;
		const [item] = await run(sandbox(), again({ 'Must-Haves': 'Garage' }), { typeVersion: 1.2 });
		expect(item.json).toMatchObject({ action: 'unchanged', leadId });
		expect(item.json.keptFields).toBeUndefined();
		expect(sandbox().count('PUT', '/v1.0/leads/{leadId}')).toBe(0);
	});
});
