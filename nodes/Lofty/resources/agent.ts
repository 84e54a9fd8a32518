import type { ResourceDef } from '../model/types';

export const agent: ResourceDef = {
	value: 'agent',
	name: 'Agent',
	description: 'Agents of the team: profiles, tags, deactivation',
	operations: [],
};
