import type { ResourceDef } from '../model/types';

export const notification: ResourceDef = {
	value: 'notification',
	name: 'Notification',
	description: 'Push, SMS and email notifications to agents',
	operations: [],
};
