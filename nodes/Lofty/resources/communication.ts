import type { ResourceDef } from '../model/types';

export const communication: ResourceDef = {
	value: 'communication',
	name: 'Communication',
	description: 'Call, email and text history; sending SMS and email',
	operations: [],
};
