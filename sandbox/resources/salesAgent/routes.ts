/**
 * Sales Agents V2 (the AI assistant of a Lofty user), from api-spec.md and the OpenAPI tag "Sales Agents V2":
 * the caller's assistant, its quota and settings, the AI working pool of leads, muting, plan tasks, and the
 * SMS sent to the caller from the assistant's AI virtual number.
 *
 * Error codes are not given by the OpenAPI (it only names statuses), so the codes the spec lists are used:
 * 400 INVALID_PARAMETER (20012) / MISSING_PARAMETER / LIMIT_NOT_VALID, 403 PERMISSION_DENIED for a lead the
 * caller cannot access (or that does not exist), 404 RESOURCE_NOT_EXIST when the user has no Sales Agent.
 */
import { ApiError, Codes, invalidParam, limitNotValid, missingParam } from '../../core/errors';
import { toInt64 } from '../../core/json';
import { asObject, has, optBool, requiredIdArray, requiredText } from '../../core/params';
import type { Ctx, Route } from '../../core/router';
import type { Lead } from '../../core/types';
import { leadAccessible, leadFromPath, leadFromQuery } from '../lead/access';
import { applySettings } from './settings';
import { AI_STAGES, type SalesAgent, type WorkingEntry, createPlanTasks, salesAgentState } from './state';
import { planTaskView, salesAgentView, settingsView, workingLeadView } from './views';

const SORTS = ['Default', 'CreateTime', 'UpdateTime'];
const MAX_BATCH = 100;

function mySalesAgent(ctx: Ctx): SalesAgent {
	const sa = salesAgentState(ctx.store).agentOf(ctx.user.userId);
	if (!sa) throw new ApiError(404, Codes.RESOURCE_NOT_EXIST, `Sales Agent not found for the current user ${ctx.user.userId}; set it up in Lofty CRM first`);
	return sa;
}

/** Writes need an existing Sales Agent; the OpenAPI declares only 400 for them. */
function mySalesAgentForWrite(ctx: Ctx): SalesAgent {
	const sa = salesAgentState(ctx.store).agentOf(ctx.user.userId);
	if (!sa) throw invalidParam(`the current user ${ctx.user.userId} has no Sales Agent; Sales Agent creation must be completed in Lofty CRM`);
	return sa;
}

