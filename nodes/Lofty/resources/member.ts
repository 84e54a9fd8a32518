import type { ResourceDef } from '../model/types';

export const member: ResourceDef = {
	value: 'member',
	name: 'Member',
	description: 'Team members and the current user',
	operations: [],
};
