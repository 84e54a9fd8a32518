/**
 * Lead routing endpoints:
 *   GET /v1.0/routing/rule/list/{type}         rules of a business type (bare array)
 *   PUT /v1.0/routing/rule/{type}              update a rule ("ok")
 *   GET /v1.0/routing/rule/supplement/{type}   the default (fallback) rule
 *   PUT /v1.0/routing/rule/supplement/{type}   update the default rule ("ok")
 *   GET /v1.0/routing/role/list                assign roles (bare array)
 *   GET /v1.0/routing/member/list/{type}       members assignable by routing (bare array of {id, name, type})
 *
 * Business types 1, 2, 4 (4 = ASSISTANT_LEAD, which needs a role ID). The spec does not name 1 and 2;
 * the OpenAPI's rules speak of AGENT_LEAD, read here as 1, and 2 is taken as lender leads.
 * Every endpoint needs MANAGE_LEAD_DISTRIBUTION or MANAGE_LEAD_DISTRIBUTION_DEPARTMENT, otherwise
 * 400 PERMISSION_DENIED (20017). Errors carry the spec's codes, spelled as given (INVAID_...).
 *
 * The numeric strategy codes are not published; the sandbox uses STRATEGY below.
 */
import { ApiError } from '../../core/errors';
import { toInt64 } from '../../core/json';
import type { SandboxModule } from '../../core/module';
import { permissionLevel } from '../organization/access';
import type { Ctx, Reply } from '../../core/router';
import { SEED_IDS } from '../../core/seed';
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
const STRATEGIES = new Set<number>(Object.values(STRATEGY));

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

export class RoutingState {
	roles: AssignRole[] = [];
	rules: RoutingRuleRec[] = [];
	supplements = new Map<string, SupplementRec>();
	/** lead ponds a LEAD_POND strategy may send leads to */
	pondIds: bigint[] = [7001n, 7002n];
}

export const routingState = (store: Store): RoutingState => store.ext('routing', () => new RoutingState());

const err = (code: string | number, message: string): ApiError => new ApiError(400, code, `${typeof code === 'string' ? `${code}: ` : 'PERMISSION_DENIED: '}${message}`);

function requirePermission(ctx: Ctx): void {
	if (!permissionLevel(ctx.store, ctx.user, 'MANAGE_LEAD_DISTRIBUTION')) {
		throw err(ROUTING_CODES.PERMISSION_DENIED, 'lead routing needs MANAGE_LEAD_DISTRIBUTION or MANAGE_LEAD_DISTRIBUTION_DEPARTMENT');
	}
}

function businessType(ctx: Ctx): number {
	const raw = ctx.params.type;
	const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
	if (!(Object.values(BUSINESS) as number[]).includes(n)) throw err(ROUTING_CODES.BUSINESS_TYPE_ERROR, `business type must be 1, 2 or 4, got '${raw}'`);
	return n;
}

/** The role of an ASSISTANT_LEAD request (required, must exist); -1 for the other types. */
function roleFor(state: RoutingState, type: number, raw: unknown): number {
	if (type !== BUSINESS.ASSISTANT_LEAD) return -1;
	const missing = raw === undefined || raw === null || raw === '';
	const id = missing ? undefined : toInt64(raw);
	if (id === undefined) throw err(ROUTING_CODES.INVAID_ROLE_ID, 'roleId is required when the business type is 4 (ASSISTANT_LEAD)');
	if (id === null || !state.roles.some((r) => BigInt(r.id) === id)) throw err(ROUTING_CODES.INVAID_ROLE_ID, `no assign role ${String(raw)}`);
	return Number(id);
}

function isAgent(u: User): boolean {
	return (u.roleName === 'Agent' || u.roleName === 'Owner' || u.roleName === 'Admin') && u.status === 1 && u.accountStatus === 'ACTIVE';
}

