/**
 * Intelligent Features (OpenAPI tag), from api-spec.md and the OpenAPI: call script, call summary (generate,
 * then read), pre-meeting insight, lead analysis tasks (create, list).
 *
 * Every AI endpoint also counts against a lower, separate rate limit (api-notes: "some endpoints (AI features)
 * are lower"; the OpenAPI declares 429 on the generators); its size is not published, so it is configurable
 * with `setAiRateLimit` and defaults to DEFAULT_AI_RATE_LIMIT. Codes: the OpenAPI names only statuses, so
 * 400 INVALID_PARAMETER (20012) / MISSING_PARAMETER are used, as the spec lists them.
 */
import { invalidParam, missingParam } from '../../core/errors';
import { asObject, int64Param, intParam, requiredId, requiredIdArray } from '../../core/params';
import { statusEnvelopeFailures } from '../../core/readings';
import type { Ctx, Reply, Route } from '../../core/router';
import { iso } from '../../core/time';
import { leadAccessible } from '../lead/access';
import { type AiRateLimit, AiLimiter } from './limiter';
import { SEED_IDS } from '../../core/seed';
import type { Store } from '../../core/store';
import type { Lead } from '../../core/types';

const DAY = 86_400_000;
/** A generated summary is finished this long after the request (0 pending, 1 processing, 2 finished). */
export const SUMMARY_READY_MS = 60_000;
const LIST_WINDOW_MS = 90 * DAY;

export interface CallSummary {
	id: bigint;
	recordingId: bigint;
	leadId: bigint;
	userId: bigint;
	teamId: bigint;
	requestedAt: number;
	/** seeded outcomes: 2 finished, 3 failed; generated ones follow the clock */
	fixedStatus?: 2 | 3;
}

export interface LeadAnalysisTask {
	id: bigint;
	userId: bigint;
	leadIds: bigint[];
	status: 'PENDING' | 'RUNNING' | 'FINISHED' | 'CANCELED';
	createdAt: number;
	updatedAt: number;
}

export class AiState {
	limiter = new AiLimiter();
	/** by call record id */
	summaries = new Map<string, CallSummary>();
	analyses: LeadAnalysisTask[] = [];
	nextSummaryId = 9007199254790001n;
	nextAnalysisId = 8100000001n;
}

export const aiState = (store: Store): AiState => store.ext('ai', () => new AiState());

/** Tests and the CLI: change the AI-only rate limit (restored by reset). */
export function setAiRateLimit(store: Store, config: AiRateLimit): void {
	aiState(store).limiter.set(config);
}

export const AI_IDS = {
	/** finished summary (id above 2^53 in the record) */
	finishedCallRecordId: '9007199254750001',
	/** summary whose processing failed */
	failedCallRecordId: '7700000002',
	/** a call record that never had a summary */
	unknownCallRecordId: '7700000999',
	/** lead-analysis tasks the demo user sees (last 3 months, not canceled or finished) */
	visibleAnalyses: 130,
} as const;

/** Applies the AI rate limit, then runs the handler. */
function limited(handler: (ctx: Ctx) => Reply): (ctx: Ctx) => Reply {
	return (ctx) => {
		const refused = aiState(ctx.store).limiter.hit(ctx.caller?.appId ?? 'anonymous', ctx.now);
		return refused ?? handler(ctx);
	};
}

function lead400(ctx: Ctx, id: bigint): Lead {
	const lead = leadAccessible(ctx, id);
	if (!lead) throw invalidParam(`lead ${id} does not exist or the current user cannot access it`);
	return lead;
}

function summaryStatus(s: CallSummary, now: number): number {
	if (s.fixedStatus !== undefined) return s.fixedStatus;
	const age = now - s.requestedAt;
	return age >= SUMMARY_READY_MS ? 2 : age >= SUMMARY_READY_MS / 2 ? 1 : 0;
}

