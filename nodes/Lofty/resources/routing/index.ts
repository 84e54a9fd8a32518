import type { IDataObject } from 'n8n-workflow';

import { InvalidValue } from '../../model/params';
import type { BuiltRequest, OperationContext, OtherReading, ParamDef, ResourceDef } from '../../model/types';
import { ACTIVE_DAYS_DESCRIPTION, WEEKDAYS, dayNumber } from './days';

const EXPRESSION_HINT = 'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.';
const ASSISTANT_LEAD = '4';

/** Routing business types: Lofty allows 1, 2 and 4 and documents only 4 (ASSISTANT_LEAD). */
const businessType: ParamDef = {
	name: 'type',
	label: 'Business Type',
	type: 'options',
	in: 'path',
	required: true,
	options: [
		{ name: '1 - Agent Leads', value: '1' },
		{ name: '2 - Lender Leads', value: '2' },
		{ name: '4 - Assistant Leads (Needs a Role)', value: '4' },
	],
	default: '1',
	description:
		"Whose lead routing to use. Lofty documents only 4 (assistant leads, which needs a role); 1 is its agent-lead routing and 2 is read as lender leads.",
};

function roleParam(where: 'query' | 'body'): ParamDef {
	return {
		name: 'roleId',
		label: 'Role Name or ID',
		type: 'options',
		in: where,
		loadOptions: 'getRoutingRoles',
		description: `Assign role whose routing to use; required when Business Type is 4 (assistant leads). ${EXPRESSION_HINT}`,
	};
}

/** Lofty needs a role for assistant leads (INVAID_ROLE_ID otherwise); role IDs are whole numbers. */
function checkRole(op: OperationContext): void {
	const { type, roleId } = op.values;
	if (type === ASSISTANT_LEAD && roleId === undefined) {
		throw new InvalidValue('Role Name or ID', 'is required when Business Type is 4 - Assistant Leads (Lofty would answer INVAID_ROLE_ID)');
	}
	if (roleId !== undefined && !Number.isInteger(Number(String(roleId).trim()))) {
		throw new InvalidValue('Role Name or ID', `must be a role ID (a whole number), got ${String(roleId)}`);
	}
}

/** The role dropdown gives text; Lofty wants the number. */
function roleToWire(op: OperationContext): void {
	if (op.values.roleId !== undefined) op.values.roleId = Number(String(op.values.roleId).trim());
}

/** touchMinutes: more than 0 and at most 1440; above 60 a whole number of hours. */
function checkTouchMinutes(op: OperationContext): void {
	const minutes = op.values.touchMinutes as number | undefined;
	if (minutes === undefined) return;
	if (!Number.isInteger(minutes) || minutes <= 0 || minutes > 1440 || (minutes > 60 && minutes % 60 !== 0)) {
		throw new InvalidValue('Touch Minutes', `must be a whole number above 0 and at most 1440, and a multiple of 60 when above 60 (e.g. 30, 60, 120), got ${minutes}`);
	}
}

function checkWhole(op: OperationContext, name: string, label: string): void {
	const value = op.values[name];
	if (value !== undefined && !Number.isInteger(value)) throw new InvalidValue(label, `must be a whole number, got ${String(value)}`);
}

const touchMinutes = (key: string): ParamDef => ({
	name: 'touchMinutes',
	label: 'Touch Minutes',
	type: 'number',
	in: 'body',
	key,
	min: 1,
	max: 1440,
	description: 'For Next Up and Blast Alert: minutes an agent has to claim the lead (1 to 60, or whole hours up to 1440)',
});

const strategyDescription =
	"Lofty's numeric routing strategy code (round robin, next up, blast alert, lead pond, default assignee). Lofty does not publish the codes: read them from Get Rules or Get Default Rule.";

const PERMISSION_HINT =
	'The Lofty user behind this credential lacks the Manage Lead Distribution permission (MANAGE_LEAD_DISTRIBUTION, or MANAGE_LEAD_DISTRIBUTION_DEPARTMENT). Use the credential of an admin who manages lead routing.';

