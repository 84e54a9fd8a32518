/**
 * Flows of the end-to-end plan (plan.ts) about a lead's schedule: appointments, calendar entries and tasks.
 */
import { SEED_IDS } from '../../sandbox';
import { TASK_SEED } from '../../sandbox/resources/task';
import { CALENDAR_SEED } from '../../sandbox/resources/calendar';
import { type Flow, byId, dayAhead, isId, iso, ref } from './planSteps';

const BIG = SEED_IDS.bigLeadId;

export function appointmentFlow(): Flow {
	return {
		title: 'appointment',
		steps: [
			{
				name: 'Create Appointment',
				resource: 'appointment',
				operation: 'create',
				params: {
					leadId: byId(TASK_SEED.leadId),
					content: 'Showing at 9 Elm St',
					startAt: '2026-05-02T10:00:00-05:00',
					endAt: '2026-05-02T11:00:00-05:00',
					assignedRole: 'Agent',
					additionalFields: { address: '9 Elm St, Austin, TX', timeZoneCode: 'America/Chicago' },
				},
				count: 1,
				check: ([it]) => isId(it.taskId),
			},
			{
				name: 'Get Appointment',
				resource: 'appointment',
				operation: 'get',
				params: { appointmentId: byId(ref('Create Appointment', 'taskId')) },
				count: 1,
				check: ([it]) => expect(it).toMatchObject({ type: 'Appointment', content: 'Showing at 9 Elm St' }),
			},
			{
				name: 'Update Appointment',
				resource: 'appointment',
				operation: 'update',
				params: { appointmentId: byId(ref('Create Appointment', 'taskId')), updateFields: { address: '14 Oak Ave' } },
				count: 1,
			},
			{ name: 'Finish Appointment', resource: 'appointment', operation: 'finish', params: { appointmentId: byId(ref('Create Appointment', 'taskId')) }, count: 1 },
			{ name: 'Unfinish Appointment', resource: 'appointment', operation: 'unfinish', params: { appointmentId: byId(ref('Create Appointment', 'taskId')) }, count: 1 },
			{
				name: 'Get Many Appointments',
				resource: 'appointment',
				operation: 'getAll',
				params: { leadId: byId(TASK_SEED.leadId) },
				count: [3, 100],
				check: (items) => expect(items.every((i) => i.type === 'Appointment')).toBe(true),
			},
			{ name: 'Get Many Appointments V1', resource: 'appointment', operation: 'getAllV1', params: { leadId: byId(TASK_SEED.leadId) }, count: [1, 100] },
			{
				name: 'Delete Appointment',
				resource: 'appointment',
				operation: 'delete',
				params: { appointmentId: byId(ref('Create Appointment', 'taskId')) },
				count: 1,
				check: ([it]) => expect(it.deleted).toBe(true),
			},
		],
	};
}

