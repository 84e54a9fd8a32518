import type { ResourceDef } from '../../model/types';

export const vendor: ResourceDef = {
	value: 'vendor',
	name: 'Vendor',
	description: 'Vendors of the team',
	operations: [
		{
			value: 'getAll',
			name: 'Get Many',
			action: "Get the team's vendors",
			description:
				'The vendor directory of your team: team members, sub-accounts and outside contacts such as lenders or inspectors, in no particular order',
			method: 'GET',
			effect: 'read',
			path: '/v1.0/vendor/list',
			// A bare array, all vendors at once: Lofty offers no paging here.
			params: [],
			errorHints: {
				'20017':
					"The Lofty user behind this credential may not list the team's vendors. Use the credential of a team admin, or grant the vendor list to the OAuth app.",
				PERMISSION_DENIED:
					"The Lofty user behind this credential may not list the team's vendors. Use the credential of a team admin, or grant the vendor list to the OAuth app.",
			},
		},
	],
};
