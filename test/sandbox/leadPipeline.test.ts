import { DEMO_API_KEY, SEED_STAGES } from '../../sandbox';
import { client, useSandbox } from './helpers';

const sb = useSandbox();

const api = () => client(sb.url, { token: DEMO_API_KEY });
const get = (params: Record<string, unknown> = {}) => api().get('/v1.0/teamFeatures/lead-pipelines', { params });

describe('GET /v1.0/teamFeatures/lead-pipelines', () => {
	it('defaults to page 0 of 10 with _metadata.total before paging', async () => {
		const r = await get();
		expect(r.status).toBe(200);
		expect(r.body._metadata).toEqual({ collection: 'pipelines', limit: 10, offset: 0, total: 10, scrollId: null });
		expect(r.body.pipelines.map((p: any) => p.name)).toEqual([...SEED_STAGES, 'Past Client', 'Sphere of Influence']);
		expect(r.text).toContain('{"id":9007199254741301,"name":"Past Client"}');
	});

	it('pages with zero-based currPage', async () => {
		const r = await get({ currPage: 2, pageSize: 4 });
		expect(r.body._metadata).toMatchObject({ limit: 4, offset: 8, total: 10 });
		expect(r.body.pipelines.map((p: any) => p.name)).toEqual(['Past Client', 'Sphere of Influence']);
		expect((await get({ currPage: 5, pageSize: 4 })).body.pipelines).toEqual([]);
	});

	it('filters by a name substring, ignoring case', async () => {
		const r = await get({ name: 'ACT' });
		expect(r.body.pipelines.map((p: any) => p.name)).toEqual(['Attempted Contact', 'Active', 'Under Contract']);
		expect(r.body._metadata.total).toBe(3);
	});

	it('lists a stage written through the lead endpoints', async () => {
		sb.store.stageByName('Appointment Set');
		expect((await get({ name: 'appointment' })).body.pipelines.map((p: any) => p.name)).toEqual(['Appointment Set']);
	});

	it('refuses currPage below 0 and pageSize below 1 with 20012', async () => {
		for (const params of [{ currPage: -1 }, { pageSize: 0 }, { pageSize: 'ten' }]) {
			const r = await get(params);
			expect(r.status).toBe(400);
			expect(r.body.code).toBe(20012);
		}
	});
});
