/**
 * Communication endpoints: lead call / email / text history (V1 and call history V2), single
 * email / text / call lookups (V2), agent communication searches (V1 offset, V2 cursor), and
 * sending SMS or email to a lead.
 *
 * Behaviour chosen where the spec and the OpenAPI are silent or disagree:
 * - History lists take `leadId` (OpenAPI) or `leadUserId` (api-spec.md, "Further endpoints by
 *   name"): both are accepted; neither gives 400 MISSING_PARAMETER; both naming different leads 20012.
 *   The lead must be in the caller's team (OpenAPI) and not trashed, else 404 LEAD_NOT_EXIST.
 *   The two call lists follow the callHistoryLead reading: the spec's needs `leadUserId` (400
 *   MISSING_PARAMETER without it), the OpenAPI's reads `leadId` only (a `leadUserId` is ignored).
 *   Entries come oldest first by id; `currentId` > 0 returns entries after that id (offset ignored).
 *   V1 call history lists dialer calls only; V2 adds logged calls and richer fields (Versioning rule 3).
 * - Limits: below 1 is LIMIT_NOT_VALID, above the endpoint maximum LIMIT_PARAM_OVERSIZE.
 * - Team-wide searches without ACCESS_ALL_TEAM_LEADS are 403 ACCESS_ALL_TEAM_LEADS (api-spec.md Errors;
 *   the OpenAPI says 400). V2 `type` defaults to ALL (CALL under the communicationType reading `openapi`);
 *   V1 requires it and allows a 24-hour window.
 * - V2 cursor: opaque; a full page always carries a nextCursor, so when the entries end exactly at a
 *   page boundary the next (last) page is empty with nextCursor null. `hasMore` follows nextCursor.
 * - Single lookups: a record that is missing, of another kind, or on a lead the caller cannot manage
 *   is 400 PERMISSION_DENIED, without saying which. A logged call (no dialer record) is returned with
 *   dialer-only fields omitted (OpenAPI description; its 400 line also mentions "no backing dialer record").
 * - Sending: the lead must be manageable (400 PERMISSION_DENIED otherwise, also for a missing lead);
 *   no phone / email on the lead or no virtual number of the caller: 400 20012. A sent message is
 *   recorded as a MANUAL communication of the lead.
 */
import { emitCommunication } from '../webhook/delivery/emit';
import { ApiError, Codes, invalidParam, leadNotExist, missingParam } from '../../core/errors';
import type { JsonValue } from '../../core/json';
import { toInt64 } from '../../core/json';
import { asObject, boolParam, has, optBool, optString, pathId } from '../../core/params';
import { readingsOf } from '../../core/readings';
import type { Ctx, Route } from '../../core/router';
import type { Store } from '../../core/store';
import type { Lead, User } from '../../core/types';
import { checkLimit, int64Query, limitParam, offsetParam } from './params';
import { type CommKind, type Communication, canSeeAllTeamLeads, commState } from './state';
import { callHistoryView, callView, communicationView, emailView, textView } from './views';

const DAY = 86_400_000;
export const ACCESS_ALL_TEAM_LEADS = 'ACCESS_ALL_TEAM_LEADS';

/** The lead of a history list, by leadId or leadUserId; in the caller's team and not trashed. */
function historyLead(ctx: Ctx, reading: 'both' | 'spec' | 'openapi' = 'both'): Lead {
	const leadId = int64Query(ctx.query, 'leadId');
	const leadUserId = reading === 'openapi' ? undefined : int64Query(ctx.query, 'leadUserId');
	if (reading === 'spec' && leadUserId === undefined) throw missingParam('leadUserId');
	if (leadId === undefined && leadUserId === undefined) throw missingParam('leadId');
	if (leadId !== undefined && leadId < 1n) throw invalidParam(`'leadId' must be at least 1, got '${leadId}'`);
	let lead = leadId !== undefined ? ctx.store.getLead(leadId) : undefined;
	if (leadUserId !== undefined) {
		const byUser = [...ctx.store.leads.values()].find((l) => l.leadUserId === leadUserId);
		if (lead && byUser && lead !== byUser) throw invalidParam(`'leadId' ${leadId} and 'leadUserId' ${leadUserId} name different leads`);
		lead ??= byUser;
	}
	const shown = (leadId ?? leadUserId)!.toString();
	if (!lead || lead.teamId !== ctx.user.teamId || lead.deletedAt !== null) throw leadNotExist(shown);
	return lead;
}

