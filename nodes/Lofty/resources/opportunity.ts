import type { ResourceDef } from '../model/types';

export const opportunity: ResourceDef = {
	value: 'opportunity',
	name: 'Opportunity',
	description: 'Opportunity alerts',
	operations: [],
};
