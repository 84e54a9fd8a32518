import { READING_VALUES, SEED_IDS } from '../../sandbox';
import { memberMethods } from '../../nodes/Lofty/methods/member';
import { createContext } from '../harness/context';
import { apiKeyCredential, byId, node, run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();

/** Adds `n` accepted members to the demo team, so that the team spans several pages. */
function addMembers(n: number): void {
	const template = sandbox().store.getUser(SEED_IDS.otherAgentUserId)!;
	for (let k = 0; k < n; k++) {
		sandbox().store.addUser({
			...template,
			memberId: BigInt(5000 + k),
			userId: 9007199254800000n + BigInt(k),
			email: `extra${k}@example.com`,
			firstName: `Extra${k}`,
		});
	}
}

describe('Member: Get Current User', () => {
	it('returns the caller, simplified by default, with the user ID exact', async () => {
		const [item] = await run(sandbox(), { resource: 'member', operation: 'getMe' });
		expect(item.json.memberUserId).toBe(SEED_IDS.demoUserId);
		expect(item.json).toMatchObject({ firstName: 'Dana', roleName: 'Owner', email: 'demo.owner@example.com' });
		expect(item.json.agentInfo).toBeUndefined();
	});

	it('returns the whole record with Simplify off, licenses included', async () => {
		const [item] = await run(sandbox(), { resource: 'member', operation: 'getMe', simplify: false });
		const info = item.json.agentInfo as Record<string, unknown>;
		expect(info.licenses).toEqual([
			{ label: 'TX', value: 'TX-600011' },
			{ label: 'CA', value: 'CA-02154873' },
		]);
		expect(item.json.group).toBeDefined();
	});
});

describe('Member: Get Many', () => {
	it('returns all members with Return All in ceil(N/100) requests', async () => {
		addMembers(95);
		const items = await run(sandbox(), { resource: 'member', operation: 'getAll', returnAll: true });
		expect(items).toHaveLength(125);
		expect(new Set(items.map((i) => i.json.memberUserId)).size).toBe(125);
		expect(sandbox().count('GET', '/v1.0/members')).toBe(2);
		expect(sandbox().requests[0].query).toMatchObject({ limit: '100', offset: '0' });
	});

	it('stops at the Limit', async () => {
		const items = await run(sandbox(), { resource: 'member', operation: 'getAll', limit: 7 });
		expect(items).toHaveLength(7);
		expect(sandbox().requests).toHaveLength(1);
		expect(sandbox().requests[0].query.limit).toBe('7');
	});

	it('filters by office', async () => {
		const items = await run(sandbox(), { resource: 'member', operation: 'getAll', returnAll: true, filters: { groupIds: [SEED_IDS.downtownOfficeId] } });
		expect(items.length).toBeGreaterThan(1);
		expect(items.every((i) => i.json.groupId === SEED_IDS.downtownOfficeId)).toBe(true);
		expect(sandbox().requests[0].query.groupIds).toBe(SEED_IDS.downtownOfficeId);
	});

	// docs/api-readings.md, row 10: groupIds is an array parameter; its OpenAPI form repeats the key.
	describe.each(READING_VALUES.queryArrays)('several offices (queryArrays %s)', (reading) => {
		beforeEach(() => sandbox().readings.set({ queryArrays: reading }));

		it('returns the members of each office, sending groupIds=a&groupIds=b', async () => {
			const offices: string[] = [SEED_IDS.downtownOfficeId, SEED_IDS.northOfficeId];
			const expected = sandbox().store.teamMembers(BigInt(SEED_IDS.teamId)).filter((m) => offices.includes(String(m.groupId))).length;
			const items = await run(sandbox(), { resource: 'member', operation: 'getAll', returnAll: true, filters: { groupIds: offices } });
			expect(items).toHaveLength(expected);
			expect(new Set(items.map((i) => i.json.groupId))).toEqual(new Set(offices));
			expect(sandbox().requests[0].query.groupIds).toEqual(offices);
		});
	});

	it('explains USER_NOT_EXIST when no member is in the chosen offices', async () => {
		const error = await runError(sandbox(), { resource: 'member', operation: 'getAll', filters: { groupIds: ['1'] } });
		expect(error.message).toMatch(/HTTP 404 USER_NOT_EXIST/);
		expect(error.description).toMatch(/office filter/);
	});

	it('refuses an office ID that is not a number before sending', async () => {
		const error = await runError(sandbox(), { resource: 'member', operation: 'getAll', filters: { groupIds: ['Main Office'] } });
		expect(error.message).toMatch(/^Invalid value for "Office Names or IDs"/);
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('Member: Get', () => {
	it('gets a member by user ID', async () => {
		const [item] = await run(sandbox(), { resource: 'member', operation: 'get', userId: byId(SEED_IDS.otherAgentUserId) });
		expect(item.json).toMatchObject({ memberUserId: SEED_IDS.otherAgentUserId, firstName: 'Oscar', groupId: SEED_IDS.downtownOfficeId });
	});

	it('explains USER_NOT_EXIST for a user outside the team', async () => {
		const error = await runError(sandbox(), { resource: 'member', operation: 'get', userId: byId('123') });
		expect(error.message).toMatch(/HTTP 404 USER_NOT_EXIST/);
		expect(error.description).toMatch(/No member of your team/);
	});

	it('refuses an ID that is not a number before sending', async () => {
		const error = await runError(sandbox(), { resource: 'member', operation: 'get', userId: 'abc' });
		expect(error.message).toMatch(/^Invalid value for "Member"/);
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('Member: Get By Email', () => {
	it('gets an accepted member by login e-mail', async () => {
		const [item] = await run(sandbox(), { resource: 'member', operation: 'getByEmail', account: 'Other.Agent@example.com' });
		expect(item.json.memberUserId).toBe(SEED_IDS.otherAgentUserId);
	});

	it('does not find a member whose invitation is pending (USER_NOT_EXIST)', async () => {
		const pending = [...sandbox().store.users.values()].find((u) => u.status === 0)!;
		const error = await runError(sandbox(), { resource: 'member', operation: 'getByEmail', account: pending.email });
		expect(error.message).toMatch(/HTTP 404 USER_NOT_EXIST/);
		expect(error.description).toMatch(/accepted their team invitation/);
	});

	it('refuses text that is not an e-mail before sending', async () => {
		const error = await runError(sandbox(), { resource: 'member', operation: 'getByEmail', account: 'oscar' });
		expect(error.message).toMatch(/^Invalid value for "Email"/);
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('Member picker and dropdown', () => {
	const ctx = () => createContext(node, { params: { authentication: 'apiKey' }, credential: apiKeyCredential(sandbox()) }) as any;

	it('pages the picker 100 at a time without a filter', async () => {
		addMembers(95);
		const first = await memberMethods.listSearch.searchMembers.call(ctx());
		expect(first.results).toHaveLength(100);
		expect(first.paginationToken).toBe('100');
		const second = await memberMethods.listSearch.searchMembers.call(ctx(), undefined, first.paginationToken);
		expect(second.results).toHaveLength(25);
		expect(second.paginationToken).toBeUndefined();
	});

	it('searches names and e-mails across the team', async () => {
		const found = await memberMethods.listSearch.searchMembers.call(ctx(), 'dana demo');
		expect(found.results).toEqual([{ name: 'Dana Demo (demo.owner@example.com)', value: SEED_IDS.demoUserId }]);
	});

	it('fills the agent dropdown with user IDs', async () => {
		const options = await memberMethods.loadOptions.getMembers.call(ctx());
		expect(options).toHaveLength(30);
		expect(options).toContainEqual({ name: 'Oscar Other (other.agent@example.com)', value: SEED_IDS.otherAgentUserId });
	});
});