function history(key: string, kind: CommKind, view: (c: Communication, store: Store) => Record<string, unknown>, keep: (c: Communication) => boolean = () => true) {
	return (ctx: Ctx) => {
		const lead = historyLead(ctx, kind === 'CALL' ? readingsOf(ctx.store).get('callHistoryLead') : 'both');
		const offset = offsetParam(ctx.query);
		const limit = limitParam(ctx.query, 10, 1000);
		const currentId = int64Query(ctx.query, 'currentId') ?? 0n;
		const all = commState(ctx.store).list(ctx.now, (c) => c.leadId === lead.leadId && c.kind === kind && keep(c));
		// currentId reading: after that id (spec), or from it (inclusive)
		const inclusive = readingsOf(ctx.store).get('currentId') === 'inclusive';
		const after = (c: Communication) => c.id > currentId || (inclusive && c.id === currentId);
		const page = currentId > 0n ? all.filter(after).slice(0, limit) : all.slice(offset, offset + limit);
		return { body: { [key]: page.map((c) => view(c, ctx.store)) } };
	};
}

/** One communication for the V2 lookups: 400 PERMISSION_DENIED unless it exists, is of `kind`, and its lead is manageable. */
function lookup(ctx: Ctx, kind: CommKind): Communication {
	const id = pathId(ctx.params.communicationId, 'communicationId');
	const entry = commState(ctx.store).get(id, ctx.now);
	const lead = entry ? ctx.store.getLead(entry.leadId) : undefined;
	if (!entry || entry.kind !== kind || !lead || lead.deletedAt !== null || !ctx.store.canAccess(ctx.user.userId, lead)) {
		throw new ApiError(400, Codes.PERMISSION_DENIED, `PERMISSION_DENIED: no ${kind.toLowerCase()} ${id} that you may manage`);
	}
	return entry;
}

const TYPES = ['CALL', 'TEXT', 'EMAIL', 'ALL'];

function epochMs(raw: unknown, name: string): number {
	const text = typeof raw === 'bigint' ? raw.toString() : typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
	if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
		throw invalidParam(`Unparsable timestamp '${String(raw)}' for '${name}': expected epoch milliseconds (UTC) as an integer, e.g. 1718000000000`);
	}
	return Number(text);
}

interface Search {
	type: string;
	startTime: number;
	endTime: number;
	teamView: boolean;
}

function checkSearch(s: Search, user: User, maxWindowMs: number, windowText: string): void {
	if (!TYPES.includes(s.type)) throw invalidParam(`'type' must be one of ${TYPES.join(', ')}, got '${s.type}'`);
	if (s.endTime < s.startTime) throw invalidParam(`'endTime' must not be before 'startTime'`);
	if (s.endTime - s.startTime > maxWindowMs) throw invalidParam(`the query window (endTime - startTime) must be at most ${windowText}`);
	if (s.teamView && !canSeeAllTeamLeads(user)) {
		throw new ApiError(403, ACCESS_ALL_TEAM_LEADS, 'teamView=true needs the ACCESS_ALL_TEAM_LEADS permission');
	}
}

/** Communications a search covers, oldest first. */
function searchEntries(ctx: Ctx, s: Search): Communication[] {
	const { store, user } = ctx;
	return commState(store)
		.list(ctx.now, (c) => {
			if (s.type !== 'ALL' && c.kind !== s.type) return false;
			if (c.time < s.startTime || c.time > s.endTime) return false;
			const lead = store.getLead(c.leadId);
			if (!lead || lead.deletedAt !== null || lead.teamId !== user.teamId) return false;
			return s.teamView || c.agentId === user.userId;
		})
		.sort((a, b) => a.time - b.time || (a.id < b.id ? -1 : 1));
}

function fingerprint(userId: bigint, s: Search): string {
	return `${userId}|${s.type}|${s.startTime}|${s.endTime}|${s.teamView}`;
}

function encodeCursor(offset: number, print: string): string {
	return Buffer.from(JSON.stringify({ o: offset, f: print })).toString('base64url');
}

