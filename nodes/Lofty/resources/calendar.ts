import type { ResourceDef } from '../model/types';

export const calendar: ResourceDef = {
	value: 'calendar',
	name: 'Calendar',
	description: 'Calendar V2: tasks and appointments together, meeting slots',
	operations: [],
};
