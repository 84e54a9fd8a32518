import type { ResourceDef } from '../model/types';

export const tag: ResourceDef = {
	value: 'tag',
	name: 'Tag',
	description: 'Lead tags of the team',
	operations: [],
};
