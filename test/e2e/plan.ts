/**
 * What the end-to-end suite runs in a real n8n: one workflow per resource, Manual Trigger followed by a chain
 * of Lofty nodes (each set to Execute Once, so a list does not multiply the next node's runs), and what a user
 * would see in each node's output. Parameter sets come from the node tests (test/node/*.test.ts); records a
 * step needs are either seeded by the sandbox or created by an earlier step of the same workflow and reached
 * with an expression, as a user would chain them.
 *
 * Steps that change seeded records restore them or work on records they created, so flows do not depend on
 * their order.
 */
import { agentFlow, memberFlow, organizationFlow, routingFlow, webhookFlow } from './planAccount';
import { aiFlow, salesAgentFlow } from './planAi';
import { callFlow, communicationFlow, manualLogFlow, notificationFlow } from './planComms';
import { listingFlow, transactionFlow, vendorFlow } from './planDeals';
import { customFieldFlow, leadFlow, leadPipelineFlow, leadPondFlow, noteFlow, opportunityFlow, systemLogFlow, tagFlow } from './planLead';
import { appointmentFlow, calendarFlow, taskFlow } from './planSchedule';
import { noCodeFlows } from './planNoCode';
import type { Flow } from './planSteps';

export { type Flow, type Json, type Step, byId, ref } from './planSteps';

export function buildPlan(): Flow[] {
	return [
		leadFlow(),
		systemLogFlow(),
		agentFlow(),
		aiFlow(),
		appointmentFlow(),
		calendarFlow(),
		callFlow(),
		communicationFlow(),
		customFieldFlow(),
		leadPipelineFlow(),
		leadPondFlow(),
		listingFlow(),
		manualLogFlow(),
		memberFlow(),
		noteFlow(),
		notificationFlow(),
		opportunityFlow(),
		organizationFlow(),
		routingFlow(),
		salesAgentFlow(),
		tagFlow(),
		taskFlow(),
		transactionFlow(),
		vendorFlow(),
		webhookFlow(),
		...noCodeFlows(),
	];
}

/** The smaller set run on the older n8n line: one read per kind of output, a write chain, OAuth2. */
export function buildSmallPlan(): Flow[] {
	const full = buildPlan();
	const pick = (title: string, names?: string[]): Flow => {
		const flow = full.find((f) => f.title === title)!;
		return { title, steps: names ? flow.steps.filter((s) => names.includes(s.name)) : flow.steps };
	};
	return [
		pick('lead', ['Create Lead', 'Get Lead', 'Update Lead', 'Delete Lead', 'Get Many Leads']),
		pick('task'),
		pick('listing', ['Search Listings', 'Active Listings']),
		pick('member'),
		pick('webhook'),
		pick('lead create or update'),
	];
}
