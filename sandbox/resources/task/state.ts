/**
 * Tasks and appointments of the sandbox: one record kind in one identifier namespace (api-spec.md General rule 4),
 * shared by the task module (V1 and V2 task endpoints), the appointment module (GET /v1.0/appts), Calendar V2
 * (../calendarEntries.ts) and the task-reminder push (routes/notification.ts).
 *
 * Behaviour chosen where the spec is silent (documented here, tested in test/sandbox/task.test.ts):
 * - Access: the caller must be able to manage the entry's lead (owner, assignee, shared agent, team/office scope).
 *   An entry of a lead the caller cannot manage answers 403 PERMISSION_DENIED (api-spec.md: "another agent's tasks";
 *   the OpenAPI says 400 20017 on some endpoints and 404 LEAD_NOT_EXIST on others: the spec wins).
 * - A missing, deleted or trashed-lead entry answers 404 TASK_NOT_EXIST; V1 task endpoints do not resolve appointments.
 * - A Smart Plan task cannot be modified at all (spec): PUT (V1, V2), finish, unfinish and delete answer 400 TASK_IS_SMARTPLAN.
 * - Finish on a finished entry and unfinish on an open one succeed without change.
 * - Deletes are soft (the record keeps its place so a my-tasks cursor pointing at it still works).
 * - V2 times: ISO-8601 strings; an offset inside the string wins over timeZoneCode; no offset and no timeZoneCode is
 *   400 20012; endAt before startAt is 400 20012. Answers format startAt/endAt in the entry's timeZoneCode (else the
 *   caller's time zone), my-tasks in its `timeZoneCode` parameter (else the caller's time zone).
 */
import { ApiError, Codes, invalidParam, leadNotExist, missingParam } from '../../core/errors';
import { toInt64 } from '../../core/json';
import { has, pathId } from '../../core/params';
import type { Ctx } from '../../core/router';
import { SEED_IDS } from '../../core/seed';
import type { Store } from '../../core/store';
import { isValidTimeZone, isoInZone, isoUtc } from '../../core/time';
import type { Lead, User } from '../../core/types';

export const TASK_TYPES = ['Other', 'Call', 'Email', 'Text'] as const;
export type TaskType = (typeof TASK_TYPES)[number] | 'Appointment';
export type AssignedRole = 'Agent' | 'Assistant';
export const ASSIGNED_ROLES: AssignedRole[] = ['Agent', 'Assistant'];

export const TaskCodes = {
	TASK_NOT_EXIST: 'TASK_NOT_EXIST',
	TASK_IS_SMARTPLAN: 'TASK_IS_SMARTPLAN',
	INVALID_UPDATE_OPERATION_LEADID: 'INVALID_UPDATE_OPERATION_LEADID',
} as const;

export interface TaskRecord {
	id: bigint;
	kind: 'task' | 'appointment';
	type: TaskType;
	leadId: bigint;
	teamId: bigint;
	creatorId: bigint;
	content: string;
	/** epoch ms; null for tasks that only have a deadline */
	startAt: number | null;
	/** epoch ms: the deadline of a task, the end of an appointment */
	endAt: number;
	timeZoneCode: string | null;
	allDay: boolean;
	address: string;
	assignedRole: AssignedRole;
	assignedUserId: bigint;
	finishFlag: boolean;
	finishTime: number | null;
	createTime: number;
	lastUpdate: number;
	deleteFlag: boolean;
	reminderType: number;
	subject: string;
	body: string;
	/** set for Smart Plan tasks */
	smartPlan: { queryId: bigint; queryInfo: string } | null;
	/** Calendar V2's reminderType / reminderTime: free strings there, unlike the integer `reminderType` above */
	calendarReminderType: string | null;
	calendarReminderTime: string | null;
}

/** What a create must say; everything else takes the defaults of `newTaskRecord`. */
export type NewTaskFields = Pick<TaskRecord, 'kind' | 'type' | 'content' | 'endAt' | 'assignedUserId'> &
	Partial<Omit<TaskRecord, 'id' | 'leadId' | 'teamId' | 'creatorId'>>;

/** A new, open entry of a lead (every create route and seed builds its record here). */
export function newTaskRecord(lead: { leadId: bigint; teamId: bigint }, creatorId: bigint, now: number, fields: NewTaskFields): Omit<TaskRecord, 'id'> {
	return {
		leadId: lead.leadId,
		teamId: lead.teamId,
		creatorId,
		startAt: null,
		timeZoneCode: null,
		allDay: false,
		address: '',
		assignedRole: 'Agent',
		finishFlag: false,
		finishTime: null,
		createTime: now,
		lastUpdate: now,
		deleteFlag: false,
		reminderType: 0,
		subject: '',
		body: '',
		smartPlan: null,
		calendarReminderType: null,
		calendarReminderTime: null,
		...fields,
	};
}

