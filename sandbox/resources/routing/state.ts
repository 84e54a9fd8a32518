/** Lead routing as the sandbox keeps it: assign roles, rules, default (supplement) rules; codes and their error. */
import { ApiError } from '../../core/errors';
import type { Store } from '../../core/store';
import type { User } from '../../core/types';

export const ROUTING_CODES = {
	BUSINESS_TYPE_ERROR: 'BUSINESS_TYPE_ERROR',
	STRATEGY_TYPE_ERROR: 'STRATEGY_TYPE_ERROR',
	STRATEGY_TYPE_NOT_MATCH: 'STRATEGY_TYPE_NOT_MATCH',
	INVAID_ROLE_ID: 'INVAID_ROLE_ID',
	INVAID_ID: 'INVAID_ID',
	INVAID_GROUP_ID: 'INVAID_GROUP_ID',
	INVAID_ACTIVE_HOURS: 'INVAID_ACTIVE_HOURS',
	INVAID_ACTIVE_DAY: 'INVAID_ACTIVE_DAY',
	INVAID_MEMBER_WEIGHT: 'INVAID_MEMBER_WEIGHT',
	INVAID_TOUCHMINUTES: 'INVAID_TOUCHMINUTES',
	PERMISSION_DENIED: 20017,
} as const;

export const BUSINESS = { AGENT_LEAD: 1, LENDER_LEAD: 2, ASSISTANT_LEAD: 4 } as const;
export const STRATEGY = { ROUND_ROBIN: 1, NEXT_UP: 2, BLAST_ALERT: 3, LEAD_POND: 4, DEFAULT_ASSIGNEE: 5 } as const;
export const STRATEGIES = new Set<number>(Object.values(STRATEGY));

export interface MemberWeight {
	memberId: bigint;
	weight: number;
}

export interface RoutingRuleRec {
	id: bigint;
	teamId: bigint;
	businessType: number;
	roleId: number;
	name: string;
	locationRule: Record<string, unknown>;
	sourceName: string;
	sourceMatchType: number;
	tagNames: string[];
	tagMatchType: number;
	groupNames: string[];
	groupMatchType: number;
	phone: string;
	priceMin: number | null;
	priceMax: number | null;
	leadType: string;
	leadTypeFilters: string;
	activeDays: number[];
	hoursStart: number;
	hoursEnd: number;
	strategyType: number;
	groupId: bigint | null;
	touchMinutes: number | null;
	memberWeights: MemberWeight[];
	ruleSwitch: boolean;
	updateTime: number;
}

export interface SupplementRec {
	roleId: number;
	businessType: number;
	strategyType: number;
	touchMinutes: number | null;
	assigneeAgentId: bigint | null;
	assigneeGroupId: bigint | null;
	updateTime: number;
}

export interface AssignRole {
	id: number;
	name: string;
	/** members holding the role */
	memberIds: bigint[];
}

/** Seeded identifiers (the first rule ID is above 2^53). */
export class RoutingState {
	roles: AssignRole[] = [];
	rules: RoutingRuleRec[] = [];
	supplements = new Map<string, SupplementRec>();
	/** lead ponds a LEAD_POND strategy may send leads to */
	pondIds: bigint[] = [7001n, 7002n];
}

export const routingState = (store: Store): RoutingState => store.ext('routing', () => new RoutingState());

export const err = (code: string | number, message: string): ApiError => new ApiError(400, code, `${typeof code === 'string' ? `${code}: ` : 'PERMISSION_DENIED: '}${message}`);

/** An active, accepted member who can take agent leads. */
export function isAgent(u: User): boolean {
	return (u.roleName === 'Agent' || u.roleName === 'Owner' || u.roleName === 'Admin') && u.status === 1 && u.accountStatus === 'ACTIVE';
}
