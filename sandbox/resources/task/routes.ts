/**
 * Task endpoints, V1 (`/v1.0/tasks...`) and V2 (`/v2.0/tasks...`, tasks and appointments together).
 * Records live in ./state.ts (shared with appointments, Calendar V2 and reminders), lookups and access rules in
 * ./access.ts; writes go through ./writes.ts so every route emits the same webhook events.
 */
import { ApiError, invalidParam, limitNotValid, missingParam, userNotExist } from '../../core/errors';
import { toInt64 } from '../../core/json';
import { type Obj, asObject, has, intParam, optBool, optString } from '../../core/params';
import { readingsOf } from '../../core/readings';
import type { Ctx, Route } from '../../core/router';
import { assigneeOf, entryForCaller, leadForCaller, leadFromQuery, liveLead } from './access';
import {
	ASSIGNED_ROLES,
	type AssignedRole,
	TASK_TYPES,
	type TaskRecord,
	type TaskType,
	TaskCodes,
	byTime,
	newTaskRecord,
	permissionDenied,
	smartPlanTask,
	taskState,
} from './state';
import { parseV2Time, readTimeZone } from './times';
import { taskViewV1, taskViewV2 } from './views';
import { createEntry, deleteEntry, entryUpdated, setFinished } from './writes';

const present = (o: Obj, name: string): boolean => o[name] !== undefined && o[name] !== null;

function requiredString(o: Obj, name: string): string {
	const v = optString(o, name);
	if (v === undefined || v.trim() === '') throw missingParam(name);
	return v;
}

function requiredLeadId(o: Obj): bigint {
	if (!present(o, 'leadId')) throw missingParam('leadId');
	const v = toInt64(o.leadId);
	if (v === null || v === undefined) throw invalidParam(`'leadId' must be an int64 integer`);
	return v;
}

function oneOf<T extends string>(o: Obj, name: string, allowed: readonly T[], required: boolean): T | undefined {
	if (!present(o, name)) {
		if (required) throw missingParam(name);
		return undefined;
	}
	const v = o[name];
	if (typeof v !== 'string' || !allowed.includes(v as T)) {
		throw invalidParam(`'${name}' must be one of ${allowed.join(', ')}, got '${String(v)}'`);
	}
	return v as T;
}

function checkOrder(startAt: number | null, endAt: number): void {
	if (startAt !== null && endAt < startAt) throw invalidParam("'endAt' must not be earlier than 'startAt'");
}

/** V1 `deadline`: epoch milliseconds as an integer. */
function readDeadline(o: Obj, required: boolean): number | undefined {
	if (!present(o, 'deadline')) {
		if (required) throw missingParam('deadline');
		return undefined;
	}
	const v = toInt64(o.deadline);
	if (v === null || v === undefined || v < 0n) {
		throw invalidParam(`Unparsable timestamp '${String(o.deadline)}' for 'deadline': expected epoch milliseconds (UTC) as an integer, e.g. 1508580010000`);
	}
	return Number(v);
}

const zoneOf = (ctx: Ctx): string => ctx.user.timeZoneId || 'UTC';

function refuseSmartPlan(entry: TaskRecord): void {
	if (entry.smartPlan) throw smartPlanTask(entry.id);
}

const message = (text: string) => ({ body: { message: text } });
const empty = () => ({ raw: '' });

// ---------------- V1 ----------------

