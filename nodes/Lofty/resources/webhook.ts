import type { ResourceDef } from '../model/types';

export const webhook: ResourceDef = {
	value: 'webhook',
	name: 'Webhook',
	description: 'Webhook subscriptions',
	operations: [],
};
