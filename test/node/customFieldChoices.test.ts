/**
 * Multi-choice custom fields picked from a dropdown (issue 37, item 7): Multi-Choice Custom Fields lists every
 * choice of the team's multi-choice fields as "Field: Choice", whole; the picked choices of one field make its value;
 * a choice that is not the field's (an expression) is refused before anything is sent.
 */
import type { ILoadOptionsFunctions, INodeProperties } from 'n8n-workflow';

import { getLeadCustomFieldChoices, getTransactionCustomFieldChoices } from '../../nodes/Lofty/methods/customFieldMapping';
import { parseJson } from '../../sandbox';
import { createContext } from '../harness/context';
import { apiKeyCredential, node, run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const loadContext = () => createContext(node, { params: { authentication: 'apiKey' }, credential: apiKeyCredential(sandbox()) }) as unknown as ILoadOptionsFunctions;
const created = () => sandbox().requests.filter((r) => r.method === 'POST' && r.path === '/v1.0/leads').map((r) => parseJson(r.body) as Record<string, unknown>);
const pick = (field: string, choice: string) => JSON.stringify([field, choice]);

describe('Multi-Choice Custom Fields', () => {
	it('is a dropdown beside the mapper on the writes, listing each choice by its whole name', async () => {
		const property = node.description.properties.find((p) => p.name === 'customFieldChoices' && p.displayOptions?.show?.resource?.includes('lead')) as INodeProperties;
		expect(property).toMatchObject({ type: 'multiOptions', displayName: 'Multi-Choice Custom Fields' });
		const options = await getLeadCustomFieldChoices.call(loadContext());
		expect(options.map((o) => o.name)).toEqual(['Must-Haves: Garage', 'Must-Haves: Home Office', 'Must-Haves: Pool', 'Must-Haves: Yard']);
		const deals = await getTransactionCustomFieldChoices.call(loadContext());
		expect(deals.map((o) => o.name)).toEqual(['Showing Days: Saturday', 'Showing Days: Sunday']);
	});

	it('Lead > Create sends the picked choices as the field\'s list, with those typed in the mapper', async () => {
		const options = await getLeadCustomFieldChoices.call(loadContext());
		const value = (name: string) => options.find((o) => o.name === name)!.value;
		await run(sandbox(), {
			resource: 'lead',
			operation: 'create',
			firstName: 'Choices',
			customFieldChoices: [value('Must-Haves: Pool'), value('Must-Haves: Home Office')],
			customFieldValues: { mappingMode: 'defineBelow', value: { 'Must-Haves': 'Yard', Financing: 'VA' }, matchingColumns: [], schema: [] },
		});
		expect(created()[0].customAttributeList).toEqual([
			{ attributeName: 'Must-Haves', attributeType: 'multi_select', value: '["Pool","Home Office","Yard"]' },
			{ attributeName: 'Financing', attributeType: 'single_select', value: 'VA' },
		]);
	});

	it('a choice the field does not have (given by an expression) is refused before sending, naming the field', async () => {
		const error = await runError(sandbox(), { resource: 'lead', operation: 'create', firstName: 'Choices', customFieldChoices: [pick('Must-Haves', 'Tennis Court')] });
		expect(error.message).toBe('Invalid value for "Custom Field Must-Haves": must be one of Pool, Garage, Yard, Home Office, got Tennis Court');
		const unknown = await runError(sandbox(), { resource: 'lead', operation: 'create', firstName: 'Choices', customFieldChoices: ['Pool'] });
		expect(unknown.message).toMatch(/^Invalid value for "Multi-Choice Custom Fields": Pool is not a choice of a multi-choice lead custom field \(the team's: Must-Haves\)/);
		expect(created()).toHaveLength(0);
	});
});