function summaryView(s: CallSummary, ctx: Ctx): Record<string, unknown> {
	const status = summaryStatus(s, ctx.now);
	const lead = ctx.store.getLead(s.leadId);
	const name = lead ? `${lead.firstName} ${lead.lastName}`.trim() : 'the lead';
	const done = status === 2;
	return {
		id: s.id,
		recordingId: s.recordingId,
		status,
		userId: s.userId,
		text: done ? `Agent: Hi ${name}, this is your agent. ${name}: Hi! We'd like to see the house on Main St this Saturday at 10am.` : '',
		summary: done ? `${name} wants a Saturday 10am showing of the Main St listing and is pre-approved.` : '',
		keywords: done
			? [
					{ content: name, type: 'leadName', params: [] },
					{ content: 'Saturday 10am', type: 'apptTime', params: [] },
					{ content: lead?.city || 'Austin', type: 'propertyLocation', params: [] },
				]
			: [],
		score: done ? 85 : 0,
		comment: done ? 'Good discovery; confirm the showing in writing.' : '',
	};
}

function analysisView(t: LeadAnalysisTask): Record<string, unknown> {
	return { id: t.id, status: t.status, leadIds: t.leadIds, leadCount: t.leadIds.length, createdAt: iso(t.createdAt), updatedAt: iso(t.updatedAt) };
}

export const aiRoutes: Route[] = [
	{
		method: 'POST',
		pattern: '/v2.0/ai/call-script',
		body: 'json',
		handler: limited((ctx) => {
			const body = asObject(ctx.body);
			const leadId = requiredId(body, 'leadId');
			const taskId = requiredId(body, 'taskId');
			const lead = lead400(ctx, leadId);
			const where = lead.city ? `in ${lead.city}` : 'in their area';
			return {
				body: {
					context: `${lead.firstName} ${lead.lastName}`.trim() + ` is a ${lead.stage} lead looking for a home ${where}; follow-up task ${taskId}.`,
					objectiveSuggestion: ['Confirm budget and timeline', 'Book a showing this week'],
					keyTalkingPoints: [
						{ title: 'Opening', value: [`Greet ${lead.firstName} and mention their recent search ${where}`] },
						{ title: 'Needs', value: ['Price range', 'Bedrooms', 'Must-haves'] },
					],
				},
			};
		}),
	},
	{
		method: 'POST',
		pattern: '/v2.0/ai/call-summary/generate',
		body: 'json',
		handler: limited((ctx) => {
			const body = asObject(ctx.body);
			const callRecordId = requiredId(body, 'callRecordId');
			const leadId = requiredId(body, 'leadId');
			const lead = lead400(ctx, leadId);
			const state = aiState(ctx.store);
			const existing = state.summaries.get(callRecordId.toString());
			state.summaries.set(callRecordId.toString(), {
				id: existing?.id ?? state.nextSummaryId++,
				recordingId: callRecordId,
				leadId: lead.leadId,
				userId: ctx.user.userId,
				teamId: ctx.user.teamId,
				requestedAt: ctx.now,
			});
			return { body: { message: 'Call summary generation triggered' } };
		}),
	},
	{
		method: 'GET',
		pattern: '/v2.0/ai/call-summary',
		handler: limited(statusEnvelopeFailures((ctx) => {
			const id = int64Param(ctx.query, 'callRecordId', true)!;
			if (id < 1n) throw invalidParam(`'callRecordId' must be at least 1, got '${ctx.query.get('callRecordId')}'`);
			const s = aiState(ctx.store).summaries.get(id.toString());
			if (!s || s.teamId !== ctx.user.teamId) {
				throw invalidParam(`no call summary for call record ${id}; generate it first with POST /v2.0/ai/call-summary/generate`);
			}
			return { body: { status: { code: 0, msg: 'ok' }, data: summaryView(s, ctx) } };
		})),
	},
	{
		method: 'POST',
		pattern: '/v2.0/ai/prepare-insight',
		body: 'json',
		handler: limited((ctx) => {
			const body = asObject(ctx.body);
			const leadId = requiredId(body, 'leadId');
			const appointmentId = requiredId(body, 'appointmentId');
			const lead = lead400(ctx, leadId);
			return {
				body: {
					code: 0,
					message: 'success',
					data: {
						leadId: lead.leadId,
						appointmentId,
						insight: `${lead.firstName} is in the ${lead.stage} stage with a score of ${lead.score}. Bring comparable listings${lead.city ? ` in ${lead.city}` : ''}.`,
						suggestions: ['Review their saved searches', 'Prepare financing options'],
					},
				},
			};
		}),
	},
	{
		method: 'POST',
		pattern: '/v2.0/ai/lead-analysis',
		body: 'json',
		handler: limited((ctx) => {
			const body = asObject(ctx.body);
			if (body.leadIds === undefined || body.leadIds === null) throw missingParam('leadIds');
			const leadIds = requiredIdArray(body, 'leadIds');
			for (const id of leadIds) lead400(ctx, id);
			const state = aiState(ctx.store);
			const task: LeadAnalysisTask = { id: state.nextAnalysisId++, userId: ctx.user.userId, leadIds, status: 'PENDING', createdAt: ctx.now, updatedAt: ctx.now };
			state.analyses.push(task);
			return { body: { code: 0, message: 'success', data: { taskId: task.id, leadCount: leadIds.length, status: task.status } } };
		}),
	},
	{
		method: 'GET',
		pattern: '/v2.0/ai/lead-analysis',
		handler: limited((ctx) => {
			const pageNum = intParam(ctx.query, 'pageNum', { def: 1, min: 1 });
			const pageSize = intParam(ctx.query, 'pageSize', { def: 10, min: 1, max: 100 });
			// "current user's LeadAnalysis tasks (last 3 months, excluding canceled/finished)", newest first
			const list = aiState(ctx.store)
				.analyses.filter(
					(t) => t.userId === ctx.user.userId && t.status !== 'CANCELED' && t.status !== 'FINISHED' && t.createdAt >= ctx.now - LIST_WINDOW_MS,
				)
				.sort((a, b) => b.createdAt - a.createdAt || (b.id > a.id ? 1 : -1));
			const from = (pageNum - 1) * pageSize;
			return {
				body: {
					code: 0,
					message: 'success',
					data: { pageNum, pageSize, totalCount: list.length, pageData: list.slice(from, from + pageSize).map(analysisView) },
				},
			};
		}),
	},
];