function decodeCursor(cursor: string, print: string): number {
	try {
		const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o?: unknown; f?: unknown };
		if (Number.isSafeInteger(parsed.o) && (parsed.o as number) >= 0 && parsed.f === print) return parsed.o as number;
	} catch {
		// fall through
	}
	throw invalidParam(`invalid cursor '${cursor}': pass back the nextCursor of the previous page of the same query`);
}

/** The lead a message is sent to: exists, not trashed, manageable by the caller. */
function sendTarget(ctx: Ctx, o: Record<string, unknown>): Lead {
	const leadId = toInt64(o.leadId);
	if (leadId === undefined) throw invalidParam(`'leadId' is required`);
	if (leadId === null || leadId < 1n) throw invalidParam(`'leadId' must be a positive int64 integer`);
	const lead = ctx.store.getLead(leadId);
	if (!lead || lead.deletedAt !== null || !ctx.store.canAccess(ctx.user.userId, lead)) {
		throw new ApiError(400, Codes.PERMISSION_DENIED, `PERMISSION_DENIED: no permission to message lead ${leadId}`);
	}
	return lead;
}

function requiredText(o: Record<string, unknown>, name: string): string {
	const v = optString(o, name);
	if (v === undefined || v.trim() === '') throw invalidParam(`'${name}' is required and must not be blank`);
	return v;
}

const digits = (s: string): string => s.replace(/\D/g, '');

/** Splits a stored phone into country code and national number (NANP numbers: code 1). */
function splitPhone(phone: string): { phoneCode: string; phoneNumber: string } {
	const d = digits(phone);
	if (d.length === 11 && d.startsWith('1')) return { phoneCode: '1', phoneNumber: d.slice(1) };
	return { phoneCode: phone.trim().startsWith('+') ? d.slice(0, Math.max(d.length - 10, 0)) : '', phoneNumber: d.slice(-10) };
}

