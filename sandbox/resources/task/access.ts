/** Lookups of tasks and appointments and their leads, and who may manage them (see ./state.ts for the rules). */
import { invalidParam, leadNotExist, missingParam } from '../../core/errors';
import { toInt64 } from '../../core/json';
import { has, pathId } from '../../core/params';
import type { Ctx } from '../../core/router';
import type { Store } from '../../core/store';
import type { Lead } from '../../core/types';
import { type AssignedRole, type TaskRecord, permissionDenied, taskNotExist, taskState } from './state';

/** A lead that exists and is not in the trash. */
export function liveLead(store: Store, leadId: bigint): Lead | undefined {
	const lead = store.getLead(leadId);
	return lead && lead.deletedAt === null ? lead : undefined;
}

/** An entry that is not deleted, of `kind` when given, whose lead is live (what every route may act on). */
export function liveEntry(store: Store, id: bigint, kind?: TaskRecord['kind']): { entry: TaskRecord; lead: Lead } | undefined {
	const entry = taskState(store).find(id);
	if (!entry || entry.deleteFlag || (kind !== undefined && entry.kind !== kind)) return undefined;
	const lead = liveLead(store, entry.leadId);
	return lead ? { entry, lead } : undefined;
}

/** The entry of `{taskId}`: TASK_NOT_EXIST when missing, deleted or of the wrong kind; PERMISSION_DENIED without access. */
export function entryForCaller(ctx: Ctx, kind?: TaskRecord['kind']): { entry: TaskRecord; lead: Lead } {
	const id = pathId(ctx.params.taskId, 'taskId');
	const found = liveEntry(ctx.store, id, kind);
	if (!found) throw taskNotExist(id);
	const { entry, lead } = found;
	if (!ctx.store.canAccess(ctx.user.userId, lead)) {
		throw permissionDenied(`User ${ctx.user.userId} has no permission to manage the tasks of lead ${lead.leadId}`);
	}
	return { entry, lead };
}

/** A lead given by id (query or body): LEAD_NOT_EXIST when missing or trashed, PERMISSION_DENIED without access. */
export function leadForCaller(ctx: Ctx, leadId: bigint): Lead {
	if (leadId < 1n) throw invalidParam(`'leadId' must be at least 1, got '${leadId}'`);
	const lead = liveLead(ctx.store, leadId);
	if (!lead) throw leadNotExist(leadId.toString());
	if (!ctx.store.canAccess(ctx.user.userId, lead)) {
		throw permissionDenied(`User ${ctx.user.userId} has no permission to manage lead ${leadId}`);
	}
	return lead;
}

/** `leadId` query parameter of the list endpoints (required, int64, minimum 1). */
export function leadFromQuery(ctx: Ctx): Lead {
	if (!has(ctx.query, 'leadId')) throw missingParam('leadId');
	const raw = ctx.query.get('leadId')!.trim();
	const id = toInt64(raw);
	if (id === null || id === undefined) throw invalidParam(`'leadId' must be an int64 integer, got '${raw}'`);
	return leadForCaller(ctx, id);
}

/** The user a new entry of this role is assigned to: the lead's agent, or its assistant when it has one. */
export function assigneeOf(lead: Lead, role: AssignedRole): bigint {
	if (role === 'Assistant') {
		const assistant = lead.customRoleList.find((r) => r.role === 'Assistant');
		if (assistant) return assistant.assigneeId;
	}
	return lead.assignedUserId ?? lead.ownerUserId;
}
