/** Wire shapes of routing rules and default rules. */
import type { Store } from '../../core/store';
import type { User } from '../../core/types';
import { daysToWire } from './days';
import type { RoutingRuleRec, SupplementRec } from './state';

export const fullName = (u: User): string => `${u.firstName} ${u.lastName}`.trim();

export function ruleView(store: Store, r: RoutingRuleRec): Record<string, unknown> {
	return {
		id: r.id,
		name: r.name,
		locationRule: r.locationRule,
		sourceName: r.sourceName,
		sourceMatchType: r.sourceMatchType,
		tagNames: r.tagNames,
		tagMatchType: r.tagMatchType,
		groupNames: r.groupNames,
		groupMatchType: r.groupMatchType,
		phone: r.phone,
		priceMin: r.priceMin,
		priceMax: r.priceMax,
		leadType: r.leadType,
		leadTypeFilters: r.leadTypeFilters,
		activeHours: { activeDays: daysToWire(store, r.activeDays), hoursStart: r.hoursStart, hoursEnd: r.hoursEnd },
		routingStrategy: {
			strategyType: r.strategyType,
			groupId: r.groupId,
			groupName: r.groupId === null ? null : (store.offices.get(r.groupId.toString())?.name ?? `Lead Pond ${r.groupId}`),
			touchMinutes: r.touchMinutes,
			memberWeights: r.memberWeights.map((w) => {
				const u = store.getUser(w.memberId);
				return { memberId: w.memberId, firstName: u?.firstName ?? '', lastName: u?.lastName ?? '', weight: w.weight };
			}),
		},
		ruleSwitch: r.ruleSwitch,
		updateTime: r.updateTime,
	};
}

export function supplementView(store: Store, s: SupplementRec): Record<string, unknown> {
	const agent = s.assigneeAgentId !== null ? store.getUser(s.assigneeAgentId) : undefined;
	const office = s.assigneeGroupId !== null ? store.offices.get(s.assigneeGroupId.toString()) : undefined;
	return {
		roleId: s.roleId,
		businessType: s.businessType,
		strategyType: s.strategyType,
		touchMinutes: s.touchMinutes,
		assigneeAgentName: agent ? fullName(agent) : null,
		assigneeAgentId: s.assigneeAgentId,
		assigneeGroupName: office?.name ?? null,
		assigneeGroupId: s.assigneeGroupId,
		updateTime: s.updateTime,
	};
}
