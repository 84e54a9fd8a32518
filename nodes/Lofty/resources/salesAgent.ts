import type { ResourceDef } from '../model/types';

export const salesAgent: ResourceDef = {
	value: 'salesAgent',
	name: 'Sales Agent',
	description: 'Lofty Sales Agent (AI assistant): working leads, quota, settings',
	operations: [],
};
