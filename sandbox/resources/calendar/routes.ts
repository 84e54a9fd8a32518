/**
 * Calendar V2 (written from api-spec.md and the OpenAPI):
 *   GET    /v2.0/calendar                          list (page 0-based, pageSize <= 500, {data:{total,page,pageSize,items}})
 *   POST   /v2.0/calendar                          create a task or an appointment ({data:{id,type,message}})
 *   PUT    /v2.0/calendar/{calendarId}             partial update ({message})
 *   DELETE /v2.0/calendar/{calendarId}             delete ({message})
 *   POST   /v2.0/calendar/{calendarId}/finish      mark finished ({message})
 *   POST   /v2.0/calendar/{calendarId}/unfinish    reopen ({message})
 *   GET    /v2.0/calendar/meetings/available       free meeting slots ({data:{total,slots}})
 *
 * Entries are the task and appointment records of ../task/state.ts (see ./entries.ts for why), written
 * through ../task/writes.ts: a calendar write emits the same webhook event (listId 10 or 11) as a Tasks V2 write.
 * Identifiers are composite strings `<numericId>-task` / `<numericId>-appointment` (spec rule 4). Every failure
 * the OpenAPI gives for these endpoints is HTTP 400: 20012 INVALID_PARAMETER (bad values, bad ID format, entry
 * not found) or 20017 PERMISSION_DENIED (the caller does not manage the lead; the spec's 20017 row allows 400).
 * A Smart Plan task cannot be modified (spec: TASK_IS_SMARTPLAN): update and delete refuse it.
 *
 * Times: the spec says startTime / endTime take epoch ms; the OpenAPI says ISO 8601 with offset and
 * epoch ms in startTimeMs / endTimeMs: the calendarTime reading picks one (queryInstant). startAt / endAt are ISO 8601; an offset inside the string wins over
 * timeZoneCode, and a string without an offset needs timeZoneCode.
 */
import { DateTime } from 'luxon';

import {
	CALENDAR_ROLES,
	TASK_WAYS,
	calendarIdOf,
	calendarOf,
	calendarView,
	parseCalendarId,
	sourceTypeOf,
	startOf,
	userZone,
} from './entries';
import { ApiError, invalidParam } from '../../core/errors';
import { toInt64 } from '../../core/json';
import type { Obj } from '../../core/params';
import { asObject, boolParam, has, intParam, listParam, optString } from '../../core/params';
import type { Ctx, Route } from '../../core/router';
import { assigneeOf, liveEntry, liveLead } from '../task/access';
import { type TaskRecord, newTaskRecord } from '../task/state';
import { createEntry, deleteEntry, entryUpdated, setFinished } from '../task/writes';
import { isValidTimeZone, isoInZone } from '../../core/time';
import { readingsOf } from '../../core/readings';
import type { Store } from '../../core/store';
import type { Lead } from '../../core/types';

// ---------- reading values ----------

const ISO = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?))?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * An instant from text: epoch milliseconds (digits) when `allowEpoch`, else ISO 8601. ISO without
 * an offset is read in `zone`; without a zone it is refused.
 */
export function parseInstant(name: string, raw: string, zone: string | undefined, allowEpoch: boolean): { ms: number; iso?: DateTime } {
	const s = raw.trim();
	if (allowEpoch && /^-?\d+$/.test(s)) {
		const n = Number(s);
		if (!Number.isSafeInteger(n) || n < 0) throw invalidParam(`'${name}' must be epoch milliseconds >= 0, got '${raw}'`);
		return { ms: n };
	}
	const m = ISO.exec(s);
	const expected = allowEpoch
		? 'epoch milliseconds such as 1767225600000, or ISO 8601 with offset such as 2026-01-01T00:00:00-08:00'
		: 'ISO 8601 with offset such as 2026-03-01T14:00:00-08:00';
	if (!m) throw invalidParam(`Unparsable timestamp '${raw}' for '${name}': expected ${expected}`);
	const text = `${m[1]}${m[2] ? `T${m[2]}` : ''}${m[3] ?? ''}`;
	let date: DateTime;
	if (m[3]) date = DateTime.fromISO(text, { setZone: true });
	else if (zone) date = DateTime.fromISO(text, { zone });
	else throw invalidParam(`'${name}' value '${raw}' has no UTC offset and no timeZoneCode was given: expected ${expected}`);
	if (!date.isValid) throw invalidParam(`Unparsable timestamp '${raw}' for '${name}': expected ${expected}`);
	return { ms: date.toMillis(), iso: date };
}

