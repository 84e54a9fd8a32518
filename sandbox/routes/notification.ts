/**
 * Notifications V2, from api-spec.md and the OpenAPI: a task-reminder app push to the agent assigned to a task
 * or appointment, and a system SMS or email to the caller. (The SMS from the Sales Agent's AI number is
 * served by the Sales Agent module: POST /v2.0/sales-agent/ai-number/send-sms-to-agent.)
 *
 * The OpenAPI declares only 400 for these ("task not found", "blank content", "blank subject or content"),
 * answered with INVALID_PARAMETER (20012) or MISSING_PARAMETER.
 */
import { invalidParam, missingParam } from '../errors';
import type { SandboxModule } from '../module';
import { asObject } from '../params';
import type { Route } from '../router';
import { requiredId, requiredText } from '../salesAgentHelpers';
import { SEED_IDS } from '../seed';
import type { Store } from '../store';

/** The spec gives TASK; the OpenAPI enum adds APPOINTMENT. Both are accepted. */
export const REMINDER_TYPES = ['TASK', 'APPOINTMENT'] as const;
export type ReminderType = (typeof REMINDER_TYPES)[number];

export interface ReminderTarget {
	id: bigint;
	type: ReminderType;
	teamId: bigint;
	assignedUserId: bigint;
}

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
	/**
	 * Tasks and appointments a reminder can be pushed for. The task and appointment emulators keep their own
	 * records; this module knows the seeded ones below and any added with `addReminderTarget`.
	 */
	targets = new Map<string, ReminderTarget>();
	sent: SentNotification[] = [];
}

export const notificationState = (store: Store): NotificationState => store.ext('notification', () => new NotificationState());

export function addReminderTarget(store: Store, target: ReminderTarget): void {
	notificationState(store).targets.set(target.id.toString(), target);
}

export const NOTIFICATION_IDS = {
	taskId: '8800000001',
	appointmentId: '8800000002',
	/** a task whose id is above 2^53, assigned to the other agent of the demo team */
	bigTaskId: '9007199254770001',
	/** a task of another team */
	foreignTaskId: '8800000009',
} as const;

const routes: Route[] = [
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
			const state = notificationState(ctx.store);
			const target = state.targets.get(taskId.toString());
			if (!target || target.type !== type || target.teamId !== ctx.user.teamId) {
				throw invalidParam(`${type === 'TASK' ? 'task' : 'appointment'} ${taskId} not found`);
			}
			const agent = ctx.store.getUser(target.assignedUserId);
			state.sent.push({ channel: 'push', toUserId: target.assignedUserId, to: agent?.email ?? '', content: `Reminder: ${type.toLowerCase()} ${taskId}`, refId: taskId, time: ctx.now });
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

function seed(store: Store): void {
	const teamId = BigInt(SEED_IDS.teamId);
	const demo = BigInt(SEED_IDS.demoUserId);
	addReminderTarget(store, { id: BigInt(NOTIFICATION_IDS.taskId), type: 'TASK', teamId, assignedUserId: demo });
	addReminderTarget(store, { id: BigInt(NOTIFICATION_IDS.appointmentId), type: 'APPOINTMENT', teamId, assignedUserId: demo });
	addReminderTarget(store, { id: BigInt(NOTIFICATION_IDS.bigTaskId), type: 'TASK', teamId, assignedUserId: BigInt(SEED_IDS.otherAgentUserId) });
	addReminderTarget(store, { id: BigInt(NOTIFICATION_IDS.foreignTaskId), type: 'TASK', teamId: 99999n, assignedUserId: 99999001n });
}

/** Notification endpoints. */
export const notificationModule: SandboxModule = { name: 'notification', routes, seed };