const v1Routes: Route[] = [
	{
		method: 'GET',
		pattern: '/v1.0/tasks',
		handler: (ctx) => {
			const lead = leadFromQuery(ctx);
			return { body: { taskList: taskState(ctx.store).ofLead(lead.leadId, 'task').map((t) => taskViewV1(ctx.store, t, ctx.now)) } };
		},
	},
	{
		method: 'POST',
		pattern: '/v1.0/tasks',
		body: 'json',
		handler: (ctx) => {
			const o = asObject(ctx.body);
			const content = requiredString(o, 'content');
			const leadId = requiredLeadId(o);
			const deadline = readDeadline(o, true)!;
			const type = oneOf(o, 'type', TASK_TYPES, true)!;
			const role = oneOf(o, 'assignedRole', ASSIGNED_ROLES, true)!;
			const lead = leadForCaller(ctx, leadId);
			const fields = { kind: 'task' as const, type, content, endAt: deadline, assignedRole: role, assignedUserId: assigneeOf(lead, role) };
			const entry = createEntry(ctx.store, newTaskRecord(lead, ctx.user.userId, ctx.now, fields), ctx.now);
			return { body: { taskId: entry.id } };
		},
	},
	{
		method: 'GET',
		pattern: '/v1.0/tasks/{taskId}',
		handler: (ctx) => ({ body: { task: taskViewV1(ctx.store, entryForCaller(ctx, 'task').entry, ctx.now) } }),
	},
	{
		method: 'PUT',
		pattern: '/v1.0/tasks/{taskId}',
		body: 'json',
		handler: (ctx) => {
			const o = asObject(ctx.body);
			const { entry } = entryForCaller(ctx, 'task');
			const fields = ['content', 'leadId', 'deadline', 'type', 'assignedRole', 'finishFlag'];
			if (!fields.some((f) => present(o, f))) throw missingParam('content, leadId, deadline, type, assignedRole or finishFlag');
			refuseSmartPlan(entry);
			if (present(o, 'leadId')) {
				const leadId = toInt64(o.leadId);
				if (leadId === null || leadId === undefined) throw invalidParam(`'leadId' must be an int64 integer`);
				if (leadId !== entry.leadId) {
					throw new ApiError(400, TaskCodes.INVALID_UPDATE_OPERATION_LEADID, `leadId ${leadId} is not the lead of task ${entry.id}`);
				}
			}
			if (optBool(o, 'finishFlag') === true) {
				// finishFlag wins: the task is completed and the other fields are ignored
				if (!setFinished(ctx.store, entry, true, ctx.now)) entryUpdated(ctx.store, entry, ctx.now);
				return empty();
			}
			const content = optString(o, 'content');
			if (content !== undefined && content.trim() === '') throw invalidParam("'content' must not be blank");
			const deadline = readDeadline(o, false);
			const type = oneOf(o, 'type', TASK_TYPES, false);
			const role = oneOf(o, 'assignedRole', ASSIGNED_ROLES, false);
			if (content !== undefined) entry.content = content;
			if (deadline !== undefined) entry.endAt = deadline;
			if (type !== undefined) entry.type = type;
			if (role !== undefined) {
				entry.assignedRole = role;
				entry.assignedUserId = assigneeOf(ctx.store.getLead(entry.leadId)!, role);
			}
			entryUpdated(ctx.store, entry, ctx.now);
			return empty();
		},
	},
	{
		method: 'DELETE',
		pattern: '/v1.0/tasks/{taskId}',
		handler: (ctx) => {
			const { entry } = entryForCaller(ctx, 'task');
			refuseSmartPlan(entry);
			deleteEntry(ctx.store, entry, ctx.now);
			return empty();
		},
	},
];

// ---------------- V2 ----------------

const V2_TYPES: readonly TaskType[] = [...TASK_TYPES, 'Appointment'];