export class TaskState {
	entries = new Map<string, TaskRecord>();
	/** new identifiers lie above 2^53 so that clients must keep them exact */
	nextId = 9007199254790001n;

	add(input: Omit<TaskRecord, 'id'> & { id?: bigint }): TaskRecord {
		const record: TaskRecord = { ...input, id: input.id ?? this.nextId++ };
		// one namespace for every route and seed: a seeded id used twice is a bug in the seed
		if (this.entries.has(record.id.toString())) throw new Error(`task id ${record.id} is already taken`);
		this.entries.set(record.id.toString(), record);
		return record;
	}

	/** The entry with this id, deleted ones included. */
	find(id: bigint): TaskRecord | undefined {
		return this.entries.get(id.toString());
	}

	ofLead(leadId: bigint, kind?: TaskRecord['kind']): TaskRecord[] {
		return [...this.entries.values()]
			.filter((t) => t.leadId === leadId && !t.deleteFlag && (kind === undefined || t.kind === kind))
			.sort(byTime(1));
	}
}

/** Start (or deadline) order; ties by id. */
export function byTime(direction: 1 | -1): (a: TaskRecord, b: TaskRecord) => number {
	return (a, b) => {
		const d = (a.startAt ?? a.endAt) - (b.startAt ?? b.endAt);
		if (d !== 0) return d * direction;
		return (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) * direction;
	};
}

export const taskState = (store: Store): TaskState => store.ext('task', () => new TaskState());

// ---- errors ----

export const taskNotExist = (id: bigint | string): ApiError =>
	new ApiError(404, TaskCodes.TASK_NOT_EXIST, `Task or appointment ${id} does not exist`);
export const permissionDenied = (what: string): ApiError => new ApiError(403, Codes.PERMISSION_DENIED, what);
export const smartPlanTask = (id: bigint): ApiError =>
	new ApiError(400, TaskCodes.TASK_IS_SMARTPLAN, `Task ${id} belongs to a Smart Plan and cannot be modified`);

// ---- lookups and access ----

/** A lead that exists and is not in the trash. */
export function liveLead(store: Store, leadId: bigint): Lead | undefined {
	const lead = store.getLead(leadId);
	return lead && lead.deletedAt === null ? lead : undefined;
}

/** An entry that is not deleted, of `kind` when given, whose lead is live (what every route may act on). */
export function liveEntry(store: Store, id: bigint, kind?: TaskRecord['kind']): { entry: TaskRecord; lead: Lead } | undefined {
	const entry = taskState(store).find(id);
	if (!entry || entry.deleteFlag || (kind !== undefined && entry.kind !== kind)) return undefined;
	const lead = liveLead(store, entry.leadId);
	return lead ? { entry, lead } : undefined;
}

/** The entry of `{taskId}`: TASK_NOT_EXIST when missing, deleted or of the wrong kind; PERMISSION_DENIED without access. */
export function entryForCaller(ctx: Ctx, kind?: TaskRecord['kind']): { entry: TaskRecord; lead: Lead } {
	const id = pathId(ctx.params.taskId, 'taskId');
	const found = liveEntry(ctx.store, id, kind);
	if (!found) throw taskNotExist(id);
	const { entry, lead } = found;
	if (!ctx.store.canAccess(ctx.user.userId, lead)) {
		throw permissionDenied(`User ${ctx.user.userId} has no permission to manage the tasks of lead ${lead.leadId}`);
	}
	return { entry, lead };
}

/** A lead given by id (query or body): LEAD_NOT_EXIST when missing or trashed, PERMISSION_DENIED without access. */
export function leadForCaller(ctx: Ctx, leadId: bigint): Lead {
	if (leadId < 1n) throw invalidParam(`'leadId' must be at least 1, got '${leadId}'`);
	const lead = liveLead(ctx.store, leadId);
	if (!lead) throw leadNotExist(leadId.toString());
	if (!ctx.store.canAccess(ctx.user.userId, lead)) {
		throw permissionDenied(`User ${ctx.user.userId} has no permission to manage lead ${leadId}`);
	}
	return lead;
}

/** `leadId` query parameter of the list endpoints (required, int64, minimum 1). */
export function leadFromQuery(ctx: Ctx): Lead {
	if (!has(ctx.query, 'leadId')) throw missingParam('leadId');
	const raw = ctx.query.get('leadId')!.trim();
	const id = toInt64(raw);
	if (id === null || id === undefined) throw invalidParam(`'leadId' must be an int64 integer, got '${raw}'`);
	return leadForCaller(ctx, id);
}

