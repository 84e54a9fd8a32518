import type { ResourceDef } from '../model/types';

export const customField: ResourceDef = {
	value: 'customField',
	name: 'Custom Field',
	description: 'Custom lead fields of the team',
	operations: [],
};
