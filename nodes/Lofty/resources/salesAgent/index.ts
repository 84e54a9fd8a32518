import type { IDataObject } from 'n8n-workflow';

import { InvalidValue } from '../../model/params';
import type { OperationContext, OperationDef, ParamDef, ResourceDef } from '../../model/types';
import { leadInPath } from '../lead';

const EXPRESSION_LINK = '<a href="https://docs.n8n.io/code/expressions/">expression</a>';

/** The lead, sent as the `leadId` query parameter. */
const leadInQuery: ParamDef = { ...leadInPath, in: 'query' };

/** Lead IDs of a batch: Lofty takes at most 100 per request. */
function leadIdList(description: string): ParamDef {
	return {
		name: 'leadIds',
		label: 'Lead IDs',
		type: 'idList',
		in: 'body',
		required: true,
		maxItems: 100,
		placeholder: 'e.g. 651095960136641',
		description,
	};
}

function checkBatch(op: OperationContext): void {
	const ids = (op.values.leadIds as string[] | undefined) ?? [];
	if (ids.length > 100) throw new InvalidValue('Lead IDs', `takes at most 100 leads per request, got ${ids.length}; split the list (for example with a Loop Over Items node)`);
}

/** The SMS Lofty sends to the caller from the Sales Agent's AI virtual number (also offered by Notification). */
export const sendSmsViaAiNumber: OperationDef = {
	value: 'sendSmsViaAiNumber',
	name: 'Send SMS From AI Number',
	action: 'Sales Agent texts you (AI number)',
	description: "Text the phone of the Lofty user behind this credential, sent from their Sales Agent's AI virtual number; the same request as Notification > Send SMS From AI Number; to text from Lofty's system number use Notification > Send SMS",
	method: 'POST',
	effect: 'sends',
	path: '/v2.0/sales-agent/ai-number/send-sms-to-agent',
	// Sent from the AI number that Update Settings changes.
	record: ['salesAgent'],
	params: [{ name: 'content', label: 'Message', type: 'string', in: 'body', required: true, requiredCode: 'MISSING_PARAMETER', description: 'Text of the SMS' }],
	errorHints: {
		'20012':
			"The message was blank, or this user's Sales Agent has no AI virtual number. Set up the Sales Agent and its AI number in Lofty (Sales Agent settings), or use Notification > Send SMS, which sends from Lofty's system number.",
		MISSING_PARAMETER: 'The message text is required.',
	},
};

const DAYS = [
	{ name: 'Friday', value: 5 },
	{ name: 'Monday', value: 1 },
	{ name: 'Saturday', value: 6 },
	{ name: 'Sunday', value: 0 },
	{ name: 'Thursday', value: 4 },
	{ name: 'Tuesday', value: 2 },
	{ name: 'Wednesday', value: 3 },
];

function setting(name: string, label: string, type: ParamDef['type'], description?: string, extra: Partial<ParamDef> = {}): ParamDef {
	return { name, label, type, in: 'body', description, ...extra };
}

/** Whole-number hours and the "-1 means all" lists of the settings, shaped before sending. */
function shapeSettings(op: OperationContext): void {
	const v = op.values;
	for (const [name, label] of [
		['startActiveHour', 'Active From (Hour)'],
		['endActiveHour', 'Active Until (Hour)'],
	]) {
		if (v[name] !== undefined && !Number.isInteger(v[name])) throw new InvalidValue(label, `must be a whole hour from 0 to 23, got ${v[name] as number}`);
	}
	if (v.leadTypes !== undefined) {
		v.leadTypes = (v.leadTypes as string[]).map((t) => {
			if (!/^\d+$/.test(t) || Number(t) > 2_147_483_647) throw new InvalidValue('Lead Types', `must be whole numbers (Lofty lead type codes), got ${t}`);
			return Number(t);
		});
	}
	if (v.agentIds !== undefined) {
		v.agentIds = (v.agentIds as string[]).map((id) => {
			if (!/^\d+$/.test(String(id).trim())) throw new InvalidValue('Agents With Access Names or IDs', `must be Lofty user IDs, got ${String(id)}`);
			return BigInt(String(id).trim());
		}) as unknown as IDataObject[];
	}
	// Lofty's rule: a list containing -1 means "all". The switches (never sent themselves) send exactly that.
	for (const [flag, list, label] of [
		['allAgents', 'agentIds', 'All Agents'],
		['allOffices', 'officeIds', 'All Offices'],
		['allLeadPonds', 'leadPondIds', 'All Lead Ponds'],
	]) {
		if (v[flag] === undefined) continue;
		if (v[flag] === true) {
			if (v[list] !== undefined) throw new InvalidValue(label, 'gives access to all; leave the list of IDs empty when it is on');
			// idLists are turned into exact integers when the body is built; the member dropdown's list already is.
			v[list] = (list === 'agentIds' ? [-1n] : ['-1']) as unknown as IDataObject[];
		}
	}
	const notSent = ['id', 'allAgents', 'allOffices', 'allLeadPonds'];
	if (Object.keys(v).filter((name) => !notSent.includes(name)).length === 0) {
		throw new InvalidValue('Update Fields', 'add at least one setting to change');
	}
}

