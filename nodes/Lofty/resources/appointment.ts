import type { ResourceDef } from '../model/types';

export const appointment: ResourceDef = {
	value: 'appointment',
	name: 'Appointment',
	description: 'Appointments with leads (V1 and V2)',
	operations: [],
};
