/**
 * Flows of the end-to-end plan (plan.ts) about a lead and what hangs on it: the lead's own operations, its
 * system log, custom fields, stages, ponds, notes, alerts and tags.
 */
import { SEED_IDS } from '../../sandbox';
import { NOTE_SEED } from '../../sandbox/resources/note';
import { POND_IDS } from '../../sandbox/resources/leadPond';
import { TX_SEED } from '../../sandbox/resources/transaction';
import { type Flow, allHave, byId, isId, ref } from './planSteps';

const BIG = SEED_IDS.bigLeadId;

export function leadFlow(): Flow {
	return {
		title: 'lead',
		steps: [
			{
				name: 'Create Lead',
				resource: 'lead',
				operation: 'create',
				params: { firstName: 'Eve', additionalFields: { lastName: 'E2E', emails: ['eve.e2e@example.com'], tags: ['VIP'], stage: 'New' } },
				count: 1,
				check: ([lead]) => isId(lead.leadId),
			},
			{
				name: 'Get Lead',
				resource: 'lead',
				operation: 'get',
				params: { leadId: byId(ref('Create Lead', 'leadId')) },
				count: 1,
				check: ([lead]) => {
					isId(lead.leadId);
					expect(lead.firstName).toBe('Eve');
				},
			},
			{
				name: 'Update Lead',
				resource: 'lead',
				operation: 'update',
				params: { leadId: byId(ref('Create Lead', 'leadId')), updateFields: { lastName: 'Updated', tagsAdd: ['Investor'] } },
				count: 1,
			},
			{
				name: 'Add Inquiry',
				resource: 'lead',
				operation: 'addInquiry',
				params: { leadId: byId(ref('Create Lead', 'leadId')), inquiryFields: { priceMin: 300000, priceMax: 500000, propertyType: ['Condo'] } },
				count: 1,
				check: ([it]) => isId(it.leadId),
			},
			{
				name: 'Update Property',
				resource: 'lead',
				operation: 'updateProperty',
				params: { leadId: byId(ref('Create Lead', 'leadId')), propertyFields: { streetAddress: '1 Main St', city: 'Austin', bedrooms: 3 } },
				count: 1,
			},
			{
				name: 'Assign Lead',
				resource: 'lead',
				operation: 'assign',
				params: { leadId: byId(ref('Create Lead', 'leadId')), assignees: { values: [{ role: 'Agent', assignee: 'demo.owner@example.com' }] } },
				count: 1,
			},
			{
				name: 'Add Activity',
				resource: 'lead',
				operation: 'addActivity',
				params: {
					leadId: byId(ref('Create Lead', 'leadId')),
					type: 'Search',
					created: '2026-03-01T10:00:00.000Z',
					text: 'Condo in Austin',
					link: 'https://example.com/search',
					picture: 'https://example.com/p.png',
				},
				count: 1,
			},
			{
				name: 'Get Lead After Changes',
				resource: 'lead',
				operation: 'get',
				params: { leadId: byId(ref('Create Lead', 'leadId')) },
				count: 1,
				check: ([lead]) => {
					expect(lead.lastName).toBe('Updated');
					expect(String(lead.assignedUserId)).toBe(SEED_IDS.demoUserId);
				},
			},
			{
				name: 'Delete Lead',
				resource: 'lead',
				operation: 'delete',
				params: { leadId: byId(ref('Create Lead', 'leadId')), reason: 'duplicate' },
				count: 1,
			},
			{
				name: 'Get Many Leads',
				resource: 'lead',
				operation: 'getAll',
				params: { returnAll: false, limit: 5 },
				count: 5,
				check: (items) => allHave(items, 'leadId'),
			},
			{
				name: 'Resolve Assignee',
				resource: 'lead',
				operation: 'resolveAssignee',
				params: { firstName: 'Zed', email: 'zed.e2e@example.com' },
			},
			{
				name: 'Site Activities',
				resource: 'lead',
				operation: 'getSiteActivities',
				params: { leadId: byId(SEED_IDS.activityLeadId), returnAll: false, limit: 20 },
				count: 20,
			},
			{
				name: 'Activities V2',
				resource: 'lead',
				operation: 'getActivities',
				params: { leadId: byId(SEED_IDS.activityLeadId), returnAll: true },
				count: [2, 1000],
			},
			{
				name: 'Saved Searches',
				resource: 'lead',
				operation: 'getSavedSearches',
				params: { leadId: byId(SEED_IDS.savedSearchLeadId), options: { includeInactive: true } },
				count: [2, 100],
			},
			{
				name: 'Sync Lead From Brokermint',
				resource: 'lead',
				operation: 'syncFromBrokermint',
				params: { contactFields: { externalId: TX_SEED.brokermintContactId, firstName: 'Brook' } },
				count: 1,
				check: ([it]) => expect(it).toMatchObject({ code: 0, message: 'success' }),
			},
		],
	};
}