function zoneParam(value: string | undefined, name = 'timeZoneCode'): string | undefined {
	if (value === undefined || value.trim() === '') return undefined;
	if (!isValidTimeZone(value.trim())) throw invalidParam(`'${name}' must be an IANA time zone such as America/Los_Angeles, got '${value}'`);
	return value.trim();
}

/**
 * `startTime` / `endTime` of the two lists, by the reading (core/readings.ts, calendarTime): the spec's takes
 * epoch ms there and knows no `startTimeMs`; the OpenAPI's takes ISO 8601 there (the string form, preferred)
 * and epoch ms in `startTimeMs`. Either refuses the other form with 400 20012 naming the expected format.
 */
function queryInstant(q: URLSearchParams, name: string, zone: string | undefined, store: Store): number | undefined {
	const openapi = readingsOf(store).get('calendarTime') === 'openapi';
	if (has(q, name)) {
		const raw = q.get(name)!;
		const epoch = /^-?\d+$/.test(raw.trim());
		if (epoch && openapi) throw invalidParam(`Unparsable timestamp '${raw}' for '${name}': expected ISO 8601 with offset such as 2026-01-01T00:00:00-08:00`);
		if (!epoch && !openapi) throw invalidParam(`Unparsable timestamp '${raw}' for '${name}': expected epoch milliseconds (UTC) such as 1767225600000`);
		return parseInstant(name, raw, zone, !openapi).ms;
	}
	const msName = `${name}Ms`;
	if (openapi && has(q, msName)) return parseInstant(msName, q.get(msName)!, undefined, true).ms;
	return undefined;
}

/** `startAt` (ISO, preferred) else `startAtMs` (epoch ms) of a body. */
function bodyInstant(o: Obj, name: string, zone: string | undefined): { ms: number; iso?: DateTime } | undefined {
	const text = o[name];
	if (text !== undefined && text !== null && text !== '') {
		if (typeof text !== 'string') throw invalidParam(`'${name}' must be an ISO 8601 string`);
		return parseInstant(name, text, zone, false);
	}
	const ms = o[`${name}Ms`];
	if (ms === undefined || ms === null) return undefined;
	const n = toInt64(ms);
	if (n === null || n === undefined || n < 0n || n > BigInt(Number.MAX_SAFE_INTEGER)) throw invalidParam(`'${name}Ms' must be epoch milliseconds`);
	return { ms: Number(n) };
}

function futureCheck(name: string, ms: number, now: number): void {
	if (ms <= now) throw invalidParam(`'${name}' must be later than the current server time`);
}

const permissionDenied = (userId: bigint, leadId: bigint): ApiError =>
	new ApiError(400, 20017, `PERMISSION_DENIED: user ${userId} is not a manager of lead ${leadId}`);

/** The lead of a write: missing/trashed is an invalid parameter, not managed is 20017. */
function managedLead(ctx: Ctx, leadId: bigint): Lead {
	const lead = liveLead(ctx.store, leadId);
	if (!lead) throw invalidParam(`lead ${leadId} does not exist`);
	if (!ctx.store.canAccess(ctx.user.userId, lead)) throw permissionDenied(ctx.user.userId, leadId);
	return lead;
}

/** `{calendarId}` of a per-entry endpoint: format, existence (live, of that kind), then the caller's right on the lead. */
function targetEntry(ctx: Ctx): TaskRecord {
	const raw = ctx.params.calendarId;
	const parsed = parseCalendarId(raw);
	if (!parsed) throw invalidParam(`calendarId '${raw}' must be '<numericId>-task' or '<numericId>-appointment'`);
	const found = liveEntry(ctx.store, parsed.id, parsed.kind);
	if (!found) throw invalidParam(`calendar entry '${raw}' not found`);
	if (!ctx.store.canAccess(ctx.user.userId, found.lead)) throw permissionDenied(ctx.user.userId, found.lead.leadId);
	return found.entry;
}