export function calendarFlow(): Flow {
	const day = dayAhead(3);
	return {
		title: 'calendar',
		steps: [
			{
				name: 'Create Calendar Task',
				resource: 'calendar',
				operation: 'create',
				params: {
					type: 'TASK',
					leadId: byId(BIG),
					content: 'Call about the offer',
					startAt: `${day}T09:00:00`,
					endAt: `${day}T09:30:00`,
					timeZoneCode: 'America/Los_Angeles',
					taskWay: 'Call',
					assignedRole: 'Agent',
				},
				count: 1,
				check: ([it]) => expect(it.id).toMatch(/^\d+-task$/),
			},
			{
				name: 'Update Calendar Entry',
				resource: 'calendar',
				operation: 'update',
				params: { calendarId: byId(ref('Create Calendar Task', 'id')), updateFields: { content: 'Call about the counter-offer' } },
				count: 1,
			},
			{ name: 'Finish Calendar Entry', resource: 'calendar', operation: 'finish', params: { calendarId: byId(ref('Create Calendar Task', 'id')) }, count: 1 },
			{ name: 'Unfinish Calendar Entry', resource: 'calendar', operation: 'unfinish', params: { calendarId: byId(ref('Create Calendar Task', 'id')) }, count: 1 },
			{ name: 'Delete Calendar Entry', resource: 'calendar', operation: 'delete', params: { calendarId: byId(ref('Create Calendar Task', 'id')) }, count: 1 },
			{
				name: 'Get Many Calendar Entries',
				resource: 'calendar',
				operation: 'getAll',
				params: { returnAll: false, limit: 30, filters: { startTime: iso(CALENDAR_SEED.from), endTime: iso(CALENDAR_SEED.to) } },
				count: 30,
			},
			{
				name: 'Available Slots',
				resource: 'calendar',
				operation: 'getAvailableSlots',
				params: { startTime: `${dayAhead(2)}T00:00:00Z`, endTime: `${dayAhead(16)}T00:00:00Z`, options: { limit: 3 } },
				count: 3,
				check: (items) => expect(Object.keys(items[0]).sort()).toEqual(['endTime', 'endTimeMs', 'startTime', 'startTimeMs']),
			},
		],
	};
}

export function taskFlow(): Flow {
	return {
		title: 'task',
		steps: [
			{
				name: 'Create Task',
				resource: 'task',
				operation: 'create',
				params: { leadId: byId(TASK_SEED.leadId), type: 'Email', content: 'Send the CMA', endAt: '2026-03-01T16:00:00-08:00', assignedRole: 'Agent' },
				count: 1,
				check: ([it]) => isId(it.taskId),
			},
			{ name: 'Get Task', resource: 'task', operation: 'get', params: { taskId: byId(ref('Create Task', 'taskId')) }, count: 1, check: ([it]) => expect(it.content).toBe('Send the CMA') },
			{
				name: 'Update Task',
				resource: 'task',
				operation: 'update',
				params: { taskId: byId(ref('Create Task', 'taskId')), updateFields: { content: 'Send the updated CMA' } },
				count: 1,
			},
			{ name: 'Finish Task', resource: 'task', operation: 'finish', params: { taskId: byId(ref('Create Task', 'taskId')) }, count: 1 },
			{ name: 'Unfinish Task', resource: 'task', operation: 'unfinish', params: { taskId: byId(ref('Create Task', 'taskId')) }, count: 1 },
			{ name: 'Get Many Tasks', resource: 'task', operation: 'getAll', params: { leadId: byId(TASK_SEED.leadId) }, count: [2, 100] },
			{ name: 'My Tasks', resource: 'task', operation: 'getMyTasks', params: { returnAll: false, limit: 150 }, count: 150 },
			{ name: 'Delete Task', resource: 'task', operation: 'delete', params: { taskId: byId(ref('Create Task', 'taskId')) }, count: 1 },
			{
				name: 'Create Task V1',
				resource: 'task',
				operation: 'createV1',
				params: { leadId: byId(TASK_SEED.leadId), type: 'Text', content: 'Text the lead', deadline: '2026-03-01T21:20:00Z', assignedRole: 'Agent' },
				count: 1,
				check: ([it]) => isId(it.taskId),
			},
			{ name: 'Get Task V1', resource: 'task', operation: 'getV1', params: { taskId: byId(ref('Create Task V1', 'taskId')) }, count: 1 },
			{ name: 'Get Many Tasks V1', resource: 'task', operation: 'getAllV1', params: { leadId: byId(TASK_SEED.leadId) }, count: [1, 100] },
			{
				name: 'Update Task V1',
				resource: 'task',
				operation: 'updateV1',
				params: { taskId: byId(ref('Create Task V1', 'taskId')), updateFields: { content: 'Changed', type: 'Other' } },
				count: 1,
			},
			{ name: 'Delete Task V1', resource: 'task', operation: 'deleteV1', params: { taskId: byId(ref('Create Task V1', 'taskId')) }, count: 1 },
		],
	};
}