export function systemLogFlow(): Flow {
	return {
		title: 'systemLog',
		steps: [
			{
				name: 'System Logs',
				resource: 'systemLog',
				operation: 'getAll',
				params: { leadId: byId(SEED_IDS.logsLeadId), returnAll: false, limit: 50 },
				count: 50,
			},
		],
	};
}

export function customFieldFlow(): Flow {
	return {
		title: 'customField',
		steps: [
			{
				name: 'Create Custom Field',
				resource: 'customField',
				operation: 'create',
				params: { attributeName: 'E2E Garage Size', attributeType: 'number' },
				count: 1,
			},
			{
				name: 'Get Many Custom Fields',
				resource: 'customField',
				operation: 'getAll',
				count: [2, 1000],
				check: (items) => expect(JSON.stringify(items)).toContain('E2E Garage Size'),
			},
		],
	};
}

export function leadPipelineFlow(): Flow {
	return {
		title: 'leadPipeline',
		steps: [
			{
				name: 'Lead Stages',
				resource: 'leadPipeline',
				operation: 'getAll',
				params: { returnAll: true },
				count: [8, 1000],
				check: (items) => {
					allHave(items, 'id');
					expect(items.map((i) => i.name)).toContain('Under Contract');
				},
			},
		],
	};
}

export function leadPondFlow(): Flow {
	return {
		title: 'leadPond',
		steps: [
			{ name: 'Lead Ponds', resource: 'leadPond', operation: 'getAll', count: [1, 100], check: (items) => allHave(items, 'id') },
			{ name: 'Get Lead Pond', resource: 'leadPond', operation: 'get', params: { id: POND_IDS.company }, count: 1, check: ([it]) => expect(it.id).toBe(POND_IDS.company) },
		],
	};
}

export function noteFlow(): Flow {
	return {
		title: 'note',
		steps: [
			{
				name: 'Create Note',
				resource: 'note',
				operation: 'create',
				params: { leadId: byId(BIG), content: 'Wants a pool', isPin: true },
				count: 1,
				check: ([it]) => isId(it.noteId),
			},
			{
				name: 'Get Note',
				resource: 'note',
				operation: 'get',
				params: { noteId: ref('Create Note', 'noteId') },
				count: 1,
				check: ([it]) => expect(it).toMatchObject({ content: 'Wants a pool', isPin: true }),
			},
			{ name: 'Update Note', resource: 'note', operation: 'update', params: { noteId: ref('Create Note', 'noteId'), content: 'Wants a pool and a garden', isPin: false }, count: 1 },
			{ name: 'Get Many Notes', resource: 'note', operation: 'getAll', params: { leadId: byId(NOTE_SEED.leadId) }, count: [3, 100] },
			{ name: 'Delete Note', resource: 'note', operation: 'delete', params: { noteId: ref('Create Note', 'noteId') }, count: 1 },
		],
	};
}

export function opportunityFlow(): Flow {
	return {
		title: 'opportunity',
		steps: [
			{
				name: 'Send Alert',
				resource: 'opportunity',
				operation: 'sendAlert',
				params: { leadId: byId(BIG), notificationType: 65, additionalFields: { message: 'Tour on Saturday?' } },
				count: 1,
				check: ([it]) => expect(it.dispatched).toBe(true),
			},
		],
	};
}

export function tagFlow(): Flow {
	return {
		title: 'tag',
		steps: [
			{
				name: 'Tags',
				resource: 'tag',
				operation: 'getAll',
				count: [3, 1000],
				check: (items) => {
					expect(items.map((i) => i.tagName)).toEqual(expect.arrayContaining(['Hot Lead', 'VIP']));
					expect(items.find((i) => i.tagName === 'Hot Lead')?.tagId).toBe('9007199254740995');
				},
			},
		],
	};
}