export const communicationRoutes: Route[] = [
	{ method: 'GET', pattern: '/v1.0/communication/call', handler: history('calls', 'CALL', callView, (c) => c.communicationType !== 'LOGGED') },
	{ method: 'GET', pattern: '/v1.0/communication/call/v2', handler: history('calls', 'CALL', (c) => callHistoryView(c)) },
	{ method: 'GET', pattern: '/v1.0/communication/email', handler: history('emails', 'EMAIL', (c) => emailView(c)) },
	{ method: 'GET', pattern: '/v1.0/communication/text', handler: history('texts', 'TEXT', (c) => textView(c)) },
	{ method: 'GET', pattern: '/v2.0/communication/email/{communicationId}', handler: (ctx) => ({ body: emailView(lookup(ctx, 'EMAIL')) }) },
	{ method: 'GET', pattern: '/v2.0/communication/text/{communicationId}', handler: (ctx) => ({ body: textView(lookup(ctx, 'TEXT')) }) },
	{ method: 'GET', pattern: '/v2.0/communication/call/{communicationId}', handler: (ctx) => ({ body: callView(lookup(ctx, 'CALL'), ctx.store) }) },
	{
		method: 'GET',
		pattern: '/v2.0/communication/agent',
		handler: (ctx) => {
			const q = ctx.query;
			if (!has(q, 'startTime')) throw missingParam('startTime');
			if (!has(q, 'endTime')) throw missingParam('endTime');
			const search: Search = {
				// Without type: ALL as the spec describes it, or calls only (the communicationType reading `openapi`: default undocumented)
				type: has(q, 'type') ? q.get('type')!.trim() : readingsOf(ctx.store).get('communicationType') === 'openapi' ? 'CALL' : 'ALL',
				startTime: epochMs(q.get('startTime'), 'startTime'),
				endTime: epochMs(q.get('endTime'), 'endTime'),
				teamView: boolParam(q, 'teamView') ?? false,
			};
			const limit = limitParam(q, 100, 1000);
			checkSearch(search, ctx.user, 90 * DAY, '90 days');
			const print = fingerprint(ctx.user.userId, search);
			const offset = has(q, 'cursor') ? decodeCursor(q.get('cursor')!.trim(), print) : 0;
			const all = searchEntries(ctx, search);
			const page = all.slice(offset, offset + limit);
			const nextCursor = page.length === limit ? encodeCursor(offset + limit, print) : null;
			return { body: { data: page.map(communicationView), nextCursor, hasMore: nextCursor !== null, limit, totalCount: all.length } };
		},
	},
	{
		method: 'POST',
		pattern: '/v1.0/agent/communication',
		body: 'json',
		handler: (ctx) => {
			const o = asObject(ctx.body);
			for (const name of ['type', 'startTime', 'endTime']) {
				if (o[name] === undefined || o[name] === null) throw invalidParam(`'${name}' is required`);
			}
			if (typeof o.type !== 'string') throw invalidParam(`'type' must be a string`);
			const search: Search = {
				type: o.type,
				startTime: epochMs(o.startTime, 'startTime'),
				endTime: epochMs(o.endTime, 'endTime'),
				teamView: optBool(o, 'teamView') ?? false,
			};
			const offset = o.offset === undefined || o.offset === null ? 0 : Number(toInt64(o.offset as JsonValue));
			if (!Number.isSafeInteger(offset) || offset < 0) throw invalidParam(`'offset' must be an integer of at least 0`);
			const rawLimit = o.limit === undefined || o.limit === null ? 10 : Number(toInt64(o.limit as JsonValue));
			if (!Number.isSafeInteger(rawLimit)) throw invalidParam(`'limit' must be an integer`);
			const limit = checkLimit(rawLimit, 1000);
			checkSearch(search, ctx.user, DAY, '24 hours');
			const all = searchEntries(ctx, search);
			return { body: { offset, limit, pageData: all.slice(offset, offset + limit).map(communicationView), hasMore: offset + limit < all.length } };
		},
	},
	{
		method: 'POST',
		pattern: '/v1.0/message/sms/send',
		body: 'json',
		handler: (ctx) => {
			const o = asObject(ctx.body);
			const content = requiredText(o, 'content');
			const lead = sendTarget(ctx, o);
			const phoneNumber = optString(o, 'phoneNumber');
			const phoneCode = optString(o, 'phoneCode');
			if (!ctx.user.virtualNumber) throw invalidParam('the sending user has no active virtual number to text from');
			if (lead.phones.length === 0) throw invalidParam(`lead ${lead.leadId} has no phone number`);
			const wanted = phoneNumber ? digits(phoneNumber) : '';
			const match = wanted
				? lead.phones.find((p) => {
						const d = digits(p);
						return d.endsWith(wanted) && (!phoneCode || d.startsWith(digits(phoneCode)) || d === wanted);
					})
				: undefined;
			const to = splitPhone(match ?? lead.phones[0]);
			const state = commState(ctx.store);
			const sent = state.add({
				leadId: lead.leadId,
				agentId: ctx.user.userId,
				kind: 'TEXT',
				communicationType: 'MANUAL',
				direction: 'Outbound',
				time: ctx.now,
				textOutcome: 'Delivered',
				content,
			});
			emitCommunication(ctx.store, sent);
			return { body: { messageId: `sms-${state.nextMessageId++}`, phoneNumber: to.phoneNumber, phoneCode: to.phoneCode } };
		},
	},
	{
		method: 'POST',
		pattern: '/v1.0/message/email/send',
		body: 'json',
		handler: (ctx) => {
			const o = asObject(ctx.body);
			const subject = requiredText(o, 'subject');
			const content = requiredText(o, 'content');
			const lead = sendTarget(ctx, o);
			const toEmail = optString(o, 'toEmail')?.trim();
			if (lead.emails.length === 0) throw invalidParam(`lead ${lead.leadId} has no email address`);
			const to = lead.emails.find((e) => e.toLowerCase() === toEmail?.toLowerCase()) ?? lead.emails[0];
			const state = commState(ctx.store);
			const sent = state.add({
				leadId: lead.leadId,
				agentId: ctx.user.userId,
				kind: 'EMAIL',
				communicationType: 'MANUAL',
				direction: 'Outbound',
				time: ctx.now,
				eventType: 'Sent',
				emailSubject: subject,
				toEmail: to,
				fromEmail: ctx.user.email,
				content,
			});
			emitCommunication(ctx.store, sent);
			return { body: { messageId: `email-${state.nextMessageId++}`, toEmail: to, subject } };
		},
	},
];
