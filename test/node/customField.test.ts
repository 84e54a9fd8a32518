import { getCustomFields } from '../../nodes/Lofty/methods/customField';
import { parseJson } from '../../sandbox';
import { createContext } from '../harness/context';
import { apiKeyCredential, node, run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const list = async () => (await run(sandbox(), { resource: 'customField', operation: 'getAll' })).map((i) => i.json);

describe('Custom Field: Get Many', () => {
	it('returns the team\'s fields only, one item each', async () => {
		const fields = await list();
		expect(fields.map((f) => f.attributeName)).toEqual(expect.arrayContaining(['Preferred School District', 'Financing', 'Must-Haves']));
		expect(fields.map((f) => f.attributeName)).not.toContain('Other Team Field');
		expect(fields.find((f) => f.attributeName === 'Preferred School District')!.id).toBe('9007199254740997');
		expect(JSON.parse(fields.find((f) => f.attributeName === 'Financing')!.params as string)).toEqual({ option: ['Cash', 'Conventional', 'FHA', 'VA'] });
	});
});

describe('Custom Field: Create', () => {
	it('creates a text field and reports it', async () => {
		const [item] = await run(sandbox(), { resource: 'customField', operation: 'create', attributeName: '  Garage Size  ', attributeType: 'number' });
		expect(item.json).toMatchObject({ success: true, attributeName: 'Garage Size', attributeType: 'number', message: 'success' });
		expect(parseJson(sandbox().requests[0].body)).toEqual({ attributeName: 'Garage Size', attributeType: 'number' });
		expect((await list()).find((f) => f.attributeName === 'Garage Size')).toMatchObject({ attributeType: 'number' });
	});

	it('sends the choices of a select field as the text {"option": [...]}', async () => {
		await run(sandbox(), {
			resource: 'customField',
			operation: 'create',
			attributeName: 'Contact Preference',
			attributeType: 'single_select',
			additionalFields: { selectOptions: ['Call', 'Text', 'Email'] },
		});
		expect(parseJson(sandbox().requests[0].body)).toEqual({
			attributeName: 'Contact Preference',
			attributeType: 'single_select',
			params: '{"option":["Call","Text","Email"]}',
		});
		const created = (await list()).find((f) => f.attributeName === 'Contact Preference')!;
		expect(JSON.parse(created.params as string)).toEqual({ option: ['Call', 'Text', 'Email'] });
	});

	it('refuses choices on a field that is not a select, before sending', async () => {
		const error = await runError(sandbox(), {
			resource: 'customField',
			operation: 'create',
			attributeName: 'Notes',
			attributeType: 'text',
			additionalFields: { selectOptions: ['a'] },
		});
		expect(error.message).toMatch(/^Invalid value for "Choices": only apply to Single Select and Multi Select/);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('refuses an empty name before sending, naming Lofty\'s ATTRIBUTE_NAME_EMPTY', async () => {
		const error = await runError(sandbox(), { resource: 'customField', operation: 'create', attributeName: '   ', attributeType: 'text' });
		expect(error.message).toBe('Invalid value for "Name": is required (Lofty would answer ATTRIBUTE_NAME_EMPTY)');
		expect(sandbox().requests).toHaveLength(0);
	});

	it('refuses an empty type before sending, naming Lofty\'s ATTRIBUTE_TYPE_EMPTY', async () => {
		const error = await runError(sandbox(), { resource: 'customField', operation: 'create', attributeName: 'X', attributeType: '' });
		expect(error.message).toBe('Invalid value for "Type": is required (Lofty would answer ATTRIBUTE_TYPE_EMPTY)');
		expect(sandbox().requests).toHaveLength(0);
	});

	it('explains a name the team already has (20012)', async () => {
		const error = await runError(sandbox(), { resource: 'customField', operation: 'create', attributeName: 'financing', attributeType: 'text' });
		expect(error.message).toMatch(/HTTP 400 20012/);
		expect(error.description).toMatch(/already have a custom field with this name/);
	});
});

describe('Custom Field: getCustomFields dropdown', () => {
	it('offers the fields by name with their type', async () => {
		const ctx = createContext(node, { params: { authentication: 'apiKey' }, credential: apiKeyCredential(sandbox()) });
		const options = await getCustomFields.call(ctx as never);
		expect(options.find((o) => o.value === 'Financing')).toEqual({ name: 'Financing', value: 'Financing', description: 'Type: single_select' });
		const names = options.map((o) => o.name);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
	});
});
