/**
 * Flows of the end-to-end plan for no-code users: Lead > Create or Update (a new person, then the same person
 * again: one lead, tags added), custom fields by name through the mapper and read back as name: value.
 */
import type { Flow, Json } from './plan';

const mapped = (value: Json): Json => ({ mappingMode: 'defineBelow', value, matchingColumns: [], schema: [] });

export function noCodeFlows(): Flow[] {
	let createdId: string | undefined;
	const email = `cora.${Date.now()}@example.com`;
	return [
		{
			title: 'lead create or update',
			steps: [
				{
					name: 'Create or Update (new person)',
					resource: 'lead',
					operation: 'upsert',
					params: { firstName: 'Cora', email, phone: '4155550199', additionalFields: { tags: ['Web Form'] }, customFieldValues: mapped({ Financing: 'VA' }) },
					count: 1,
					check: ([lead]) => {
						expect(lead).toMatchObject({ action: 'created', firstName: 'Cora', emails: [email] });
						createdId = lead.leadId;
					},
				},
				{
					name: 'Create or Update (same person)',
					resource: 'lead',
					operation: 'upsert',
					params: { firstName: 'Cora', email: email.toUpperCase(), additionalFields: { lastName: 'Known', tags: ['Open House'] } },
					count: 1,
					check: ([lead]) => {
						expect(lead).toMatchObject({ action: 'updated', matchedBy: 'email', leadId: createdId, lastName: 'Known' });
						expect(lead.tags.map((t: Json) => t.tagName).sort()).toEqual(['Open House', 'Web Form']);
					},
				},
				{
					name: 'Get With Custom Fields By Name',
					resource: 'lead',
					operation: 'get',
					params: { leadId: { __rl: true, mode: 'id', value: "={{ $('Create or Update (new person)').first().json.leadId }}" }, options: { customFieldsByName: true } },
					count: 1,
					check: ([lead]) => expect(lead.customFields).toEqual({ Financing: 'VA' }),
				},
			],
		},
	];
}
