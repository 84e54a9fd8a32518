/**
 * Call endpoints (V1): calls of a lead, one call, a call's recording URL.
 *
 * From the OpenAPI: a missing, non-positive or unknown lead is 404 LEAD_NOT_FOUND (also a trashed
 * lead, which no longer "exists" for these endpoints); a lead the caller cannot manage, or an unknown
 * call, is 400 PERMISSION_DENIED. Where the spec is silent: `limit` is 1 to 100 (api-spec.md Limits,
 * LIMIT_NOT_VALID outside), the list holds dialer and logged calls oldest first, and `{callId}` is the
 * call's `id` (its lead-timeline id) or its `dialerCallRecordId` (what MANUAL call webhooks carry).
 * The recording URL is valid for one hour and empty when the call was not recorded; it points at the sandbox's own
 * file store (./recording.ts). The fault `expiredLink` hands out a link that has already expired.
 */
import { ApiError, Codes } from '../../core/errors';
import { toInt64 } from '../../core/json';
import { has, intParam, pathId } from '../../core/params';
import type { Ctx, Route } from '../../core/router';
import type { Lead } from '../../core/types';
import { offsetParam } from '../communication/params';
import { type Communication, commState } from '../communication/state';
import { callView } from '../communication/views';
import { RECORDING_LINK_TTL_MS, recordingUrl } from './recording';

export const LEAD_NOT_FOUND = 'LEAD_NOT_FOUND';
const CALLS_MAX_LIMIT = 100;

const leadNotFound = (id: string): ApiError => new ApiError(404, LEAD_NOT_FOUND, `LEAD_NOT_FOUND: lead ${id} does not exist`);
const permissionDenied = (what: string): ApiError => new ApiError(400, Codes.PERMISSION_DENIED, `PERMISSION_DENIED: ${what}`);

function manageableLead(ctx: Ctx, leadId: bigint): Lead {
	const lead = ctx.store.getLead(leadId);
	if (!lead || lead.deletedAt !== null) throw leadNotFound(leadId.toString());
	if (!ctx.store.canAccess(ctx.user.userId, lead)) throw permissionDenied(`no manage permission on lead ${leadId}`);
	return lead;
}

/** A call by id or dialer record id, on a lead the caller may manage. */
function findCall(ctx: Ctx): Communication {
	const id = pathId(ctx.params.callId, 'callId');
	const state = commState(ctx.store);
	const call =
		[state.get(id, ctx.now)].find((c) => c?.kind === 'CALL') ??
		state.list(ctx.now, (c) => c.kind === 'CALL' && c.dialerCallRecordId === id)[0];
	if (!call) throw permissionDenied(`no call ${id} that you may manage`);
	manageableLead(ctx, call.leadId);
	return call;
}

export const callRoutes: Route[] = [
	{
		method: 'GET',
		pattern: '/v1.0/calls',
		handler: (ctx) => {
			const q = ctx.query;
			const raw = has(q, 'leadId') ? q.get('leadId')!.trim() : '';
			const leadId = toInt64(raw);
			if (!raw || leadId === null || leadId === undefined || leadId < 1n) throw leadNotFound(raw || '(missing)');
			const limit = intParam(q, 'limit', {
				def: 10,
				min: 1,
				max: CALLS_MAX_LIMIT,
				outOfRange: (r) => new ApiError(400, Codes.LIMIT_NOT_VALID, `limit must be between 1 and ${CALLS_MAX_LIMIT}, got '${r}'`),
			});
			const offset = offsetParam(q);
			const lead = manageableLead(ctx, leadId);
			const calls = commState(ctx.store).list(ctx.now, (c) => c.kind === 'CALL' && c.leadId === lead.leadId);
			return {
				body: {
					_metadata: { collection: 'calls', limit, offset, total: calls.length, scrollId: null },
					calls: calls.slice(offset, offset + limit).map((c) => callView(c, ctx.store)),
				},
			};
		},
	},
	{
		method: 'GET',
		pattern: '/v1.0/calls/{callId}',
		handler: (ctx) => ({ body: { calls: callView(findCall(ctx), ctx.store) } }),
	},
	{
		method: 'GET',
		pattern: '/v1.0/call/url/{callId}',
		handler: (ctx) => {
			const call = findCall(ctx);
			const recorded = call.communicationType !== 'LOGGED' && call.recordingSwitch === true;
			const expires = ctx.fault?.kind === 'expiredLink' ? ctx.now - 1000 : ctx.now + RECORDING_LINK_TTL_MS;
			const url = recorded && call.dialerCallRecordId !== undefined ? recordingUrl(ctx, call.dialerCallRecordId, expires) : '';
			return { body: { calls: { id: call.id, url } } };
		},
	},
];
