import type { ResourceDef } from '../model/types';

export const routing: ResourceDef = {
	value: 'routing',
	name: 'Routing',
	description: 'Lead routing rules and assignable members',
	operations: [],
};
