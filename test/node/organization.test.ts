import { READING_VALUES, SEED_IDS } from '../../sandbox';
import { ORG_SEED, orgState } from '../../sandbox/resources/organization';
import { organizationMethods } from '../../nodes/Lofty/methods/organization';
import { createContext } from '../harness/context';
import { apiKeyCredential, node, oauthCredential, run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();

const asUser = (userId: string) => ({ credential: oauthCredential(sandbox(), sandbox().issueToken({ userId })) });
const asOtherAgent = () => ({ credential: apiKeyCredential(sandbox(), sandbox().otherAgentApiKey) });

describe('Organization: Get', () => {
	it('shows an owner every office and their permission profile', async () => {
		const [item] = await run(sandbox(), { resource: 'organization', operation: 'get' });
		const info = item.json.enterpriseInfo as Record<string, any>;
		expect(item.json.orgType).toBe('SIGNAL_INSTANCE');
		expect(info).toMatchObject({ groupId: SEED_IDS.mainOfficeId, groupName: 'Main Office', profileId: '9007199254760001', profileName: 'Team Owner' });
		expect(info.visibleOrgInfoList.map((o: any) => o.groupId)).toEqual([SEED_IDS.mainOfficeId, SEED_IDS.northOfficeId, SEED_IDS.downtownOfficeId, SEED_IDS.northTeamAOfficeId]);
	});

	it('shows an office manager only the sub-offices, and a plain agent none', async () => {
		const [manager] = await run(sandbox(), { resource: 'organization', operation: 'get' }, asUser(ORG_SEED.northOwnerUserId));
		expect((manager.json.enterpriseInfo as any).visibleOrgInfoList).toEqual([{ groupId: SEED_IDS.northTeamAOfficeId, groupName: 'North Austin - Team A', parentId: SEED_IDS.northOfficeId }]);
		const [agent] = await run(sandbox(), { resource: 'organization', operation: 'get' }, asOtherAgent());
		expect((agent.json.enterpriseInfo as any).visibleOrgInfoList).toEqual([]);
	});
});

describe('Organization: Update Company', () => {
	it('updates the company and reports the acknowledgement', async () => {
		const [item] = await run(sandbox(), {
			resource: 'organization',
			operation: 'updateCompany',
			updateFields: { name: 'Lone Star Realty', phone: '5125550199', phoneCode: '+1', phoneCountry: 'us' },
		});
		expect(item.json).toEqual({ updated: true, code: 0, message: 'success' });
		expect(JSON.parse(sandbox().requests[0].body)).toEqual({ name: 'Lone Star Realty', phone: '5125550199', phoneCode: '1', phoneCountry: 'US' });
		expect(orgState(sandbox().store).company.name).toBe('Lone Star Realty');
	});

	it('refuses an update without fields, and a phone with other characters than digits, before sending', async () => {
		const none = await runError(sandbox(), { resource: 'organization', operation: 'updateCompany' });
		expect(none.message).toBe('Invalid value for "Update Fields": add at least one field to change');
		const phone = await runError(sandbox(), { resource: 'organization', operation: 'updateCompany', updateFields: { phone: '(512) 555-0199' } });
		expect(phone.message).toMatch(/^Invalid value for "Phone": must be digits only/);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('explains 20017 for a user without Manage Organization', async () => {
		const error = await runError(sandbox(), { resource: 'organization', operation: 'updateCompany', updateFields: { city: 'Dallas' } }, asOtherAgent());
		expect(error.message).toMatch(/HTTP 400 20017/);
		expect(error.description).toMatch(/Manage Organization permission/);
	});
});

// docs/api-readings.md, row 13: the spec creates with POST (no id), the OpenAPI with PUT ("Add Office").
describe.each(READING_VALUES.officeCreate)('Organization: Create Office (officeCreate %s)', (reading) => {
	beforeEach(() => sandbox().readings.set({ officeCreate: reading }));
	const methods = () => sandbox().requests.map((r) => r.method);

	it('creates one office and returns it with its 64-bit ID exact: POST without an ID, then PUT once Lofty refuses that as an update', async () => {
		const [item] = await run(sandbox(), {
			resource: 'organization',
			operation: 'createOffice',
			name: 'Lakeway Office',
			additionalFields: { parentId: SEED_IDS.northOfficeId, city: 'Lakeway', state: 'TX', email: 'lakeway@example.com', allowManageSub: true },
		});
		expect(methods()).toEqual(reading === 'spec' ? ['POST'] : ['POST', 'PUT']);
		for (const request of sandbox().requests) {
			expect(request.body).toContain(`"parentId":${SEED_IDS.northOfficeId}`);
			expect(JSON.parse(request.body)).not.toHaveProperty('id');
		}
		expect(sandbox().faults.writes('*', '/v1.0/org/office')).toBe(1);
		expect(item.json).toMatchObject({ id: '9007199254790001', parentId: SEED_IDS.northOfficeId, name: 'Lakeway Office', city: 'Lakeway', allowManageSub: true });
		const [org] = await run(sandbox(), { resource: 'organization', operation: 'get' });
		expect((org.json.enterpriseInfo as any).visibleOrgInfoList.map((o: any) => o.groupId)).toContain('9007199254790001');
	});

	it('learns the reading once per execution: later items go out in the right form at once', async () => {
		const items = await run(sandbox(), (i) => ({ resource: 'organization', operation: 'createOffice', name: `Office ${i}` }), { items: [{}, {}, {}] });
		expect(items.map((i) => i.json.name)).toEqual(['Office 0', 'Office 1', 'Office 2']);
		expect(methods()).toEqual(reading === 'spec' ? ['POST', 'POST', 'POST'] : ['POST', 'PUT', 'PUT', 'PUT']);
		expect(sandbox().faults.writes('*', '/v1.0/org/office')).toBe(3);
	});

	it('a 404 about something else (a missing parent office) is the POST\'s own error and switches nothing', async () => {
		const parentGone = { kind: '500' as const, status: 404, code: 'RESOURCE_NOT_EXIST', message: 'Parent office 424242 does not exist', match: { method: 'POST', path: '/v1.0/org/office' } };
		sandbox().faults.inject(parentGone);
		const items = await run(sandbox(), (i) => ({ resource: 'organization', operation: 'createOffice', name: `Office ${i}`, additionalFields: i === 0 ? { parentId: '424242' } : {} }), {
			items: [{}, {}, {}],
			continueOnFail: true,
		});
		expect(items[0].json.error).toBe('Lofty error (HTTP 404 RESOURCE_NOT_EXIST): Parent office 424242 does not exist');
		expect(items.slice(1).map((i) => i.json.name)).toEqual(['Office 1', 'Office 2']);
		// Item 0 sent only its POST; the later items took the reading as if item 0 had not failed.
		expect(methods()).toEqual(reading === 'spec' ? ['POST', 'POST', 'POST'] : ['POST', 'POST', 'PUT', 'PUT']);
		expect(sandbox().faults.writes('*', '/v1.0/org/office')).toBe(2);
	});

	it('lets an office manager create below their own office, not elsewhere (20017)', async () => {
		const manager = asUser(ORG_SEED.northOwnerUserId);
		const [item] = await run(sandbox(), { resource: 'organization', operation: 'createOffice', name: 'Team B', additionalFields: { parentId: SEED_IDS.northOfficeId } }, manager);
		expect(item.json.name).toBe('Team B');
		const error = await runError(sandbox(), { resource: 'organization', operation: 'createOffice', name: 'Team C', additionalFields: { parentId: SEED_IDS.downtownOfficeId } }, manager);
		expect(error.message).toMatch(/HTTP 400 20017/);
	});
});

describe('Organization: Create Office, checks', () => {
	it('refuses a blank name and a malformed e-mail before sending', async () => {
		const blank = await runError(sandbox(), { resource: 'organization', operation: 'createOffice', name: '  ' });
		expect(blank.message).toBe('Invalid value for "Name": is required');
		const email = await runError(sandbox(), { resource: 'organization', operation: 'createOffice', name: 'X', additionalFields: { email: 'lakeway' } });
		expect(email.message).toMatch(/^Invalid value for "Email"/);
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('Organization: Update Office', () => {
	it('updates an office with POST and its ID in the body', async () => {
		const [item] = await run(sandbox(), {
			resource: 'organization',
			operation: 'updateOffice',
			officeId: SEED_IDS.downtownOfficeId,
			updateFields: { name: 'Downtown Austin Office', zipcode: '78702' },
		});
		expect(sandbox().requests[0].method).toBe('POST');
		expect(JSON.parse(sandbox().requests[0].body)).toEqual({ id: Number(SEED_IDS.downtownOfficeId), name: 'Downtown Austin Office', zipcode: '78702' });
		expect(item.json).toMatchObject({ id: SEED_IDS.downtownOfficeId, name: 'Downtown Austin Office', zipcode: '78702', parentId: SEED_IDS.mainOfficeId });
	});

	it('explains a missing office (404)', async () => {
		const error = await runError(sandbox(), { resource: 'organization', operation: 'updateOffice', officeId: '999', updateFields: { name: 'X' } });
		expect(error.message).toMatch(/HTTP 404 RESOURCE_NOT_EXIST/);
		expect(error.description).toMatch(/does not exist in your company/);
	});

	it('refuses an update without fields, or an office as its own parent, before sending', async () => {
		const none = await runError(sandbox(), { resource: 'organization', operation: 'updateOffice', officeId: SEED_IDS.northOfficeId });
		expect(none.message).toBe('Invalid value for "Update Fields": add at least one field to change');
		const self = await runError(sandbox(), { resource: 'organization', operation: 'updateOffice', officeId: SEED_IDS.northOfficeId, updateFields: { parentId: SEED_IDS.northOfficeId } });
		expect(self.message).toMatch(/must not be the office itself/);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('passes on Lofty refusing a move below its own sub-office (20012)', async () => {
		const error = await runError(sandbox(), { resource: 'organization', operation: 'updateOffice', officeId: SEED_IDS.northOfficeId, updateFields: { parentId: SEED_IDS.northTeamAOfficeId } });
		expect(error.message).toMatch(/HTTP 400 20012.*sub-offices/);
	});
});

describe('Organization: Get Permission Profiles', () => {
	it('lists the profiles, one item each', async () => {
		const items = await run(sandbox(), { resource: 'organization', operation: 'getPermissionProfiles' });
		expect(items.map((i) => i.json.name)).toContain('Office Manager');
		expect(items[0].json).toEqual({ id: '9007199254760001', name: 'Team Owner' });
	});

	it('explains VENDOR_HAS_NO_PERMISSION for a plain agent', async () => {
		const error = await runError(sandbox(), { resource: 'organization', operation: 'getPermissionProfiles' }, asOtherAgent());
		expect(error.message).toMatch(/HTTP 400 VENDOR_HAS_NO_PERMISSION/);
		expect(error.description).toMatch(/Manage Permission Profile/);
	});
});

describe('Office dropdown', () => {
	it('offers the caller\'s office and the offices visible to them', async () => {
		const ctx = createContext(node, { params: { authentication: 'apiKey' }, credential: apiKeyCredential(sandbox()) }) as any;
		const options = await organizationMethods.loadOptions.getOffices.call(ctx);
		expect(options).toEqual([
			{ name: 'Downtown Office', value: SEED_IDS.downtownOfficeId },
			{ name: 'Main Office', value: SEED_IDS.mainOfficeId },
			{ name: 'North Austin - Team A', value: SEED_IDS.northTeamAOfficeId },
			{ name: 'North Austin Office', value: SEED_IDS.northOfficeId },
		]);
	});
});
