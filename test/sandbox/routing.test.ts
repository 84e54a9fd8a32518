import { DEMO_API_KEY, OTHER_AGENT_API_KEY, SEED_IDS } from '../../sandbox';
import { ROUTING_IDS, STRATEGY } from '../../sandbox/resources/routing';
import { client, useSandbox } from './helpers';

const sb = useSandbox();

const api = () => client(sb.url, { token: DEMO_API_KEY });
const seeded = (i: number) => 302656410082801 + i * 17;

async function expectCode(pending: Promise<any>, code: string | number): Promise<void> {
	const r = await pending;
	expect(r.status).toBe(400);
	expect(r.body.code).toBe(code);
}

describe('routing reads', () => {
	it('rule lists are bare arrays of RoutingRule with the 64-bit rule id exact', async () => {
		const r = await api().get('/v1.0/routing/rule/list/1');
		expect(r.text).toContain(`"id":${ROUTING_IDS.zillowRuleId}`);
		expect(r.body[0]).toMatchObject({ name: 'Zillow leads to Austin agents', activeHours: { activeDays: [1, 2, 3, 4, 5], hoursStart: 8, hoursEnd: 18 } });
		expect(Object.keys(r.body[0].routingStrategy)).toEqual(['strategyType', 'groupId', 'groupName', 'touchMinutes', 'memberWeights']);
		expect((await api().get('/v1.0/routing/rule/list/2')).body).toHaveLength(1);
		expect((await api().get('/v1.0/routing/rule/list/4?roleId=102')).body).toEqual([]);
	});

	it('BUSINESS_TYPE_ERROR for types other than 1, 2, 4; INVAID_ROLE_ID for 4 without (or with an unknown) role', async () => {
		for (const type of ['3', '0', 'x']) await expectCode(api().get(`/v1.0/routing/rule/list/${type}`), 'BUSINESS_TYPE_ERROR');
		await expectCode(api().get('/v1.0/routing/member/list/5'), 'BUSINESS_TYPE_ERROR');
		await expectCode(api().get('/v1.0/routing/rule/supplement/4'), 'INVAID_ROLE_ID');
		await expectCode(api().get('/v1.0/routing/rule/supplement/4?roleId=-1'), 'INVAID_ROLE_ID');
		await expectCode(api().get('/v1.0/routing/member/list/4?roleId=77'), 'INVAID_ROLE_ID');
		expect((await api().get('/v1.0/routing/member/list/1?roleId=77')).status).toBe(200);
	});

	it('assignable members are {id, name, type}; only active, accepted members', async () => {
		const r = await api().get('/v1.0/routing/member/list/1');
		expect(r.body[0]).toEqual({ id: BigInt(SEED_IDS.demoUserId), name: 'Dana Demo', type: 1 });
		const ids = r.body.map((m: any) => Number(m.id));
		expect(ids).not.toContain(seeded(20)); // deactivated
		expect(ids).not.toContain(seeded(27)); // invitation pending
		expect(ids).not.toContain(seeded(5)); // lender
		expect((await api().get('/v1.0/routing/member/list/4?roleId=101')).body.map((m: any) => Number(m.id))).toEqual([seeded(3), seeded(9)]);
	});

	it('every routing endpoint needs MANAGE_LEAD_DISTRIBUTION(_DEPARTMENT): 400 PERMISSION_DENIED 20017', async () => {
		const other = client(sb.url, { token: OTHER_AGENT_API_KEY });
		for (const path of ['/v1.0/routing/rule/list/1', '/v1.0/routing/rule/supplement/1', '/v1.0/routing/role/list', '/v1.0/routing/member/list/1']) {
			await expectCode(other.get(path), 20017);
		}
		await expectCode(other.put('/v1.0/routing/rule/1', { body: { id: Number(ROUTING_IDS.luxuryRuleId) } }), 20017);
		await expectCode(other.put('/v1.0/routing/rule/supplement/1', { body: { strategyType: STRATEGY.NEXT_UP, touchMinutes: 5 } }), 20017);
	});
});