function refuseSmartPlan(entry: TaskRecord): void {
	if (entry.smartPlan) throw new ApiError(400, 'TASK_IS_SMARTPLAN', `Task ${entry.id} belongs to a Smart Plan and cannot be modified`);
}

/** `value` as one of `allowed`, ignoring case */
const pick = <T extends string>(allowed: readonly T[], value: string): T | undefined => allowed.find((a) => a.toLowerCase() === value.trim().toLowerCase());

/** midnight (00:00:00) in the offset the string declared */
const atMidnight = (d: DateTime | undefined): boolean => d !== undefined && d.hour === 0 && d.minute === 0 && d.second === 0 && d.millisecond === 0;

// ---------- meeting slots ----------

const DAY_MS = 86_400_000;

/** One-hour slots, 09:00 to 17:00 on weekdays in `zone`, inside [from, to], not overlapping open appointments. */
function freeSlots(entries: TaskRecord[], from: number, to: number, zone: string): Array<{ start: number; end: number }> {
	const busy = entries.filter((e) => e.kind === 'appointment' && !e.finishFlag);
	const out: Array<{ start: number; end: number }> = [];
	let day = DateTime.fromMillis(from, { zone }).startOf('day');
	while (day.toMillis() <= to) {
		if (day.weekday <= 5) {
			for (let hour = 9; hour < 17; hour++) {
				const start = day.set({ hour }).toMillis();
				const end = start + 3_600_000;
				if (start < from || end > to) continue;
				if (busy.some((b) => startOf(b) < end && b.endAt > start)) continue;
				out.push({ start, end });
			}
		}
		day = day.plus({ days: 1 });
	}
	return out;
}

// ---------- routes ----------

const message = (text: string) => ({ body: { message: text } });

