/**
 * The lead a request names, when the caller may use it. Lead endpoints answer 404 LEAD_NOT_EXIST; the v2 Sales
 * Agent and AI endpoints 403 PERMISSION_DENIED, as their OpenAPI declares.
 */
import { ApiError, Codes, invalidParam, leadNotExist } from '../../core/errors';
import { int64Param, pathId } from '../../core/params';
import type { Ctx } from '../../core/router';
import type { Lead } from '../../core/types';

/** `{leadId}` of a lead endpoint: LEAD_NOT_EXIST (404) when missing, trashed or not accessible. */
export function accessibleLead(ctx: Ctx, opts: { withTrash?: boolean } = {}): Lead {
	const id = pathId(ctx.params.leadId, 'leadId');
	const lead = ctx.store.getLead(id);
	if (!lead || !ctx.store.canAccess(ctx.user.userId, lead)) throw leadNotExist(id.toString());
	if (lead.deletedAt !== null && !opts.withTrash) throw leadNotExist(id.toString());
	return lead;
}

/** 403 PERMISSION_DENIED: the lead is missing, trashed or not the caller's (existence is not leaked). */
export function noLeadAccess(ctx: Ctx, leadId: bigint): ApiError {
	return new ApiError(403, Codes.PERMISSION_DENIED, `User ${ctx.user.userId} does not have access to lead ${leadId}`);
}

export function leadAccessible(ctx: Ctx, leadId: bigint): Lead | undefined {
	const lead = ctx.store.getLead(leadId);
	if (!lead || lead.deletedAt !== null || !ctx.store.canAccess(ctx.user.userId, lead)) return undefined;
	return lead;
}

/** `leadId` in the query: 400 when absent or not an int64 >= 1, 403 when not accessible. */
export function leadFromQuery(ctx: Ctx): Lead {
	const id = int64Param(ctx.query, 'leadId', true)!;
	if (id < 1n) throw invalidParam(`'leadId' must be at least 1, got '${ctx.query.get('leadId')}'`);
	const lead = leadAccessible(ctx, id);
	if (!lead) throw noLeadAccess(ctx, id);
	return lead;
}

/** `{leadId}` in the path: 400 when not an int64 >= 1, 403 when not accessible. */
export function leadFromPath(ctx: Ctx): Lead {
	const id = pathId(ctx.params.leadId, 'leadId');
	const lead = leadAccessible(ctx, id);
	if (!lead) throw noLeadAccess(ctx, id);
	return lead;
}
