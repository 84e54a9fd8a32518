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
import type { SandboxModule } from '../../core/module';
import { type Obj, asObject, has, optBool } from '../../core/params';
import type { Ctx, Route } from '../../core/router';
import {
	iso,
	leadAccessible,
	leadFromPath,
	leadFromQuery,
	requiredIdArray,
	requiredText,
} from './readers';
import { SEED_IDS } from '../../core/seed';
import type { Store } from '../../core/store';
import type { Lead } from '../../core/types';

export const AI_STAGES = ['HIGH_PRIORITY', 'AI_PROSPECTING', 'AI_MONITORING'] as const;
export type AiStage = (typeof AI_STAGES)[number];
const SORTS = ['Default', 'CreateTime', 'UpdateTime'];
const MAX_BATCH = 100;
const DAY = 86_400_000;

export interface SalesAgentSettings {
	assistantName: string;
	headUrl: string;
	virtualNumber: string;
	virtualNumberCountry: string;
	callTransferType: 'Disabled' | 'ToAssignedAgent';
	fixedNumber: string;
	agentExperience: string;
	rentalBusiness: boolean;
	websiteChannel: boolean;
	textChannel: boolean;
	emailChannel: boolean;
	startActiveHour: number;
	endActiveHour: number;
	activeDays: number[];
	leadTypes: number[];
	leadSources: bigint[];
	leadPipelines: bigint[];
	agentIds: bigint[];
	officeIds: bigint[];
	leadPondIds: bigint[];
	newLeadEnable: boolean;
	visitorsEnable: boolean;
	followUpRole: 'AI' | 'Agent';
	hostedStatus: string;
}

export interface SalesAgent {
	id: bigint;
	userId: bigint;
	assistantHeadUrl: string;
	/** buyer_agent, listing_agent (the profile's role; the settings carry AI / Agent) */
	followUpRole: string;
	email: string;
	status: 'ACTIVE' | 'INACTIVE';
	createdAt: number;
	updatedAt: number;
	hasQuotaSeat: boolean;
	borrowLevel: 'SELF' | 'GROUP' | 'TEAM';
	borrowId: bigint | null;
	totalQuota: number;
	settings: SalesAgentSettings;
}

export interface WorkingEntry {
	leadId: bigint;
	aiStage: AiStage;
	createdAt: number;
	updatedAt: number;
}

export interface PlanTask {
	id: bigint;
	leadId: bigint;
	content: string;
	taskType: 'CALL' | 'TEXT' | 'EMAIL';
	finished: boolean;
	dueAt: number;
	createdAt: number;
	assignedTo: bigint;
	creatorId: bigint;
}

export interface SentSms {
	from: string;
	to: string;
	content: string;
	userId: bigint;
	time: number;
}

export class SalesAgentState {
	/** by owner user id */
	agents = new Map<string, SalesAgent>();
	/** working pool of each user's Sales Agent: user id -> lead id -> entry */
	pools = new Map<string, Map<string, WorkingEntry>>();
	/** AI muted leads (by lead id) */
	muted = new Set<string>();
	planTasks: PlanTask[] = [];
	/** SMS sent from an AI virtual number */
	aiSms: SentSms[] = [];
	nextPlanTaskId = 9007199254780001n;

	agentOf(userId: bigint): SalesAgent | undefined {
		return this.agents.get(userId.toString());
	}

	poolOf(userId: bigint): Map<string, WorkingEntry> {
		const k = userId.toString();
		if (!this.pools.has(k)) this.pools.set(k, new Map());
		return this.pools.get(k)!;
	}

	tasksOf(leadId: bigint): PlanTask[] {
		return this.planTasks.filter((t) => t.leadId === leadId);
	}
}

export const salesAgentState = (store: Store): SalesAgentState => store.ext('salesAgent', () => new SalesAgentState());

