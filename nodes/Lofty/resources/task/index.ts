import type { IDataObject } from 'n8n-workflow';

import { InvalidValue } from '../../model/params';
import type { OperationDef, ParamDef, ResourceDef } from '../../model/types';
import { leadInPath } from '../lead';
import {
	TASK_ERROR_HINTS,
	TASK_WAYS,
	addressParam,
	assignedRole,
	checkTimeZone,
	contentParam,
	extraFields,
	isAppointment,
	listOf,
	resolveTimes,
	taskInPath,
	timeZoneParam,
	v2Time,
	v2Update,
	writeResult,
} from './shared';

/**
 * Tasks (V2 endpoints first, the V1 ones as "(V1)" operations). Appointments and calendar entries are V2 tasks too:
 * what Appointment and Calendar take from the V2 task fields (./shared.ts) is exported here, the folder's public file.
 */
export * from './shared';

const SIMPLE_V2 = ['content', 'type', 'startAt', 'endAt', 'timeZoneCode', 'finishFlag', 'overdueFlag', 'leadName', 'assignedUser', 'address'];
const SIMPLE_V1 = ['content', 'type', 'deadline', 'finishFlag', 'overdueFlag', 'leadName', 'assignedUser', 'finishTime'];

const TASK_TYPE: ParamDef = {
	name: 'type',
	label: 'Type',
	type: 'options',
	in: 'body',
	required: true,
	options: TASK_WAYS,
	default: 'Call',
	description: 'What kind of to-do it is',
};

const content = (required: boolean): ParamDef => contentParam(required, 'e.g. Send an email to my lead', 'What has to be done');

const byTask = (outcome: IDataObject) => writeResult('taskId', 'taskId', outcome);

