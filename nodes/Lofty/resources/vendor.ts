import type { ResourceDef } from '../model/types';

export const vendor: ResourceDef = {
	value: 'vendor',
	name: 'Vendor',
	description: 'Vendors of the team',
	operations: [],
};
