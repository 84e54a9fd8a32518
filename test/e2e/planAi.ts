/**
 * Flows of the end-to-end plan (plan.ts) about Lofty's AI: AI insights and the AI sales agent.
 */
import { SEED_IDS } from '../../sandbox';
import { AI_IDS } from '../../sandbox/resources/ai';
import { SALES_AGENT_IDS } from '../../sandbox/resources/salesAgent';
import { type Flow, byId, ref } from './planSteps';

const BIG = SEED_IDS.bigLeadId;

export function aiFlow(): Flow {
	return {
		title: 'ai',
		steps: [
			{ name: 'Call Script', resource: 'ai', operation: 'generateCallScript', params: { leadId: byId(BIG), taskId: '9007199254740999' }, count: 1 },
			{ name: 'Generate Call Summary', resource: 'ai', operation: 'generateCallSummary', params: { callRecordId: '555', leadId: byId(BIG) }, count: 1 },
			{ name: 'Get Call Summary', resource: 'ai', operation: 'getCallSummary', params: { callRecordId: AI_IDS.finishedCallRecordId }, count: 1 },
			{ name: 'Prepare Insight', resource: 'ai', operation: 'prepareInsight', params: { leadId: byId(BIG), appointmentId: '200001' }, count: 1 },
			{ name: 'Create Lead Analysis', resource: 'ai', operation: 'createLeadAnalysis', params: { leadIds: [BIG, SEED_IDS.bigLeadId2] }, count: 1 },
			{ name: 'Get Lead Analyses', resource: 'ai', operation: 'getLeadAnalyses', params: { returnAll: false, limit: 5 }, count: 5 },
		],
	};
}

export function salesAgentFlow(): Flow {
	return {
		title: 'salesAgent',
		steps: [
			{ name: 'Current Sales Agent', resource: 'salesAgent', operation: 'getCurrent', count: 1, check: ([it]) => expect(it.id).toBe(SALES_AGENT_IDS.demoSalesAgentId) },
			{
				name: 'Create Lead For Sales Agent',
				resource: 'lead',
				operation: 'create',
				params: { firstName: 'Sal', additionalFields: { assignedUserId: SEED_IDS.demoUserId } },
				count: 1,
			},
			{
				name: 'Sales Agent By Lead',
				resource: 'salesAgent',
				operation: 'getByLead',
				params: { leadId: byId(ref('Create Lead For Sales Agent', 'leadId')) },
				count: 1,
				check: ([it]) => expect(it.id).toBe(SALES_AGENT_IDS.demoSalesAgentId),
			},
			{ name: 'Quota', resource: 'salesAgent', operation: 'getQuota', count: 1 },
			{ name: 'Settings', resource: 'salesAgent', operation: 'getSettings', count: 1 },
			{
				name: 'Update Settings',
				resource: 'salesAgent',
				operation: 'updateSettings',
				params: { id: SALES_AGENT_IDS.demoSalesAgentId, updateFields: { assistantName: 'Ava' } },
				count: 1,
				check: ([it]) => expect(it.message).toBe('success'),
			},
			{ name: 'Check Working Lead', resource: 'salesAgent', operation: 'checkWorkingLead', params: { leadId: byId(BIG) }, count: 1 },
			{ name: 'Mute Lead', resource: 'salesAgent', operation: 'muteLead', params: { leadId: byId(BIG) }, count: 1 },
			{
				name: 'Mute Status',
				resource: 'salesAgent',
				operation: 'getMuteStatus',
				params: { leadId: byId(BIG) },
				count: 1,
				check: ([it]) => expect(it).toEqual({ leadId: BIG, muted: true }),
			},
			{ name: 'Working Leads', resource: 'salesAgent', operation: 'getWorkingLeads', params: { returnAll: false, limit: 30 }, count: 30 },
			{
				name: 'Add Working Leads',
				resource: 'salesAgent',
				operation: 'addWorkingLeads',
				params: { leadIds: [SALES_AGENT_IDS.notWorkingLeadId] },
				count: 1,
				check: ([it]) => expect(it.succeededLeadIds).toEqual([SALES_AGENT_IDS.notWorkingLeadId]),
			},
			{ name: 'Create Plan Tasks', resource: 'salesAgent', operation: 'createPlanTasks', params: { leadIds: [BIG] }, count: 1 },
			{ name: 'Plan Tasks', resource: 'salesAgent', operation: 'getPlanTasks', params: { leadId: byId(BIG) }, count: [1, 100] },
			{ name: 'Sales Agent SMS', resource: 'salesAgent', operation: 'sendSmsViaAiNumber', params: { content: 'New hot lead!' }, count: 1 },
		],
	};
}