/** Members routing may assign for a business type (and role). */
function assignable(store: Store, state: RoutingState, teamId: bigint, type: number, roleId: number): User[] {
	const members = store.teamMembers(teamId).filter((u) => u.status === 1 && u.accountStatus === 'ACTIVE');
	if (type === BUSINESS.AGENT_LEAD) return members.filter(isAgent);
	if (type === BUSINESS.LENDER_LEAD) return members.filter((u) => u.roleName === 'Lender');
	const role = state.roles.find((r) => r.id === roleId);
	return members.filter((u) => role?.memberIds.includes(u.userId));
}

const fullName = (u: User): string => `${u.firstName} ${u.lastName}`.trim();

function ruleView(store: Store, r: RoutingRuleRec): Record<string, unknown> {
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
		activeHours: { activeDays: r.activeDays, hoursStart: r.hoursStart, hoursEnd: r.hoursEnd },
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

function supplementView(store: Store, s: SupplementRec): Record<string, unknown> {
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

/** STRATEGY_TYPE_ERROR for unknown codes, STRATEGY_TYPE_NOT_MATCH for codes the business type does not allow. */
function checkStrategy(raw: unknown, type: number): number {
	const n = typeof raw === 'number' ? raw : typeof raw === 'bigint' ? Number(raw) : typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
	if (!STRATEGIES.has(n)) throw err(ROUTING_CODES.STRATEGY_TYPE_ERROR, `unknown strategyType '${String(raw)}'`);
	if (n === STRATEGY.LEAD_POND && type !== BUSINESS.AGENT_LEAD) throw err(ROUTING_CODES.STRATEGY_TYPE_NOT_MATCH, 'LEAD_POND is only allowed for AGENT_LEAD');
	if ((n === STRATEGY.NEXT_UP || n === STRATEGY.BLAST_ALERT) && type === BUSINESS.ASSISTANT_LEAD) {
		throw err(ROUTING_CODES.STRATEGY_TYPE_NOT_MATCH, 'NEXT_UP and BLAST_ALERT are not allowed for ASSISTANT_LEAD');
	}
	return n;
}

/** touchMinutes in (0, 1440]; above 60 a whole number of hours. */
function checkTouchMinutes(raw: unknown): number {
	const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
	if (!Number.isInteger(n) || n <= 0 || n > 1440 || (n > 60 && n % 60 !== 0)) {
		throw err(ROUTING_CODES.INVAID_TOUCHMINUTES, `touchMinutes must be in (0, 1440] and a multiple of 60 above 60, got '${String(raw)}'`);
	}
	return n;
}

const asObj = (v: unknown): Record<string, unknown> | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);

function body(ctx: Ctx): Record<string, unknown> {
	const b = asObj(ctx.body);
	if (!b) throw new ApiError(400, 20012, 'INVALID_PARAMETER: request body must be a JSON object');
	return b;
}

function updateRule(ctx: Ctx): Reply {
	requirePermission(ctx);
	const type = businessType(ctx);
	const { store, user } = ctx;
	const state = routingState(store);
	const b = body(ctx);
	const id = toInt64(b.id);
	if (id === undefined || id === null) throw err(ROUTING_CODES.INVAID_ID, 'the rule id is required');
	const rule = state.rules.find((r) => r.id === id && r.teamId === user.teamId && r.businessType === type);
	if (!rule) throw err(ROUTING_CODES.INVAID_ID, `no routing rule ${id} of business type ${type}`);
	const next = { ...rule, activeDays: [...rule.activeDays], memberWeights: [...rule.memberWeights] };

	const hours = asObj(b.activeHours);
	if (b.activeHours !== undefined && b.activeHours !== null && !hours) throw err(ROUTING_CODES.INVAID_ACTIVE_HOURS, 'activeHours must be an object');
	if (hours) {
		if (hours.activeDays !== undefined && hours.activeDays !== null) {
			const days = hours.activeDays;
			if (!Array.isArray(days) || days.some((d) => typeof d !== 'number' || !Number.isInteger(d) || d < 1 || d > 7)) {
				throw err(ROUTING_CODES.INVAID_ACTIVE_DAY, `activeDays must be a list of 1-7, got ${JSON.stringify(days)}`);
			}
			next.activeDays = [...new Set(days as number[])].sort((a, c) => a - c);
		}
		for (const name of ['hoursStart', 'hoursEnd'] as const) {
			const v = hours[name];
			if (v === undefined || v === null) continue;
			if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 23) throw err(ROUTING_CODES.INVAID_ACTIVE_HOURS, `${name} must be in [0, 23], got '${String(v)}'`);
			next[name] = v;
		}
	}

	const strategy = asObj(b.routingStrategy);
	if (strategy) {
		if (strategy.strategyType !== undefined && strategy.strategyType !== null) next.strategyType = checkStrategy(strategy.strategyType, type);
		else checkStrategy(next.strategyType, type);
		if (next.strategyType === STRATEGY.LEAD_POND) {
			if (strategy.groupId !== undefined && strategy.groupId !== null) {
				const g = toInt64(strategy.groupId);
				const office = g ? store.offices.get(g.toString()) : undefined;
				const known = g !== null && g !== undefined && (state.pondIds.includes(g) || (office !== undefined && office.teamId === user.teamId));
				if (!known) throw err(ROUTING_CODES.INVAID_GROUP_ID, `no lead pond or office ${String(strategy.groupId)}`);
				next.groupId = g!;
			}
			if (next.groupId === null) throw err(ROUTING_CODES.INVAID_GROUP_ID, 'a LEAD_POND strategy needs the groupId of a lead pond');
			next.memberWeights = [];
			next.touchMinutes = null;
		} else {
			next.groupId = null;
			const raw = strategy.memberWeights;
			if (raw !== undefined && raw !== null) {
				// The OpenAPI draws memberWeights as one object; a list of them is what a rule holds. Both are read.
				const list = Array.isArray(raw) ? raw : [raw];
				const allowed = assignable(store, state, user.teamId, type, rule.roleId);
				next.memberWeights = list.map((entry) => {
					const w = asObj(entry);
					const memberId = w ? toInt64(w.memberId) : null;
					const weight = w?.weight;
					if (memberId === null || memberId === undefined || !allowed.some((u) => u.userId === memberId)) {
						throw err(ROUTING_CODES.INVAID_MEMBER_WEIGHT, `member ${String(w?.memberId)} cannot be assigned by this rule`);
					}
					if (typeof weight !== 'number' || !Number.isInteger(weight) || weight < 0) {
						throw err(ROUTING_CODES.INVAID_MEMBER_WEIGHT, `weight of member ${memberId} must be a whole number of at least 0, got '${String(weight)}'`);
					}
					return { memberId, weight };
				});
			}
			if (next.strategyType === STRATEGY.NEXT_UP || next.strategyType === STRATEGY.BLAST_ALERT) {
				if (strategy.touchMinutes !== undefined && strategy.touchMinutes !== null) next.touchMinutes = checkTouchMinutes(strategy.touchMinutes);
				else if (next.touchMinutes === null) throw err(ROUTING_CODES.INVAID_TOUCHMINUTES, 'NEXT_UP and BLAST_ALERT need touchMinutes');
			} else next.touchMinutes = null;
		}
	}
	next.updateTime = store.now();
	Object.assign(rule, next);
	return { body: 'ok' };
}

