import type { ResourceDef } from '../model/types';

export const call: ResourceDef = {
	value: 'call',
	name: 'Call',
	description: 'Calls and their recordings',
	operations: [],
};
