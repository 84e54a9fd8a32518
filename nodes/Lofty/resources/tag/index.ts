import type { ResourceDef } from '../../model/types';

export const tag: ResourceDef = {
	value: 'tag',
	name: 'Tag',
	description: 'Lead tags of the team',
	operations: [
		{
			value: 'getAll',
			name: 'Get Many',
			action: 'Get the lead tags of the team',
			description: 'Lead tags the user can see: the team-wide tags and the user\'s own private tags. Leads take tags by name.',
			method: 'GET',
			effect: 'read',
			path: '/v1.0/teamFeatures/listTag',
			params: [],
		},
	],
};