const operations: OperationDef[] = [
	{
		value: 'create',
		name: 'Create',
		action: 'Create a task',
		description: 'Create a task on a lead (V2): use this for a task; Appointment > Create for a meeting, Calendar > Create to pick either in one node, Task > Create (V1) only for the older deadline-only form, Sales Agent > Create Plan Tasks to let the AI plan tasks',
		method: 'POST',
		effect: 'write',
		path: '/v2.0/tasks',
		params: [
			{ ...leadInPath, in: 'body', description: 'The lead the task is about: pick it from the list, or give its ID or its Lofty URL' },
			TASK_TYPE,
			content(true),
			v2Time('endAt', 'Due At', true),
			assignedRole,
			v2Time('startAt', 'Start'),
			timeZoneParam,
			addressParam,
			extraFields,
		],
		// Lofty answers only `{taskId}`: the due time (with its offset), zone and assignee are returned as sent.
		returnsSent: ['endAt', 'startAt', 'timeZoneCode', 'assignedRole'],
		validate(op) {
			resolveTimes(op, [{ name: 'endAt', label: 'Due At' }, { name: 'startAt', label: 'Start', collection: 'additionalFields' }]);
			const extra = op.values.extraFields as IDataObject | undefined;
			if (extra && isAppointment(extra)) throw new InvalidValue('Other Fields (JSON)', 'must not make the task an appointment: use Appointment > Create');
		},
	},
	{
		value: 'get',
		name: 'Get',
		action: 'Get a task by ID',
		description: 'Get a task (or an appointment) by ID (V2); Appointment > Get is the same request for appointments',
		method: 'GET',
		effect: 'read',
		path: '/v2.0/tasks/{taskId}',
		params: [taskInPath],
		unwrap: 'task',
		simplify: SIMPLE_V2,
	},
	{
		value: 'getAll',
		name: 'Get Many',
		action: 'Get the tasks of a lead',
		description: 'All tasks of a lead, optionally with its appointments (V2); Appointment > Get Many lists only the appointments',
		method: 'GET',
		effect: 'read',
		path: '/v2.0/tasks',
		optionalTitle: 'Options',
		params: [
			{ ...leadInPath, in: 'query' },
			{
				// Applied to the answer, not sent: the placeholder is not in the path, so the request leaves it out.
				name: 'includeAppointments',
				label: 'Include Appointments',
				type: 'boolean',
				in: 'path',
				description: 'Whether the appointments of the lead are returned too (Lofty lists both together)',
			},
		],
		simplify: SIMPLE_V2,
		output: (response, op) => listOf(response, op, 'tasks', (entry) => op.values.includeAppointments === true || !isAppointment(entry), SIMPLE_V2),
	},
	{
		value: 'getMyTasks',
		name: 'Get My Tasks',
		action: 'Get the tasks and appointments assigned to you',
		description: 'Tasks and appointments assigned to you (or to another agent), latest start first (V2)',
		method: 'GET',
		effect: 'read',
		path: '/v2.0/tasks/my-tasks',
		pagination: { style: 'keyset', itemsKey: 'tasks', maxPageSize: 100, idField: 'id', cursorParam: 'currentId', limitParam: 'limit' },
		params: [
			{
				name: 'userId',
				label: 'Agent Name or ID',
				type: 'id',
				in: 'query',
				loadOptions: 'getMembers',
				description:
					'Whose tasks to get; yours when empty. Seeing another agent\'s tasks needs an admin role. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			{ ...timeZoneParam, in: 'query', description: 'IANA time zone the start and end times are written in; yours (in Lofty) when empty' },
		],
		simplify: SIMPLE_V2,
		validate: (op) => void checkTimeZone(op),
		errorHints: {
			LIMIT_NOT_VALID: 'Lofty returns 1 to 100 tasks per page; the node pages through them itself, so this points to a bug: please report it.',
			USER_NOT_EXIST: 'The chosen agent is not a member of your Lofty team. Pick the agent from the list.',
		},
	},
	{
		value: 'update',
		name: 'Update',
		action: 'Update the description, times or address of a task',
		description: 'Change the description, times or address of a task (V2); to complete it use Finish; the same request as Appointment > Update',
		...v2Update(taskInPath, content(false), 'Due At'),
		effect: 'write',
		output: byTask({ updated: true }),
	},
	{
		value: 'delete',
		name: 'Delete',
		action: 'Delete a task',
		description: 'Delete a task (or an appointment) by ID (V2); the same request as Appointment > Delete',
		method: 'DELETE',
		effect: 'destructive',
		path: '/v2.0/tasks/{taskId}',
		params: [taskInPath],
		output: byTask({ deleted: true }),
	},
	{
		value: 'finish',
		name: 'Finish',
		action: 'Mark a task as finished',
		description: 'Mark a task (or an appointment) as finished (V2); the same request as Appointment > Finish',
		method: 'POST',
		effect: 'write',
		path: '/v2.0/tasks/{taskId}/finish',
		params: [taskInPath],
		output: byTask({ finished: true }),
	},
	{
		value: 'unfinish',
		name: 'Unfinish',
		action: 'Reopen a finished task',
		description: 'Mark a finished task (or appointment) as open again (V2); the same request as Appointment > Unfinish',
		method: 'POST',
		effect: 'write',
		path: '/v2.0/tasks/{taskId}/unfinish',
		params: [taskInPath],
		output: byTask({ finished: false }),
	},

	// ---- V1 ----
	{
		value: 'createV1',
		name: 'Create (V1)',
		action: 'Create a deadline-only task (older V1 endpoint)',
		description: 'Create a task on a lead with the older V1 endpoint (deadline only); prefer Task > Create for new workflows',
		method: 'POST',
		effect: 'write',
		path: '/v1.0/tasks',
		params: [
			{ ...leadInPath, in: 'body', description: 'The lead the task is about: pick it from the list, or give its ID or its Lofty URL' },
			TASK_TYPE,
			content(true),
			{ name: 'deadline', label: 'Due At', type: 'dateTime', in: 'body', required: true, agentTime: true, description: 'When the task is due' },
			assignedRole,
		],
	},
	{
		value: 'getV1',
		name: 'Get (V1)',
		action: 'Get a task by ID (older V1 endpoint)',
		description: 'Get a task by ID with the older V1 endpoint (times as UTC text); appointments are not found here; prefer Get for new workflows',
		method: 'GET',
		effect: 'read',
		path: '/v1.0/tasks/{taskId}',
		params: [taskInPath],
		unwrap: 'task',
		simplify: SIMPLE_V1,
	},
	{
		value: 'getAllV1',
		name: 'Get Many (V1)',
		action: 'Get the tasks of a lead (older V1 endpoint)',
		description: 'All tasks of a lead with the older V1 endpoint (no appointments); prefer Get Many for new workflows',
		method: 'GET',
		effect: 'read',
		path: '/v1.0/tasks',
		params: [{ ...leadInPath, in: 'query' }],
		unwrap: 'taskList',
		simplify: SIMPLE_V1,
	},
	{
		value: 'updateV1',
		name: 'Update (V1)',
		action: 'Update or finish a task (older V1 endpoint)',
		description: 'Change a task, or mark it finished, with the older V1 endpoint; prefer Update and Finish for new workflows',
		method: 'PUT',
		effect: 'write',
		path: '/v1.0/tasks/{taskId}',
		optionalTitle: 'Update Fields',
		params: [
			// Due At without offset is read in the zone of the task's assignee, or of the one Assigned Role gives it to.
			{ ...taskInPath, assignsTo: 'entry' },
			content(false),
			{ name: 'deadline', label: 'Due At', type: 'dateTime', in: 'body', agentTime: true },
			{ ...TASK_TYPE, required: false },
			{ ...assignedRole, required: false },
			{
				name: 'finishFlag',
				label: 'Mark Finished',
				type: 'boolean',
				in: 'body',
				sendOnlyIfTrue: true,
				description: 'Whether to mark the task finished; Lofty then ignores every other field, so it cannot be combined with them',
			},
			{
				name: 'leadId',
				label: 'Lead ID (Safeguard)',
				type: 'id',
				in: 'body',
				description: "Lofty refuses the update when the task does not belong to this lead; the task's lead cannot be changed",
			},
		],
		validate(op) {
			const changes = ['content', 'deadline', 'type', 'assignedRole'].filter((name) => op.values[name] !== undefined);
			if (changes.length === 0 && op.values.finishFlag === undefined) {
				throw new InvalidValue('Update Fields', 'set at least one of Description, Due At, Type, Assigned Role or Mark Finished');
			}
			if (op.values.finishFlag === true && changes.length > 0) {
				throw new InvalidValue('Mark Finished', 'makes Lofty ignore the other fields: finish the task in one step and change it in another');
			}
		},
		errorHints: {
			INVALID_UPDATE_OPERATION_LEADID: "The task does not belong to the lead given in Lead ID (Safeguard). A task's lead cannot be changed; check both IDs.",
		},
		output: byTask({ updated: true }),
	},
	{
		value: 'deleteV1',
		name: 'Delete (V1)',
		action: 'Delete a task (older V1 endpoint)',
		description: 'Delete a task by ID with the older V1 endpoint; prefer Delete for new workflows',
		method: 'DELETE',
		effect: 'destructive',
		path: '/v1.0/tasks/{taskId}',
		params: [taskInPath],
		output: byTask({ deleted: true }),
	},
];

export const task: ResourceDef = {
	value: 'task',
	name: 'Task',
	description: 'Tasks on leads (V1 and V2)',
	operations,
	errorHints: TASK_ERROR_HINTS,
};