describe('PUT /v1.0/routing/rule/{type}', () => {
	const put = (body: unknown, type = 1) => api().put(`/v1.0/routing/rule/${type}`, { body });
	const luxury = Number(ROUTING_IDS.luxuryRuleId);

	it('answers the JSON string "ok" and dedupes and sorts active days', async () => {
		const r = await put({ id: luxury, activeHours: { activeDays: [3, 1, 3, 7] } });
		expect(r.text).toBe('"ok"');
		const rule = (await api().get('/v1.0/routing/rule/list/1')).body.find((x: any) => Number(x.id) === luxury);
		expect(rule.activeHours.activeDays).toEqual([1, 3, 7]);
	});

	it.each([
		['INVAID_ID', { activeHours: { hoursStart: 1 } }],
		['INVAID_ID', { id: Number(ROUTING_IDS.lenderRuleId) }],
		['INVAID_ACTIVE_DAY', { id: luxury, activeHours: { activeDays: [0] } }],
		['INVAID_ACTIVE_DAY', { id: luxury, activeHours: { activeDays: [1, 8] } }],
		['INVAID_ACTIVE_HOURS', { id: luxury, activeHours: { hoursStart: -1 } }],
		['INVAID_ACTIVE_HOURS', { id: luxury, activeHours: { hoursEnd: 24 } }],
		['STRATEGY_TYPE_ERROR', { id: luxury, routingStrategy: { strategyType: 0 } }],
		['INVAID_TOUCHMINUTES', { id: luxury, routingStrategy: { touchMinutes: 0 } }],
		['INVAID_TOUCHMINUTES', { id: luxury, routingStrategy: { touchMinutes: 1441 } }],
		['INVAID_TOUCHMINUTES', { id: luxury, routingStrategy: { touchMinutes: 61 } }],
		['INVAID_GROUP_ID', { id: luxury, routingStrategy: { strategyType: STRATEGY.LEAD_POND } }],
		['INVAID_MEMBER_WEIGHT', { id: luxury, routingStrategy: { memberWeights: [{ memberId: 1, weight: 1 }] } }],
		['INVAID_MEMBER_WEIGHT', { id: luxury, routingStrategy: { memberWeights: [{ memberId: Number(SEED_IDS.otherAgentUserId), weight: -2 }] } }],
	])('%s for %j', async (code, body) => {
		await expectCode(put(body), code);
	});

	it('STRATEGY_TYPE_NOT_MATCH: LEAD_POND only for type 1; NEXT_UP and BLAST_ALERT not for type 4', async () => {
		await expectCode(put({ id: Number(ROUTING_IDS.lenderRuleId), routingStrategy: { strategyType: STRATEGY.LEAD_POND, groupId: 7001 } }, 2), 'STRATEGY_TYPE_NOT_MATCH');
		await expectCode(put({ id: Number(ROUTING_IDS.assistantRuleId), routingStrategy: { strategyType: STRATEGY.NEXT_UP, touchMinutes: 10 } }, 4), 'STRATEGY_TYPE_NOT_MATCH');
		await expectCode(put({ id: Number(ROUTING_IDS.assistantRuleId), routingStrategy: { strategyType: STRATEGY.BLAST_ALERT, touchMinutes: 10 } }, 4), 'STRATEGY_TYPE_NOT_MATCH');
	});

	it('memberWeights spec: a list (one object is a JSON parse error); 60, 120 and 1440 touch minutes', async () => {
		const weights = [{ memberId: Number(SEED_IDS.otherAgentUserId), weight: 4 }];
		const single = await put({ id: luxury, routingStrategy: { memberWeights: weights[0] } });
		expect([single.status, single.body.code]).toEqual([400, 20012]);
		expect(single.body.message).toMatch(/Cannot deserialize value of type `java.util.ArrayList<MemberWeight>` from Object value/);
		expect((await put({ id: luxury, routingStrategy: { memberWeights: weights } })).text).toBe('"ok"');
		for (const touchMinutes of [60, 120, 1440]) expect((await put({ id: luxury, routingStrategy: { touchMinutes } })).status).toBe(200);
		const rule = (await api().get('/v1.0/routing/rule/list/1')).body.find((x: any) => Number(x.id) === luxury);
		expect(rule.routingStrategy).toMatchObject({ touchMinutes: 1440, memberWeights: [{ memberId: Number(SEED_IDS.otherAgentUserId), firstName: 'Oscar', lastName: 'Other', weight: 4 }] });
	});

	it('memberWeights openapi: one object (a list is a JSON parse error) sets the one weighted member', async () => {
		sb.readings.set({ memberWeights: 'openapi' });
		const weight = { memberId: Number(SEED_IDS.otherAgentUserId), weight: 4 };
		const list = await put({ id: luxury, routingStrategy: { memberWeights: [weight] } });
		expect([list.status, list.body.code]).toEqual([400, 20012]);
		expect(list.body.message).toMatch(/Cannot deserialize value of type `MemberWeight` from Array value/);
		expect((await put({ id: luxury, routingStrategy: { memberWeights: weight } })).text).toBe('"ok"');
		const rule = (await api().get('/v1.0/routing/rule/list/1')).body.find((x: any) => Number(x.id) === luxury);
		expect(rule.routingStrategy.memberWeights).toMatchObject([{ memberId: Number(SEED_IDS.otherAgentUserId), weight: 4 }]);
	});
});

