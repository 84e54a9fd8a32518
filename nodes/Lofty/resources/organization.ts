import type { ResourceDef } from '../model/types';

export const organization: ResourceDef = {
	value: 'organization',
	name: 'Organization',
	description: 'Company, offices and permission profiles',
	operations: [],
};
