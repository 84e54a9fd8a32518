/** Wire shapes of tasks: TaskResponse (V1) and TaskResponseV2. */
import type { Store } from '../../core/store';
import { isoInZone, isoUtc } from '../../core/time';
import type { User } from '../../core/types';
import type { TaskRecord } from './state';

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

export const overdue = (t: TaskRecord, now: number): boolean => !t.finishFlag && t.endAt < now;

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
