import type { ResourceDef } from '../model/types';

export const listing: ResourceDef = {
	value: 'listing',
	name: 'Listing',
	description: 'Property listings',
	operations: [],
};
