/**
 * Notifications V2, from api-spec.md and the OpenAPI: a task-reminder app push to the agent assigned to a task
 * or appointment, and a system SMS or email to the caller. (The SMS from the Sales Agent's AI number is
 * served by the Sales Agent module: POST /v2.0/sales-agent/ai-number/send-sms-to-agent.)
 *
 * The OpenAPI declares only 400 for these ("task not found", "blank content", "blank subject or content"),
 * answered with INVALID_PARAMETER (20012) or MISSING_PARAMETER.
 *
 * The reminder resolves `taskId` in the one task store (../task/state.ts), so it sees every task and appointment,
 * whichever route (V1, V2, Calendar V2) created it: an entry of the caller's team, of the kind `type` names,
 * not deleted.
 */
import { invalidParam, missingParam } from '../../core/errors';
import { asObject, requiredId, requiredText } from '../../core/params';
import type { Route } from '../../core/router';
import { SEED_IDS } from '../../core/seed';
import type { Store } from '../../core/store';
import { newTaskRecord, taskState } from '../task/state';

/** The spec gives TASK; the OpenAPI enum adds APPOINTMENT. Both are accepted. */
export const REMINDER_TYPES = ['TASK', 'APPOINTMENT'] as const;
export type ReminderType = (typeof REMINDER_TYPES)[number];

export interface SentNotification {
	channel: 'push' | 'sms' | 'email';
	toUserId: bigint;
	to: string;
	subject?: string;
	content: string;
	refId?: bigint;
	time: number;
}

export class NotificationState {
	sent: SentNotification[] = [];
}

export const notificationState = (store: Store): NotificationState => store.ext('notification', () => new NotificationState());

/** Tasks and appointments seeded for the reminder (in the shared task store). */
export const NOTIFICATION_IDS = {
	/** the demo user's task */
	taskId: '8800000001',
	/** the demo user's appointment */
	appointmentId: '8800000002',
	/** a task whose id is above 2^53, assigned to the other agent of the demo team (was 9007199254770001, a seeded task's id) */
	bigTaskId: '9007199254780001',
	/** a task of another team */
	foreignTaskId: '8800000009',
} as const;

export const notificationRoutes: Route[] = [
	{
		method: 'POST',
		pattern: '/v2.0/sales-agent/notification/app-push/send-task-reminder',
		body: 'json',
		handler: (ctx) => {
			const body = asObject(ctx.body);
			const taskId = requiredId(body, 'taskId');
			if (body.type === undefined || body.type === null) throw missingParam('type');
			const type = String(body.type);
			if (!(REMINDER_TYPES as readonly string[]).includes(type)) throw invalidParam(`'type' must be TASK or APPOINTMENT, got '${type}'`);
			const target = taskState(ctx.store).find(taskId);
			const kind = type === 'TASK' ? 'task' : 'appointment';
			if (!target || target.deleteFlag || target.kind !== kind || target.teamId !== ctx.user.teamId) {
				throw invalidParam(`${kind} ${taskId} not found`);
			}
			const agent = ctx.store.getUser(target.assignedUserId);
			notificationState(ctx.store).sent.push({ channel: 'push', toUserId: target.assignedUserId, to: agent?.email ?? '', content: `Reminder: ${type.toLowerCase()} ${taskId}`, refId: taskId, time: ctx.now });
			return { body: { message: 'Push sent successfully' } };
		},
	},
	{
		method: 'POST',
		pattern: '/v2.0/sales-agent/message/sms/send-to-agent',
		body: 'json',
		handler: (ctx) => {
			const content = requiredText(asObject(ctx.body), 'content');
			if (!ctx.user.phoneNumber) throw invalidParam('the current user has no phone number');
			notificationState(ctx.store).sent.push({ channel: 'sms', toUserId: ctx.user.userId, to: ctx.user.phoneNumber, content, time: ctx.now });
			return { body: { message: 'SMS sent successfully' } };
		},
	},
	{
		method: 'POST',
		pattern: '/v2.0/sales-agent/message/email/send-to-agent',
		body: 'json',
		handler: (ctx) => {
			const body = asObject(ctx.body);
			const subject = requiredText(body, 'subject');
			const content = requiredText(body, 'content');
			notificationState(ctx.store).sent.push({ channel: 'email', toUserId: ctx.user.userId, to: ctx.user.email, subject, content, time: ctx.now });
			return { body: { message: 'Email sent successfully' } };
		},
	},
];

/** 2025-12-20T16:00:00Z */
const T = Date.UTC(2025, 11, 20, 16);

export function seedNotification(store: Store): void {
	const state = taskState(store);
	const demo = BigInt(SEED_IDS.demoUserId);
	const other = BigInt(SEED_IDS.otherAgentUserId);
	const mine = store.getLead(SEED_IDS.savedSearchLeadId)!;
	const add = (id: string, lead: { leadId: bigint; teamId: bigint }, assignee: bigint, fields: { kind: 'task' | 'appointment'; content: string; startAt?: number }) =>
		state.add({ ...newTaskRecord(lead, assignee, T - 86_400_000, { type: fields.kind === 'task' ? 'Call' : 'Appointment', endAt: T, assignedUserId: assignee, ...fields }), id: BigInt(id) });
	add(NOTIFICATION_IDS.taskId, mine, demo, { kind: 'task', content: 'Call about the inspection' });
	add(NOTIFICATION_IDS.appointmentId, mine, demo, { kind: 'appointment', content: 'Final walk-through', startAt: T - 3_600_000 });
	add(NOTIFICATION_IDS.bigTaskId, store.getLead(SEED_IDS.notSharedLeadId)!, other, { kind: 'task', content: 'Oscar: call the lender' });
	// another team's task: its lead is not in this sandbox, so no list shows it; only the team check can refuse it
	add(NOTIFICATION_IDS.foreignTaskId, { leadId: 99999000001n, teamId: 99999n }, 99999001n, { kind: 'task', content: 'Foreign task' });
}
