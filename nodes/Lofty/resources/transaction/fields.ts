import type { INodePropertyOptions } from 'n8n-workflow';

import type { LocatorDef, ParamDef } from '../../model/types';
import { mergedBodyJson } from '../../model/collections';

/** The fields of a transaction as create and update take them, and the address fields (transaction/index.ts). */

/** The transaction types of the API, case-sensitive on write (Purchase is the first pipeline). */
export const TRANSACTION_TYPES = ['Purchase', 'Listing', 'Lease', 'Other'];

export const byName = (values: string[]): INodePropertyOptions[] =>
	values.map((v) => ({ name: v, value: v })).sort((a, b) => a.name.localeCompare(b.name));

export const TRANSACTION_LOCATOR: LocatorDef = {
	searchMethod: 'searchTransactions',
	idPlaceholder: '10001',
};

/** The transaction picked with a resource locator (the list shows the chosen lead's deals). */
export const transactionInPath: ParamDef = {
	name: 'transactionId',
	label: 'Transaction',
	type: 'locator',
	locator: TRANSACTION_LOCATOR,
	in: 'path',
	required: true,
	description: 'The transaction: pick it from the list (deals of the chosen lead), or give its ID',
};

export const CHOOSE = 'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.';

const typeField: ParamDef = {
	name: 'transactionType',
	label: 'Type Name or ID',
	type: 'options',
	in: 'body',
	loadOptions: 'getTransactionTypes',
	description: `Purchase, Listing, Lease or Other (case-sensitive); a type the team has no pipeline for silently becomes the first pipeline's type. ${CHOOSE}`,
};

const statusField = (onUpdate: boolean): ParamDef => ({
	name: 'transactionStatus',
	label: 'Status Name or ID',
	type: 'options',
	in: 'body',
	loadOptions: 'getTransactionStatuses',
	description: `${
		onUpdate
			? 'A stage of the team\'s pipeline for the transaction\'s type; Lofty rejects any other name (the error lists the valid ones).'
			: 'A stage of the team\'s pipeline for the type; Lofty silently uses the first stage for any other name (the output then carries a warning).'
	} ${CHOOSE}`,
});

const date = (name: string, label: string): ParamDef => ({ name, label, type: 'dateTime', in: 'body' });
const money = (name: string, label: string, description?: string): ParamDef => ({ name, label, type: 'number', in: 'body', min: 0, description });

/** LeadTransaction fields a request may set, besides the name. Lead name and assigned agent are ignored by Lofty and not offered. */
export function transactionFields(onUpdate: boolean): ParamDef[] {
	return [
		typeField,
		statusField(onUpdate),
		money('homePrice', 'Home Price'),
		{
			name: 'commissionRate',
			label: 'Commission Rate (%)',
			type: 'number',
			in: 'body',
			min: 0,
			max: 100,
			description: 'A percentage: 3 means 3% (not 0.03)',
		},
		money('gci', 'Gross Commission Income (GCI)'),
		money('teamRevenue', 'Team Portion of GCI'),
		money('agentRevenue', 'Agent Portion of GCI'),
		date('expectedCloseDate', 'Expected Close Date'),
		date('closeDate', 'Actual Close Date'),
		date('appointmentDate', 'Appointment Date'),
		date('agreementSignedDate', 'Agreement Signed Date'),
		date('offerDate', 'Offer Date'),
		date('contractDate', 'Contract Date'),
		date('appraisalDate', 'Appraisal Date'),
		date('homeInspectionDate', 'Home Inspection Date'),
		date('escrowDate', 'Escrow Date'),
		date('expiration', 'Expiration Date'),
		{
			name: 'customFields',
			label: 'Custom Fields (By ID)',
			type: 'fixedCollection',
			in: 'body',
			description:
				'For expressions that give field IDs. Used alone it replaces ALL custom field values of the transaction (full coverage): a custom field not listed here is cleared. The Custom Fields mapper above keeps the others.',
			fields: [
				{
					name: 'id',
					label: 'Field Name or ID',
					type: 'id',
					in: 'body',
					required: true,
					loadOptions: 'getTransactionCustomFields',
					description: `The transaction custom field. ${CHOOSE}`,
				},
				{
					name: 'value',
					label: 'Value',
					type: 'string',
					in: 'body',
					description: 'For a multi-select field, a JSON array such as ["Item1","Item2"]; dates as epoch milliseconds',
				},
			],
		},
		{
			name: 'commissions',
			label: 'Commissions (JSON)',
			type: 'json',
			in: 'body',
			jsonShape: 'object',
			description:
				'Commission structure with preSplit, split and postSplit lists, e.g. {"split": [{"payType": "AGENT", "payTo": 9007199254741001, "calculateType": "PERCENT", "value": 70}]}',
		},
		mergedBodyJson('extraBody', 'Any further LeadTransaction fields as a JSON object, merged into the request body'),
	];
}

export const addressFields: ParamDef[] = [
	{ name: 'streetAddress', label: 'Street Address', type: 'string', in: 'body' },
	{ name: 'unit', label: 'Unit', type: 'string', in: 'body', description: 'Unit or apartment number' },
	{ name: 'city', label: 'City', type: 'string', in: 'body' },
	{ name: 'state', label: 'State', type: 'string', in: 'body', placeholder: 'e.g. CA' },
	{ name: 'zipCode', label: 'Zip Code', type: 'string', in: 'body' },
	{ name: 'county', label: 'County', type: 'string', in: 'body' },
	{ name: 'label', label: 'Label', type: 'string', in: 'body', placeholder: 'e.g. Investment', description: 'A free-form label for the address' },
];

export const isoDate = (name: string, label: string, description: string): ParamDef => ({ name, label, type: 'dateTime', in: 'body', format: 'iso', description });

export const SIMPLE = [
	'transactionName',
	'leadName',
	'agentName',
	'assignedAgent',
	'transactionType',
	'transactionStatus',
	'homePrice',
	'commissionRate',
	'gci',
	'expectedCloseDate',
	'closeDate',
	'created',
	'updated',
];
