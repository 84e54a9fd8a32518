/** GET /v1.0/appts: the appointments of a lead (a bare array). Records live in ../task/state.ts with the tasks. */
import type { Route } from '../../core/router';
import { isoUtc } from '../../core/time';
import { leadFromQuery } from '../task/access';
import { type TaskRecord, taskState } from '../task/state';
import { overdue } from '../task/views';

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

export const appointmentRoutes: Route[] = [
	{
		method: 'GET',
		pattern: '/v1.0/appts',
		handler: (ctx) => {
			const lead = leadFromQuery(ctx);
			return { body: taskState(ctx.store).ofLead(lead.leadId, 'appointment').map((t) => appointmentViewV1(t, ctx.now)) };
		},
	},
];
