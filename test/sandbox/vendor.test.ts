import { DEMO_API_KEY, OTHER_AGENT_API_KEY } from '../../sandbox';
import { client, useSandbox } from './helpers';

const sb = useSandbox({ reset: false });

describe('GET /v1.0/vendor/list', () => {
	it('is a bare array of VendorInfo with exact 64-bit ids and no internal fields', async () => {
		const r = await client(sb.url, { token: DEMO_API_KEY }).get('/v1.0/vendor/list');
		expect(r.status).toBe(200);
		expect(Array.isArray(r.body)).toBe(true);
		expect(r.text).toContain('"id":9007199254780011');
		expect(Object.keys(r.body[0]).sort()).toEqual(
			['agentUserId', 'companyAddress', 'companyName', 'email', 'firstName', 'id', 'lastName', 'phoneCode', 'phoneCountry', 'phoneNumber', 'roleName'].sort(),
		);
	});

	it('400 with code 20017 when the user may not list team vendors', async () => {
		const r = await client(sb.url, { token: OTHER_AGENT_API_KEY }).get('/v1.0/vendor/list');
		expect(r.status).toBe(400);
		expect(r.body.code).toBe(20017);
	});
});