/** Seeded Sales Agent identifiers (the demo user's is above 2^53). */
export const SALES_AGENT_IDS = {
	demoSalesAgentId: '9007199254760001',
	/** a team member whose Sales Agent has no AI virtual number */
	noNumberUserId: '302656410082801',
	noNumberSalesAgentId: '7100000002',
	/** demo total quota */
	demoQuota: 200,
	/** working leads seeded in the demo user's pool */
	demoPoolSize: 130,
	/** a demo-accessible lead that is not in the pool */
	notWorkingLeadId: SEED_IDS.activityLeadId,
} as const;

// ---- views ----

function salesAgentView(sa: SalesAgent, ctx: Ctx): Record<string, unknown> {
	const user = ctx.store.getUser(sa.userId);
	return {
		id: sa.id,
		userId: sa.userId,
		agentName: user ? `${user.firstName} ${user.lastName}`.trim() : '',
		agentHeadUrl: `https://cdn.example.com/avatar/${sa.userId}.jpg`,
		assistantName: sa.settings.assistantName,
		assistantHeadUrl: sa.assistantHeadUrl,
		virtualNumber: sa.settings.virtualNumber,
		virtualNumberCountry: sa.settings.virtualNumberCountry,
		followUpRole: sa.followUpRole,
		agentExperience: sa.settings.agentExperience,
		email: sa.email,
		status: sa.status,
		createdAt: iso(sa.createdAt),
		updatedAt: iso(sa.updatedAt),
		hasQuotaSeat: sa.hasQuotaSeat,
		borrowLevel: sa.borrowLevel,
		borrowId: sa.borrowId,
	};
}

function settingsView(sa: SalesAgent): Record<string, unknown> {
	return { id: sa.id, ...sa.settings };
}

export function workingLeadView(lead: Lead, entry: WorkingEntry, state: SalesAgentState): Record<string, unknown> {
	return {
		leadId: lead.leadId,
		firstName: lead.firstName,
		lastName: lead.lastName,
		email: lead.emails[0] ?? '',
		phone: lead.phones[0] ?? '',
		createdAt: iso(entry.createdAt),
		aiStage: entry.aiStage,
		taskCount: state.tasksOf(lead.leadId).length,
		updatedAt: iso(entry.updatedAt),
	};
}

function planTaskView(t: PlanTask, now: number): Record<string, unknown> {
	return {
		id: t.id,
		content: t.content,
		taskType: t.taskType,
		status: t.finished ? 'FINISHED' : t.dueAt < now ? 'OVERDUE' : 'PENDING',
		dueAt: iso(t.dueAt),
		createdAt: iso(t.createdAt),
		assignedTo: t.assignedTo,
		creatorId: t.creatorId,
	};
}

// ---- helpers ----

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

function createPlanTasks(state: SalesAgentState, lead: Lead, userId: bigint, now: number): void {
	const kinds: Array<[PlanTask['taskType'], string, number]> = [
		['CALL', `Call ${lead.firstName} to check on their home search`, 1],
		['TEXT', `Text ${lead.firstName} new listings that match`, 2],
		['EMAIL', `Email ${lead.firstName} a market update`, 3],
	];
	for (const [taskType, content, days] of kinds) {
		state.planTasks.push({
			id: state.nextPlanTaskId++,
			leadId: lead.leadId,
			content,
			taskType,
			finished: false,
			dueAt: now + days * DAY,
			createdAt: now,
			assignedTo: userId,
			creatorId: userId,
		});
	}
}

// ---- settings body ----

type SettingKey = keyof SalesAgentSettings;
const STRING_SETTINGS: SettingKey[] = ['assistantName', 'virtualNumber', 'virtualNumberCountry', 'fixedNumber', 'agentExperience'];
const BOOL_SETTINGS: SettingKey[] = ['rentalBusiness', 'websiteChannel', 'textChannel', 'emailChannel', 'newLeadEnable', 'visitorsEnable'];
const ID_ARRAYS: SettingKey[] = ['leadSources', 'leadPipelines'];
/** "contains -1 means all" */
const ID_ARRAYS_WITH_ALL: SettingKey[] = ['agentIds', 'officeIds', 'leadPondIds'];

