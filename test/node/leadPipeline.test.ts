import { getLeadStages } from '../../nodes/Lofty/methods/leadPipeline';
import { SEED_STAGES } from '../../sandbox';
import { EXTRA_STAGES } from '../../sandbox/resources/leadPipeline';
import { createContext } from '../harness/context';
import { apiKeyCredential, node, run, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const pipelines = (extra: Record<string, unknown> = {}) => run(sandbox(), { resource: 'leadPipeline', operation: 'getAll', ...extra });

function addStages(n: number): number {
	for (let i = 0; i < n; i++) sandbox().store.stageByName(`Extra Stage ${String(i).padStart(3, '0')}`);
	return sandbox().store.stages.length;
}

describe('Lead Pipeline: Get Many', () => {
	it('returns every stage with exact IDs, one page of Limit entries', async () => {
		const items = await pipelines();
		expect(items.map((i) => i.json.name)).toEqual([...SEED_STAGES, ...EXTRA_STAGES.map((s) => s.name)]);
		expect(items.find((i) => i.json.name === 'Past Client')!.json.id).toBe('9007199254741301');
		expect(sandbox().requests.map((r) => [r.query.currPage, r.query.pageSize])).toEqual([['0', '50']]);
	});

	it('filters by part of the name', async () => {
		const items = await pipelines({ filters: { name: 'CONT' } });
		expect(items.map((i) => i.json.name)).toEqual(['Attempted Contact', 'Under Contract']);
		expect(sandbox().requests[0].query.name).toBe('CONT');
	});

	it('Return All pages 100 at a time from page 0: ceil(N/100) requests', async () => {
		const total = addStages(240);
		const items = await pipelines({ returnAll: true });
		expect(items).toHaveLength(total);
		expect(sandbox().count('GET', '/v1.0/teamFeatures/lead-pipelines')).toBe(Math.ceil(total / 100));
		expect(sandbox().requests.map((r) => r.query.currPage)).toEqual(['0', '1', '2']);
		expect(new Set(items.map((i) => i.json.id)).size).toBe(total);
	});

	it('Limit stops after the records asked for', async () => {
		addStages(240);
		const items = await pipelines({ limit: 150 });
		expect(items).toHaveLength(150);
		expect(sandbox().requests.map((r) => [r.query.currPage, r.query.pageSize])).toEqual([
			['0', '100'],
			['1', '100'],
		]);
	});
});

describe('Lead Pipeline: getLeadStages dropdown', () => {
	it('offers every stage by name, in pipeline order', async () => {
		addStages(150);
		const ctx = createContext(node, { params: { authentication: 'apiKey' }, credential: apiKeyCredential(sandbox()) });
		const options = await getLeadStages.call(ctx as never);
		expect(options).toHaveLength(sandbox().store.stages.length);
		expect(options.slice(0, 2)).toEqual([
			{ name: 'New', value: 'New' },
			{ name: 'Attempted Contact', value: 'Attempted Contact' },
		]);
	});
});
