/**
 * Manual Log endpoints: /v1.0/logType (create, list) and /v1.0/logType/{logTypeId} (get, delete).
 *
 * From the spec and the OpenAPI:
 * - Writes are asynchronous: POST answers `{logType: {id}}` at once; the entry becomes readable
 *   after `manualLogDelayMs` on the store's clock (until then GET answers 404 RESOURCE_NOT_EXIST and
 *   lists leave it out).
 * - POST: 400 20012 for a missing leadId, blank content, unknown logType, outboundOrInbound other than
 *   exactly `outbound`/`inbound`, a call without leadPhoneNumber; 400 20043 PARAMETER_TOO_LONG for a
 *   leadPhoneNumber or callingOutcome above 20 characters; 404 LEAD_NOT_EXIST for a missing, trashed or
 *   inaccessible lead (owner, assigned or shared agent, or assigned lender). Content is cut to 5000
 *   characters; an unknown callingOutcome is stored as `Talked`; email fields are kept for logEmail only.
 * - List: leadId and logType required; limit outside 1..1000 silently becomes 10, a negative offset 0;
 *   offset + limit above 20000 is 400 200104 OFFSET_EXCEED_LIMIT; sort createTime (default) or id, order
 *   asc (default) or desc; currentId > 0 pages after that entry: in the sort order (the spec's manualLogSort
 *   reading), or by id, ignoring sort (the OpenAPI's: "the sort parameter is ignored").
 * - Get / Delete: 404 RESOURCE_NOT_EXIST when missing, deleted, not yet written or not a manual log;
 *   Delete on a lead the caller cannot manage is 404 LEAD_NOT_EXIST. Where the spec is silent, Get also
 *   answers RESOURCE_NOT_EXIST for an entry on a lead the caller cannot see (no existence leak), and
 *   Delete without `Content-Type: application/json` is 400 20001 (api-notes.md).
 */
import { emitCommunication } from '../webhook/delivery/emit';
import { ApiError, Codes, invalidParam, leadNotExist } from '../../core/errors';
import { toInt64 } from '../../core/json';
import { asObject, has, optBool, optString, pathId } from '../../core/params';
import { readingsOf } from '../../core/readings';
import type { Ctx, Route } from '../../core/router';
import type { Lead } from '../../core/types';
import { CALLING_OUTCOMES, type Communication, LOG_KIND, type LogType, commState } from '../communication/state';
import { logTypeView } from '../communication/views';

export const PARAMETER_TOO_LONG = 20043;
export const OFFSET_EXCEED_LIMIT = 200104;
const LOG_TYPES = Object.keys(LOG_KIND) as LogType[];
const MAX_CONTENT = 5000;

const resourceNotExist = (id: bigint): ApiError =>
	new ApiError(404, Codes.RESOURCE_NOT_EXIST, `RESOURCE_NOT_EXIST: manual log ${id} does not exist`);
const tooLong = (name: string, max: number): ApiError =>
	new ApiError(400, PARAMETER_TOO_LONG, `PARAMETER_TOO_LONG: '${name}' must be at most ${max} characters`);

/** Owner, assigned or shared agent, or the assigned lender; not trashed. */
function canUse(ctx: Ctx, lead: Lead | undefined): lead is Lead {
	if (!lead || lead.deletedAt !== null) return false;
	return ctx.store.canAccess(ctx.user.userId, lead) || lead.lenderUserId === ctx.user.userId;
}

function logTypeOf(raw: unknown): LogType {
	if (typeof raw !== 'string' || !LOG_TYPES.includes(raw as LogType)) {
		throw invalidParam(`'logType' must be one of ${LOG_TYPES.join(', ')} (case-sensitive), got '${String(raw ?? '')}'`);
	}
	return raw as LogType;
}

/** A readable manual-log entry, or 404 RESOURCE_NOT_EXIST. */
function findLog(ctx: Ctx): Communication {
	const id = pathId(ctx.params.logTypeId, 'logTypeId');
	const entry = commState(ctx.store).get(id, ctx.now);
	if (!entry || entry.logType === undefined) throw resourceNotExist(id);
	return entry;
}

