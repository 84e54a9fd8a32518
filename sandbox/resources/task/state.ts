/**
 * Tasks and appointments of the sandbox: one record kind in one identifier namespace (api-spec.md General rule 4),
 * shared by the task module (V1 and V2 task endpoints), the appointment module (GET /v1.0/appts), Calendar V2
 * (../calendar/entries.ts) and the task-reminder push (../notification).
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
 *   400 20012; endAt before startAt is 400 20012. A V2 create without timeZoneCode holds the entry in the creating
 *   user's zone (their profile's timeZoneId: Lofty's fallback, seen live as `timeZoneCode America/Los_Angeles` on a
 *   task made by a Los Angeles user for a Chicago agent); an update keeps the entry's zone unless it sends one.
 *   Answers format startAt/endAt in the entry's timeZoneCode (an entry made without one, as V1 tasks: the caller's
 *   time zone), my-tasks in its `timeZoneCode` parameter (else the caller's time zone).
 */
import { ApiError, Codes } from '../../core/errors';
import type { Store } from '../../core/store';

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
