/** Routing demo data: assign roles, rules of each business type, default rules. */
import { SEED_IDS } from '../../core/seed';
import type { Store } from '../../core/store';
import { BUSINESS, STRATEGY, isAgent, routingState } from './state';

export const ROUTING_IDS = {
	zillowRuleId: '9007199254750001',
	luxuryRuleId: '880001',
	pondRuleId: '880002',
	lenderRuleId: '880101',
	assistantRuleId: '880401',
	assistantRoleId: 101,
	showingRoleId: 102,
	emptyRoleId: 103,
	pondId: '7001',
} as const;


export function seedRouting(store: Store): void {
	const state = routingState(store);
	const teamId = BigInt(SEED_IDS.teamId);
	const members = store.teamMembers(teamId);
	const active = members.filter((u) => u.status === 1 && u.accountStatus === 'ACTIVE');
	const agents = active.filter(isAgent);
	const assistants = active.filter((u) => u.roleName === 'Assistant');
	state.roles = [
		{ id: ROUTING_IDS.assistantRoleId, name: 'Assistant', memberIds: assistants.map((u) => u.userId) },
		{ id: ROUTING_IDS.showingRoleId, name: 'Showing Assistant', memberIds: agents.slice(2, 5).map((u) => u.userId) },
		{ id: ROUTING_IDS.emptyRoleId, name: 'Transaction Coordinator', memberIds: [] },
	];
	const t = Date.UTC(2025, 5, 1);
	const base = {
		teamId,
		roleId: -1,
		locationRule: { locationMatchType: 0, state: '', county: '', city: '', zipcode: '', streetAddress: '' },
		sourceName: '',
		sourceMatchType: 0,
		tagNames: [],
		tagMatchType: 0,
		groupNames: [],
		groupMatchType: 0,
		phone: '',
		priceMin: null,
		priceMax: null,
		leadType: '',
		leadTypeFilters: '',
		activeDays: [1, 2, 3, 4, 5],
		hoursStart: 8,
		hoursEnd: 18,
		groupId: null,
		touchMinutes: null,
		memberWeights: [],
		ruleSwitch: true,
		updateTime: t,
	};
	const lenders = active.filter((u) => u.roleName === 'Lender');
	state.rules = [
		{
			...base,
			id: BigInt(ROUTING_IDS.zillowRuleId),
			businessType: BUSINESS.AGENT_LEAD,
			name: 'Zillow leads to Austin agents',
			sourceName: 'Zillow',
			sourceMatchType: 1,
			locationRule: { ...base.locationRule, locationMatchType: 1, state: 'TX', city: 'Austin' },
			strategyType: STRATEGY.ROUND_ROBIN,
			memberWeights: agents.slice(0, 3).map((u, k) => ({ memberId: u.userId, weight: 3 - k })),
		},
		{
			...base,
			id: BigInt(ROUTING_IDS.luxuryRuleId),
			businessType: BUSINESS.AGENT_LEAD,
			name: 'Luxury buyers',
			priceMin: 1_000_000,
			tagNames: ['VIP'],
			tagMatchType: 1,
			leadType: 'Buyer(2)',
			activeDays: [1, 2, 3, 4, 5, 6, 7],
			hoursStart: 0,
			hoursEnd: 23,
			strategyType: STRATEGY.NEXT_UP,
			touchMinutes: 30,
			memberWeights: agents.slice(3, 6).map((u) => ({ memberId: u.userId, weight: 1 })),
		},
		{ ...base, id: BigInt(ROUTING_IDS.pondRuleId), businessType: BUSINESS.AGENT_LEAD, name: 'Weekend leads to the pond', activeDays: [6, 7], strategyType: STRATEGY.LEAD_POND, groupId: 7001n, ruleSwitch: false },
		{ ...base, id: BigInt(ROUTING_IDS.lenderRuleId), businessType: BUSINESS.LENDER_LEAD, name: 'Pre-approval requests', strategyType: STRATEGY.ROUND_ROBIN, memberWeights: lenders.map((u) => ({ memberId: u.userId, weight: 1 })) },
		{
			...base,
			id: BigInt(ROUTING_IDS.assistantRuleId),
			businessType: BUSINESS.ASSISTANT_LEAD,
			roleId: ROUTING_IDS.assistantRoleId,
			name: 'New leads to assistants',
			strategyType: STRATEGY.ROUND_ROBIN,
			memberWeights: assistants.map((u) => ({ memberId: u.userId, weight: 1 })),
		},
	];
	state.supplements.set(`${BUSINESS.AGENT_LEAD}:-1`, {
		roleId: -1,
		businessType: BUSINESS.AGENT_LEAD,
		strategyType: STRATEGY.DEFAULT_ASSIGNEE,
		touchMinutes: null,
		assigneeAgentId: BigInt(SEED_IDS.demoUserId),
		assigneeGroupId: null,
		updateTime: t,
	});
	state.supplements.set(`${BUSINESS.LENDER_LEAD}:-1`, {
		roleId: -1,
		businessType: BUSINESS.LENDER_LEAD,
		strategyType: STRATEGY.BLAST_ALERT,
		touchMinutes: 120,
		assigneeAgentId: null,
		assigneeGroupId: null,
		updateTime: t,
	});
}
