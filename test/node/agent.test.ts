import { READING_VALUES, SEED_IDS } from '../../sandbox';
import { ORG_SEED } from '../../sandbox/resources/organization';
import { agentMethods } from '../../nodes/Lofty/methods/agent';
import { createContext } from '../harness/context';
import { apiKeyCredential, byId, node, oauthCredential, run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();

/** Seeded members (user ID = 302656410082801 + 17 i). */
const seeded = (i: number) => String(302656410082801n + BigInt(i * 17));
const ADMIN = seeded(1);
const DEACTIVATED = seeded(20);
const PENDING = seeded(27);
const PLAIN_AGENT = seeded(0);

const asUser = (userId: string) => ({ credential: oauthCredential(sandbox(), sandbox().issueToken({ userId })) });
const asOtherAgent = () => ({ credential: apiKeyCredential(sandbox(), sandbox().otherAgentApiKey) });
const user = (id: string) => sandbox().store.getUser(id)!;

const createParams = (extra: Record<string, unknown> = {}) => ({
	resource: 'agent',
	operation: 'create',
	accountType: 1,
	firstName: 'Nina',
	lastName: 'Novak',
	emailAddress: 'nina.novak@example.com',
	phoneNumber: '5125559876',
	...extra,
});

// docs/api-readings.md, row 7: licenses in workInfo.licenses (spec, place not shown) or only workInfo.licenseId (OpenAPI).
describe.each(READING_VALUES.agentLicenses)('Agent: Create with licenses (agentLicenses %s)', (reading) => {
	beforeEach(() => sandbox().readings.set({ agentLicenses: reading }));

	it('sends the licenses and the first one as licenseId: all of them arrive, or the first one', async () => {
		const licenses = [{ label: 'TX', value: 'TX-0654321' }, { label: 'CA', value: 'CA-01234567' }];
		const [item] = await run(sandbox(), { ...createParams(), additionalFields: { licenses: { values: licenses } } });
		expect(item.json).toEqual({ agentId: '9007199254770001', created: true });
		expect(JSON.parse(sandbox().requests.at(-1)!.body).workInfo).toEqual({ licenses, licenseId: 'TX-0654321' });
		const [member] = await run(sandbox(), { resource: 'member', operation: 'get', userId: byId('9007199254770001'), simplify: false });
		const agentInfo = member.json.agentInfo as Record<string, unknown>;
		expect(agentInfo.licenseId).toBe('TX-0654321');
		expect(agentInfo.licenses).toEqual(reading === 'spec' ? licenses : [{ label: 'License', value: 'TX-0654321' }]);
	});

	it('a License ID given besides the licenses is sent as given', async () => {
		await run(sandbox(), { ...createParams(), additionalFields: { licenses: { values: [{ label: 'TX', value: 'TX-1' }] }, licenseId: 'OLD-7' } });
		expect(JSON.parse(sandbox().requests.at(-1)!.body).workInfo).toEqual({ licenses: [{ label: 'TX', value: 'TX-1' }], licenseId: 'OLD-7' });
	});
});

describe('Agent: Create', () => {
	it('creates an agent with licenses and returns its 64-bit user ID exactly', async () => {
		const [item] = await run(sandbox(), {
			...createParams(),
			additionalFields: {
				groupId: SEED_IDS.northOfficeId,
				licenses: { values: [{ label: 'TX', value: 'TX-0654321' }, { label: 'CA', value: 'CA-01234567' }] },
				position: 'Buyer Specialist',
				phoneCode: '+1',
			},
		});
		expect(item.json).toEqual({ agentId: '9007199254770001', created: true });
		const sent = JSON.parse(sandbox().requests.at(-1)!.body);
		expect(sent).toMatchObject({
			accountType: 1,
			accountInfo: { firstName: 'Nina', lastName: 'Novak', emailAddress: 'nina.novak@example.com', phoneNumber: '5125559876', phoneCode: '1' },
			workInfo: { position: 'Buyer Specialist', licenses: [{ label: 'TX', value: 'TX-0654321' }, { label: 'CA', value: 'CA-01234567' }] },
		});
		expect(sandbox().requests.at(-1)!.body).toContain(`"groupId":${SEED_IDS.northOfficeId}`);
		const [member] = await run(sandbox(), { resource: 'member', operation: 'get', userId: byId('9007199254770001'), simplify: false });
		expect(member.json.memberUserId).toBe('9007199254770001');
		expect((member.json.agentInfo as Record<string, unknown>).licenses).toEqual([
			{ label: 'TX', value: 'TX-0654321' },
			{ label: 'CA', value: 'CA-01234567' },
		]);
	});

	it('refuses more than 5 licenses before sending', async () => {
		const licenses = { values: Array.from({ length: 6 }, (_, k) => ({ label: `S${k}`, value: `L-${k}` })) };
		const error = await runError(sandbox(), { ...createParams(), additionalFields: { licenses } });
		expect(error.message).toBe('Invalid value for "Licenses": takes at most 5 entries, got 6');
		expect(sandbox().requests).toHaveLength(0);
	});

	it('refuses more than 5 licenses given in the raw JSON option', async () => {
		const licenses = Array.from({ length: 6 }, (_, k) => ({ label: `S${k}`, value: `L-${k}` }));
		const error = await runError(sandbox(), { ...createParams(), additionalFields: { profileJson: JSON.stringify({ workInfo: { licenses } }) } });
		expect(error.message).toMatch(/Additional Profile \(JSON\)": licenses takes at most 5 entries/);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('refuses an e-mail that is not one, naming the field', async () => {
		const error = await runError(sandbox(), createParams({ emailAddress: 'nina-at-example' }));
		expect(error.message).toMatch(/^Invalid value for "Email"/);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('reports created: false when Lofty returns 0 for an agent already in the team', async () => {
		const [item] = await run(sandbox(), createParams({ emailAddress: 'other.agent@example.com' }));
		expect(item.json.created).toBe(false);
		expect(item.json.agentId).toBeNull();
		expect(item.json.message).toMatch(/already exists/);
	});

	it('fails the item when Lofty answers with a non-zero errorCode (HTTP 200)', async () => {
		const error = await runError(sandbox(), { ...createParams(), additionalFields: { groupId: '999' } });
		expect(error.message).toMatch(/HTTP 200 20012.*groupId/);
		expect(error.description).toMatch(/profile field was rejected/);
	});

	it('refuses an account type that is not a whole number before sending', async () => {
		const error = await runError(sandbox(), createParams({ accountType: 1.5 }));
		expect(error.message).toBe('Invalid value for "Account Type": must be a whole number, got 1.5');
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('Agent: Add Tags', () => {
	it('adds tags, creating missing ones when asked', async () => {
		const [item] = await run(sandbox(), {
			resource: 'agent',
			operation: 'addTags',
			agentId: byId(SEED_IDS.otherAgentUserId),
			tagNames: ['Mentor', 'Relocation Expert'],
			additionalFields: { autoCreate: true },
		});
		expect(item.json).toEqual({ agentId: SEED_IDS.otherAgentUserId, tagNames: ['Mentor', 'Relocation Expert'], added: true });
		expect(JSON.parse(sandbox().requests[0].body)).toEqual({ tagNames: ['Mentor', 'Relocation Expert'], autoCreate: true });
	});

	it('fails on a tag the team does not have without Create Missing Tags', async () => {
		const error = await runError(sandbox(), { resource: 'agent', operation: 'addTags', agentId: byId(SEED_IDS.otherAgentUserId), tagNames: ['Unknown Tag'] });
		expect(error.message).toMatch(/HTTP 200 20012.*Unknown Tag/);
		expect(error.description).toMatch(/Create Missing Tags/);
	});

	it('refuses more than 20 tag names before sending', async () => {
		const tagNames = Array.from({ length: 21 }, (_, k) => `T${k}`);
		const error = await runError(sandbox(), { resource: 'agent', operation: 'addTags', agentId: byId(SEED_IDS.otherAgentUserId), tagNames });
		expect(error.message).toBe('Invalid value for "Tag Names": takes at most 20 entries, got 21');
		expect(sandbox().requests).toHaveLength(0);
	});

	it('fails with 404 20003 for an agent outside the team', async () => {
		const error = await runError(sandbox(), { resource: 'agent', operation: 'addTags', agentId: byId('123'), tagNames: ['Mentor'] });
		expect(error.message).toMatch(/HTTP 404 20003/);
		expect(error.description).toMatch(/not a member of your team/);
	});
});

describe('Agent: Deactivate', () => {
	const deactivate = (agentId: string) => ({ resource: 'agent', operation: 'deactivate', agentId: byId(agentId) });

	it('deactivates an agent: the seat is released and the member shows INACTIVE', async () => {
		const [item] = await run(sandbox(), deactivate(SEED_IDS.otherAgentUserId));
		expect(item.json).toMatchObject({ agentId: SEED_IDS.otherAgentUserId, status: 'deactivated', success: true });
		expect(user(SEED_IDS.otherAgentUserId).accountStatus).toBe('INACTIVE');
		expect(sandbox().count('POST', `/v2.0/agents/${SEED_IDS.otherAgentUserId}/deactivate`)).toBe(1);
	});

	it.each([
		['990105', DEACTIVATED, /already deactivated/],
		['990106', ORG_SEED.downtownOwnerUserId, /office owner/],
		['990107', SEED_IDS.demoUserId, /your own account/],
		['990113', PENDING, /onboarding/],
		['20012', '123', /not a member of your team/],
	])('fails the item on code %s although Lofty answers HTTP 200', async (code, agentId, hint) => {
		const error = await runError(sandbox(), deactivate(agentId));
		expect(error.message).toContain(`HTTP 200 ${code}`);
		expect(error.description).toMatch(hint);
	});

	it('refuses a team owner (990106) even for an admin', async () => {
		const error = await runError(sandbox(), deactivate(SEED_IDS.demoUserId), asUser(ADMIN));
		expect(error.message).toContain('HTTP 200 990106');
	});

	it('needs MANAGE_TEAM_AGENT: 1900012 for a plain agent', async () => {
		const error = await runError(sandbox(), deactivate(PLAIN_AGENT), asOtherAgent());
		expect(error.message).toContain('HTTP 200 1900012');
		expect(error.description).toMatch(/Manage Team Agent permission/);
		expect(user(PLAIN_AGENT).accountStatus).toBe('ACTIVE');
	});

	it('lets an office manager deactivate agents of their own office only', async () => {
		const manager = asUser(ORG_SEED.downtownOwnerUserId);
		const [item] = await run(sandbox(), deactivate(SEED_IDS.otherAgentUserId), manager);
		expect(item.json.status).toBe('deactivated');
		const error = await runError(sandbox(), deactivate(PLAIN_AGENT), manager);
		expect(error.message).toContain('HTTP 200 1900012');
	});

	it('continues with the next item when Continue On Fail is set', async () => {
		const items = await run(sandbox(), (i) => deactivate(i === 0 ? DEACTIVATED : SEED_IDS.otherAgentUserId), { items: [{}, {}], continueOnFail: true });
		expect(items[0].json.error).toMatch(/990105/);
		expect(items[1].json.status).toBe('deactivated');
	});
});

describe('Agent: Reactivate', () => {
	const reactivate = (agentId: string) => ({ resource: 'agent', operation: 'reactivate', agentId: byId(agentId) });

	it('fails with 310111 SEAT_INSUFFICIENT while no seat is free, and succeeds after a seat is released', async () => {
		const error = await runError(sandbox(), reactivate(DEACTIVATED));
		expect(error.message).toContain('HTTP 200 310111');
		expect(error.description).toMatch(/no free license seat/);
		await run(sandbox(), { resource: 'agent', operation: 'deactivate', agentId: byId(SEED_IDS.otherAgentUserId) });
		const [item] = await run(sandbox(), reactivate(DEACTIVATED));
		expect(item.json).toMatchObject({ agentId: DEACTIVATED, status: 'active' });
		expect(user(DEACTIVATED).accountStatus).toBe('ACTIVE');
	});

	it('fails with 990112 for an agent who is already active', async () => {
		const error = await runError(sandbox(), reactivate(SEED_IDS.otherAgentUserId));
		expect(error.message).toContain('HTTP 200 990112');
		expect(error.description).toMatch(/already active/);
	});

	it('fails with 990113 for an agent who never completed onboarding', async () => {
		user(PENDING).accountStatus = 'INACTIVE';
		const error = await runError(sandbox(), reactivate(PENDING));
		expect(error.message).toContain('HTTP 200 990113');
	});

	it('needs MANAGE_TEAM_AGENT: 1900012 for a plain agent', async () => {
		const error = await runError(sandbox(), reactivate(DEACTIVATED), asOtherAgent());
		expect(error.message).toContain('HTTP 200 1900012');
	});
});

describe('Agent picker', () => {
	const ctx = () => createContext(node, { params: { authentication: 'apiKey' }, credential: apiKeyCredential(sandbox()) }) as any;

	it('lists team members by user ID and searches them by name or e-mail', async () => {
		const all = await agentMethods.listSearch.searchAgents.call(ctx());
		expect(all.results).toHaveLength(30);
		expect(all.paginationToken).toBeUndefined();
		const found = await agentMethods.listSearch.searchAgents.call(ctx(), 'oscar');
		expect(found.results).toEqual([{ name: 'Oscar Other (other.agent@example.com)', value: SEED_IDS.otherAgentUserId }]);
	});
});
