/**
 * Flows of the end-to-end plan (plan.ts) about the account: agents, members, the organization, lead routing
 * and webhook subscriptions.
 */
import { SEED_IDS } from '../../sandbox';
import { ROUTING_IDS, STRATEGY } from '../../sandbox/resources/routing';
import { type Flow, type Json, allHave, byId, isId, ref } from './planSteps';

export function agentFlow(): Flow {
	return {
		title: 'agent',
		steps: [
			{
				name: 'Add Agent Tags',
				resource: 'agent',
				operation: 'addTags',
				params: { agentId: byId(SEED_IDS.otherAgentUserId), tagNames: ['Mentor'], additionalFields: { autoCreate: true } },
				count: 1,
				check: ([it]) => expect(it.added).toBe(true),
			},
			{
				name: 'Deactivate Agent',
				resource: 'agent',
				operation: 'deactivate',
				params: { agentId: byId(SEED_IDS.otherAgentUserId) },
				count: 1,
				check: ([it]) => expect(it).toMatchObject({ agentId: SEED_IDS.otherAgentUserId, status: 'deactivated' }),
			},
			{
				name: 'Reactivate Agent',
				resource: 'agent',
				operation: 'reactivate',
				params: { agentId: byId(SEED_IDS.otherAgentUserId) },
				count: 1,
				check: ([it]) => expect(it).toMatchObject({ agentId: SEED_IDS.otherAgentUserId, status: 'active' }),
			},
			{
				name: 'Create Agent',
				resource: 'agent',
				operation: 'create',
				params: { accountType: 1, firstName: 'Nina', lastName: 'E2E', emailAddress: 'nina.e2e@example.com', phoneNumber: '5125559876' },
				count: 1,
				check: ([it]) => {
					isId(it.agentId);
					expect(it.created).toBe(true);
				},
			},
		],
	};
}

export function memberFlow(): Flow {
	return {
		title: 'member',
		steps: [
			{ name: 'Me', resource: 'member', operation: 'getMe', count: 1 },
			{ name: 'Get Many Members', resource: 'member', operation: 'getAll', params: { returnAll: false, limit: 7 }, count: 7 },
			{ name: 'Get Member', resource: 'member', operation: 'get', params: { userId: byId(SEED_IDS.otherAgentUserId) }, count: 1 },
			{ name: 'Member By Email', resource: 'member', operation: 'getByEmail', params: { account: 'demo.owner@example.com' }, count: 1 },
		],
	};
}

export function organizationFlow(): Flow {
	return {
		title: 'organization',
		steps: [
			{ name: 'Get Organization', resource: 'organization', operation: 'get', count: 1, check: ([it]) => expect(it.orgType).toBe('SIGNAL_INSTANCE') },
			{ name: 'Update Company', resource: 'organization', operation: 'updateCompany', params: { updateFields: { name: 'Lone Star Realty' } }, count: 1 },
			{
				name: 'Create Office',
				resource: 'organization',
				operation: 'createOffice',
				params: { name: 'E2E Office', additionalFields: { parentId: SEED_IDS.northOfficeId, city: 'Lakeway', state: 'TX' } },
				count: 1,
				check: ([it]) => {
					isId(it.id);
					expect(it.name).toBe('E2E Office');
				},
			},
			{
				name: 'Update Office',
				resource: 'organization',
				operation: 'updateOffice',
				params: { officeId: ref('Create Office', 'id'), updateFields: { zipcode: '78734' } },
				count: 1,
				check: ([it]) => expect(it.zipcode).toBe('78734'),
			},
			{ name: 'Permission Profiles', resource: 'organization', operation: 'getPermissionProfiles', count: [1, 100], check: (items) => allHave(items, 'id') },
		],
	};
}

export function routingFlow(): Flow {
	return {
		title: 'routing',
		steps: [
			{ name: 'Routing Rules', resource: 'routing', operation: 'getRules', params: { type: '1' }, count: 3, check: ([it]) => expect(it.id).toBe(ROUTING_IDS.zillowRuleId) },
			{
				name: 'Update Routing Rule',
				resource: 'routing',
				operation: 'updateRule',
				params: { type: '1', ruleId: ROUTING_IDS.zillowRuleId, updateFields: { hoursStart: 9, hoursEnd: 17 } },
				count: 1,
			},
			{ name: 'Default Rule', resource: 'routing', operation: 'getDefaultRule', params: { type: '1' }, count: 1 },
			{
				name: 'Update Default Rule',
				resource: 'routing',
				operation: 'updateDefaultRule',
				params: { type: '1', strategyType: STRATEGY.DEFAULT_ASSIGNEE, additionalFields: { assigneeGroupId: SEED_IDS.downtownOfficeId } },
				count: 1,
				check: ([it]) => expect(it).toMatchObject({ updated: true, businessType: '1' }),
			},
			{ name: 'Routing Roles', resource: 'routing', operation: 'getRoles', count: [1, 100] },
			{ name: 'Routing Members', resource: 'routing', operation: 'getMembers', params: { type: '1' }, count: [1, 1000] },
		],
	};
}

export function webhookFlow(): Flow {
	return {
		title: 'webhook',
		steps: [
			{
				name: 'Create Webhook',
				resource: 'webhook',
				operation: 'create',
				params: { listId: 2, callbackUrl: 'https://example.com/hooks/lofty-e2e' },
				count: 1,
				check: ([it]) => {
					isId(it.subscribeId);
					expect(it.callbackUrl).toBe('https://example.com/hooks/lofty-e2e');
				},
			},
			{
				name: 'Webhooks',
				resource: 'webhook',
				operation: 'getAll',
				count: [2, 100],
				check: (items) => expect(items.map((i) => i.callbackUrl)).toContain('https://example.com/hooks/lofty-e2e'),
			},
			{ name: 'Delete Webhook', resource: 'webhook', operation: 'delete', params: { subscribeId: ref('Create Webhook', 'subscribeId') }, count: 1 },
			{
				// what the Lofty Trigger hands on: the record of a lead event
				name: 'Event Record',
				resource: 'webhook',
				operation: 'getEventRecord',
				params: { event: JSON.stringify({ listId: 2, action: 'updated', event: 'lead.updated', leadId: SEED_IDS.bigLeadId }) },
				count: 1,
				check: ([it]) => {
					expect(it).toMatchObject({ event: 'lead.updated', leadId: SEED_IDS.bigLeadId });
					expect(String((it.record as Json).leadId)).toBe(SEED_IDS.bigLeadId);
				},
			},
		],
	};
}