const v2Routes: Route[] = [
	{
		method: 'GET',
		pattern: '/v2.0/tasks',
		handler: (ctx) => {
			const lead = leadFromQuery(ctx);
			return { body: { tasks: taskState(ctx.store).ofLead(lead.leadId).map((t) => taskViewV2(ctx.store, t, ctx.now, zoneOf(ctx))) } };
		},
	},
	{
		method: 'POST',
		pattern: '/v2.0/tasks',
		body: 'json',
		handler: (ctx) => {
			const o = asObject(ctx.body);
			const type = oneOf(o, 'type', V2_TYPES, true)!;
			const content = requiredString(o, 'content');
			const leadId = requiredLeadId(o);
			const role = oneOf(o, 'assignedRole', ASSIGNED_ROLES, true)! as AssignedRole;
			const timeZoneCode = readTimeZone(o.timeZoneCode);
			if (!present(o, 'endAt')) throw missingParam('endAt');
			const endAt = parseV2Time(o.endAt, 'endAt', timeZoneCode);
			const startAt = present(o, 'startAt') ? parseV2Time(o.startAt, 'startAt', timeZoneCode) : null;
			checkOrder(startAt, endAt);
			const address = optString(o, 'address') ?? '';
			const lead = leadForCaller(ctx, leadId);
			const kind = type === 'Appointment' ? 'appointment' : 'task';
			// Without a zone the entry is held in the creating user's (state.ts).
			const fields = { kind, type, content, startAt, endAt, timeZoneCode: timeZoneCode ?? zoneOf(ctx), address, assignedRole: role, assignedUserId: assigneeOf(lead, role) } as const;
			const entry = createEntry(ctx.store, newTaskRecord(lead, ctx.user.userId, ctx.now, fields), ctx.now);
			return { body: { taskId: entry.id } };
		},
	},
	{
		method: 'GET',
		pattern: '/v2.0/tasks/my-tasks',
		handler: (ctx) => {
			const { query, store, user } = ctx;
			let target = user;
			if (has(query, 'userId')) {
				const raw = query.get('userId')!.trim();
				const id = toInt64(raw);
				if (id === null || id === undefined) throw invalidParam(`'userId' must be an int64 integer, got '${raw}'`);
				const found = store.getUser(id);
				if (!found || found.teamId !== user.teamId) throw userNotExist(raw);
				const manager = user.isAdmin || user.roleName === 'Owner' || user.roleName === 'Admin';
				if (found.userId !== user.userId && !manager) throw permissionDenied(`User ${user.userId} may not read the tasks of user ${found.userId}`);
				target = found;
			}
			let currentId = 0n;
			if (has(query, 'currentId')) {
				const raw = query.get('currentId')!.trim();
				const v = toInt64(raw);
				if (v === null || v === undefined || v < 0n) throw invalidParam(`'currentId' must be an integer >= 0, got '${raw}'`);
				currentId = v;
			}
			const limit = intParam(query, 'limit', { def: 10, min: 1, max: 100, outOfRange: (raw) => limitNotValid(1, 100, raw) });
			const zone = readTimeZone(query.get('timeZoneCode')) ?? zoneOf(ctx);

			// ordered by start time descending; deleted entries keep their place so a cursor on them still works
			const ordered = [...taskState(store).entries.values()]
				.filter((t) => t.assignedUserId === target.userId && liveLead(store, t.leadId) !== undefined)
				.sort(byTime(-1));
			let start = 0;
			if (currentId > 0n) {
				const at = ordered.findIndex((t) => t.id === currentId);
				// after that task (spec), or from it (the currentId reading `inclusive`)
				start = at < 0 ? ordered.length : at + (readingsOf(store).get('currentId') === 'inclusive' ? 0 : 1);
			}
			const page = ordered.slice(start).filter((t) => !t.deleteFlag).slice(0, limit);
			// Each entry is formatted in the requested (or the caller's) time zone.
			return { body: { tasks: page.map((t) => taskViewV2(store, t, ctx.now, zone, true)) } };
		},
	},
	{
		method: 'GET',
		pattern: '/v2.0/tasks/{taskId}',
		handler: (ctx) => ({ body: { task: taskViewV2(ctx.store, entryForCaller(ctx).entry, ctx.now, zoneOf(ctx)) } }),
	},
	{
		method: 'PUT',
		pattern: '/v2.0/tasks/{taskId}',
		body: 'json',
		handler: (ctx) => {
			const o = asObject(ctx.body);
			const { entry } = entryForCaller(ctx);
			if (!['content', 'startAt', 'endAt', 'address'].some((f) => present(o, f))) {
				throw missingParam('content, startAt, endAt or address');
			}
			refuseSmartPlan(entry);
			const timeZoneCode = readTimeZone(o.timeZoneCode);
			const content = optString(o, 'content');
			if (content !== undefined && content.trim() === '') throw invalidParam("'content' must not be blank");
			const startAt = present(o, 'startAt') ? parseV2Time(o.startAt, 'startAt', timeZoneCode ?? entry.timeZoneCode ?? undefined) : undefined;
			const endAt = present(o, 'endAt') ? parseV2Time(o.endAt, 'endAt', timeZoneCode ?? entry.timeZoneCode ?? undefined) : undefined;
			checkOrder(startAt ?? entry.startAt, endAt ?? entry.endAt);
			const address = optString(o, 'address');
			if (content !== undefined) entry.content = content;
			if (startAt !== undefined) entry.startAt = startAt;
			if (endAt !== undefined) entry.endAt = endAt;
			if (address !== undefined) entry.address = address;
			if (timeZoneCode !== undefined) entry.timeZoneCode = timeZoneCode;
			entryUpdated(ctx.store, entry, ctx.now);
			return message('Task updated successfully');
		},
	},
	{
		method: 'DELETE',
		pattern: '/v2.0/tasks/{taskId}',
		handler: (ctx) => {
			const { entry } = entryForCaller(ctx);
			refuseSmartPlan(entry);
			deleteEntry(ctx.store, entry, ctx.now);
			return message('Task deleted successfully');
		},
	},
	{
		method: 'POST',
		pattern: '/v2.0/tasks/{taskId}/finish',
		handler: (ctx) => {
			const { entry } = entryForCaller(ctx);
			refuseSmartPlan(entry);
			setFinished(ctx.store, entry, true, ctx.now);
			return message('Task finished successfully');
		},
	},
	{
		method: 'POST',
		pattern: '/v2.0/tasks/{taskId}/unfinish',
		handler: (ctx) => {
			const { entry } = entryForCaller(ctx);
			refuseSmartPlan(entry);
			setFinished(ctx.store, entry, false, ctx.now);
			return message('Task unfinished successfully');
		},
	},
];

export const taskRoutes: Route[] = [...v1Routes, ...v2Routes];
