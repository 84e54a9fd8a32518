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
 * Identifiers are composite strings `<numericId>-task` / `<numericId>-appointment` (spec rule 4);
 * tasks and appointments share one numeric namespace. Every failure the OpenAPI gives for these
 * endpoints is HTTP 400: 20012 INVALID_PARAMETER (bad values, bad ID format, entry not found) or
 * 20017 PERMISSION_DENIED (the caller does not manage the lead; the spec's 20017 row allows 400).
 * A Smart Plan task cannot be modified (spec: TASK_IS_SMARTPLAN): update and delete refuse it.
 *
 * Times: the spec says startTime / endTime take epoch ms; the OpenAPI says ISO 8601 with offset.
 * Both are accepted. startAt / endAt are ISO 8601; an offset inside the string wins over
 * timeZoneCode, and a string without an offset needs timeZoneCode.
 */
import { DateTime } from 'luxon';

import { ApiError, invalidParam } from '../errors';
import { toInt64 } from '../json';
import type { Obj } from '../params';
import { asObject, boolParam, has, intParam, listParam, optString } from '../params';
import type { Ctx, Route } from '../router';
import { SEED_IDS } from '../seed';
import type { SandboxModule } from '../module';
import type { Store } from '../store';
import { isoInZone, isValidTimeZone } from '../time';
import type { Lead } from '../types';

export type CalendarKind = 'task' | 'appointment';

export interface CalendarEntry {
	num: bigint;
	kind: CalendarKind;
	leadId: bigint;
	/** the user whose calendar holds the entry */
	ownerUserId: bigint;
	content: string;
	startMs: number;
	endMs: number;
	timeZoneCode: string;
	/** tasks: Call, Email, Text, Other */
	taskWay: string | null;
	/** tasks: Agent or Assistant */
	assignedRole: string | null;
	/** appointments */
	address: string | null;
	allDay: boolean;
	reminderType: string | null;
	reminderTime: string | null;
	finished: boolean;
	/** sandbox codes: 1 task, 2 appointment, 4 Smart Plan task */
	sourceType: number;
	smartPlan: boolean;
	createTime: number;
	updateTime: number;
}

export const SOURCE_TYPE = { TASK: 1, APPOINTMENT: 2, SMART_PLAN: 4 } as const;
export const TASK_WAYS = ['Call', 'Email', 'Text', 'Other'];
export const ASSIGNED_ROLES = ['Agent', 'Assistant'];

export class CalendarState {
	entries = new Map<string, CalendarEntry>();
	nextNum = 9007199254745001n;
}

export const calendarState = (store: Store): CalendarState => store.ext('calendar', () => new CalendarState());

export const calendarIdOf = (e: Pick<CalendarEntry, 'num' | 'kind'>): string => `${e.num}-${e.kind}`;

/** Notable seeded entries (composite IDs; the numbers exceed 2^53). */
export const CALENDAR_SEED = {
	/** demo user's open task on the lead above 2^53, far in the future */
	task: '9007199254745001-task',
	/** demo user's open appointment on the same lead */
	appointment: '9007199254745002-appointment',
	/** demo user's finished task */
	finishedTask: '9007199254745003-task',
	/** demo user's Smart Plan task (cannot be updated or deleted) */
	smartPlanTask: '9007199254745004-task',
	/** the other agent's task on a lead not shared with the demo user */
	otherAgentTask: '9007199254745005-task',
	/** the other agent's appointment on the lead shared with the demo user */
	sharedLeadAppointment: '9007199254745006-appointment',
	/** how many entries the demo user's calendar holds (finished ones included) */
	demoCount: 1204,
	/** all seeded entries lie between these instants */
	from: Date.UTC(2025, 0, 1),
	to: Date.UTC(2031, 0, 1),
} as const;

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

/** `startTime` (epoch ms or ISO) first, else `startTimeMs` (epoch ms). */
function queryInstant(q: URLSearchParams, name: string, zone: string | undefined): number | undefined {
	if (has(q, name)) return parseInstant(name, q.get(name)!, zone, true).ms;
	const msName = `${name}Ms`;
	if (has(q, msName)) return parseInstant(msName, q.get(msName)!, undefined, true).ms;
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
	const lead = ctx.store.getLead(leadId);
	if (!lead || lead.deletedAt !== null) throw invalidParam(`lead ${leadId} does not exist`);
	if (!ctx.store.canAccess(ctx.user.userId, lead)) throw permissionDenied(ctx.user.userId, leadId);
	return lead;
}

/** `{calendarId}` of a per-entry endpoint: format, existence, then the caller's right on the lead. */
function targetEntry(ctx: Ctx): CalendarEntry {
	const raw = ctx.params.calendarId;
	if (!/^\d+-(task|appointment)$/.test(raw)) {
		throw invalidParam(`calendarId '${raw}' must be '<numericId>-task' or '<numericId>-appointment'`);
	}
	const entry = calendarState(ctx.store).entries.get(raw.replace(/^0+(?=\d)/, ''));
	if (!entry) throw invalidParam(`calendar entry '${raw}' not found`);
	const lead = ctx.store.getLead(entry.leadId);
	if (!lead || !ctx.store.canAccess(ctx.user.userId, lead)) throw permissionDenied(ctx.user.userId, entry.leadId);
	return entry;
}

function refuseSmartPlan(entry: CalendarEntry): void {
	if (entry.smartPlan) throw new ApiError(400, 'TASK_IS_SMARTPLAN', `Task ${entry.num} belongs to a Smart Plan and cannot be modified`);
}

/** midnight (00:00:00) in the offset the string declared */
const atMidnight = (d: DateTime | undefined): boolean => d !== undefined && d.hour === 0 && d.minute === 0 && d.second === 0 && d.millisecond === 0;

// ---------- views ----------

function titleOf(entry: CalendarEntry, store: Store): string {
	const lead = store.getLead(entry.leadId);
	const name = lead ? [lead.firstName, lead.lastName].filter(Boolean).join(' ') : `Lead ${entry.leadId}`;
	return `${name} - ${entry.kind === 'task' ? (entry.taskWay ?? 'Task') : 'Appointment'}`;
}

export function calendarView(entry: CalendarEntry, store: Store): Record<string, unknown> {
	return {
		id: calendarIdOf(entry),
		type: entry.kind.toUpperCase(),
		taskId: entry.num,
		sourceType: entry.sourceType,
		content: entry.content,
		title: titleOf(entry, store),
		finished: entry.finished,
		startAt: isoInZone(entry.startMs, entry.timeZoneCode),
		endAt: isoInZone(entry.endMs, entry.timeZoneCode),
		startAtMs: entry.startMs,
		endAtMs: entry.endMs,
		timeZoneCode: entry.timeZoneCode,
		leadId: entry.leadId,
	};
}

// ---------- meeting slots ----------

const DAY_MS = 86_400_000;

/** One-hour slots, 09:00 to 17:00 on weekdays in `zone`, inside [from, to], not overlapping open appointments. */
function freeSlots(entries: CalendarEntry[], from: number, to: number, zone: string): Array<{ start: number; end: number }> {
	const busy = entries.filter((e) => e.kind === 'appointment' && !e.finished);
	const out: Array<{ start: number; end: number }> = [];
	let day = DateTime.fromMillis(from, { zone }).startOf('day');
	while (day.toMillis() <= to) {
		if (day.weekday <= 5) {
			for (let hour = 9; hour < 17; hour++) {
				const start = day.set({ hour }).toMillis();
				const end = start + 3_600_000;
				if (start < from || end > to) continue;
				if (busy.some((b) => b.startMs < end && b.endMs > start)) continue;
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
			const from = queryInstant(query, 'startTime', zone);
			const to = queryInstant(query, 'endTime', zone);
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

			const key = (e: CalendarEntry): number => (sort === 'endTime' ? e.endMs : e.startMs);
			const all = [...calendarState(store).entries.values()]
				.filter(
					(e) =>
						e.ownerUserId === user.userId &&
						(from === undefined || e.startMs >= from) &&
						(to === undefined || e.startMs <= to) &&
						(leadId === undefined || e.leadId === leadId) &&
						(includeFinished || !e.finished) &&
						(sourceTypes === undefined || sourceTypes.includes(e.sourceType)),
				)
				.sort((a, b) => (key(a) - key(b) || (a.num < b.num ? -1 : a.num > b.num ? 1 : 0)) * (desc ? -1 : 1));
			const items = all.slice(page * pageSize, page * pageSize + pageSize).map((e) => calendarView(e, store));
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
			const kind: CalendarKind = type === 'TASK' ? 'task' : 'appointment';
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
			let taskWay: string | null = null;
			let assignedRole: string | null = null;
			if (kind === 'task') {
				const way = optString(o, 'taskWay');
				if (way === undefined || way.trim() === '') throw invalidParam("'taskWay' is required when type is TASK (Call, Email, Text or Other)");
				taskWay = TASK_WAYS.find((w) => w.toLowerCase() === way.trim().toLowerCase()) ?? null;
				if (!taskWay) throw invalidParam(`'taskWay' must be Call, Email, Text or Other, got '${way}'`);
				// live clients report assignedRole as required for tasks; the OpenAPI marks it "only for TASK"
				const role = optString(o, 'assignedRole');
				if (role === undefined || role.trim() === '') throw invalidParam("'assignedRole' is required when type is TASK (Agent or Assistant)");
				assignedRole = ASSIGNED_ROLES.find((r) => r.toLowerCase() === role.trim().toLowerCase()) ?? null;
				if (!assignedRole) throw invalidParam(`'assignedRole' must be Agent or Assistant, got '${role}'`);
			}
			const address = kind === 'appointment' ? (optString(o, 'address') ?? null) : null;
			const lead = managedLead(ctx, leadIdRaw);

			const state = calendarState(store);
			const entry: CalendarEntry = {
				num: state.nextNum++,
				kind,
				leadId: lead.leadId,
				ownerUserId: user.userId,
				content,
				startMs: start.ms,
				endMs: end.ms,
				timeZoneCode: zone,
				taskWay,
				assignedRole,
				address,
				allDay: kind === 'appointment' && atMidnight(start.iso) && atMidnight(end.iso),
				reminderType: null,
				reminderTime: null,
				finished: false,
				sourceType: kind === 'task' ? SOURCE_TYPE.TASK : SOURCE_TYPE.APPOINTMENT,
				smartPlan: false,
				createTime: now,
				updateTime: now,
			};
			state.entries.set(calendarIdOf(entry), entry);
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
			const start = bodyInstant(o, 'startAt', zone ?? entry.timeZoneCode);
			const end = bodyInstant(o, 'endAt', zone ?? entry.timeZoneCode);
			if (start) futureCheck('startAt', start.ms, ctx.now);
			if (end) futureCheck('endAt', end.ms, ctx.now);
			const newStart = start?.ms ?? entry.startMs;
			const newEnd = end?.ms ?? entry.endMs;
			if (newEnd < newStart) throw invalidParam("'endAt' must not be before 'startAt'");
			let lead: Lead | undefined;
			const leadId = toInt64(o.leadId);
			if (leadId === null) throw invalidParam("'leadId' must be an int64 integer");
			if (leadId !== undefined && leadId !== entry.leadId) lead = managedLead(ctx, leadId);

			const content = nonEmpty('content');
			if (content !== undefined) entry.content = content;
			entry.startMs = newStart;
			entry.endMs = newEnd;
			if (zone) entry.timeZoneCode = zone;
			const reminderType = nonEmpty('reminderType');
			const reminderTime = nonEmpty('reminderTime');
			if (reminderType !== undefined) entry.reminderType = reminderType;
			if (reminderTime !== undefined) entry.reminderTime = reminderTime;
			const address = nonEmpty('address');
			if (address !== undefined && entry.kind === 'appointment') entry.address = address;
			if (lead) entry.leadId = lead.leadId;
			entry.updateTime = ctx.now;
			return message('Calendar updated successfully');
		},
	},
	{
		method: 'DELETE',
		pattern: '/v2.0/calendar/{calendarId}',
		handler: (ctx) => {
			const entry = targetEntry(ctx);
			refuseSmartPlan(entry);
			calendarState(ctx.store).entries.delete(calendarIdOf(entry));
			return message('Calendar deleted successfully');
		},
	},
	{
		method: 'POST',
		pattern: '/v2.0/calendar/{calendarId}/finish',
		handler: (ctx) => {
			const entry = targetEntry(ctx);
			entry.finished = true;
			entry.updateTime = ctx.now;
			return message('Calendar marked as finished');
		},
	},
	{
		method: 'POST',
		pattern: '/v2.0/calendar/{calendarId}/unfinish',
		handler: (ctx) => {
			const entry = targetEntry(ctx);
			entry.finished = false;
			entry.updateTime = ctx.now;
			return message('Calendar marked as not completed');
		},
	},
	{
		method: 'GET',
		pattern: '/v2.0/calendar/meetings/available',
		handler: ({ query, user, store, now }) => {
			const zone = zoneParam(query.get('timeZoneCode') ?? undefined) ?? (isValidTimeZone(user.timeZoneId) ? user.timeZoneId : 'UTC');
			// string form first, then the Ms form (OpenAPI); the spec lets startTime carry epoch ms too
			const from = queryInstant(query, 'startTime', zone);
			const to = queryInstant(query, 'endTime', zone);
			if (from === undefined) throw invalidParam('startTime or startTimeMs is required');
			if (to === undefined) throw invalidParam('endTime or endTimeMs is required');
			const limit = intParam(query, 'limit', { def: 10, min: 1 });
			if (from <= now) throw invalidParam('the start time must be later than the current server time');
			if (to <= from) throw invalidParam('the end time must be later than the start time');
			if (to - from > 90 * DAY_MS) throw invalidParam('the range between start and end must not exceed 90 days');
			const mine = [...calendarState(store).entries.values()].filter((e) => e.ownerUserId === user.userId);
			const slots = freeSlots(mine, from, to, zone);
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

// ---------- seed ----------

const ZONES = ['America/Los_Angeles', 'America/Chicago', 'America/New_York', 'UTC'];

function seedCalendar(store: Store): void {
	const state = calendarState(store);
	const demo = BigInt(SEED_IDS.demoUserId);
	const other = BigInt(SEED_IDS.otherAgentUserId);
	const add = (e: Omit<CalendarEntry, 'num' | 'createTime' | 'updateTime' | 'allDay' | 'reminderType' | 'reminderTime'> & Partial<CalendarEntry>): CalendarEntry => {
		const entry: CalendarEntry = { allDay: false, reminderType: null, reminderTime: null, createTime: CALENDAR_SEED.from, updateTime: CALENDAR_SEED.from, ...e, num: state.nextNum++ };
		state.entries.set(calendarIdOf(entry), entry);
		return entry;
	};
	const big = BigInt(SEED_IDS.bigLeadId);
	const far = Date.UTC(2030, 5, 3, 16);
	const task = (o: Partial<CalendarEntry>) => ({ kind: 'task' as const, taskWay: 'Call', assignedRole: 'Agent', address: null, sourceType: SOURCE_TYPE.TASK, smartPlan: false, finished: false, ...o });
	// the notable entries first, so their numbers are fixed (see CALENDAR_SEED)
	add({ ...task({}), leadId: big, ownerUserId: demo, content: 'Call about the pre-approval letter', startMs: far, endMs: far + 1_800_000, timeZoneCode: 'America/Los_Angeles' });
	add({ kind: 'appointment', leadId: big, ownerUserId: demo, content: 'Showing at 12 Oak Ave', startMs: far + DAY_MS, endMs: far + DAY_MS + 3_600_000, timeZoneCode: 'America/Los_Angeles', taskWay: null, assignedRole: null, address: '12 Oak Ave, Austin, TX', finished: false, sourceType: SOURCE_TYPE.APPOINTMENT, smartPlan: false });
	add({ ...task({ taskWay: 'Email', finished: true }), leadId: big, ownerUserId: demo, content: 'Send the market report', startMs: Date.UTC(2025, 2, 3, 17), endMs: Date.UTC(2025, 2, 3, 17, 30), timeZoneCode: 'America/Chicago' });
	add({ ...task({ taskWay: 'Text', sourceType: SOURCE_TYPE.SMART_PLAN, smartPlan: true }), leadId: big, ownerUserId: demo, content: 'New Lead Nurture: day 3 text', startMs: far + 2 * DAY_MS, endMs: far + 2 * DAY_MS, timeZoneCode: 'America/Los_Angeles' });
	add({ ...task({}), leadId: BigInt(SEED_IDS.notSharedLeadId), ownerUserId: other, content: "Other agent's call", startMs: far, endMs: far + 900_000, timeZoneCode: 'America/Chicago' });
	add({ kind: 'appointment', leadId: BigInt(SEED_IDS.sharedLeadId), ownerUserId: other, content: 'Listing consultation', startMs: far + 3 * DAY_MS, endMs: far + 3 * DAY_MS + 3_600_000, timeZoneCode: 'America/Chicago', taskWay: null, assignedRole: null, address: '500 Congress Ave, Austin, TX', finished: false, sourceType: SOURCE_TYPE.APPOINTMENT, smartPlan: false });

	// a busy calendar for the demo user: 1200 more entries over 2025-2030 on the demo user's leads
	const leads = [...store.leads.values()]
		.filter((l) => l.ownerUserId === demo && l.deletedAt === null)
		.sort((a, b) => (a.leadId < b.leadId ? -1 : 1))
		.slice(0, 40);
	const span = CALENDAR_SEED.to - CALENDAR_SEED.from - 2 * DAY_MS;
	for (let k = 0; k < 1200; k++) {
		const lead = leads[k % leads.length];
		const start = CALENDAR_SEED.from + Math.floor((k * span) / 1200) + (k % 9) * 3_600_000;
		const zone = ZONES[k % ZONES.length];
		const finished = k % 7 === 0;
		if (k % 3 === 1) {
			add({ kind: 'appointment', leadId: lead.leadId, ownerUserId: demo, content: `Showing #${k} with ${lead.firstName}`, startMs: start, endMs: start + 3_600_000, timeZoneCode: zone, taskWay: null, assignedRole: null, address: `${100 + k} Elm St, Austin, TX`, finished, sourceType: SOURCE_TYPE.APPOINTMENT, smartPlan: false });
		} else {
			const smartPlan = k % 11 === 0;
			add({
				...task({ taskWay: TASK_WAYS[k % 4], finished, smartPlan, sourceType: smartPlan ? SOURCE_TYPE.SMART_PLAN : SOURCE_TYPE.TASK }),
				leadId: lead.leadId,
				ownerUserId: demo,
				content: `Follow up #${k} with ${lead.firstName}`,
				startMs: start,
				endMs: start + 1_800_000,
				timeZoneCode: zone,
			});
		}
	}
	// the other agent's calendar (never listed for the demo user)
	for (let k = 0; k < 10; k++) {
		add({ ...task({}), leadId: BigInt(SEED_IDS.notSharedLeadId), ownerUserId: other, content: `Other agent follow-up #${k}`, startMs: far + k * DAY_MS, endMs: far + k * DAY_MS + 900_000, timeZoneCode: 'America/Chicago' });
	}
}

/** Calendar V2 endpoints. */
export const calendarModule: SandboxModule = { name: 'calendar', routes: calendarRoutes, seed: seedCalendar };

