/**
 * Calendar V2's view of the task and appointment records of ../task/state.ts. There is no calendar store:
 * api-spec.md General rule 4 says "Tasks and appointments share one task identifier namespace; V2 endpoints
 * resolve the target by identifier regardless of its kind. Calendar V2 identifiers are composite strings of the
 * form `<numericId>-task` or `<numericId>-appointment`", and the OpenAPI's calendar item carries that number as
 * `taskId`. So `<n>-task` is task n of Tasks V2, and both routes read and write the same record.
 *
 * A caller's calendar holds the live entries assigned to them (as my-tasks). A task with only a deadline sits
 * at its deadline. An entry without its own time zone is shown in the caller's.
 */
import type { Store } from '../../core/store';
import { liveLead } from '../task/access';
import { type TaskRecord, taskState } from '../task/state';
import { isValidTimeZone, isoInZone } from '../../core/time';
import type { User } from '../../core/types';

export type CalendarKind = TaskRecord['kind'];

/** sourceType codes of the calendar (sandbox values): 1 task, 2 appointment, 4 Smart Plan task */
export const SOURCE_TYPE = { TASK: 1, APPOINTMENT: 2, SMART_PLAN: 4 } as const;
export const TASK_WAYS = ['Call', 'Email', 'Text', 'Other'] as const;
export const CALENDAR_ROLES = ['Agent', 'Assistant'] as const;

export const calendarIdOf = (t: Pick<TaskRecord, 'id' | 'kind'>): string => `${t.id}-${t.kind}`;

/** `<digits>-task` / `<digits>-appointment`, else null. */
export function parseCalendarId(raw: string): { id: bigint; kind: CalendarKind } | null {
	const m = /^(\d+)-(task|appointment)$/.exec(raw);
	return m ? { id: BigInt(m[1]), kind: m[2] as CalendarKind } : null;
}

export const startOf = (t: TaskRecord): number => t.startAt ?? t.endAt;

export function sourceTypeOf(t: TaskRecord): number {
	if (t.kind === 'appointment') return SOURCE_TYPE.APPOINTMENT;
	return t.smartPlan ? SOURCE_TYPE.SMART_PLAN : SOURCE_TYPE.TASK;
}

export const userZone = (user: User | undefined): string => (user && isValidTimeZone(user.timeZoneId) ? user.timeZoneId : 'UTC');

/** The calendar of a user: live entries assigned to them. */
export function calendarOf(store: Store, userId: bigint): TaskRecord[] {
	return [...taskState(store).entries.values()].filter((t) => t.assignedUserId === userId && !t.deleteFlag && liveLead(store, t.leadId) !== undefined);
}

/** CalendarItemV2 */
export function calendarView(t: TaskRecord, store: Store, fallbackZone: string): Record<string, unknown> {
	const zone = t.timeZoneCode ?? fallbackZone;
	const lead = store.getLead(t.leadId);
	const name = lead ? [lead.firstName, lead.lastName].filter(Boolean).join(' ') : `Lead ${t.leadId}`;
	return {
		id: calendarIdOf(t),
		type: t.kind.toUpperCase(),
		taskId: t.id,
		sourceType: sourceTypeOf(t),
		content: t.content,
		title: `${name} - ${t.kind === 'task' ? t.type : 'Appointment'}`,
		finished: t.finishFlag,
		startAt: isoInZone(startOf(t), zone),
		endAt: isoInZone(t.endAt, zone),
		startAtMs: startOf(t),
		endAtMs: t.endAt,
		timeZoneCode: zone,
		leadId: t.leadId,
	};
}

/** The calendar fields of an entry, as the sandbox's earlier calendar store held them (read by tests). */
export interface CalendarEntry {
	num: bigint;
	kind: CalendarKind;
	leadId: bigint;
	/** the user whose calendar holds the entry: its assignee */
	ownerUserId: bigint;
	content: string;
	startMs: number;
	endMs: number;
	timeZoneCode: string;
	taskWay: string | null;
	assignedRole: string | null;
	address: string | null;
	allDay: boolean;
	reminderType: string | null;
	reminderTime: string | null;
	finished: boolean;
	sourceType: number;
	smartPlan: boolean;
	createTime: number;
	updateTime: number;
}

/**
 * A read-only snapshot of every live entry by composite ID, for tests that inspect the calendar. Writes go
 * through the routes (or taskState); changing these objects changes nothing.
 */
export function calendarState(store: Store): { entries: ReadonlyMap<string, CalendarEntry> } {
	const entries = new Map<string, CalendarEntry>();
	for (const t of taskState(store).entries.values()) {
		if (t.deleteFlag || !liveLead(store, t.leadId)) continue;
		const task = t.kind === 'task';
		entries.set(calendarIdOf(t), {
			num: t.id,
			kind: t.kind,
			leadId: t.leadId,
			ownerUserId: t.assignedUserId,
			content: t.content,
			startMs: startOf(t),
			endMs: t.endAt,
			timeZoneCode: t.timeZoneCode ?? userZone(store.getUser(t.assignedUserId)),
			taskWay: task ? t.type : null,
			assignedRole: task ? t.assignedRole : null,
			address: task ? null : t.address,
			allDay: t.allDay,
			reminderType: t.calendarReminderType,
			reminderTime: t.calendarReminderTime,
			finished: t.finishFlag,
			sourceType: sourceTypeOf(t),
			smartPlan: t.smartPlan !== null,
			createTime: t.createTime,
			updateTime: t.lastUpdate,
		});
	}
	return { entries };
}
