/** PUT of a routing rule and of a default (supplement) rule: the checks, then the change. */
import { ApiError } from '../../core/errors';
import { toInt64 } from '../../core/json';
import { readingsOf } from '../../core/readings';
import { daysFromWire } from './days';
import type { Ctx, Reply } from '../../core/router';
import { assignable, businessType, requirePermission, roleFor } from './access';
import { BUSINESS, ROUTING_CODES, STRATEGIES, STRATEGY, type SupplementRec, err, routingState } from './state';

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

/**
 * The memberWeights reading decides the body's shape, checked when it is read (as Jackson would, before any rule):
 * the spec's a list of weights, the OpenAPI's one object. The other shape is a JSON parse error.
 */
function memberWeightsShape(ctx: Ctx, b: Record<string, unknown>): void {
	const raw = asObj(b.routingStrategy)?.memberWeights;
	if (raw === undefined || raw === null) return;
	const single = readingsOf(ctx.store).get('memberWeights') === 'openapi';
	if (single && Array.isArray(raw)) {
		throw new ApiError(400, 20012, 'JSON parse error: Cannot deserialize value of type `MemberWeight` from Array value (token `JsonToken.START_ARRAY`)');
	}
	if (!single && !Array.isArray(raw)) {
		throw new ApiError(400, 20012, 'JSON parse error: Cannot deserialize value of type `java.util.ArrayList<MemberWeight>` from Object value (token `JsonToken.START_OBJECT`)');
	}
}

export function updateRule(ctx: Ctx): Reply {
	memberWeightsShape(ctx, body(ctx));
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
			next.activeDays = daysFromWire(ctx.store, days as number[]);
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
				// One object (the OpenAPI's reading) sets the rule's one weighted member.
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

export function updateSupplement(ctx: Ctx): Reply {
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
