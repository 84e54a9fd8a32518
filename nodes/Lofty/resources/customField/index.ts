import type { IDataObject } from 'n8n-workflow';

import { InvalidValue } from '../../model/params';
import type { ResourceDef } from '../../model/types';

/** Field types Lofty supports (OpenAPI, POST /v1.0/teamFeatures/custom-field). */
const FIELD_TYPES = [
	{ name: 'Anniversary Date', value: 'anniversary_date', description: 'A date that recurs every year, such as a birthday or a home-purchase anniversary' },
	{ name: 'Currency', value: 'currency', description: 'An amount of money' },
	{ name: 'Date', value: 'date', description: 'A calendar date' },
	{ name: 'Multi Select', value: 'multi_select', description: 'Several choices from a list' },
	{ name: 'Number', value: 'number', description: 'A number' },
	{ name: 'Percentage', value: 'percentage', description: 'A percentage' },
	{ name: 'Single Select', value: 'single_select', description: 'One choice from a list' },
	{ name: 'Text', value: 'text', description: 'Free text' },
];
const SELECT_TYPES = ['single_select', 'multi_select'];

export const customField: ResourceDef = {
	value: 'customField',
	name: 'Custom Field',
	description: 'Custom lead fields of the team',
	operations: [
		{
			value: 'getAll',
			name: 'Get Many',
			action: "Get the team's lead custom fields",
			description: 'The custom lead fields defined for the team, with their type and choices',
			method: 'GET',
			effect: 'read',
			path: '/v1.0/teamFeatures/listCustomField',
			params: [],
		},
		{
			value: 'create',
			name: 'Create',
			action: 'Create a lead custom field',
			description: 'Add a custom lead field to the team; its value can then be set on leads',
			method: 'POST',
			effect: 'write',
			path: '/v1.0/teamFeatures/custom-field',
			// Field names are unique in the team: the first item with a name creates it.
			record: ['attributeName'],
			params: [
				{
					name: 'attributeName',
					label: 'Name',
					type: 'string',
					in: 'body',
					required: true,
					requiredCode: 'ATTRIBUTE_NAME_EMPTY',
					placeholder: 'e.g. Preferred School District',
					description: 'Name of the new field as agents will see it on leads',
				},
				{
					name: 'attributeType',
					label: 'Type',
					type: 'options',
					in: 'body',
					required: true,
					requiredCode: 'ATTRIBUTE_TYPE_EMPTY',
					options: FIELD_TYPES,
					default: 'text',
					description: 'What kind of value the field holds',
				},
				{
					// Lofty wants the choices as the JSON text {"option": [...]} in `params`; validate() builds it.
					name: 'selectOptions',
					label: 'Choices',
					type: 'stringList',
					in: 'body',
					key: 'params',
					description: 'For Single Select and Multi Select fields: the choices agents can pick from',
				},
			],
			validate(op) {
				const choices = op.values.selectOptions as string[] | undefined;
				if (choices === undefined) return;
				if (!SELECT_TYPES.includes(op.values.attributeType as string)) {
					throw new InvalidValue('Choices', 'only apply to Single Select and Multi Select fields; remove them or change the Type');
				}
			},
			toWire(op) {
				const choices = op.values.selectOptions as string[] | undefined;
				if (choices !== undefined) op.values.selectOptions = JSON.stringify({ option: choices });
			},
			// Lofty answers the bare string "success".
			output: (response, op) => ({
				success: true,
				attributeName: op.values.attributeName as string,
				attributeType: op.values.attributeType as string,
				...(op.values.selectOptions ? { params: op.values.selectOptions as string } : {}),
				...(typeof response === 'string' ? { message: response } : ((response ?? {}) as IDataObject)),
			}),
			errorHints: {
				ATTRIBUTE_NAME_EMPTY: 'The custom field needs a name. Fill in Name (spaces alone do not count).',
				ATTRIBUTE_TYPE_EMPTY: 'The custom field needs a type. Choose one in Type.',
				'20012':
					'Lofty refused the field: the Type may not be supported, the Choices may be malformed, or the team may already have a custom field with this name. Check Custom Field > Get Many for the existing fields.',
			},
		},
	],
};
