/**
 * Shared readers of the Sales Agent, AI, Notification and Opportunity emulators: lead access answered
 * with 403 (as the OpenAPI of the v2 Sales Agent endpoints declares), int64 arrays of request bodies,
 * required non-blank strings, and the lower rate limit of the AI endpoints.
 */
import { ApiError, Codes, invalidParam, missingParam } from '../../core/errors';
import { toInt64 } from '../../core/json';
import { type Obj, int64Param, pathId } from '../../core/params';
import type { Ctx, Reply } from '../../core/router';
import type { Lead } from '../../core/types';

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

/** A required int64 body field, minimum 1. */
export function requiredId(o: Obj, name: string): bigint {
	if (o[name] === undefined || o[name] === null) throw missingParam(name);
	const v = toInt64(o[name]);
	if (v === null || v === undefined) throw invalidParam(`'${name}' must be an int64 integer`);
	if (v < 1n) throw invalidParam(`'${name}' must be at least 1, got ${v}`);
	return v;
}

/** A required, non-empty array of int64 IDs (each >= 1), at most `max` entries; duplicates removed. */
export function requiredIdArray(o: Obj, name: string, max?: number): bigint[] {
	const v = o[name];
	if (v === undefined || v === null) throw missingParam(name);
	if (!Array.isArray(v)) throw invalidParam(`'${name}' must be an array of int64 integers`);
	if (v.length === 0) throw invalidParam(`'${name}' must not be empty`);
	if (max !== undefined && v.length > max) throw invalidParam(`'${name}' takes at most ${max} entries, got ${v.length}`);
	const out: bigint[] = [];
	for (const x of v) {
		const id = toInt64(x);
		if (id === null || id === undefined || id < 1n) throw invalidParam(`'${name}' must contain int64 IDs of at least 1, got ${String(x)}`);
		if (!out.includes(id)) out.push(id);
	}
	return out;
}

/** A required string that must not be blank. */
export function requiredText(o: Obj, name: string): string {
	const v = o[name];
	if (v === undefined || v === null) throw missingParam(name);
	if (typeof v !== 'string') throw invalidParam(`'${name}' must be a string`);
	if (v.trim() === '') throw invalidParam(`'${name}' must not be blank`);
	return v;
}

export const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

// ---- the AI endpoints' own, lower rate limit ----

export interface AiRateLimit {
	perWindow: number;
	windowMs: number;
}

/** api-notes: "some endpoints (AI features) are lower" than the application limit; the number is not published. */
export const DEFAULT_AI_RATE_LIMIT: AiRateLimit = { perWindow: 20, windowMs: 60_000 };

export class AiLimiter {
	config: AiRateLimit = { ...DEFAULT_AI_RATE_LIMIT };
	private windows = new Map<string, { start: number; count: number }>();

	set(config: AiRateLimit): void {
		this.config = { ...config };
		this.windows.clear();
	}

	/** undefined when allowed, else the 429 reply (same body and headers as the application limit). */
	hit(appId: string, now: number): Reply | undefined {
		let w = this.windows.get(appId);
		if (!w || now >= w.start + this.config.windowMs) {
			w = { start: now, count: 0 };
			this.windows.set(appId, w);
		}
		if (w.count < this.config.perWindow) {
			w.count++;
			return undefined;
		}
		return {
			status: 429,
			body: { message: 'Too Many Requests' },
			headers: {
				'X-RateLimit-Limit': String(this.config.perWindow),
				'X-RateLimit-Remaining': '0',
				'X-RateLimit-Reset': String(Math.ceil((w.start + this.config.windowMs) / 1000)),
			},
		};
	}
}
