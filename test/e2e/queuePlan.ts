/**
 * What the queue-mode suite (queue.e2e.ts) runs on the workers: a representative set rather than every operation
 * (the single-process suite has those). Each pagination style over several pages, a write chain, both credential
 * types. Steps come from plan.ts where it has them; the multi-page reads are added here.
 */
import { SEED_IDS } from '../../sandbox';
import { type Flow, type Step, buildPlan, byId } from './plan';

/** The pagination style and requests each multi-page step makes (checked against the sandbox's request log). */
export const PAGED: Record<string, { style: string; method: string; path: string; requests: number }> = {
	'Leads Over Three Pages': { style: 'offset/limit (query)', method: 'GET', path: '/v1.0/leads', requests: 3 },
	'All System Logs': { style: 'pageNumber/pageSize (query)', method: 'GET', path: '/v1.0/systemLogs', requests: 3 },
	'All Site Activities': { style: 'curPage, fixed page size', method: 'GET', path: `/v1.0/leads/${SEED_IDS.activityLeadId}/activities`, requests: 4 },
	'My Tasks': { style: 'keyset currentId', method: 'GET', path: '/v2.0/tasks/my-tasks', requests: 2 },
};

export function buildQueuePlan(): Flow[] {
	const full = buildPlan();
	const steps = (title: string, names: string[]): Step[] => {
		const flow = full.find((f) => f.title === title)!;
		return names.map((n) => {
			const step = flow.steps.find((s) => s.name === n);
			if (!step) throw new Error(`plan.ts has no step "${n}" in "${title}"`);
			return step;
		});
	};
	return [
		{ title: 'lead writes', steps: steps('lead', ['Create Lead', 'Get Lead', 'Update Lead', 'Delete Lead']) },
		{
			title: 'paged reads (API key)',
			steps: [
				{ name: 'Leads Over Three Pages', resource: 'lead', operation: 'getAll', params: { returnAll: false, limit: 250 }, count: 250 },
				{ name: 'All System Logs', resource: 'systemLog', operation: 'getAll', params: { leadId: byId(SEED_IDS.logsLeadId), returnAll: true }, count: 2500 },
				{ name: 'All Site Activities', resource: 'lead', operation: 'getSiteActivities', params: { leadId: byId(SEED_IDS.activityLeadId), returnAll: true }, count: 320 },
				...steps('task', ['My Tasks']),
				...steps('transaction', ['Get Many Transactions']),
				...steps('communication', ['Search By Agent', 'Search By Agent V1']),
			],
		},
		{ title: 'listings (both credentials)', steps: steps('listing', ['Search Listings', 'Active Listings', 'Sold Listings']) },
	];
}