const updated = (response: unknown, op: OperationContext, extra: IDataObject): IDataObject => ({
	updated: true,
	businessType: op.values.type as string,
	...extra,
	message: typeof response === 'string' ? response : 'ok',
});

/**
 * Update Rule's memberWeights (docs/api-readings.md, row 6): the node sends a list of `{memberId, weight}`; the
 * OpenAPI draws one object. A 400 that names memberWeights or its type MemberWeight (whole words) and says it could
 * not be read as a list or an object (nothing was applied) switches to one object; several weights cannot be one object, which is said plainly.
 */
const MEMBER_WEIGHTS_READING: OtherReading = {
	name: 'memberWeightsObject',
	detect: ({ httpCode, message }) => httpCode === 400 && /\b(?:memberWeights|MemberWeight)\b/.test(message) && /deserializ|START_ARRAY|array|object/i.test(message),
	rewrite(request: BuiltRequest): BuiltRequest {
		const body = request.body as IDataObject;
		const strategy = body?.routingStrategy as IDataObject | undefined;
		const weights = strategy?.memberWeights;
		if (!Array.isArray(weights)) return request;
		if (weights.length > 1) {
			throw new InvalidValue(
				'Member Weights',
				`Lofty takes one member weight here (it refused a list, as its OpenAPI draws memberWeights as one object), and this rule sets ${weights.length}; set one member weight per run`,
			);
		}
		return { ...request, body: { ...body, routingStrategy: { ...strategy, memberWeights: weights[0] as IDataObject } } };
	},
};