function intOr(q: URLSearchParams, name: string, def: number): number {
	if (!has(q, name)) return def;
	const raw = q.get(name)!.trim();
	if (!/^[+-]?\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw invalidParam(`'${name}' must be an integer, got '${raw}'`);
	return Number(raw);
}

export const manualLogRoutes: Route[] = [
	{
		method: 'POST',
		pattern: '/v1.0/logType',
		body: 'json',
		handler: (ctx) => {
			const o = asObject(ctx.body);
			const leadId = toInt64(o.leadId);
			if (leadId === undefined) throw invalidParam(`'leadId' is required`);
			if (leadId === null || leadId < 1n) throw invalidParam(`'leadId' must be a positive int64 integer`);
			const logType = logTypeOf(o.logType);
			const content = optString(o, 'content');
			if (content === undefined || content.trim() === '') throw invalidParam(`'content' is required and must not be blank`);
			const direction = optString(o, 'outboundOrInbound');
			if (direction !== undefined && direction !== 'outbound' && direction !== 'inbound') {
				throw invalidParam(`'outboundOrInbound' must be exactly 'outbound' or 'inbound', got '${direction}'`);
			}
			const isPin = optBool(o, 'isPin') ?? false;
			let leadPhoneNumber: string | undefined;
			let callingOutcome: string | undefined;
			if (logType === 'logCall') {
				leadPhoneNumber = optString(o, 'leadPhoneNumber');
				if (leadPhoneNumber === undefined || leadPhoneNumber.trim() === '') throw invalidParam(`'leadPhoneNumber' is required when logType is logCall`);
				if (leadPhoneNumber.length > 20) throw tooLong('leadPhoneNumber', 20);
				callingOutcome = optString(o, 'callingOutcome');
				if (callingOutcome !== undefined && callingOutcome.length > 20) throw tooLong('callingOutcome', 20);
				if (!CALLING_OUTCOMES.includes(callingOutcome as (typeof CALLING_OUTCOMES)[number])) callingOutcome = 'Talked';
			}
			const email = logType === 'logEmail'
				? { emailSubject: optString(o, 'emailSubject'), toEmail: optString(o, 'toEmail'), fromEmail: optString(o, 'fromEmail') }
				: {};
			const lead = ctx.store.getLead(leadId);
			if (!canUse(ctx, lead)) throw leadNotExist(leadId.toString());
			const state = commState(ctx.store);
			const entry = state.add({
				leadId: lead.leadId,
				agentId: ctx.user.userId,
				kind: LOG_KIND[logType],
				communicationType: 'LOGGED',
				direction: direction === 'inbound' ? 'Inbound' : 'Outbound',
				time: ctx.now,
				visibleAt: ctx.now + state.manualLogDelayMs,
				logType,
				content: content.slice(0, MAX_CONTENT),
				isPin,
				leadPhoneNumber,
				callingOutcome,
				...email,
			});
			// Logged communications fire Call/Email/Text webhooks once the entry is readable.
			emitCommunication(ctx.store, entry);
			return { body: { logType: { id: entry.id } } };
		},
	},
	{
		method: 'GET',
		pattern: '/v1.0/logType',
		handler: (ctx) => {
			const q = ctx.query;
			if (!has(q, 'leadId')) throw invalidParam(`'leadId' is required`);
			const leadId = toInt64(q.get('leadId')!);
			if (leadId === null || leadId === undefined || leadId < 1n) throw invalidParam(`'leadId' must be a positive int64 integer, got '${q.get('leadId')}'`);
			const logType = logTypeOf(q.get('logType') ?? undefined);
			let offset = intOr(q, 'offset', 0);
			if (offset < 0) offset = 0;
			let limit = intOr(q, 'limit', 10);
			if (limit < 1 || limit > 1000) limit = 10;
			const currentId = has(q, 'currentId') ? toInt64(q.get('currentId')!) : 0n;
			if (currentId === null || currentId === undefined) throw invalidParam(`'currentId' must be an int64 integer, got '${q.get('currentId')}'`);
			const sort = has(q, 'sort') ? q.get('sort')!.trim() : 'createTime';
			if (sort !== 'createTime' && sort !== 'id') throw invalidParam(`'sort' must be createTime or id, got '${sort}'`);
			const order = has(q, 'order') ? q.get('order')!.trim() : 'asc';
			if (order !== 'asc' && order !== 'desc') throw invalidParam(`'order' must be asc or desc, got '${order}'`);
			const cursorMode = currentId > 0n;
			if (!cursorMode && offset + limit > 20000) {
				throw new ApiError(400, OFFSET_EXCEED_LIMIT, `OFFSET_EXCEED_LIMIT: offset + limit must not exceed 20000, got ${offset + limit}`);
			}
			const lead = ctx.store.getLead(leadId);
			if (!canUse(ctx, lead)) throw leadNotExist(leadId.toString());

			// Cursor mode orders by id under the OpenAPI's manualLogSort reading, by sort and order under the spec's.
			const readings = readingsOf(ctx.store);
			const bySort = cursorMode && readings.get('manualLogSort') === 'openapi' ? 'id' : sort;
			const byId = (a: Communication, b: Communication): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
			const asc = commState(ctx.store)
				.list(ctx.now, (c) => c.leadId === lead.leadId && c.logType === logType)
				.sort(bySort === 'id' ? (a, b) => byId(a, b) || a.time - b.time : (a, b) => a.time - b.time || byId(a, b));
			const ordered = order === 'desc' ? asc.reverse() : asc;
			let start = offset;
			if (cursorMode) {
				// after the entry with that id (spec), or from it (the currentId reading `inclusive`)
				const at = ordered.findIndex((c) => c.id === currentId);
				const past = (c: Communication) => (order === 'desc' ? c.id < currentId : c.id > currentId);
				start = at >= 0 ? at + (readings.get('currentId') === 'inclusive' ? 0 : 1) : bySort === 'id' ? ordered.findIndex(past) : -1;
				if (start < 0) start = ordered.length;
			}
			const page = ordered.slice(start, start + limit);
			return { body: { logType: page.map(logTypeView) } };
		},
	},
	{
		method: 'GET',
		pattern: '/v1.0/logType/{logTypeId}',
		handler: (ctx) => {
			const entry = findLog(ctx);
			if (!canUse(ctx, ctx.store.getLead(entry.leadId))) throw resourceNotExist(entry.id);
			return { body: { logType: logTypeView(entry) } };
		},
	},
	{
		method: 'DELETE',
		pattern: '/v1.0/logType/{logTypeId}',
		handler: (ctx) => {
			// The OpenAPI declares Content-Type on this DELETE; live clients saw 400 without it (api-notes.md).
			if (!String(ctx.headers['content-type'] ?? '').toLowerCase().includes('application/json')) {
				throw new ApiError(400, Codes.CONTENT_TYPE, 'Content-type must be: application/json');
			}
			const entry = findLog(ctx);
			if (!canUse(ctx, ctx.store.getLead(entry.leadId))) throw leadNotExist(entry.leadId.toString());
			entry.deleted = true;
			return { raw: '' };
		},
	},
];
