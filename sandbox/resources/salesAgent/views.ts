/** Wire shapes of the Sales Agent endpoints. */
import type { Ctx } from '../../core/router';
import { iso } from '../../core/time';
import type { Lead } from '../../core/types';
import type { PlanTask, SalesAgent, SalesAgentState, WorkingEntry } from './state';

export function salesAgentView(sa: SalesAgent, ctx: Ctx): Record<string, unknown> {
	const user = ctx.store.getUser(sa.userId);
	return {
		id: sa.id,
		userId: sa.userId,
		agentName: user ? `${user.firstName} ${user.lastName}`.trim() : '',
		agentHeadUrl: `https://cdn.example.com/avatar/${sa.userId}.jpg`,
		assistantName: sa.settings.assistantName,
		assistantHeadUrl: sa.assistantHeadUrl,
		virtualNumber: sa.settings.virtualNumber,
		virtualNumberCountry: sa.settings.virtualNumberCountry,
		followUpRole: sa.followUpRole,
		agentExperience: sa.settings.agentExperience,
		email: sa.email,
		status: sa.status,
		createdAt: iso(sa.createdAt),
		updatedAt: iso(sa.updatedAt),
		hasQuotaSeat: sa.hasQuotaSeat,
		borrowLevel: sa.borrowLevel,
		borrowId: sa.borrowId,
	};
}

export function settingsView(sa: SalesAgent): Record<string, unknown> {
	return { id: sa.id, ...sa.settings };
}

export function workingLeadView(lead: Lead, entry: WorkingEntry, state: SalesAgentState): Record<string, unknown> {
	return {
		leadId: lead.leadId,
		firstName: lead.firstName,
		lastName: lead.lastName,
		email: lead.emails[0] ?? '',
		phone: lead.phones[0] ?? '',
		createdAt: iso(entry.createdAt),
		aiStage: entry.aiStage,
		taskCount: state.tasksOf(lead.leadId).length,
		updatedAt: iso(entry.updatedAt),
	};
}

export function planTaskView(t: PlanTask, now: number): Record<string, unknown> {
	return {
		id: t.id,
		content: t.content,
		taskType: t.taskType,
		status: t.finished ? 'FINISHED' : t.dueAt < now ? 'OVERDUE' : 'PENDING',
		dueAt: iso(t.dueAt),
		createdAt: iso(t.createdAt),
		assignedTo: t.assignedTo,
		creatorId: t.creatorId,
	};
}
