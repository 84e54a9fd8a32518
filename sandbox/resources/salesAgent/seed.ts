/** Sales Agent demo data: the demo user's assistant with a pool of 130 working leads, one without an AI number. */
import { SEED_IDS } from '../../core/seed';
import type { Store } from '../../core/store';
import { AI_STAGES, type SalesAgentSettings, createPlanTasks, salesAgentState } from './state';

const DAY = 86_400_000;

/** Seeded Sales Agent identifiers (the demo user's is above 2^53). */
export const SALES_AGENT_IDS = {
	demoSalesAgentId: '9007199254760001',
	/** a team member whose Sales Agent has no AI virtual number */
	noNumberUserId: '302656410082801',
	noNumberSalesAgentId: '7100000002',
	/** demo total quota */
	demoQuota: 200,
	/** working leads seeded in the demo user's pool */
	demoPoolSize: 130,
	/** a demo-accessible lead that is not in the pool */
	notWorkingLeadId: SEED_IDS.activityLeadId,
} as const;

const T_SEED = Date.UTC(2026, 0, 5, 15, 0, 0);

function settingsFor(name: string, virtualNumber: string): SalesAgentSettings {
	return {
		assistantName: name,
		headUrl: 'https://cdn.example.com/ai/assistant.png',
		virtualNumber,
		virtualNumberCountry: 'US',
		callTransferType: 'Disabled',
		fixedNumber: '',
		agentExperience: '10 years in Austin real estate',
		rentalBusiness: false,
		websiteChannel: true,
		textChannel: true,
		emailChannel: true,
		startActiveHour: 8,
		endActiveHour: 20,
		activeDays: [1, 2, 3, 4, 5],
		leadTypes: [],
		leadSources: [],
		leadPipelines: [],
		agentIds: [-1n],
		officeIds: [-1n],
		leadPondIds: [],
		newLeadEnable: true,
		visitorsEnable: false,
		followUpRole: 'AI',
		hostedStatus: 'ACTIVE',
	};
}

export function seedSalesAgents(store: Store): void {
	const state = salesAgentState(store);
	const demo = BigInt(SEED_IDS.demoUserId);
	const noNumber = BigInt(SALES_AGENT_IDS.noNumberUserId);
	state.agents.set(demo.toString(), {
		id: BigInt(SALES_AGENT_IDS.demoSalesAgentId),
		userId: demo,
		assistantHeadUrl: 'https://cdn.example.com/ai/anna.png',
		followUpRole: 'buyer_agent',
		email: 'anna.assistant@example.com',
		status: 'ACTIVE',
		createdAt: T_SEED - 40 * DAY,
		updatedAt: T_SEED,
		hasQuotaSeat: true,
		borrowLevel: 'SELF',
		borrowId: null,
		totalQuota: SALES_AGENT_IDS.demoQuota,
		settings: settingsFor('Anna', '+15125550199'),
	});
	if (store.getUser(noNumber)) {
		state.agents.set(noNumber.toString(), {
			id: BigInt(SALES_AGENT_IDS.noNumberSalesAgentId),
			userId: noNumber,
			assistantHeadUrl: 'https://cdn.example.com/ai/ben.png',
			followUpRole: 'listing_agent',
			email: 'ben.assistant@example.com',
			status: 'ACTIVE',
			createdAt: T_SEED - 10 * DAY,
			updatedAt: T_SEED - 10 * DAY,
			hasQuotaSeat: true,
			borrowLevel: 'TEAM',
			borrowId: BigInt(SEED_IDS.teamId),
			totalQuota: 50,
			settings: settingsFor('Ben', ''),
		});
	}

	// The demo pool: the big lead first, then demo-accessible leads by ID, 130 in all.
	const demoUser = store.getUser(demo)!;
	const accessible = [...store.leads.values()]
		.filter((l) => l.deletedAt === null && store.canAccess(demoUser.userId, l))
		.sort((a, b) => (a.leadId < b.leadId ? -1 : 1));
	const big = store.getLead(SEED_IDS.bigLeadId);
	const chosen = [...(big ? [big] : []), ...accessible.filter((l) => l !== big && l.leadId !== BigInt(SEED_IDS.activityLeadId))].slice(
		0,
		SALES_AGENT_IDS.demoPoolSize,
	);
	const pool = state.poolOf(demo);
	chosen.forEach((lead, i) => {
		pool.set(lead.leadId.toString(), {
			leadId: lead.leadId,
			aiStage: AI_STAGES[i % 3],
			createdAt: T_SEED - (200 - i) * DAY,
			updatedAt: T_SEED - ((i * 37) % 101) * 3_600_000,
		});
	});
	if (big) {
		createPlanTasks(state, big, demo, T_SEED);
		state.planTasks[0].finished = true;
	}
	state.muted.add(chosen[1]?.leadId.toString() ?? '');
}
