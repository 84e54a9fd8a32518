/** Resolve `{leadId}` of a lead endpoint: LEAD_NOT_EXIST (404) when missing, trashed or not accessible. */
import { leadNotExist } from '../../core/errors';
import { pathId } from '../../core/params';
import type { Ctx } from '../../core/router';
import type { Lead } from '../../core/types';

export function accessibleLead(ctx: Ctx, opts: { withTrash?: boolean } = {}): Lead {
	const id = pathId(ctx.params.leadId, 'leadId');
	const lead = ctx.store.getLead(id);
	if (!lead || !ctx.store.canAccess(ctx.user.userId, lead)) throw leadNotExist(id.toString());
	if (lead.deletedAt !== null && !opts.withTrash) throw leadNotExist(id.toString());
	return lead;
}