export const calendarRoutes: Route[] = [
	{
		method: 'GET',
		pattern: '/v2.0/calendar',
		handler: ({ query, user, store }) => {
			const zone = zoneParam(query.get('timeZoneCode') ?? undefined);
			const from = queryInstant(query, 'startTime', zone, store);
			const to = queryInstant(query, 'endTime', zone, store);
			if (from === undefined && to === undefined) throw invalidParam('at least one of startTime or endTime is required');
			if (from !== undefined && to !== undefined && to < from) throw invalidParam('endTime must not be before startTime');
			let leadId: bigint | undefined;
			if (has(query, 'leadId')) {
				const v = toInt64(query.get('leadId'));
				if (v === null || v === undefined || v < 1n) throw invalidParam(`'leadId' must be a positive int64 integer, got '${query.get('leadId')}'`);
				leadId = v;
			}
			const includeFinished = boolParam(query, 'includeFinished') ?? false;
			const page = intParam(query, 'page', { def: 0, min: 0 });
			const pageSize = intParam(query, 'pageSize', { def: 20, min: 1, max: 500 });
			const sort = has(query, 'sort') ? query.get('sort')!.trim() : 'startTime';
			if (sort !== 'startTime' && sort !== 'endTime') throw invalidParam(`'sort' must be startTime or endTime, got '${sort}'`);
			const desc = boolParam(query, 'desc') ?? true;
			const sourceTypes = listParam(query, 'sourceType')?.map((v) => {
				if (!/^\d+$/.test(v)) throw invalidParam(`'sourceType' values must be integers, got '${v}'`);
				return Number(v);
			});

			const key = (e: TaskRecord): number => (sort === 'endTime' ? e.endAt : startOf(e));
			const all = calendarOf(store, user.userId)
				.filter(
					(e) =>
						(from === undefined || startOf(e) >= from) &&
						(to === undefined || startOf(e) <= to) &&
						(leadId === undefined || e.leadId === leadId) &&
						(includeFinished || !e.finishFlag) &&
						(sourceTypes === undefined || sourceTypes.includes(sourceTypeOf(e))),
				)
				.sort((a, b) => (key(a) - key(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)) * (desc ? -1 : 1));
			const items = all.slice(page * pageSize, page * pageSize + pageSize).map((e) => calendarView(e, store, userZone(user)));
			return { body: { data: { total: all.length, page, pageSize, items } } };
		},
	},
	{
		method: 'POST',
		pattern: '/v2.0/calendar',
		body: 'json',
		handler: (ctx) => {
			const { user, store, now } = ctx;
			const o = asObject(ctx.body);
			const typeRaw = optString(o, 'type');
			if (typeRaw === undefined || typeRaw.trim() === '') throw invalidParam("'type' is required (TASK or APPOINTMENT)");
			const type = typeRaw.trim().toUpperCase();
			if (type !== 'TASK' && type !== 'APPOINTMENT') throw invalidParam(`'type' must be TASK or APPOINTMENT, got '${typeRaw}'`);
			const kind = type === 'TASK' ? 'task' : 'appointment';
			const leadIdRaw = toInt64(o.leadId);
			if (leadIdRaw === undefined) throw invalidParam("'leadId' is required");
			if (leadIdRaw === null || leadIdRaw < 1n) throw invalidParam("'leadId' must be a positive int64 integer");
			const content = optString(o, 'content');
			if (content === undefined || content.trim() === '') throw invalidParam("'content' is required");
			const zoneRaw = optString(o, 'timeZoneCode');
			if (zoneRaw === undefined || zoneRaw.trim() === '') throw invalidParam("'timeZoneCode' is required");
			const zone = zoneParam(zoneRaw)!;
			const start = bodyInstant(o, 'startAt', zone);
			const end = bodyInstant(o, 'endAt', zone);
			if (!start) throw invalidParam("'startAt' is required");
			if (!end) throw invalidParam("'endAt' is required");
			futureCheck('startAt', start.ms, now);
			futureCheck('endAt', end.ms, now);
			if (end.ms < start.ms) throw invalidParam("'endAt' must not be before 'startAt'");
			let taskWay: (typeof TASK_WAYS)[number] | undefined;
			let assignedRole: (typeof CALENDAR_ROLES)[number] = 'Agent';
			if (kind === 'task') {
				const way = optString(o, 'taskWay');
				if (way === undefined || way.trim() === '') throw invalidParam("'taskWay' is required when type is TASK (Call, Email, Text or Other)");
				taskWay = pick(TASK_WAYS, way);
				if (!taskWay) throw invalidParam(`'taskWay' must be Call, Email, Text or Other, got '${way}'`);
				// live clients report assignedRole as required for tasks; the OpenAPI marks it "only for TASK"
				const role = optString(o, 'assignedRole');
				if (role === undefined || role.trim() === '') throw invalidParam("'assignedRole' is required when type is TASK (Agent or Assistant)");
				const known = pick(CALENDAR_ROLES, role);
				if (!known) throw invalidParam(`'assignedRole' must be Agent or Assistant, got '${role}'`);
				assignedRole = known;
			}
			const lead = managedLead(ctx, leadIdRaw);
			const entry = createEntry(
				store,
				newTaskRecord(lead, user.userId, now, {
					kind,
					type: taskWay ?? 'Appointment',
					content,
					startAt: start.ms,
					endAt: end.ms,
					timeZoneCode: zone,
					address: kind === 'appointment' ? (optString(o, 'address') ?? '') : '',
					allDay: kind === 'appointment' && atMidnight(start.iso) && atMidnight(end.iso),
					assignedRole,
					// the same assignee rule as Tasks V2: the lead's agent, or its assistant for Assistant
					assignedUserId: assigneeOf(lead, assignedRole),
				}),
				now,
			);
			return { body: { data: { id: calendarIdOf(entry), type, message: 'Calendar created successfully' } } };
		},
	},
	{
		method: 'PUT',
		pattern: '/v2.0/calendar/{calendarId}',
		body: 'json',
		handler: (ctx) => {
			const o = asObject(ctx.body);
			const entry = targetEntry(ctx);
			refuseSmartPlan(entry);
			// only non-empty fields are applied; everything is checked before anything changes
			const nonEmpty = (name: string): string | undefined => {
				const v = optString(o, name);
				return v !== undefined && v.trim() !== '' ? v : undefined;
			};
			const zone = nonEmpty('timeZoneCode') !== undefined ? zoneParam(nonEmpty('timeZoneCode')) : undefined;
			const readZone = zone ?? entry.timeZoneCode ?? undefined;
			const start = bodyInstant(o, 'startAt', readZone);
			const end = bodyInstant(o, 'endAt', readZone);
			if (start) futureCheck('startAt', start.ms, ctx.now);
			if (end) futureCheck('endAt', end.ms, ctx.now);
			// a task with only a deadline (startAt null, Tasks V2) has no start to keep its end after
			const newStart = start?.ms ?? entry.startAt;
			if (newStart !== null && (end?.ms ?? entry.endAt) < newStart) throw invalidParam("'endAt' must not be before 'startAt'");
			let lead: Lead | undefined;
			const leadId = toInt64(o.leadId);
			if (leadId === null) throw invalidParam("'leadId' must be an int64 integer");
			if (leadId !== undefined && leadId !== entry.leadId) lead = managedLead(ctx, leadId);

			const changes: Partial<TaskRecord> = {};
			const content = nonEmpty('content');
			if (content !== undefined) changes.content = content;
			if (start) changes.startAt = start.ms;
			if (end) changes.endAt = end.ms;
			if (zone) changes.timeZoneCode = zone;
			const reminderType = nonEmpty('reminderType');
			const reminderTime = nonEmpty('reminderTime');
			if (reminderType !== undefined) changes.calendarReminderType = reminderType;
			if (reminderTime !== undefined) changes.calendarReminderTime = reminderTime;
			const address = nonEmpty('address');
			if (address !== undefined && entry.kind === 'appointment') changes.address = address;
			if (lead) Object.assign(changes, { leadId: lead.leadId, teamId: lead.teamId });
			// an empty update changes nothing, so it is no event either
			if (Object.keys(changes).length > 0) {
				Object.assign(entry, changes);
				entryUpdated(ctx.store, entry, ctx.now);
			}
			return message('Calendar updated successfully');
		},
	},
	{
		method: 'DELETE',
		pattern: '/v2.0/calendar/{calendarId}',
		handler: (ctx) => {
			const entry = targetEntry(ctx);
			refuseSmartPlan(entry);
			deleteEntry(ctx.store, entry, ctx.now);
			return message('Calendar deleted successfully');
		},
	},
	{
		method: 'POST',
		pattern: '/v2.0/calendar/{calendarId}/finish',
		handler: (ctx) => {
			setFinished(ctx.store, targetEntry(ctx), true, ctx.now);
			return message('Calendar marked as finished');
		},
	},
	{
		method: 'POST',
		pattern: '/v2.0/calendar/{calendarId}/unfinish',
		handler: (ctx) => {
			setFinished(ctx.store, targetEntry(ctx), false, ctx.now);
			return message('Calendar marked as not completed');
		},
	},
	{
		method: 'GET',
		pattern: '/v2.0/calendar/meetings/available',
		handler: ({ query, user, store, now }) => {
			const zone = zoneParam(query.get('timeZoneCode') ?? undefined) ?? userZone(user);
			// the spec's epoch ms in startTime, or the OpenAPI's ISO there and epoch ms in startTimeMs (queryInstant)
			const from = queryInstant(query, 'startTime', zone, store);
			const to = queryInstant(query, 'endTime', zone, store);
			if (from === undefined) throw invalidParam('startTime or startTimeMs is required');
			if (to === undefined) throw invalidParam('endTime or endTimeMs is required');
			const limit = intParam(query, 'limit', { def: 10, min: 1 });
			if (from <= now) throw invalidParam('the start time must be later than the current server time');
			if (to <= from) throw invalidParam('the end time must be later than the start time');
			if (to - from > 90 * DAY_MS) throw invalidParam('the range between start and end must not exceed 90 days');
			const slots = freeSlots(calendarOf(store, user.userId), from, to, zone);
			return {
				body: {
					data: {
						total: slots.length,
						slots: slots.slice(0, limit).map((s) => ({
							startTime: isoInZone(s.start, zone),
							endTime: isoInZone(s.end, zone),
							startTimeMs: s.start,
							endTimeMs: s.end,
						})),
					},
				},
			};
		},
	},
];
