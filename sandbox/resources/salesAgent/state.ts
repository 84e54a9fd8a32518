/** Sales Agents as the sandbox keeps them: each user's assistant and settings, working pools, mutes, plan tasks, AI SMS. */
import type { Store } from '../../core/store';
import type { Lead } from '../../core/types';

export const AI_STAGES = ['HIGH_PRIORITY', 'AI_PROSPECTING', 'AI_MONITORING'] as const;
export type AiStage = (typeof AI_STAGES)[number];
const DAY = 86_400_000;

export interface SalesAgentSettings {
	assistantName: string;
	headUrl: string;
	virtualNumber: string;
	virtualNumberCountry: string;
	callTransferType: 'Disabled' | 'ToAssignedAgent';
	fixedNumber: string;
	agentExperience: string;
	rentalBusiness: boolean;
	websiteChannel: boolean;
	textChannel: boolean;
	emailChannel: boolean;
	startActiveHour: number;
	endActiveHour: number;
	activeDays: number[];
	leadTypes: number[];
	leadSources: bigint[];
	leadPipelines: bigint[];
	agentIds: bigint[];
	officeIds: bigint[];
	leadPondIds: bigint[];
	newLeadEnable: boolean;
	visitorsEnable: boolean;
	followUpRole: 'AI' | 'Agent';
	hostedStatus: string;
}

export interface SalesAgent {
	id: bigint;
	userId: bigint;
	assistantHeadUrl: string;
	/** buyer_agent, listing_agent (the profile's role; the settings carry AI / Agent) */
	followUpRole: string;
	email: string;
	status: 'ACTIVE' | 'INACTIVE';
	createdAt: number;
	updatedAt: number;
	hasQuotaSeat: boolean;
	borrowLevel: 'SELF' | 'GROUP' | 'TEAM';
	borrowId: bigint | null;
	totalQuota: number;
	settings: SalesAgentSettings;
}

export interface WorkingEntry {
	leadId: bigint;
	aiStage: AiStage;
	createdAt: number;
	updatedAt: number;
}

export interface PlanTask {
	id: bigint;
	leadId: bigint;
	content: string;
	taskType: 'CALL' | 'TEXT' | 'EMAIL';
	finished: boolean;
	dueAt: number;
	createdAt: number;
	assignedTo: bigint;
	creatorId: bigint;
}

export interface SentSms {
	from: string;
	to: string;
	content: string;
	userId: bigint;
	time: number;
}

export class SalesAgentState {
	/** by owner user id */
	agents = new Map<string, SalesAgent>();
	/** working pool of each user's Sales Agent: user id -> lead id -> entry */
	pools = new Map<string, Map<string, WorkingEntry>>();
	/** AI muted leads (by lead id) */
	muted = new Set<string>();
	planTasks: PlanTask[] = [];
	/** SMS sent from an AI virtual number */
	aiSms: SentSms[] = [];
	nextPlanTaskId = 9007199254780001n;

	agentOf(userId: bigint): SalesAgent | undefined {
		return this.agents.get(userId.toString());
	}

	poolOf(userId: bigint): Map<string, WorkingEntry> {
		const k = userId.toString();
		if (!this.pools.has(k)) this.pools.set(k, new Map());
		return this.pools.get(k)!;
	}

	tasksOf(leadId: bigint): PlanTask[] {
		return this.planTasks.filter((t) => t.leadId === leadId);
	}
}

export const salesAgentState = (store: Store): SalesAgentState => store.ext('salesAgent', () => new SalesAgentState());

/** Three plan tasks (call, text, email) for a lead, due in 1, 2 and 3 days. */
export function createPlanTasks(state: SalesAgentState, lead: Lead, userId: bigint, now: number): void {
	const kinds: Array<[PlanTask['taskType'], string, number]> = [
		['CALL', `Call ${lead.firstName} to check on their home search`, 1],
		['TEXT', `Text ${lead.firstName} new listings that match`, 2],
		['EMAIL', `Email ${lead.firstName} a market update`, 3],
	];
	for (const [taskType, content, days] of kinds) {
		state.planTasks.push({
			id: state.nextPlanTaskId++,
			leadId: lead.leadId,
			content,
			taskType,
			finished: false,
			dueAt: now + days * DAY,
			createdAt: now,
			assignedTo: userId,
			creatorId: userId,
		});
	}
}
