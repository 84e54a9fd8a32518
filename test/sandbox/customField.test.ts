import { DEMO_API_KEY } from '../../sandbox';
import { customFieldState } from '../../sandbox/resources/customField';
import { client, useSandbox } from './helpers';

const sb = useSandbox();

const api = () => client(sb.url, { token: DEMO_API_KEY });
const add = (body: unknown) => api().post('/v1.0/teamFeatures/custom-field', { body });

describe('GET /v1.0/teamFeatures/listCustomField', () => {
	it('is a bare array of the team\'s CustomAttribute definitions', async () => {
		const r = await api().get('/v1.0/teamFeatures/listCustomField');
		expect(r.status).toBe(200);
		expect(r.text).toContain('"id":9007199254740997');
		expect(r.body.map((f: any) => f.attributeName)).not.toContain('Other Team Field');
		expect(r.body.find((f: any) => f.attributeName === 'Must-Haves')).toMatchObject({ attributeType: 'multi_select', params: '{"option":["Pool","Garage","Yard","Home Office"]}' });
	});
});

describe('POST /v1.0/teamFeatures/custom-field', () => {
	it('adds a field (name trimmed) and answers the JSON string "success"', async () => {
		const r = await add({ attributeName: '  Lot Preference ', attributeType: 'single_select', params: '{"option":["Corner","Cul-de-sac"]}' });
		expect(r.status).toBe(200);
		expect(r.text).toBe('"success"');
		const list = (await api().get('/v1.0/teamFeatures/listCustomField')).body;
		expect(list.find((f: any) => f.attributeName === 'Lot Preference')).toMatchObject({ attributeType: 'single_select', params: '{"option":["Corner","Cul-de-sac"]}' });
	});

	it.each([[{ attributeType: 'text' }], [{ attributeName: '   ', attributeType: 'text' }], [{ attributeName: null, attributeType: 'text' }]])(
		'answers 400 ATTRIBUTE_NAME_EMPTY for %j',
		async (body) => {
			const r = await add(body);
			expect(r.status).toBe(400);
			expect(r.body.code).toBe('ATTRIBUTE_NAME_EMPTY');
		},
	);

	it('answers 400 ATTRIBUTE_TYPE_EMPTY without a type', async () => {
		for (const body of [{ attributeName: 'X' }, { attributeName: 'X', attributeType: ' ' }]) {
			const r = await add(body);
			expect(r.status).toBe(400);
			expect(r.body.code).toBe('ATTRIBUTE_TYPE_EMPTY');
		}
	});

	it('refuses an unsupported type, malformed params and a duplicate name with 20012', async () => {
		expect((await add({ attributeName: 'X', attributeType: 'boolean' })).body.code).toBe(20012);
		expect((await add({ attributeName: 'X', attributeType: 'single_select', params: '["a"]' })).body.code).toBe(20012);
		expect((await add({ attributeName: 'X', attributeType: 'single_select', params: 'not json' })).body.code).toBe(20012);
		const dup = await add({ attributeName: 'budget ceiling', attributeType: 'currency' });
		expect(dup.status).toBe(400);
		expect(dup.body.message).toMatch(/already has a custom field named/);
		expect(customFieldState(sb.store).fields.filter((f) => f.attributeName === 'X')).toHaveLength(0);
	});

	it('accepts every type the OpenAPI lists', async () => {
		for (const type of ['text', 'number', 'date', 'anniversary_date', 'single_select', 'multi_select', 'percentage', 'currency']) {
			expect((await add({ attributeName: `Field ${type}`, attributeType: type })).status).toBe(200);
		}
	});

	it('needs Content-Type: application/json (20001)', async () => {
		const r = await api().post('/v1.0/teamFeatures/custom-field', { rawBody: '{"attributeName":"A","attributeType":"text"}', headers: { 'Content-Type': 'text/plain' } });
		expect(r.status).toBe(400);
		expect(r.body.code).toBe(20001);
	});
});
