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
import type { Ctx, Reply, Route } from '../../core/router';
import { SEED_IDS } from '../../core/seed';
import { assignable, businessType, requirePermission, roleFor } from './access';
import { BUSINESS, STRATEGY, routingState } from './state';
import { updateRule, updateSupplement } from './updates';
import { fullName, ruleView, supplementView } from './views';

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

export const routingRoutes: Route[] = [
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
];
