import { DEMO_API_KEY, OTHER_AGENT_API_KEY, SEED_IDS } from '../../sandbox';
import { POND_IDS } from '../../sandbox/resources/leadPond';
import { client, useSandbox } from './helpers';

const sb = useSandbox({ reset: false });

const api = (key = DEMO_API_KEY) => client(sb.url, { token: key });

describe('GET /v1.0/team-features/lead-ponds', () => {
	it('is a bare array of LeadPond visible to the caller', async () => {
		const r = await api().get('/v1.0/team-features/lead-ponds');
		expect(r.status).toBe(200);
		expect(r.text).toContain(`"id":${POND_IDS.company}`);
		expect(r.text).toContain(`"agentIds":[${SEED_IDS.demoUserId},${SEED_IDS.otherAgentUserId}]`);
		expect(r.body.map((p: any) => p.pondName).sort()).toEqual(['Company Pond', 'Downtown Pond', 'North Austin Pond']);
		expect(Object.keys(r.body[0]).sort()).toEqual(['agentIds', 'id', 'pondName', 'pondOwnerId']);
	});

	it('shows an agent only ponds of their offices or that they belong to', async () => {
		const r = await api(OTHER_AGENT_API_KEY).get('/v1.0/team-features/lead-ponds');
		expect(r.body.map((p: any) => p.pondName).sort()).toEqual(['Company Pond', 'Downtown Pond']);
	});
});

describe('GET /v1.0/team-features/lead-pond/{id}', () => {
	it('returns one pond', async () => {
		const r = await api().get(`/v1.0/team-features/lead-pond/${POND_IDS.north}`);
		expect(r.status).toBe(200);
		expect(r.body).toMatchObject({ pondName: 'North Austin Pond' });
		expect(String(r.body.pondOwnerId)).toBe(SEED_IDS.demoUserId);
	});

	it('answers the same 400 / 20017 for a missing, disabled, other-team or out-of-scope pond', async () => {
		const answers = await Promise.all([
			api().get('/v1.0/team-features/lead-pond/999999'),
			api().get(`/v1.0/team-features/lead-pond/${POND_IDS.disabled}`),
			api().get(`/v1.0/team-features/lead-pond/${POND_IDS.otherTeam}`),
			api(OTHER_AGENT_API_KEY).get(`/v1.0/team-features/lead-pond/${POND_IDS.north}`),
		]);
		for (const r of answers) {
			expect(r.status).toBe(400);
			expect(r.body).toEqual({ code: 20017, message: 'Permission denied' });
		}
	});

	it('refuses an ID that is not a positive integer with 20012', async () => {
		expect((await api().get('/v1.0/team-features/lead-pond/abc')).body.code).toBe(20012);
		expect((await api().get('/v1.0/team-features/lead-pond/0')).body.code).toBe(20012);
	});
});