function updateSupplement(ctx: Ctx): Reply {
	requirePermission(ctx);
	const type = businessType(ctx);
	const { store, user } = ctx;
	const state = routingState(store);
	const b = body(ctx);
	const roleId = roleFor(state, type, b.roleId);
	if (b.strategyType === undefined || b.strategyType === null) throw err(ROUTING_CODES.STRATEGY_TYPE_ERROR, 'strategyType is required');
	const strategyType = checkStrategy(b.strategyType, type);
	const rec: SupplementRec = { roleId, businessType: type, strategyType, touchMinutes: null, assigneeAgentId: null, assigneeGroupId: null, updateTime: store.now() };
	if (strategyType === STRATEGY.DEFAULT_ASSIGNEE) {
		const agentId = b.assigneeAgentId === undefined || b.assigneeAgentId === null ? undefined : toInt64(b.assigneeAgentId);
		// assigneeGroupId counts for AGENT_LEAD only.
		const groupId = type !== BUSINESS.AGENT_LEAD || b.assigneeGroupId === undefined || b.assigneeGroupId === null ? undefined : toInt64(b.assigneeGroupId);
		if (agentId === null) throw err(ROUTING_CODES.INVAID_ID, 'assigneeAgentId must be an integer');
		if (groupId === null) throw err(ROUTING_CODES.INVAID_GROUP_ID, 'assigneeGroupId must be an integer');
		if (type === BUSINESS.AGENT_LEAD && (agentId === undefined) === (groupId === undefined)) {
			throw err(ROUTING_CODES.INVAID_ID, 'DEFAULT_ASSIGNEE for AGENT_LEAD needs exactly one of assigneeAgentId or assigneeGroupId');
		}
		if (type !== BUSINESS.AGENT_LEAD && agentId === undefined) throw err(ROUTING_CODES.INVAID_ID, 'DEFAULT_ASSIGNEE needs assigneeAgentId');
		if (agentId !== undefined) {
			if (!assignable(store, state, user.teamId, type, roleId).some((u) => u.userId === agentId)) {
				throw err(ROUTING_CODES.INVAID_ID, `member ${agentId} cannot be the default assignee of business type ${type}`);
			}
			rec.assigneeAgentId = agentId;
		}
		if (groupId !== undefined) {
			const office = store.offices.get(groupId.toString());
			if (!office || office.teamId !== user.teamId) throw err(ROUTING_CODES.INVAID_GROUP_ID, `no office ${groupId}`);
			rec.assigneeGroupId = groupId;
		}
	} else {
		rec.touchMinutes = checkTouchMinutes(b.touchMinutes);
	}
	state.supplements.set(`${type}:${roleId}`, rec);
	return { body: 'ok' };
}

