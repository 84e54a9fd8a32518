import type { ResourceDef } from '../model/types';

export const manualLog: ResourceDef = {
	value: 'manualLog',
	name: 'Manual Log',
	description: 'Calls, emails and texts logged by hand on a lead',
	operations: [],
};
