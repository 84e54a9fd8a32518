import type { ResourceDef } from '../../model/types';

const POND_DENIED =
	'Lofty does not show this lead pond to the user behind this credential. On purpose, the same error covers a pond that does not exist, is disabled, belongs to another team, or lies outside the offices this user may manage. Check the ID (pick it from the list), or use the credential of a team owner or admin.';

export const leadPond: ResourceDef = {
	value: 'leadPond',
	name: 'Lead Pond',
	description: 'Shared lead ponds',
	operations: [
		{
			value: 'getAll',
			name: 'Get Many',
			action: "Get the team's lead ponds",
			description: 'The lead ponds of the team that the user may see',
			method: 'GET',
			effect: 'read',
			path: '/v1.0/team-features/lead-ponds',
			params: [],
		},
		{
			value: 'get',
			name: 'Get',
			action: 'Get a lead pond by ID',
			description: 'One lead pond with its owner and the agents who can claim its leads',
			method: 'GET',
			effect: 'read',
			path: '/v1.0/team-features/lead-pond/{id}',
			params: [
				{
					name: 'id',
					label: 'Lead Pond Name or ID',
					type: 'id',
					in: 'path',
					required: true,
					loadOptions: 'getLeadPonds',
					description: 'The lead pond to get. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				},
			],
			errorHints: { '20017': POND_DENIED },
		},
	],
};