const SALES_AGENT_SIMPLE = ['agentName', 'assistantName', 'virtualNumber', 'email', 'status', 'hasQuotaSeat', 'followUpRole'];

export const salesAgent: ResourceDef = {
	value: 'salesAgent',
	name: 'Sales Agent',
	description: 'Lofty Sales Agent (AI assistant): working leads, quota, settings',
	errorHints: {
		RESOURCE_NOT_EXIST:
			'No Sales Agent (AI assistant) is set up for this Lofty user, or for the agent of this lead. Sales Agents are created in Lofty CRM; set one up there first.',
		PERMISSION_DENIED:
			'The Lofty user behind this credential cannot access this lead: only its owner, its assigned agent and agents it is shared with can. Check the lead ID, or use a credential of a user who can see the lead.',
		LEAD_NOT_FOUND: 'The lead does not exist or the user behind this credential cannot see it. Check the lead ID.',
		LIMIT_NOT_VALID: 'Lofty returns at most 100 working leads per page.',
	},
	operations: [
		{
			value: 'getCurrent',
			name: 'Get Current',
			action: 'Get your Sales Agent (AI assistant)',
			description: 'The Sales Agent (AI assistant) of the Lofty user behind this credential: profile, AI number, quota seat',
			method: 'GET',
			effect: 'read',
			path: '/v2.0/sales-agents/current',
			params: [],
			simplify: SALES_AGENT_SIMPLE,
		},
		{
			value: 'getByLead',
			name: 'Get Lead Sales Agent',
			action: 'Get the Sales Agent following up a lead',
			description: 'The Sales Agent (AI assistant) that follows up a lead',
			method: 'GET',
			effect: 'read',
			path: '/v2.0/sales-agents/by-lead',
			params: [leadInQuery],
			simplify: SALES_AGENT_SIMPLE,
			errorHints: {
				RESOURCE_NOT_EXIST: "The lead's agent has no Sales Agent (AI assistant) set up in Lofty.",
				'20012': 'The lead ID was rejected: it must be a whole number.',
			},
		},
		{
			value: 'getQuota',
			name: 'Get Quota',
			action: 'Get your Sales Agent quota',
			description: 'How many leads your Sales Agent may work on, how many it works on now, and whether the AI is borrowed',
			method: 'GET',
			effect: 'read',
			path: '/v2.0/sales-agents/quota',
			params: [],
		},
		{
			value: 'getSettings',
			name: 'Get Settings',
			action: 'Get your Sales Agent settings',
			description: 'Channels, active hours and days, lead filters and access of your Sales Agent',
			method: 'GET',
			effect: 'read',
			path: '/v2.0/sales-agent/settings',
			params: [],
			simplify: ['assistantName', 'virtualNumber', 'followUpRole', 'hostedStatus', 'startActiveHour', 'endActiveHour', 'activeDays', 'newLeadEnable'],
		},
		{
			value: 'updateSettings',
			name: 'Update Settings',
			action: 'Update your Sales Agent settings',
			description: 'Change settings of your existing Sales Agent; fields left out keep their value (creating a Sales Agent is done in Lofty CRM)',
			method: 'PUT',
			effect: 'write',
			path: '/v2.0/sales-agent/settings',
			// The credential's own Sales Agent: its settings and working pool are one record.
			record: ['salesAgent'],
			optionalTitle: 'Update Fields',
			params: [
				{
					name: 'id',
					label: 'Sales Agent Name or ID',
					type: 'id',
					in: 'body',
					required: true,
					loadOptions: 'getCurrentSalesAgent',
					description: `Your Sales Agent. Choose from the list, or specify an ID using an ${EXPRESSION_LINK}.`,
				},
				setting('assistantName', 'Assistant Name', 'string', 'Name the AI assistant uses with leads'),
				setting('virtualNumber', 'AI Virtual Number', 'string', 'Phone number the AI assistant texts and calls from', { placeholder: '+15125550199' }),
				setting('virtualNumberCountry', 'AI Number Country', 'string', 'Country of the virtual number', { placeholder: 'US' }),
				setting('callTransferType', 'Call Transfer', 'options', 'Where calls to the AI number are transferred', {
					options: [
						{ name: 'Disabled', value: 'Disabled' },
						{ name: 'To Assigned Agent', value: 'ToAssignedAgent' },
					],
					default: 'Disabled',
				}),
				setting('fixedNumber', 'Fixed Number', 'string', 'Fixed phone number', { placeholder: '+15125550100' }),
				setting('agentExperience', 'Agent Experience', 'string', 'How the assistant describes your experience, e.g. 10 years in Austin real estate'),
				setting('rentalBusiness', 'Rental Business', 'boolean', 'Whether you handle rentals'),
				setting('websiteChannel', 'Website Channel', 'boolean', 'Whether the assistant follows up on the website'),
				setting('textChannel', 'Text Channel', 'boolean', 'Whether the assistant follows up by text'),
				setting('emailChannel', 'Email Channel', 'boolean', 'Whether the assistant follows up by email'),
				setting('startActiveHour', 'Active From (Hour)', 'number', 'Hour of the day the assistant starts working (0-23)', { min: 0, max: 23, default: 8 }),
				setting('endActiveHour', 'Active Until (Hour)', 'number', 'Hour of the day the assistant stops working (0-23)', { min: 0, max: 23, default: 20 }),
				setting('activeDays', 'Active Days', 'multiOptions', 'Days the assistant works; none selected means every day', { options: DAYS }),
				setting('leadTypes', 'Lead Types', 'stringList', 'Lofty lead type codes the assistant works on (e.g. 1, 2); empty means all'),
				setting('leadSources', 'Lead Source IDs', 'idList', 'Only leads from these sources; empty means all'),
				setting('leadPipelines', 'Lead Pipeline Stage IDs', 'idList', 'Only leads in these pipeline stages; empty means all'),
				setting('agentIds', 'Agents With Access Names or IDs', 'multiOptions', `Agents whose leads the assistant works on. Choose from the list, or specify IDs using an ${EXPRESSION_LINK}.`, {
					loadOptions: 'getMembers',
				}),
				setting('allAgents', 'All Agents', 'boolean', 'Whether the assistant works on the leads of all agents (sent as -1)', { in: 'local' }),
				setting('officeIds', 'Office IDs', 'idList', 'Offices whose leads the assistant works on'),
				setting('allOffices', 'All Offices', 'boolean', 'Whether the assistant works on the leads of all offices (sent as -1)', { in: 'local' }),
				setting('leadPondIds', 'Lead Pond IDs', 'idList', 'Lead ponds whose leads the assistant works on'),
				setting('allLeadPonds', 'All Lead Ponds', 'boolean', 'Whether the assistant works on the leads of all lead ponds (sent as -1)', { in: 'local' }),
				setting('newLeadEnable', 'Follow Up New Leads', 'boolean', 'Whether the assistant follows up new leads'),
				setting('visitorsEnable', 'Follow Up Visitors', 'boolean', 'Whether the assistant follows up website visitors'),
				setting('followUpRole', 'Follow-Up By', 'options', 'Who follows up: the AI or you', {
					options: [
						{ name: 'Agent', value: 'Agent' },
						{ name: 'AI', value: 'AI' },
					],
					default: 'AI',
				}),
			],
			validate: shapeSettings,
			errorHints: {
				'20012':
					"Lofty rejected a setting (the message names it), or the Sales Agent is not yours. This operation only changes an existing Sales Agent: create it in Lofty CRM, and pick it from the Sales Agent list.",
				MISSING_PARAMETER: 'The Sales Agent ID is required.',
				RESOURCE_NOT_EXIST: 'This Lofty user has no Sales Agent. Create it in Lofty CRM first; this operation only changes existing settings.',
			},
		},
		{
			value: 'checkWorkingLead',
			name: 'Check Working Lead',
			action: 'Check whether the AI follows up a lead',
			description: "Whether a lead is in your Sales Agent's working pool (followed up by the AI); returns isWorkingLead and the lead's basics",
			method: 'GET',
			effect: 'read',
			path: '/v2.0/sales-agents/working-lead/{leadId}',
			params: [leadInPath],
			// The OpenAPI types the answer as a working-lead record but says it returns true or false: both are read.
			output: (response, op) => {
				const leadId = op.values.leadId as string;
				let record = response;
				if (record !== null && typeof record === 'object' && !Array.isArray(record) && 'data' in record) record = (record as IDataObject).data;
				if (record !== null && typeof record === 'object' && !Array.isArray(record) && Object.keys(record).length > 0) {
					const fields = record as IDataObject;
					const flag = fields.isWorkingLead ?? fields.workingLead ?? fields.result;
					return { isWorkingLead: typeof flag === 'boolean' ? flag : true, ...fields, leadId: String(fields.leadId ?? leadId) };
				}
				const truthy = record === true || record === 'true' || record === 1;
				return { leadId, isWorkingLead: truthy };
			},
		},
		{
			value: 'muteLead',
			name: 'Mute Lead',
			action: 'Stop the AI following up a lead',
			description: 'Mute the AI assistant for a lead so that it stops automated follow-ups',
			method: 'PUT',
			effect: 'write',
			path: '/v2.0/sales-agents/working-lead/{leadId}/mute',
			record: ['leadId', 'salesAgent'],
			params: [leadInPath],
			output: (response, op) => {
				const body = response !== null && typeof response === 'object' && !Array.isArray(response) ? (response as IDataObject) : {};
				// The OpenAPI says a `success` field reports the outcome of the mute.
				if (body.success === false) {
					throw new Error(`Lofty did not mute lead ${op.values.leadId as string}${body.message ? `: ${body.message as string}` : ''}`);
				}
				return { leadId: op.values.leadId as string, muted: true, ...body };
			},
		},
		{
			value: 'getMuteStatus',
			name: 'Get Mute Status',
			action: 'Check whether the AI is muted for a lead',
			description: 'Whether the AI assistant is muted for a lead',
			method: 'GET',
			effect: 'read',
			path: '/v2.0/sales-agent/lead/mute-status',
			params: [leadInQuery],
			// Lofty answers {data: {mute: "true"}}, the flag as text.
			output: (response, op) => {
				const data = ((response as IDataObject | null)?.data ?? response) as IDataObject | null;
				const raw = data && typeof data === 'object' ? data.mute : data;
				return { leadId: op.values.leadId as string, muted: raw === true || String(raw).toLowerCase() === 'true' };
			},
		},
		{
			value: 'getWorkingLeads',
			name: 'Get Working Leads',
			action: 'Get the leads the AI follows up',
			description: 'Leads your Sales Agent is following up, with their AI stage and task count',
			method: 'GET',
			effect: 'read',
			path: '/v2.0/working-leads',
			pagination: { style: 'offset', itemsKey: 'workingLeads', totalKey: 'metadata.total', maxPageSize: 100 },
			params: [
				{
					name: 'aiStage',
					label: 'AI Stage',
					type: 'options',
					in: 'query',
					options: [
						{ name: 'AI Monitoring', value: 'AI_MONITORING' },
						{ name: 'AI Prospecting', value: 'AI_PROSPECTING' },
						{ name: 'High Priority', value: 'HIGH_PRIORITY' },
					],
					default: 'HIGH_PRIORITY',
					description: 'Only leads in this AI follow-up stage',
				},
				{
					name: 'sort',
					label: 'Sort By',
					type: 'options',
					in: 'query',
					options: [
						{ name: 'Create Time', value: 'CreateTime' },
						{ name: 'Default', value: 'Default' },
						{ name: 'Update Time', value: 'UpdateTime' },
					],
					default: 'UpdateTime',
				},
				{ name: 'desc', label: 'Descending', type: 'boolean', in: 'query', default: true, description: 'Whether to sort newest first' },
			],
		},
		{
			value: 'addWorkingLeads',
			name: 'Add Working Leads',
			action: 'Hand leads to the AI to follow up',
			description: 'Hand up to 100 leads to your Sales Agent; returns which were added and which failed (for example no access or no quota left)',
			method: 'POST',
			effect: 'sends',
			path: '/v2.0/working-leads/add',
			record: ['salesAgent'],
			params: [
				leadIdList('Leads for the AI to follow up, at most 100'),
				{ name: 'createPlanTask', label: 'Create Plan Tasks', type: 'boolean', in: 'body', description: 'Whether the AI also creates its plan tasks for each lead added' },
			],
			validate: checkBatch,
			errorHints: {
				'20012':
					'The lead list was empty or had more than 100 IDs, or this Lofty user has no Sales Agent (create it in Lofty CRM). The message says which.',
				MISSING_PARAMETER: 'Lead IDs are required.',
			},
		},
		{
			value: 'createPlanTasks',
			name: 'Create Plan Tasks',
			action: 'Create AI-planned follow-up tasks for leads',
			description: 'Have the AI plan its follow-up tasks for up to 100 working leads; leads not in the working pool fail; to create one task yourself use Task > Create',
			method: 'POST',
			effect: 'write',
			path: '/v2.0/plan-tasks/create',
			record: ['salesAgent'],
			params: [leadIdList('Working leads to plan tasks for, at most 100; add them to the working pool first')],
			unwrap: 'data',
			validate: checkBatch,
			errorHints: {
				'20012':
					'The lead list was empty or had more than 100 IDs, or this Lofty user has no Sales Agent (create it in Lofty CRM). The message says which.',
				MISSING_PARAMETER: 'Lead IDs are required.',
			},
		},
		{
			value: 'getPlanTasks',
			name: 'Get Plan Tasks',
			action: 'Get the AI-planned tasks of a lead',
			description: 'The AI follow-up tasks of a lead with their type, status (Pending, Finished, Overdue) and due time',
			method: 'GET',
			effect: 'read',
			path: '/v2.0/plan-tasks/lead/{leadId}',
			params: [leadInPath],
		},
		sendSmsViaAiNumber,
	],
};
