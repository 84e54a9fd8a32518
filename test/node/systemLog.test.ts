import { SEED_IDS } from '../../sandbox';
import { byId, run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const logs = (extra: Record<string, unknown> = {}) =>
	run(sandbox(), { resource: 'systemLog', operation: 'getAll', leadId: byId(SEED_IDS.logsLeadId), ...extra });

describe('System Log: Get Many', () => {
	it('Return All pages 1000 at a time until hasMore is 0', async () => {
		const items = await logs({ returnAll: true });
		expect(items).toHaveLength(2500);
		expect(sandbox().requests.map((r) => [r.query.pageNumber, r.query.pageSize])).toEqual([
			['0', '1000'],
			['1', '1000'],
			['2', '1000'],
		]);
		expect(new Set(items.map((i) => i.json.id)).size).toBe(2500);
	});

	it('passes entries through untouched, newest first, ids as strings', async () => {
		const items = await logs({ limit: 50 });
		expect(items).toHaveLength(50);
		const first = items[0].json;
		expect(typeof first.id).toBe('string');
		expect(first).toHaveProperty('timelineTypeDesc');
		expect(first).toHaveProperty('content');
		const times = items.map((i) => Date.parse(i.json.timelineTime as string));
		expect([...times].sort((a, b) => b - a)).toEqual(times);
		const stage = items.find((i) => i.json.timelineTypeDesc === 'TeamStageChange');
		if (stage) expect(stage.json.content).toHaveProperty('toStageName');
	});

	it('Limit asks for one page of exactly that size', async () => {
		await logs({ limit: 150 });
		expect(sandbox().requests.map((r) => r.query.pageSize)).toEqual(['150']);
	});

	it('sends the date range as epoch milliseconds and gets only entries inside it', async () => {
		const all = await logs({ returnAll: true });
		const times = all.map((i) => Date.parse(i.json.timelineTime as string)).sort((a, b) => a - b);
		const from = new Date(times[500]).toISOString();
		const to = new Date(times[1000]).toISOString();
		sandbox().reset();
		const items = await logs({ returnAll: true, filters: { startTime: from, endTime: to } });
		expect(sandbox().requests[0].query).toMatchObject({ startTime: String(times[500]), endTime: String(times[1000]) });
		expect(items.length).toBeGreaterThanOrEqual(501);
		for (const { json } of items) {
			const t = Date.parse(json.timelineTime as string);
			expect(t).toBeGreaterThanOrEqual(times[500]);
			expect(t).toBeLessThanOrEqual(times[1000]);
		}
	});

	it('refuses From later than To and an unreadable date before sending', async () => {
		const reversed = await runError(sandbox(), {
			resource: 'systemLog',
			operation: 'getAll',
			leadId: byId(SEED_IDS.logsLeadId),
			filters: { startTime: '2026-02-01T00:00:00Z', endTime: '2026-01-01T00:00:00Z' },
		});
		expect(reversed.message).toBe('Invalid value for "From": must not be later than To');
		const garbled = await runError(sandbox(), {
			resource: 'systemLog',
			operation: 'getAll',
			leadId: byId(SEED_IDS.logsLeadId),
			filters: { startTime: 'last tuesday' },
		});
		expect(garbled.message).toMatch(/^Invalid value for "From": must be a date and time/);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('reports 403 for a lead the user neither owns nor shares, from a plain-string error body', async () => {
		const error = await runError(sandbox(), { resource: 'systemLog', operation: 'getAll', leadId: byId(SEED_IDS.notSharedLeadId) });
		expect(error.message).toMatch(/^Lofty error \(HTTP 403 PERMISSION_DENIED\)/);
		expect(error.description).toMatch(/owner or a shared agent/);
	});

	it('reads a shared lead', async () => {
		const items = await run(sandbox(), { resource: 'systemLog', operation: 'getAll', leadId: byId(SEED_IDS.sharedLeadId), returnAll: true });
		expect(Array.isArray(items)).toBe(true);
	});
});
