import type { ResourceDef } from '../model/types';

export const ai: ResourceDef = {
	value: 'ai',
	name: 'AI',
	description: 'Lofty AI: call scripts and summaries, insights, lead analysis',
	operations: [],
};