function getSupplement(ctx: Ctx): Reply {
	requirePermission(ctx);
	const type = businessType(ctx);
	const state = routingState(ctx.store);
	const roleId = roleFor(state, type, ctx.query.get('roleId') ?? undefined);
	const rec = state.supplements.get(`${type}:${roleId}`) ?? {
		roleId,
		businessType: type,
		strategyType: STRATEGY.DEFAULT_ASSIGNEE,
		touchMinutes: null,
		assigneeAgentId: BigInt(SEED_IDS.demoUserId),
		assigneeGroupId: null,
		updateTime: 0,
	};
	return { body: supplementView(ctx.store, rec) };
}

function seed(store: Store): void {
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

export const routingModule: SandboxModule = {
	name: 'routing',
	routes: [
		{
			method: 'GET',
			pattern: '/v1.0/routing/rule/list/{type}',
			handler: (ctx) => {
				requirePermission(ctx);
				const type = businessType(ctx);
				const state = routingState(ctx.store);
				const roleId = roleFor(state, type, ctx.query.get('roleId') ?? undefined);
				const rules = state.rules.filter((r) => r.teamId === ctx.user.teamId && r.businessType === type && (type !== BUSINESS.ASSISTANT_LEAD || r.roleId === roleId));
				return { body: rules.map((r) => ruleView(ctx.store, r)) };
			},
		},
		{ method: 'PUT', pattern: '/v1.0/routing/rule/{type}', body: 'json', handler: updateRule },
		{ method: 'GET', pattern: '/v1.0/routing/rule/supplement/{type}', handler: getSupplement },
		{ method: 'PUT', pattern: '/v1.0/routing/rule/supplement/{type}', body: 'json', handler: updateSupplement },
		{
			method: 'GET',
			pattern: '/v1.0/routing/role/list',
			handler: (ctx) => {
				requirePermission(ctx);
				return { body: routingState(ctx.store).roles.map((r) => ({ id: r.id, name: r.name })) };
			},
		},
		{
			method: 'GET',
			pattern: '/v1.0/routing/member/list/{type}',
			handler: (ctx) => {
				requirePermission(ctx);
				const type = businessType(ctx);
				const state = routingState(ctx.store);
				const roleId = roleFor(state, type, ctx.query.get('roleId') ?? undefined);
				const members = assignable(ctx.store, state, ctx.user.teamId, type, roleId);
				return { body: members.map((u) => ({ id: u.userId, name: fullName(u), type })) };
			},
		},
	],
	seed,
};