describe('PUT /v1.0/routing/rule/supplement/{type}', () => {
	const put = (type: number, body: unknown) => api().put(`/v1.0/routing/rule/supplement/${type}`, { body });

	it('DEFAULT_ASSIGNEE for agent leads takes exactly one of agent or office (INVAID_ID otherwise)', async () => {
		await expectCode(put(1, { strategyType: STRATEGY.DEFAULT_ASSIGNEE }), 'INVAID_ID');
		await expectCode(put(1, { strategyType: STRATEGY.DEFAULT_ASSIGNEE, assigneeAgentId: Number(SEED_IDS.otherAgentUserId), assigneeGroupId: Number(SEED_IDS.mainOfficeId) }), 'INVAID_ID');
		await expectCode(put(1, { strategyType: STRATEGY.DEFAULT_ASSIGNEE, assigneeAgentId: seeded(5) }), 'INVAID_ID');
		expect((await put(1, { strategyType: STRATEGY.DEFAULT_ASSIGNEE, assigneeAgentId: Number(SEED_IDS.otherAgentUserId) })).text).toBe('"ok"');
		const rule = await api().get('/v1.0/routing/rule/supplement/1');
		expect(rule.body).toMatchObject({ businessType: 1, roleId: -1, assigneeAgentName: 'Oscar Other', assigneeGroupId: null });
	});

	it('other types: the office is ignored, the agent required; non-default strategies need valid touchMinutes', async () => {
		await expectCode(put(2, { strategyType: STRATEGY.DEFAULT_ASSIGNEE, assigneeGroupId: Number(SEED_IDS.mainOfficeId) }), 'INVAID_ID');
		await expectCode(put(2, { strategyType: STRATEGY.ROUND_ROBIN }), 'INVAID_TOUCHMINUTES');
		await expectCode(put(2, { touchMinutes: 30 }), 'STRATEGY_TYPE_ERROR');
		await expectCode(put(4, { strategyType: STRATEGY.DEFAULT_ASSIGNEE, assigneeAgentId: seeded(3) }), 'INVAID_ROLE_ID');
		await expectCode(put(4, { roleId: 101, strategyType: STRATEGY.NEXT_UP, touchMinutes: 30 }), 'STRATEGY_TYPE_NOT_MATCH');
		expect((await put(4, { roleId: 101, strategyType: STRATEGY.DEFAULT_ASSIGNEE, assigneeAgentId: seeded(9) })).status).toBe(200);
		expect((await api().get('/v1.0/routing/rule/supplement/4?roleId=101')).body).toMatchObject({ roleId: 101, assigneeAgentId: seeded(9) });
	});
});
