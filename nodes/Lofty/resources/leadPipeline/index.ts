import type { ResourceDef } from '../../model/types';

export const leadPipeline: ResourceDef = {
	value: 'leadPipeline',
	name: 'Lead Pipeline',
	description: 'Lead pipelines and their stages',
	operations: [
		{
			value: 'getAll',
			name: 'Get Many',
			action: 'Get the stages of the lead pipeline',
			description: 'The stages of the team\'s lead pipeline (ID and name), optionally filtered by name',
			method: 'GET',
			effect: 'read',
			path: '/v1.0/teamFeatures/lead-pipelines',
			// currPage is zero-based; the OpenAPI sets no maximum pageSize, so pages of 100 are asked for.
			pagination: { style: 'page', pageParam: 'currPage', sizeParam: 'pageSize', firstPage: 0, maxPageSize: 100, itemsKey: 'pipelines', totalKey: '_metadata.total' },
			params: [
				{ name: 'name', label: 'Name Contains', type: 'string', in: 'query', placeholder: 'e.g. Active', description: 'Only stages whose name contains this text' },
			],
		},
	],
};