/** The user a new entry of this role is assigned to: the lead's agent, or its assistant when it has one. */
export function assigneeOf(lead: Lead, role: AssignedRole): bigint {
	if (role === 'Assistant') {
		const assistant = lead.customRoleList.find((r) => r.role === 'Assistant');
		if (assistant) return assistant.assigneeId;
	}
	return lead.assignedUserId ?? lead.ownerUserId;
}

// ---- V2 times ----

const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** Offset of an IANA zone at an instant, in minutes east of UTC. */
function zoneOffsetMinutes(ms: number, timeZone: string): number {
	const iso = isoInZone(ms, timeZone);
	const m = /([+-])(\d{2}):(\d{2})$/.exec(iso)!;
	return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

/** Wall-clock time in a zone to epoch ms (two passes settle DST edges). */
export function zonedToEpoch(wallAsUtc: number, timeZone: string): number {
	let t = wallAsUtc - zoneOffsetMinutes(wallAsUtc, timeZone) * 60_000;
	t = wallAsUtc - zoneOffsetMinutes(t, timeZone) * 60_000;
	return t;
}

/**
 * A V2 `startAt` / `endAt`: ISO-8601 with an offset (which wins), or without one when `timeZoneCode` is given.
 * Anything else is 400 20012 naming the value and the expected format.
 */
export function parseV2Time(value: unknown, field: string, timeZoneCode: string | undefined): number {
	const format = "ISO-8601 such as '2026-03-01T15:00:00-08:00' (or without the offset when timeZoneCode is given)";
	if (typeof value !== 'string') throw invalidParam(`Unparsable time for '${field}': expected a string, ${format}`);
	const m = ISO_RE.exec(value.trim());
	if (!m) throw invalidParam(`Unparsable time '${value}' for '${field}': expected ${format}`);
	const [, y, mo, d, h, mi, s, frac, offset] = m;
	const wall = Date.UTC(+y, +mo - 1, +d, +h, +mi, +(s ?? 0), Math.floor(Number(`0.${frac ?? 0}`) * 1000));
	const check = new Date(wall);
	if (check.getUTCMonth() !== +mo - 1 || check.getUTCDate() !== +d || +h > 23 || +mi > 59 || +(s ?? 0) > 59) {
		throw invalidParam(`Unparsable time '${value}' for '${field}': no such date or time`);
	}
	if (offset) {
		if (offset.toUpperCase() === 'Z') return wall;
		const digits = offset.replace(':', '');
		const minutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5) || 0);
		return wall - (digits[0] === '-' ? -1 : 1) * minutes * 60_000;
	}
	if (!timeZoneCode) {
		throw invalidParam(`Time '${value}' for '${field}' has no UTC offset and no timeZoneCode was given: add an offset (e.g. -08:00 or Z) or pass timeZoneCode`);
	}
	return zonedToEpoch(wall, timeZoneCode);
}

/** Optional `timeZoneCode` (body or query): a valid IANA zone. */
export function readTimeZone(value: unknown): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	if (typeof value !== 'string' || !isValidTimeZone(value.trim())) {
		throw invalidParam(`'timeZoneCode' must be an IANA time zone such as 'America/Los_Angeles', got '${String(value)}'`);
	}
	return value.trim();
}

// ---- views ----

/** Lead and assignee fields of both task views. */
function leadContext(store: Store, t: TaskRecord) {
	const lead = store.getLead(t.leadId);
	const name = lead ? [lead.firstName, lead.lastName].filter(Boolean).join(' ') : '';
	return {
		leadName: name,
		leadEmail: lead?.emails[0] ?? '',
		leadPhone: lead?.phones[0] ?? '',
		leadFirstName: lead?.firstName ?? '',
		leadLastName: lead?.lastName ?? '',
		pipelineId: lead?.stageId ?? 0n,
		leadUserId: lead?.leadUserId ?? 0n,
		reminderType: t.reminderType,
		assignedRole: t.assignedRole,
		assignedUser: userName(store.getUser(t.assignedUserId)),
	};
}

function userName(user: User | undefined): string {
	return user ? [user.firstName, user.lastName].filter(Boolean).join(' ') : '';
}