export const routing: ResourceDef = {
	value: 'routing',
	name: 'Routing',
	description: 'Lead routing rules and assignable members',
	errorHints: {
		BUSINESS_TYPE_ERROR: 'Lofty does not know this business type. Use 1, 2 or 4 (4 = assistant leads).',
		STRATEGY_TYPE_ERROR: 'The strategy type is missing or not a code Lofty knows. Copy a strategyType value from Get Rules or Get Default Rule.',
		STRATEGY_TYPE_NOT_MATCH:
			'This strategy is not allowed for this business type: Lead Pond works only for agent leads, and Next Up and Blast Alert do not work for assistant leads.',
		INVAID_ROLE_ID: 'The role is missing or unknown. Assistant leads (business type 4) need a role from Get Roles.',
		INVAID_ID:
			'An ID was rejected: the rule is not one of this business type (pick it from Get Rules), or the default assignee is missing, unknown or not assignable (pick from Get Assignable Members; for agent leads give exactly one of agent or office).',
		INVAID_GROUP_ID: 'The lead pond or office does not exist in your team. Check the ID.',
		INVAID_ACTIVE_HOURS: 'Active hours must be whole hours from 0 to 23.',
		INVAID_ACTIVE_DAY: 'Active days must be days 1 to 7.',
		INVAID_MEMBER_WEIGHT:
			'A member weight was rejected: the member cannot be assigned by this rule (pick members from Get Assignable Members) or the weight is not a whole number of at least 0.',
		INVAID_TOUCHMINUTES: 'Touch minutes must be above 0 and at most 1440; above 60 they must be whole hours (120, 180 ...).',
		'20017': PERMISSION_HINT,
		PERMISSION_DENIED: PERMISSION_HINT,
	},
	operations: [
		{
			value: 'getRules',
			name: 'Get Rules',
			action: 'Get the lead routing rules',
			description: 'The lead routing rules of a business type: conditions, active hours and strategy',
			method: 'GET',
			effect: 'read',
			path: '/v1.0/routing/rule/list/{type}',
			params: [businessType, roleParam('query')],
			simplify: ['name', 'ruleSwitch', 'sourceName', 'tagNames', 'activeHours', 'routingStrategy', 'updateTime'],
			validate: checkRole,
			toWire: roleToWire,
		},
		{
			value: 'updateRule',
			name: 'Update Rule',
			action: 'Update a lead routing rule',
			description: 'Change the active hours or the strategy of a routing rule',
			method: 'PUT',
			effect: 'write',
			path: '/v1.0/routing/rule/{type}',
			optionalTitle: 'Update Fields',
			params: [
				businessType,
				{
					name: 'ruleId',
					label: 'Rule Name or ID',
					type: 'id',
					in: 'body',
					key: 'id',
					required: true,
					loadOptions: 'getRoutingRules',
					description: `The routing rule to change. ${EXPRESSION_HINT}`,
				},
				{
					name: 'activeDays',
					label: 'Active Days',
					type: 'multiOptions',
					in: 'body',
					key: 'activeHours.activeDays',
					// Stored as ISO numbers (1 = Monday, 7 = Sunday); sent as Active Day Numbering says (toWire).
					options: WEEKDAYS.map((name, i) => ({ name, value: i + 1 })).sort((a, b) => a.name.localeCompare(b.name)),
					description: ACTIVE_DAYS_DESCRIPTION,
				},
				{
					name: 'activeDayNumbering',
					label: 'Active Day Numbering',
					type: 'options',
					in: 'local',
					options: [
						{ name: 'Monday Is 1, Sunday Is 7 (Assumed)', value: 'iso', description: 'ISO 8601 and Java\'s DayOfWeek, which Lofty\'s "between 1 and 7" fits' },
						{ name: 'Sunday Is 1, Saturday Is 7', value: 'fromSunday', description: 'Should your Lofty count the week from Sunday' },
					],
					default: 'iso',
					description: 'How Lofty numbers the Active Days. Lofty says only "between 1 and 7", not which day is 1; check a rule in Lofty after the first change.',
				},
				{ name: 'hoursStart', label: 'Active From Hour', type: 'number', in: 'body', key: 'activeHours.hoursStart', min: 0, max: 23, description: 'Hour of the day (0 to 23) the rule starts' },
				{ name: 'hoursEnd', label: 'Active Until Hour', type: 'number', in: 'body', key: 'activeHours.hoursEnd', min: 0, max: 23, description: 'Hour of the day (0 to 23) the rule ends' },
				{ name: 'strategyType', label: 'Strategy Type', type: 'number', in: 'body', key: 'routingStrategy.strategyType', min: 0, description: strategyDescription },
				{
					name: 'groupId',
					label: 'Lead Pond ID',
					type: 'id',
					in: 'body',
					key: 'routingStrategy.groupId',
					description: 'For the lead pond strategy: the pond leads go to',
				},
				touchMinutes('routingStrategy.touchMinutes'),
				{
					name: 'memberWeights',
					label: 'Member Weights',
					type: 'fixedCollection',
					in: 'body',
					// A list (a rule weighs several members); the OpenAPI draws one object: MEMBER_WEIGHTS_READING.
					key: 'routingStrategy.memberWeights',
					description:
						'Not for the lead pond strategy: who receives leads and how many (higher weight, more leads). Should Lofty take only one member weight (as its OpenAPI draws it), the node sends a single one as an object and refuses several.',
					fields: [
						{
							name: 'memberId',
							label: 'Member Name or ID',
							type: 'id',
							in: 'body',
							required: true,
							loadOptions: 'getRoutingMembers',
							description: `A member routing may assign for this business type. ${EXPRESSION_HINT}`,
						},
						{ name: 'weight', label: 'Weight', type: 'number', in: 'body', min: 0, default: 1 },
					],
				},
			],
			validate(op) {
				if (!Object.keys(op.values).some((name) => !['type', 'ruleId', 'activeDayNumbering'].includes(name))) {
					throw new InvalidValue('Update Fields', 'add at least one field to change');
				}
				checkWhole(op, 'hoursStart', 'Active From Hour');
				checkWhole(op, 'hoursEnd', 'Active Until Hour');
				checkWhole(op, 'strategyType', 'Strategy Type');
				checkTouchMinutes(op);
				for (const d of (op.values.activeDays as unknown[] | undefined) ?? []) {
					const n = Number(d);
					if (!Number.isInteger(n) || n < 1 || n > 7) throw new InvalidValue('Active Days', `must be days 1 to 7, got ${String(d)}`);
				}
				for (const row of (op.values.memberWeights as IDataObject[] | undefined) ?? []) {
					if (!Number.isInteger(row.weight ?? 1)) throw new InvalidValue('Weight', `must be a whole number, got ${String(row.weight)}`);
				}
			},
			// Days go out as numbers; a member row without a weight gets the default weight 1.
			toWire(op) {
				const days = op.values.activeDays as unknown[] | undefined;
				if (days) op.values.activeDays = days.map((d) => dayNumber(Number(d), op.values.activeDayNumbering === 'fromSunday' ? 'fromSunday' : 'iso'));
				const weights = op.values.memberWeights as IDataObject[] | undefined;
				if (weights) op.values.memberWeights = weights.map((row) => ({ ...row, weight: row.weight ?? 1 }));
			},
			output: (response, op) => updated(response, op, { ruleId: op.values.ruleId as string }),
			otherReading: MEMBER_WEIGHTS_READING,
		},
		{
			value: 'getDefaultRule',
			name: 'Get Default Rule',
			action: 'Get the default lead routing rule',
			description: 'The fallback rule used when no routing rule matches a lead',
			method: 'GET',
			effect: 'read',
			path: '/v1.0/routing/rule/supplement/{type}',
			params: [businessType, roleParam('query')],
			validate: checkRole,
			toWire: roleToWire,
		},
		{
			value: 'updateDefaultRule',
			name: 'Update Default Rule',
			action: 'Update the default lead routing rule',
			description: 'Change the fallback rule: a default assignee, or a strategy such as next up with its touch minutes',
			method: 'PUT',
			effect: 'write',
			path: '/v1.0/routing/rule/supplement/{type}',
			params: [
				businessType,
				{ name: 'strategyType', label: 'Strategy Type', type: 'number', in: 'body', required: true, min: 0, description: strategyDescription },
				roleParam('body'),
				touchMinutes('touchMinutes'),
				{
					name: 'assigneeAgentId',
					label: 'Default Assignee Name or ID',
					type: 'id',
					in: 'body',
					loadOptions: 'getRoutingMembers',
					description: `For the default assignee strategy: the member who gets unmatched leads. ${EXPRESSION_HINT}`,
				},
				{
					name: 'assigneeGroupId',
					label: 'Default Office Name or ID',
					type: 'id',
					in: 'body',
					loadOptions: 'getOffices',
					description: `For the default assignee strategy of agent leads, instead of an agent: the office that gets unmatched leads. ${EXPRESSION_HINT}`,
				},
			],
			validate(op) {
				checkWhole(op, 'strategyType', 'Strategy Type');
				checkRole(op);
				checkTouchMinutes(op);
				const { assigneeAgentId, assigneeGroupId, type } = op.values;
				if (assigneeGroupId !== undefined && type !== '1') {
					throw new InvalidValue('Default Office Name or ID', 'applies to business type 1 (agent leads) only; Lofty ignores it otherwise');
				}
				if (assigneeAgentId !== undefined && assigneeGroupId !== undefined) {
					throw new InvalidValue('Default Assignee Name or ID', 'give either a default assignee or a default office, not both');
				}
			},
			toWire: roleToWire,
			output: (response, op) => updated(response, op, {}),
		},
		{
			value: 'getRoles',
			name: 'Get Roles',
			action: 'Get the roles lead routing assigns by',
			description: 'The assign roles of your team, used with business type 4 (assistant leads)',
			method: 'GET',
			effect: 'read',
			path: '/v1.0/routing/role/list',
			params: [],
		},
		{
			value: 'getMembers',
			name: 'Get Assignable Members',
			action: 'Get the members lead routing can assign',
			description: 'Members lead routing may assign for a business type (and role); needs the Manage Lead Distribution permission',
			method: 'GET',
			effect: 'read',
			path: '/v1.0/routing/member/list/{type}',
			params: [businessType, roleParam('query')],
			validate: checkRole,
			toWire: roleToWire,
		},
	],
};
