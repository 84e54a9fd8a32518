/** The sandbox's switch for expiring scroll IDs of GET /v1.0/leads (sandbox/resources/lead/scrolls.ts). */
import { DEMO_API_KEY } from '../../sandbox';
import { leadScrolls } from '../../sandbox/resources/lead';
import { client, useSandbox } from './helpers';

const sb = useSandbox();
const api = () => client(sb.url, { token: DEMO_API_KEY });
const page = (params: Record<string, unknown>) => api().get('/v1.0/leads', { params: { limit: 5, ...params } });

describe('lead scroll IDs', () => {
	it('never expire by default; each page hands out a fresh one', async () => {
		const first = await page({});
		const clock = sb.store.now;
		sb.store.now = () => clock() + 24 * 3600_000;
		try {
			const second = await page({ scrollId: first.body._metadata.scrollId });
			expect(second.status).toBe(200);
			expect(second.body.leads[0].leadId).not.toBe(first.body.leads[0].leadId);
		} finally {
			sb.store.now = clock;
		}
	});

	it('with ttlMs, one used later than that after its answer is refused with 400 20012; one used in time goes on', async () => {
		leadScrolls(sb.store).ttlMs = 10_000;
		const clock = sb.store.now;
		const t0 = clock();
		try {
			sb.store.now = () => t0;
			const first = await page({});
			sb.store.now = () => t0 + 9_000;
			const second = await page({ scrollId: first.body._metadata.scrollId });
			expect(second.status).toBe(200);
			sb.store.now = () => t0 + 18_000;
			// the second page's scroll was handed out at t0 + 9 s: still in time
			expect((await page({ scrollId: second.body._metadata.scrollId })).status).toBe(200);
			const late = await page({ scrollId: first.body._metadata.scrollId });
			expect(late.status).toBe(400);
			expect(late.body.code).toBe(20012);
			expect(late.body.message).toMatch(/'scrollId' has expired/);
			expect(leadScrolls(sb.store).refused).toBe(1);
		} finally {
			sb.store.now = clock;
		}
	});

	it('expireAll refuses every scroll ID handed out until then; reset restores the default', async () => {
		const clock = sb.store.now;
		const t0 = clock();
		sb.store.now = () => t0;
		const first = await page({});
		leadScrolls(sb.store).expireAll(t0);
		expect((await page({ scrollId: first.body._metadata.scrollId })).status).toBe(400);
		sb.store.now = () => t0 + 1;
		const fresh = await page({});
		expect((await page({ scrollId: fresh.body._metadata.scrollId })).status).toBe(200);
		sb.store.now = clock;
		sb.reset();
		expect(leadScrolls(sb.store).ttlMs).toBeUndefined();
		expect(leadScrolls(sb.store).expiredBefore).toBe(-Infinity);
	});
});