export function seedAi(store: Store): void {
	const state = aiState(store);
	const demo = BigInt(SEED_IDS.demoUserId);
	const teamId = BigInt(SEED_IDS.teamId);
	state.summaries.set(AI_IDS.finishedCallRecordId, {
		id: 9007199254789999n,
		recordingId: BigInt(AI_IDS.finishedCallRecordId),
		leadId: BigInt(SEED_IDS.bigLeadId),
		userId: demo,
		teamId,
		requestedAt: Date.UTC(2025, 11, 1),
		fixedStatus: 2,
	});
	state.summaries.set(AI_IDS.failedCallRecordId, {
		id: 9007199254789998n,
		recordingId: BigInt(AI_IDS.failedCallRecordId),
		leadId: BigInt(SEED_IDS.bigLeadId2),
		userId: demo,
		teamId,
		requestedAt: Date.UTC(2025, 11, 2),
		fixedStatus: 3,
	});
	// Relative to the store clock so that the 3-month window keeps them visible.
	const now = store.now();
	const leads = [BigInt(SEED_IDS.bigLeadId), BigInt(SEED_IDS.bigLeadId2), BigInt(SEED_IDS.activityLeadId)];
	for (let i = 0; i < AI_IDS.visibleAnalyses + 12; i++) {
		const hidden = i >= AI_IDS.visibleAnalyses;
		const status: LeadAnalysisTask['status'] = hidden ? (['FINISHED', 'CANCELED', 'PENDING'] as const)[i % 3] : i % 2 ? 'RUNNING' : 'PENDING';
		// hidden PENDING ones are older than 3 months
		const createdAt = hidden && status === 'PENDING' ? now - 120 * DAY : now - (i + 1) * 600_000;
		state.analyses.push({ id: state.nextAnalysisId++, userId: demo, leadIds: leads.slice(0, 1 + (i % 3)), status, createdAt, updatedAt: createdAt });
	}
	state.analyses.push({ id: state.nextAnalysisId++, userId: BigInt(SEED_IDS.otherAgentUserId), leadIds: [BigInt(SEED_IDS.notSharedLeadId)], status: 'PENDING', createdAt: now - DAY, updatedAt: now - DAY });
}