/** yyyy-MM-dd HH:mm:ss in UTC (V1 task times). */
export function v1Time(ms: number): string {
	return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

const overdue = (t: TaskRecord, now: number): boolean => !t.finishFlag && t.endAt < now;

/** TaskResponseV2 */
export function taskViewV2(store: Store, t: TaskRecord, now: number, zone: string, forceZone = false): Record<string, unknown> {
	const tz = forceZone ? zone : (t.timeZoneCode ?? zone);
	return {
		id: t.id,
		leadId: t.leadId,
		creatorId: t.creatorId,
		content: t.content,
		type: t.type,
		startAt: t.startAt === null ? null : isoInZone(t.startAt, tz),
		endAt: isoInZone(t.endAt, tz),
		timeZoneCode: t.timeZoneCode ?? zone,
		allDay: t.allDay,
		finishFlag: t.finishFlag,
		overdueFlag: overdue(t, now),
		finishTime: t.finishTime === null ? null : isoUtc(t.finishTime),
		createTime: isoUtc(t.createTime),
		lastUpdate: isoUtc(t.lastUpdate),
		...leadContext(store, t),
		teamId: t.teamId,
		subject: t.subject,
		body: t.body,
		assignedUserId: t.assignedUserId,
		queryInfo: t.smartPlan?.queryInfo ?? null,
		queryId: t.smartPlan?.queryId ?? null,
		address: t.address,
	};
}

/** TaskResponse (V1) */
export function taskViewV1(store: Store, t: TaskRecord, now: number): Record<string, unknown> {
	return {
		id: t.id,
		leadId: t.leadId,
		creatorId: t.creatorId,
		content: t.content,
		type: t.type,
		deadline: v1Time(t.endAt),
		finishTime: t.finishTime === null ? '' : v1Time(t.finishTime),
		createTime: v1Time(t.createTime),
		lastUpdate: v1Time(t.lastUpdate),
		deleteFlag: t.deleteFlag,
		finishFlag: t.finishFlag,
		overdueFlag: overdue(t, now),
		...leadContext(store, t),
		teamId: t.teamId,
		subject: t.subject,
		body: t.body,
		assignedUserId: t.assignedUserId,
		queryInfo: t.smartPlan?.queryInfo ?? null,
		queryId: t.smartPlan?.queryId ?? null,
	};
}

/** Appointment (GET /v1.0/appts): `deadline` is the start, `endTime` the end, both epoch ms; assignRoleType 1 Agent, 2 Assistant. */
export function appointmentViewV1(t: TaskRecord, now: number): Record<string, unknown> {
	return {
		id: t.id,
		descr: t.content,
		address: t.address,
		createTime: isoUtc(t.createTime),
		lastUpdate: isoUtc(t.lastUpdate),
		deadline: t.startAt ?? t.endAt,
		endTime: t.endAt,
		allDay: t.allDay,
		finishFlag: t.finishFlag,
		deleteFlag: t.deleteFlag,
		overdue: overdue(t, now),
		finishTime: t.finishTime,
		leadId: t.leadId,
		assignToUid: t.assignedUserId,
		assignRoleType: t.assignedRole === 'Agent' ? 1 : 2,
		creatorId: t.creatorId,
	};
}

// ---- seed ----

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** 2026-01-05T16:00:00Z */
const S0 = Date.UTC(2026, 0, 5, 16);

/** Identifiers of seeded tasks and appointments (exact digits; several exceed 2^53). */
export const TASK_SEED = {
	/** demo-owned lead above 2^53 holding a mix of entries */
	leadId: SEED_IDS.bigLeadId,
	/** open Call task (id above 2^53) */
	openTaskId: '9007199254760011',
	/** finished Email task */
	finishedTaskId: '563172647619608',
	/** open Smart Plan task */
	smartPlanTaskId: '563172647619709',
	/** open appointment (id above 2^53) */
	appointmentId: '9007199254760021',
	/** finished appointment */
	finishedAppointmentId: '563172647619810',
	/** task and appointment on a lead of the other agent that is not shared with the demo user */
	otherAgentTaskId: '563172647620012',
	otherAgentAppointmentId: '563172647620113',
	/** task on the lead the other agent shares with the demo user */
	sharedLeadTaskId: '563172647620214',
	/** a lead with neither tasks nor appointments */
	emptyLeadId: SEED_IDS.bigLeadId2,
	/** number of further open tasks assigned to the demo user (my-tasks), beyond the entries above */
	bulkTasks: 231,
} as const;

/** Seeded entries were created 10 days and last changed 9 days before `time`; each caller sets kind, type, content and times. */
function base(lead: Lead, assignee: bigint, creator: bigint, time: number) {
	return newTaskRecord(lead, creator, time - 10 * DAY, { kind: 'task', type: 'Other', content: '', endAt: time, assignedUserId: assignee, lastUpdate: time - 9 * DAY });
}

/** Seeds the tasks (task module). */
export function seedTasks(store: Store): void {
	const state = taskState(store);
	const demo = BigInt(SEED_IDS.demoUserId);
	const other = BigInt(SEED_IDS.otherAgentUserId);
	const lead = store.getLead(TASK_SEED.leadId)!;
	state.add({ ...base(lead, demo, demo, S0), id: BigInt(TASK_SEED.openTaskId), kind: 'task', type: 'Call', content: 'Call about the pre-approval', endAt: S0 + 2 * DAY });
	state.add({
		...base(lead, demo, demo, S0),
		id: BigInt(TASK_SEED.finishedTaskId),
		kind: 'task',
		type: 'Email',
		content: 'Send the Austin listings',
		subject: 'Austin listings',
		body: 'Here are the homes we talked about.',
		endAt: S0 - 3 * DAY,
		finishFlag: true,
		finishTime: S0 - 4 * DAY,
	});
	state.add({
		...base(lead, demo, 0n, S0),
		id: BigInt(TASK_SEED.smartPlanTaskId),
		kind: 'task',
		type: 'Text',
		content: 'Smart Plan: check in by text',
		endAt: S0 + 5 * DAY,
		smartPlan: { queryId: 88002001n, queryInfo: 'New Lead Nurture / step 3' },
	});
	const otherLead = store.getLead(SEED_IDS.notSharedLeadId)!;
	state.add({ ...base(otherLead, other, other, S0), id: BigInt(TASK_SEED.otherAgentTaskId), kind: 'task', type: 'Call', content: 'Oscar calls his lead', endAt: S0 + DAY });
	const shared = store.getLead(SEED_IDS.sharedLeadId)!;
	state.add({ ...base(shared, other, other, S0), id: BigInt(TASK_SEED.sharedLeadTaskId), kind: 'task', type: 'Other', content: 'Prepare the CMA', endAt: S0 + 3 * DAY });

	// many open tasks of the demo user over demo-owned leads, for my-tasks paging
	const leads = [...store.leads.values()].filter((l) => l.ownerUserId === demo && l.deletedAt === null && l.leadId !== lead.leadId).slice(6, 66);
	for (let k = 0; k < TASK_SEED.bulkTasks; k++) {
		const l = leads[k % leads.length];
		const due = S0 + (k % 97) * DAY + (k % 5) * HOUR;
		state.add({
			...base(l, demo, demo, due),
			id: (k % 3 === 0 ? 9007199254770001n : 563172647700001n) + BigInt(k) * 7n,
			kind: 'task',
			type: TASK_TYPES[k % 4],
			content: `Follow up #${k + 1} with ${l.firstName}`,
			endAt: due,
			finishFlag: k % 10 === 9,
			finishTime: k % 10 === 9 ? due - HOUR : null,
		});
	}
}

/** Seeds the appointments (appointment module). */
export function seedAppointments(store: Store): void {
	const state = taskState(store);
	const demo = BigInt(SEED_IDS.demoUserId);
	const other = BigInt(SEED_IDS.otherAgentUserId);
	const lead = store.getLead(TASK_SEED.leadId)!;
	state.add({
		...base(lead, demo, demo, S0),
		id: BigInt(TASK_SEED.appointmentId),
		kind: 'appointment',
		type: 'Appointment',
		content: 'Showing at 12 Oak Ave',
		address: '12 Oak Ave, Austin, TX 78701',
		timeZoneCode: 'America/Chicago',
		startAt: S0 + 3 * DAY,
		endAt: S0 + 3 * DAY + HOUR,
	});
	state.add({
		...base(lead, demo, demo, S0),
		id: BigInt(TASK_SEED.finishedAppointmentId),
		kind: 'appointment',
		type: 'Appointment',
		content: 'Buyer consultation',
		address: 'Main Office',
		timeZoneCode: 'America/Los_Angeles',
		startAt: S0 - 6 * DAY,
		endAt: S0 - 6 * DAY + 2 * HOUR,
		finishFlag: true,
		finishTime: S0 - 6 * DAY + 2 * HOUR,
	});
	const otherLead = store.getLead(SEED_IDS.notSharedLeadId)!;
	state.add({
		...base(otherLead, other, other, S0),
		id: BigInt(TASK_SEED.otherAgentAppointmentId),
		kind: 'appointment',
		type: 'Appointment',
		content: 'Listing appointment',
		address: '400 Congress Ave, Austin, TX',
		startAt: S0 + DAY,
		endAt: S0 + DAY + HOUR,
	});
}