/** String-typed integer query parameter (working-leads takes offset and limit as strings). */
function stringInt(q: URLSearchParams, name: string, def: number): number {
	if (!has(q, name)) return def;
	const raw = q.get(name)!.trim();
	if (!/^[+-]?\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw invalidParam(`'${name}' must be an integer, got '${raw}'`);
	return Number(raw);
}

export const salesAgentRoutes: Route[] = [
	{
		method: 'GET',
		pattern: '/v2.0/sales-agents/current',
		handler: (ctx) => ({ body: salesAgentView(mySalesAgent(ctx), ctx) }),
	},
	{
		method: 'GET',
		pattern: '/v2.0/sales-agents/by-lead',
		handler: (ctx) => {
			const lead = leadFromQuery(ctx);
			const state = salesAgentState(ctx.store);
			const ownerId = lead.assignedUserId ?? lead.ownerUserId;
			const sa = state.agentOf(ownerId);
			if (!sa) throw new ApiError(404, Codes.RESOURCE_NOT_EXIST, `Sales Agent not found for lead ${lead.leadId}`);
			return { body: salesAgentView(sa, ctx) };
		},
	},
	{
		method: 'GET',
		pattern: '/v2.0/sales-agents/quota',
		handler: (ctx) => {
			const state = salesAgentState(ctx.store);
			const sa = state.agentOf(ctx.user.userId);
			const total = sa?.totalQuota ?? 0;
			const used = sa ? state.poolOf(ctx.user.userId).size : 0;
			const remaining = Math.max(0, total - used);
			return {
				body: {
					totalQuota: total,
					usedQuota: used,
					remainingQuota: remaining,
					hasQuotaAvailable: remaining > 0,
					usagePercentage: total > 0 ? Math.round((used / total) * 10000) / 100 : 0,
					isBorrowed: sa !== undefined && sa.borrowLevel !== 'SELF',
					borrowLevel: sa?.borrowLevel ?? 'SELF',
					borrowedFrom: sa?.borrowId ?? null,
				},
			};
		},
	},
	{
		method: 'GET',
		pattern: '/v2.0/sales-agent/settings',
		handler: (ctx) => ({ body: settingsView(mySalesAgent(ctx)) }),
	},
	{
		method: 'PUT',
		pattern: '/v2.0/sales-agent/settings',
		body: 'json',
		handler: (ctx) => {
			const body = asObject(ctx.body);
			if (body.id === undefined || body.id === null) throw missingParam('id');
			const id = toInt64(body.id);
			if (id === null || id === undefined || id < 1n) throw invalidParam(`'id' (Sales Agent ID) must be an integer greater than 0, got ${String(body.id)}`);
			const sa = mySalesAgentForWrite(ctx);
			if (sa.id !== id) throw invalidParam(`Sales Agent ${id} is not the current user's Sales Agent; this API only updates existing settings`);
			applySettings(sa, body, ctx.now);
			return { body: { message: 'success' } };
		},
	},
	{
		method: 'GET',
		pattern: '/v2.0/sales-agents/working-lead/{leadId}',
		handler: (ctx) => {
			const lead = leadFromPath(ctx);
			const state = salesAgentState(ctx.store);
			const entry = state.poolOf(ctx.user.userId).get(lead.leadId.toString());
			// The OpenAPI types the answer as WorkingLeadV2 but says it "returns true if the lead is actively being
			// followed up, false otherwise": the record is returned for a working lead, `false` otherwise.
			return { body: entry ? workingLeadView(lead, entry, state) : false };
		},
	},
	{
		method: 'PUT',
		pattern: '/v2.0/sales-agents/working-lead/{leadId}/mute',
		handler: (ctx) => {
			const lead = leadFromPath(ctx);
			const state = salesAgentState(ctx.store);
			state.muted.add(lead.leadId.toString());
			const entry = state.poolOf(ctx.user.userId).get(lead.leadId.toString());
			if (entry) entry.updatedAt = ctx.now;
			return { body: { message: `AI assistant muted for lead ${lead.leadId}` } };
		},
	},
	{
		method: 'GET',
		pattern: '/v2.0/sales-agent/lead/mute-status',
		handler: (ctx) => {
			const lead = leadFromQuery(ctx);
			const muted = salesAgentState(ctx.store).muted.has(lead.leadId.toString());
			return { body: { data: { mute: muted ? 'true' : 'false' } } };
		},
	},
	{
		method: 'GET',
		pattern: '/v2.0/working-leads',
		handler: (ctx) => {
			const q = ctx.query;
			const limitRaw = q.get('limit') ?? '';
			const limit = stringInt(q, 'limit', 20);
			if (limit < 1 || limit > 100) throw limitNotValid(1, 100, limitRaw);
			const offset = stringInt(q, 'offset', 0);
			if (offset < 0) throw invalidParam(`'offset' must be at least 0, got '${q.get('offset')}'`);
			const aiStage = has(q, 'aiStage') ? q.get('aiStage')!.trim() : undefined;
			if (aiStage !== undefined && !(AI_STAGES as readonly string[]).includes(aiStage)) {
				throw invalidParam(`'aiStage' must be one of ${AI_STAGES.join(', ')}, got '${aiStage}'`);
			}
			const sort = has(q, 'sort') ? q.get('sort')!.trim() : 'UpdateTime';
			if (!SORTS.includes(sort)) throw invalidParam(`'sort' must be one of ${SORTS.join(', ')}, got '${sort}'`);
			const descRaw = has(q, 'desc') ? q.get('desc')!.trim().toLowerCase() : 'true';
			if (descRaw !== 'true' && descRaw !== 'false') throw invalidParam(`'desc' must be true or false, got '${q.get('desc')}'`);
			const desc = descRaw === 'true';

			const state = salesAgentState(ctx.store);
			const rows: Array<{ lead: Lead; entry: WorkingEntry }> = [];
			for (const entry of state.poolOf(ctx.user.userId).values()) {
				const lead = leadAccessible(ctx, entry.leadId);
				if (lead && (aiStage === undefined || entry.aiStage === aiStage)) rows.push({ lead, entry });
			}
			const keyOf = (r: { entry: WorkingEntry }): number | bigint =>
				sort === 'CreateTime' ? r.entry.createdAt : sort === 'UpdateTime' ? r.entry.updatedAt : r.entry.leadId;
			rows.sort((a, b) => {
				const x = keyOf(a);
				const y = keyOf(b);
				const c = x < y ? -1 : x > y ? 1 : a.entry.leadId < b.entry.leadId ? -1 : a.entry.leadId > b.entry.leadId ? 1 : 0;
				return desc ? -c : c;
			});
			const page = rows.slice(offset, offset + limit);
			return {
				body: {
					workingLeads: page.map((r) => workingLeadView(r.lead, r.entry, state)),
					metadata: { total: rows.length, count: page.length, offset, limit },
				},
			};
		},
	},
	{
		method: 'POST',
		pattern: '/v2.0/working-leads/add',
		body: 'json',
		handler: (ctx) => {
			const body = asObject(ctx.body);
			const leadIds = requiredIdArray(body, 'leadIds', MAX_BATCH);
			const createPlanTask = optBool(body, 'createPlanTask') ?? false;
			const sa = mySalesAgentForWrite(ctx);
			const state = salesAgentState(ctx.store);
			const pool = state.poolOf(ctx.user.userId);
			const succeeded: bigint[] = [];
			const failed: bigint[] = [];
			for (const id of leadIds) {
				const lead = leadAccessible(ctx, id);
				const already = pool.has(id.toString());
				if (!lead || (!already && pool.size >= sa.totalQuota)) {
					failed.push(id);
					continue;
				}
				if (!already) pool.set(id.toString(), { leadId: id, aiStage: 'AI_PROSPECTING', createdAt: ctx.now, updatedAt: ctx.now });
				if (createPlanTask) createPlanTasks(state, lead, ctx.user.userId, ctx.now);
				succeeded.push(id);
			}
			return {
				body: {
					message: `${succeeded.length} lead(s) added to the Sales Agent working pool, ${failed.length} failed`,
					succeededLeadIds: succeeded,
					failedLeadIds: failed,
				},
			};
		},
	},
	{
		method: 'POST',
		pattern: '/v2.0/plan-tasks/create',
		body: 'json',
		handler: (ctx) => {
			const body = asObject(ctx.body);
			const leadIds = requiredIdArray(body, 'leadIds', MAX_BATCH);
			mySalesAgentForWrite(ctx);
			const state = salesAgentState(ctx.store);
			const pool = state.poolOf(ctx.user.userId);
			const succeeded: bigint[] = [];
			const failed: bigint[] = [];
			for (const id of leadIds) {
				const lead = leadAccessible(ctx, id);
				// "Each lead must already be in the Sales Agent working pool."
				if (!lead || !pool.has(id.toString())) {
					failed.push(id);
					continue;
				}
				createPlanTasks(state, lead, ctx.user.userId, ctx.now);
				succeeded.push(id);
			}
			return { body: { code: 0, message: 'success', data: { succeededLeadIds: succeeded, failedLeadIds: failed } } };
		},
	},
	{
		method: 'GET',
		pattern: '/v2.0/plan-tasks/lead/{leadId}',
		handler: (ctx) => {
			const lead = leadFromPath(ctx);
			const tasks = salesAgentState(ctx.store)
				.tasksOf(lead.leadId)
				.sort((a, b) => a.dueAt - b.dueAt || (a.id < b.id ? -1 : 1));
			return { body: tasks.map((t) => planTaskView(t, ctx.now)) };
		},
	},
	{
		method: 'POST',
		pattern: '/v2.0/sales-agent/ai-number/send-sms-to-agent',
		body: 'json',
		handler: (ctx) => {
			const content = requiredText(asObject(ctx.body), 'content');
			const sa = salesAgentState(ctx.store).agentOf(ctx.user.userId);
			if (!sa || !sa.settings.virtualNumber) {
				throw invalidParam('no AI virtual number is configured for the current user\'s Sales Agent');
			}
			salesAgentState(ctx.store).aiSms.push({ from: sa.settings.virtualNumber, to: ctx.user.phoneNumber, content, userId: ctx.user.userId, time: ctx.now });
			return { body: { message: 'SMS sent successfully' } };
		},
	},
];