function intIn(o: Obj, name: string, min: number, max: number): number | undefined {
	const v = o[name];
	if (v === undefined || v === null) return undefined;
	const n = toInt64(v);
	if (n === null || n === undefined || n < BigInt(min) || n > BigInt(max)) throw invalidParam(`'${name}' must be an integer from ${min} to ${max}, got ${String(v)}`);
	return Number(n);
}

function intArray(o: Obj, name: string, min: number, max: number): number[] | undefined {
	const v = o[name];
	if (v === undefined || v === null) return undefined;
	if (!Array.isArray(v)) throw invalidParam(`'${name}' must be an array of integers`);
	return v.map((x) => {
		const n = toInt64(x);
		if (n === null || n === undefined || n < BigInt(min) || n > BigInt(max)) throw invalidParam(`'${name}' entries must be integers from ${min} to ${max}, got ${String(x)}`);
		return Number(n);
	});
}

function idArray(o: Obj, name: string, allowAll: boolean): bigint[] | undefined {
	const v = o[name];
	if (v === undefined || v === null) return undefined;
	if (!Array.isArray(v)) throw invalidParam(`'${name}' must be an array of int64 integers`);
	return v.map((x) => {
		const n = toInt64(x);
		if (n === null || n === undefined || !(n >= 1n || (allowAll && n === -1n))) {
			throw invalidParam(`'${name}' entries must be int64 IDs${allowAll ? ' (or -1 for all)' : ''}, got ${String(x)}`);
		}
		return n;
	});
}

function applySettings(sa: SalesAgent, body: Obj, now: number): void {
	const next: Partial<Record<SettingKey, unknown>> = {};
	for (const k of STRING_SETTINGS) {
		const v = body[k];
		if (v === undefined || v === null) continue;
		if (typeof v !== 'string') throw invalidParam(`'${k}' must be a string`);
		next[k] = v;
	}
	for (const k of BOOL_SETTINGS) {
		const v = optBool(body, k);
		if (v !== undefined) next[k] = v;
	}
	const transfer = body.callTransferType;
	if (transfer !== undefined && transfer !== null) {
		if (transfer !== 'Disabled' && transfer !== 'ToAssignedAgent') throw invalidParam(`'callTransferType' must be Disabled or ToAssignedAgent, got '${String(transfer)}'`);
		next.callTransferType = transfer;
	}
	const role = body.followUpRole;
	if (role !== undefined && role !== null) {
		if (role !== 'AI' && role !== 'Agent') throw invalidParam(`'followUpRole' must be AI or Agent, got '${String(role)}'`);
		next.followUpRole = role;
	}
	const start = intIn(body, 'startActiveHour', 0, 23);
	const end = intIn(body, 'endActiveHour', 0, 23);
	if (start !== undefined) next.startActiveHour = start;
	if (end !== undefined) next.endActiveHour = end;
	const days = intArray(body, 'activeDays', 0, 6);
	if (days !== undefined) next.activeDays = [...new Set(days)].sort();
	const types = intArray(body, 'leadTypes', 0, 2_147_483_647);
	if (types !== undefined) next.leadTypes = types;
	for (const k of ID_ARRAYS) {
		const v = idArray(body, k, false);
		if (v !== undefined) next[k] = v;
	}
	for (const k of ID_ARRAYS_WITH_ALL) {
		const v = idArray(body, k, true);
		if (v !== undefined) next[k] = v;
	}
	Object.assign(sa.settings, next);
	sa.updatedAt = now;
}

// ---- routes ----

