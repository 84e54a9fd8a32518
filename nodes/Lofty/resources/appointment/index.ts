import type { IDataObject } from 'n8n-workflow';

import type { LocatorDef, OperationDef, ParamDef, ResourceDef } from '../../model/types';
import { leadInPath } from '../lead';
import {
	TASK_ERROR_HINTS,
	addressParam,
	assignedRole,
	extraFields,
	isAppointment,
	listOf,
	resolveTimes,
	timeZoneParam,
	v2Time,
	v2Update,
	contentParam,
	writeResult,
} from '../task';

/*
 * In Lofty an appointment is a task of type "Appointment": it is created, read, changed, finished and deleted through
 * the V2 task endpoints (/v2.0/tasks/...), which find an entry by ID whatever its kind (api-spec.md, General rule 4).
 * The only appointment-specific endpoint is the V1 list, GET /v1.0/appts.
 */

export const APPOINTMENT_LOCATOR: LocatorDef = { searchMethod: 'searchAppointments', idPlaceholder: '563172647619608' };

/** The appointment chosen with a resource locator; Lofty's path calls it `taskId`. */
const appointmentInPath: ParamDef = {
	name: 'appointmentId',
	key: 'taskId',
	label: 'Appointment',
	type: 'locator',
	locator: APPOINTMENT_LOCATOR,
	in: 'path',
	required: true,
	description: 'The appointment to act on: pick it from your appointments, or give its ID',
};

const SIMPLE_V2 = ['content', 'type', 'startAt', 'endAt', 'timeZoneCode', 'finishFlag', 'overdueFlag', 'leadName', 'assignedUser', 'address'];
const SIMPLE_V1 = ['descr', 'address', 'deadline', 'endTime', 'allDay', 'finishFlag', 'overdue'];

const content = (required: boolean): ParamDef => contentParam(required, 'e.g. Showing at 12 Oak Ave', 'What the appointment is about');

const byAppointment = (outcome: IDataObject) => writeResult('appointmentId', 'appointmentId', outcome);

const operations: OperationDef[] = [
	{
		value: 'create',
		name: 'Create',
		action: 'Create an appointment (meeting) with a lead',
		description: 'Create an appointment with a lead (V2); the same request as Task > Create, which makes a task; Calendar > Create picks either in one node',
		method: 'POST',
		effect: 'write',
		path: '/v2.0/tasks',
		params: [
			{ ...leadInPath, in: 'body', description: 'The lead the appointment is with: pick it from the list, or give its ID or its Lofty URL' },
			content(true),
			v2Time('startAt', 'Start', true),
			v2Time('endAt', 'End', true),
			assignedRole,
			timeZoneParam,
			addressParam,
			extraFields,
		],
		returnsSent: ['startAt', 'endAt', 'timeZoneCode', 'assignedRole'],
		validate(op) {
			resolveTimes(op, [
				{ name: 'startAt', label: 'Start' },
				{ name: 'endAt', label: 'End' },
			]);
		},
		// Lofty creates an appointment when the entry's type is "Appointment"; it travels in the merged fields.
		toWire(op) {
			op.values.extraFields = { ...(op.values.extraFields as IDataObject | undefined), type: 'Appointment' };
		},
	},
	{
		value: 'get',
		name: 'Get',
		action: 'Get an appointment by ID',
		description: 'Get an appointment by ID; the same request as Task > Get, which finds tasks too',
		method: 'GET',
		effect: 'read',
		path: '/v2.0/tasks/{taskId}',
		params: [appointmentInPath],
		unwrap: 'task',
		simplify: SIMPLE_V2,
	},
	{
		value: 'getAll',
		name: 'Get Many',
		action: 'Get the appointments of a lead',
		description: 'All appointments of a lead, with times in their time zone; Task > Get Many lists the tasks (and, on request, the appointments)',
		method: 'GET',
		effect: 'read',
		path: '/v2.0/tasks',
		params: [{ ...leadInPath, in: 'query' }],
		simplify: SIMPLE_V2,
		// Lofty lists tasks and appointments together; only the appointments are kept.
		output: (response, op) => listOf(response, op, 'tasks', isAppointment, SIMPLE_V2),
	},
	{
		value: 'update',
		name: 'Update',
		action: "Update an appointment's text, times or address",
		description: 'Change the description, times or address of an appointment; to complete it use Finish; the same request as Task > Update',
		...v2Update(appointmentInPath, content(false), 'End'),
		effect: 'write',
		output: byAppointment({ updated: true }),
	},
	{
		value: 'delete',
		name: 'Delete',
		action: 'Delete an appointment',
		description: 'Delete an appointment by ID; the same request as Task > Delete',
		method: 'DELETE',
		effect: 'destructive',
		path: '/v2.0/tasks/{taskId}',
		params: [appointmentInPath],
		output: byAppointment({ deleted: true }),
	},
	{
		value: 'finish',
		name: 'Finish',
		action: 'Mark an appointment as finished',
		description: 'Mark an appointment as finished (held); the same request as Task > Finish',
		method: 'POST',
		effect: 'write',
		path: '/v2.0/tasks/{taskId}/finish',
		params: [appointmentInPath],
		output: byAppointment({ finished: true }),
	},
	{
		value: 'unfinish',
		name: 'Unfinish',
		action: 'Reopen a finished appointment',
		description: 'Mark a finished appointment as open again; the same request as Task > Unfinish',
		method: 'POST',
		effect: 'write',
		path: '/v2.0/tasks/{taskId}/unfinish',
		params: [appointmentInPath],
		output: byAppointment({ finished: false }),
	},
	{
		value: 'getAllV1',
		name: 'Get Many (V1)',
		action: "Get a lead's appointments (older V1 endpoint)",
		description: 'All appointments of a lead with the older V1 endpoint (times as epoch milliseconds); prefer Get Many for new workflows',
		method: 'GET',
		effect: 'read',
		path: '/v1.0/appts',
		params: [{ ...leadInPath, in: 'query' }],
		simplify: SIMPLE_V1,
	},
];

export const appointment: ResourceDef = {
	value: 'appointment',
	name: 'Appointment',
	description: 'Appointments with leads (V1 and V2)',
	operations,
	errorHints: TASK_ERROR_HINTS,
};
