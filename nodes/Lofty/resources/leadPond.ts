import type { ResourceDef } from '../model/types';

export const leadPond: ResourceDef = {
	value: 'leadPond',
	name: 'Lead Pond',
	description: 'Shared lead ponds',
	operations: [],
};
