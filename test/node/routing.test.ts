import { READING_VALUES, SEED_IDS } from '../../sandbox';
import { ORG_SEED } from '../../sandbox/resources/organization';
import { ROUTING_IDS, STRATEGY, routingState } from '../../sandbox/resources/routing';
import { routingMethods } from '../../nodes/Lofty/methods/routing';
import { createContext } from '../harness/context';
import { apiKeyCredential, node, oauthCredential, run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();

const seeded = (i: number) => String(302656410082801n + BigInt(i * 17));
const ASSISTANTS = [seeded(3), seeded(9)];
const LENDER = seeded(5);
const asOtherAgent = () => ({ credential: apiKeyCredential(sandbox(), sandbox().otherAgentApiKey) });
const rule = (id: string) => routingState(sandbox().store).rules.find((r) => r.id === BigInt(id))!;

describe('Routing: Get Rules', () => {
	it('lists the rules of agent leads, simplified, IDs exact', async () => {
		const items = await run(sandbox(), { resource: 'routing', operation: 'getRules', type: '1' });
		expect(items.map((i) => i.json.id)).toEqual([ROUTING_IDS.zillowRuleId, ROUTING_IDS.luxuryRuleId, ROUTING_IDS.pondRuleId]);
		expect(items[0].json).toMatchObject({ name: 'Zillow leads to Austin agents', sourceName: 'Zillow', ruleSwitch: true });
		expect(items[0].json.locationRule).toBeUndefined();
		const weights = (items[0].json.routingStrategy as any).memberWeights;
		expect(weights[0]).toMatchObject({ memberId: SEED_IDS.demoUserId, weight: 3 });
	});

	it('needs a role for assistant leads: refused before sending without one', async () => {
		const error = await runError(sandbox(), { resource: 'routing', operation: 'getRules', type: '4' });
		expect(error.message).toMatch(/^Invalid value for "Role Name or ID": is required when Business Type is 4/);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('lists the rules of an assign role', async () => {
		const items = await run(sandbox(), { resource: 'routing', operation: 'getRules', type: '4', options: { roleId: '101' } });
		expect(items.map((i) => i.json.id)).toEqual([ROUTING_IDS.assistantRuleId]);
		expect(sandbox().requests[0].query).toEqual({ roleId: '101' });
	});

	it('explains INVAID_ROLE_ID for an unknown role', async () => {
		const error = await runError(sandbox(), { resource: 'routing', operation: 'getRules', type: '4', options: { roleId: '999' } });
		expect(error.message).toMatch(/HTTP 400 INVAID_ROLE_ID/);
		expect(error.description).toMatch(/need a role from Get Roles/);
	});

	it('refuses a business type other than 1, 2, 4 before sending (Lofty: BUSINESS_TYPE_ERROR)', async () => {
		const error = await runError(sandbox(), { resource: 'routing', operation: 'getRules', type: '3' });
		expect(error.message).toMatch(/^Invalid value for "Business Type": must be one of 1, 2, 4/);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('explains PERMISSION_DENIED (20017) without Manage Lead Distribution; a routing coordinator may', async () => {
		const error = await runError(sandbox(), { resource: 'routing', operation: 'getRules', type: '1' }, asOtherAgent());
		expect(error.message).toMatch(/HTTP 400 20017/);
		expect(error.description).toMatch(/Manage Lead Distribution permission/);
		const coordinator = oauthCredential(sandbox(), sandbox().issueToken({ userId: ORG_SEED.routingCoordinatorUserId }));
		const items = await run(sandbox(), { resource: 'routing', operation: 'getRules', type: '2' }, { credential: coordinator });
		expect(items.map((i) => i.json.id)).toEqual([ROUTING_IDS.lenderRuleId]);
	});
});

describe('Routing: Update Rule', () => {
	const update = (fields: Record<string, unknown>, ruleId: string = ROUTING_IDS.zillowRuleId, type = '1') => ({
		resource: 'routing',
		operation: 'updateRule',
		type,
		ruleId,
		updateFields: fields,
	});

	it('changes active hours and strategy, sending IDs as exact integers', async () => {
		const [item] = await run(
			sandbox(),
			update({
				activeDays: [5, 1, 3],
				hoursStart: 9,
				hoursEnd: 17,
				strategyType: STRATEGY.NEXT_UP,
				touchMinutes: 120,
				memberWeights: { values: [{ memberId: SEED_IDS.demoUserId, weight: 2 }, { memberId: SEED_IDS.otherAgentUserId }] },
			}),
		);
		expect(item.json).toEqual({ updated: true, businessType: '1', ruleId: ROUTING_IDS.zillowRuleId, message: 'ok' });
		const body = sandbox().requests[0].body;
		expect(body).toContain(`"id":${ROUTING_IDS.zillowRuleId}`);
		expect(body).toContain(`"memberWeights":[{"memberId":${SEED_IDS.demoUserId},"weight":2},{"memberId":${SEED_IDS.otherAgentUserId},"weight":1}]`);
		expect(JSON.parse(body).activeHours).toEqual({ activeDays: [5, 1, 3], hoursStart: 9, hoursEnd: 17 });
		const r = rule(ROUTING_IDS.zillowRuleId);
		expect(r).toMatchObject({ activeDays: [1, 3, 5], hoursStart: 9, hoursEnd: 17, strategyType: STRATEGY.NEXT_UP, touchMinutes: 120 });
		expect(r.memberWeights.map((w) => w.memberId.toString())).toEqual([SEED_IDS.demoUserId, SEED_IDS.otherAgentUserId]);
	});

	it.each([
		[{ touchMinutes: 90 }, /"Touch Minutes": must be a whole number above 0 and at most 1440, and a multiple of 60/],
		[{ touchMinutes: 1500 }, /"Touch Minutes": must be at most 1440/],
		[{ hoursStart: 24 }, /"Active From Hour": must be at most 23/],
		[{ hoursEnd: 7.5 }, /"Active Until Hour": must be a whole number/],
		[{ activeDays: [8] }, /"Active Days": must be days 1 to 7/],
		[{}, /"Update Fields": add at least one field to change/],
	])('refuses %j before sending', async (fields, message) => {
		const error = await runError(sandbox(), update(fields));
		expect(error.message).toMatch(message);
		expect(sandbox().requests).toHaveLength(0);
	});

	it.each([
		['INVAID_ID', update({ hoursStart: 8 }, ROUTING_IDS.lenderRuleId, '1'), /not one of this business type/],
		['STRATEGY_TYPE_ERROR', update({ strategyType: 99 }), /not a code Lofty knows/],
		['STRATEGY_TYPE_NOT_MATCH', update({ strategyType: STRATEGY.LEAD_POND, groupId: ROUTING_IDS.pondId }, ROUTING_IDS.lenderRuleId, '2'), /Lead Pond works only for agent leads/],
		['INVAID_GROUP_ID', update({ strategyType: STRATEGY.LEAD_POND, groupId: '424242' }), /lead pond or office does not exist/],
		['INVAID_MEMBER_WEIGHT', update({ memberWeights: { values: [{ memberId: LENDER, weight: 1 }] } }), /Get Assignable Members/],
		['INVAID_TOUCHMINUTES', update({ strategyType: STRATEGY.BLAST_ALERT }), /whole hours/],
	])('explains %s', async (code, params, hint) => {
		const error = await runError(sandbox(), params);
		expect(error.message).toContain(`HTTP 400 ${code}`);
		expect(error.description).toMatch(hint);
	});

	it('moves a rule to a lead pond', async () => {
		await run(sandbox(), update({ strategyType: STRATEGY.LEAD_POND, groupId: ROUTING_IDS.pondId }, ROUTING_IDS.luxuryRuleId));
		expect(rule(ROUTING_IDS.luxuryRuleId)).toMatchObject({ strategyType: STRATEGY.LEAD_POND, groupId: 7001n, memberWeights: [], touchMinutes: null });
	});
});

// docs/api-readings.md, row 6: memberWeights is a list (the node's first reading) or one object (the OpenAPI).
describe.each(READING_VALUES.memberWeights)('Routing: Update Rule member weights (memberWeights %s)', (reading) => {
	beforeEach(() => sandbox().readings.set({ memberWeights: reading }));
	const update = (values: Array<Record<string, unknown>>) => ({
		resource: 'routing',
		operation: 'updateRule',
		type: '1',
		ruleId: ROUTING_IDS.zillowRuleId,
		updateFields: { memberWeights: { values } },
	});
	const weights = () => rule(ROUTING_IDS.zillowRuleId).memberWeights.map((w) => [w.memberId.toString(), w.weight]);

	it('one member weight arrives: as a list, or as one object after Lofty refuses the list; later items go out right at once', async () => {
		const items = await run(sandbox(), (i) => update([{ memberId: SEED_IDS.otherAgentUserId, weight: 3 + i }]), { items: [{}, {}] });
		expect(items.map((i) => i.json.updated)).toEqual([true, true]);
		expect(weights()).toEqual([[SEED_IDS.otherAgentUserId, 4]]);
		const sent = sandbox().requests.map((r) => [r.status, Array.isArray(JSON.parse(r.body).routingStrategy.memberWeights)]);
		expect(sent).toEqual(reading === 'spec' ? [[200, true], [200, true]] : [[400, true], [200, false], [200, false]]);
		expect(sandbox().faults.writes('PUT')).toBe(2);
	});

	it('several member weights: all set, or refused naming the reading with nothing changed', async () => {
		const before = weights();
		const params = update([{ memberId: SEED_IDS.demoUserId, weight: 2 }, { memberId: SEED_IDS.otherAgentUserId }]);
		if (reading === 'spec') {
			await run(sandbox(), params);
			expect(weights()).toEqual([[SEED_IDS.demoUserId, 2], [SEED_IDS.otherAgentUserId, 1]]);
			return;
		}
		const error = await runError(sandbox(), params);
		expect(error.message).toMatch(/^Invalid value for "Member Weights": Lofty takes one member weight here \(it refused a list, as its OpenAPI draws memberWeights as one object\), and this rule sets 2/);
		expect(error.description).toBe('Lofty refused the request, so nothing was changed. Correct the field and run again.');
		expect(weights()).toEqual(before);
		expect(sandbox().faults.writes('PUT')).toBe(0);
	});

	it('a refused member (INVAID_MEMBER_WEIGHT) is explained, not taken for the other reading', async () => {
		const error = await runError(sandbox(), update([{ memberId: LENDER, weight: 1 }]));
		expect(error.message).toContain('HTTP 400 INVAID_MEMBER_WEIGHT');
		expect(error.description).toMatch(/Get Assignable Members/);
	});
});

describe('Routing: Get Default Rule', () => {
	it('returns the default rule of agent leads', async () => {
		const [item] = await run(sandbox(), { resource: 'routing', operation: 'getDefaultRule', type: '1' });
		expect(item.json).toMatchObject({ businessType: 1, strategyType: STRATEGY.DEFAULT_ASSIGNEE, assigneeAgentId: SEED_IDS.demoUserId, assigneeAgentName: 'Dana Demo' });
	});

	it('needs a role for assistant leads', async () => {
		const error = await runError(sandbox(), { resource: 'routing', operation: 'getDefaultRule', type: '4' });
		expect(error.message).toMatch(/"Role Name or ID": is required/);
		const [item] = await run(sandbox(), { resource: 'routing', operation: 'getDefaultRule', type: '4', options: { roleId: '103' } });
		expect(item.json).toMatchObject({ roleId: '103', businessType: 4 });
	});
});

describe('Routing: Update Default Rule', () => {
	const update = (type: string, strategyType: number, fields: Record<string, unknown> = {}) => ({
		resource: 'routing',
		operation: 'updateDefaultRule',
		type,
		strategyType,
		additionalFields: fields,
	});

	it('sends unmatched agent leads to an office', async () => {
		const [item] = await run(sandbox(), update('1', STRATEGY.DEFAULT_ASSIGNEE, { assigneeGroupId: SEED_IDS.downtownOfficeId }));
		expect(item.json).toEqual({ updated: true, businessType: '1', message: 'ok' });
		expect(sandbox().requests[0].body).toBe(`{"strategyType":${STRATEGY.DEFAULT_ASSIGNEE},"assigneeGroupId":${SEED_IDS.downtownOfficeId}}`);
		const [rule] = await run(sandbox(), { resource: 'routing', operation: 'getDefaultRule', type: '1' });
		expect(rule.json).toMatchObject({ assigneeGroupId: SEED_IDS.downtownOfficeId, assigneeGroupName: 'Downtown Office', assigneeAgentId: null });
	});

	it('sets a role\'s default to an assistant, with the role ID sent as a number', async () => {
		await run(sandbox(), update('4', STRATEGY.DEFAULT_ASSIGNEE, { roleId: '101', assigneeAgentId: ASSISTANTS[1] }));
		expect(JSON.parse(sandbox().requests[0].body)).toMatchObject({ roleId: 101 });
		expect(routingState(sandbox().store).supplements.get('4:101')?.assigneeAgentId).toBe(BigInt(ASSISTANTS[1]));
	});

	it.each([
		[update('1', STRATEGY.DEFAULT_ASSIGNEE, { assigneeAgentId: SEED_IDS.demoUserId, assigneeGroupId: SEED_IDS.mainOfficeId }), /either a default assignee or a default office/],
		[update('2', STRATEGY.DEFAULT_ASSIGNEE, { assigneeGroupId: SEED_IDS.mainOfficeId }), /applies to business type 1/],
		[update('4', STRATEGY.ROUND_ROBIN, {}), /"Role Name or ID": is required/],
		[update('2', STRATEGY.NEXT_UP, { touchMinutes: 61 }), /"Touch Minutes"/],
		[update('2', 2.5, {}), /"Strategy Type": must be a whole number/],
	])('refuses invalid combinations before sending (%#)', async (params, message) => {
		const error = await runError(sandbox(), params);
		expect(error.message).toMatch(message);
		expect(sandbox().requests).toHaveLength(0);
	});

	it.each([
		['STRATEGY_TYPE_NOT_MATCH', update('4', STRATEGY.BLAST_ALERT, { roleId: '101', touchMinutes: 30 })],
		['STRATEGY_TYPE_ERROR', update('1', 42, { touchMinutes: 30 })],
		['INVAID_ID', update('1', STRATEGY.DEFAULT_ASSIGNEE)],
		['INVAID_ROLE_ID', update('4', STRATEGY.DEFAULT_ASSIGNEE, { roleId: '999', assigneeAgentId: ASSISTANTS[0] })],
		['INVAID_TOUCHMINUTES', update('2', STRATEGY.BLAST_ALERT)],
		['INVAID_GROUP_ID', update('1', STRATEGY.DEFAULT_ASSIGNEE, { assigneeGroupId: '5' })],
	])('explains %s', async (code, params) => {
		const error = await runError(sandbox(), params);
		expect(error.message).toContain(`HTTP 400 ${code}`);
		expect(error.description).toBeTruthy();
	});

	it('sets a blast alert with touch minutes for lender leads', async () => {
		await run(sandbox(), update('2', STRATEGY.BLAST_ALERT, { touchMinutes: 180 }));
		expect(routingState(sandbox().store).supplements.get('2:-1')).toMatchObject({ strategyType: STRATEGY.BLAST_ALERT, touchMinutes: 180 });
	});
});

describe('Routing: Get Roles and Get Assignable Members', () => {
	it('lists the assign roles', async () => {
		const items = await run(sandbox(), { resource: 'routing', operation: 'getRoles' });
		expect(items.map((i) => i.json)).toEqual([
			{ id: '101', name: 'Assistant' },
			{ id: '102', name: 'Showing Assistant' },
			{ id: '103', name: 'Transaction Coordinator' },
		]);
	});

	it('lists the members routing can assign per business type', async () => {
		const agents = await run(sandbox(), { resource: 'routing', operation: 'getMembers', type: '1' });
		expect(agents.map((i) => i.json.id)).toContain(SEED_IDS.demoUserId);
		expect(agents.every((i) => i.json.type === 1)).toBe(true);
		const lenders = await run(sandbox(), { resource: 'routing', operation: 'getMembers', type: '2' });
		expect(lenders.map((i) => i.json.id)).toContain(LENDER);
		const assistants = await run(sandbox(), { resource: 'routing', operation: 'getMembers', type: '4', options: { roleId: '101' } });
		expect(assistants.map((i) => i.json.id)).toEqual(ASSISTANTS);
	});

	it('needs a role for assistant leads (refused before sending) and the permission (20017)', async () => {
		const error = await runError(sandbox(), { resource: 'routing', operation: 'getMembers', type: '4' });
		expect(error.message).toMatch(/"Role Name or ID": is required/);
		expect(sandbox().requests).toHaveLength(0);
		const denied = await runError(sandbox(), { resource: 'routing', operation: 'getMembers', type: '1' }, asOtherAgent());
		expect(denied.message).toMatch(/HTTP 400 20017/);
	});

	it('explains INVAID_ROLE_ID for an unknown role', async () => {
		const error = await runError(sandbox(), { resource: 'routing', operation: 'getMembers', type: '4', options: { roleId: '5' } });
		expect(error.message).toMatch(/HTTP 400 INVAID_ROLE_ID/);
	});
});

describe('Routing dropdowns', () => {
	const ctx = (current: Record<string, unknown>) =>
		Object.assign(createContext(node, { params: { authentication: 'apiKey' }, credential: apiKeyCredential(sandbox()) }), {
			getCurrentNodeParameter: (name: string) => current[name],
		}) as any;

	it('offers the roles', async () => {
		const options = await routingMethods.loadOptions.getRoutingRoles.call(ctx({}));
		expect(options).toEqual([
			{ name: 'Assistant', value: '101' },
			{ name: 'Showing Assistant', value: '102' },
			{ name: 'Transaction Coordinator', value: '103' },
		]);
	});

	it('offers the members of the chosen business type, every role\'s when no role is chosen', async () => {
		const lenders = await routingMethods.loadOptions.getRoutingMembers.call(ctx({ type: '2' }));
		expect(lenders.map((o) => o.value)).toContain(LENDER);
		const assistants = await routingMethods.loadOptions.getRoutingMembers.call(ctx({ type: '4' }));
		expect(assistants.length).toBe(5);
		const oneRole = await routingMethods.loadOptions.getRoutingMembers.call(ctx({ type: '4', 'options.roleId': '101' }));
		expect(oneRole.map((o) => o.value).sort()).toEqual([...ASSISTANTS].sort());
	});

	it('offers the rules of the chosen business type', async () => {
		const rules = await routingMethods.loadOptions.getRoutingRules.call(ctx({ type: '1' }));
		expect(rules).toEqual([
			{ name: 'Luxury buyers', value: ROUTING_IDS.luxuryRuleId },
			{ name: 'Weekend leads to the pond', value: ROUTING_IDS.pondRuleId },
			{ name: 'Zillow leads to Austin agents', value: ROUTING_IDS.zillowRuleId },
		]);
		const assistantRules = await routingMethods.loadOptions.getRoutingRules.call(ctx({ type: '4' }));
		expect(assistantRules.map((o) => o.value)).toEqual([ROUTING_IDS.assistantRuleId]);
	});
});
