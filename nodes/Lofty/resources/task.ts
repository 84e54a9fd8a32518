import type { ResourceDef } from '../model/types';

export const task: ResourceDef = {
	value: 'task',
	name: 'Task',
	description: 'Tasks on leads (V1 and V2)',
	operations: [],
};
