import type { ResourceDef } from '../model/types';

export const note: ResourceDef = {
	value: 'note',
	name: 'Note',
	description: 'Notes on leads',
	operations: [],
};