const routes: Route[] = [
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

// ---- seed ----

const T_SEED = Date.UTC(2026, 0, 5, 15, 0, 0);

function settingsFor(name: string, virtualNumber: string): SalesAgentSettings {
	return {
		assistantName: name,
		headUrl: 'https://cdn.example.com/ai/assistant.png',
		virtualNumber,
		virtualNumberCountry: 'US',
		callTransferType: 'Disabled',
		fixedNumber: '',
		agentExperience: '10 years in Austin real estate',
		rentalBusiness: false,
		websiteChannel: true,
		textChannel: true,
		emailChannel: true,
		startActiveHour: 8,
		endActiveHour: 20,
		activeDays: [1, 2, 3, 4, 5],
		leadTypes: [],
		leadSources: [],
		leadPipelines: [],
		agentIds: [-1n],
		officeIds: [-1n],
		leadPondIds: [],
		newLeadEnable: true,
		visitorsEnable: false,
		followUpRole: 'AI',
		hostedStatus: 'ACTIVE',
	};
}

function seed(store: Store): void {
	const state = salesAgentState(store);
	const demo = BigInt(SEED_IDS.demoUserId);
	const noNumber = BigInt(SALES_AGENT_IDS.noNumberUserId);
	state.agents.set(demo.toString(), {
		id: BigInt(SALES_AGENT_IDS.demoSalesAgentId),
		userId: demo,
		assistantHeadUrl: 'https://cdn.example.com/ai/anna.png',
		followUpRole: 'buyer_agent',
		email: 'anna.assistant@example.com',
		status: 'ACTIVE',
		createdAt: T_SEED - 40 * DAY,
		updatedAt: T_SEED,
		hasQuotaSeat: true,
		borrowLevel: 'SELF',
		borrowId: null,
		totalQuota: SALES_AGENT_IDS.demoQuota,
		settings: settingsFor('Anna', '+15125550199'),
	});
	if (store.getUser(noNumber)) {
		state.agents.set(noNumber.toString(), {
			id: BigInt(SALES_AGENT_IDS.noNumberSalesAgentId),
			userId: noNumber,
			assistantHeadUrl: 'https://cdn.example.com/ai/ben.png',
			followUpRole: 'listing_agent',
			email: 'ben.assistant@example.com',
			status: 'ACTIVE',
			createdAt: T_SEED - 10 * DAY,
			updatedAt: T_SEED - 10 * DAY,
			hasQuotaSeat: true,
			borrowLevel: 'TEAM',
			borrowId: BigInt(SEED_IDS.teamId),
			totalQuota: 50,
			settings: settingsFor('Ben', ''),
		});
	}

	// The demo pool: the big lead first, then demo-accessible leads by ID, 130 in all.
	const demoUser = store.getUser(demo)!;
	const accessible = [...store.leads.values()]
		.filter((l) => l.deletedAt === null && store.canAccess(demoUser.userId, l))
		.sort((a, b) => (a.leadId < b.leadId ? -1 : 1));
	const big = store.getLead(SEED_IDS.bigLeadId);
	const chosen = [...(big ? [big] : []), ...accessible.filter((l) => l !== big && l.leadId !== BigInt(SEED_IDS.activityLeadId))].slice(
		0,
		SALES_AGENT_IDS.demoPoolSize,
	);
	const pool = state.poolOf(demo);
	chosen.forEach((lead, i) => {
		pool.set(lead.leadId.toString(), {
			leadId: lead.leadId,
			aiStage: AI_STAGES[i % 3],
			createdAt: T_SEED - (200 - i) * DAY,
			updatedAt: T_SEED - ((i * 37) % 101) * 3_600_000,
		});
	});
	if (big) {
		createPlanTasks(state, big, demo, T_SEED);
		state.planTasks[0].finished = true;
	}
	state.muted.add(chosen[1]?.leadId.toString() ?? '');
}

/** Sales Agent endpoints. */
export const salesAgentModule: SandboxModule = { name: 'salesAgent', routes, seed };
