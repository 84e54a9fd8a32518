import type { ResourceDef } from '../model/types';

export const leadPipeline: ResourceDef = {
	value: 'leadPipeline',
	name: 'Lead Pipeline',
	description: 'Lead pipelines and their stages',
	operations: [],
};
