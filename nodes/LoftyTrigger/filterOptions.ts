import type { IDataObject, ILoadOptionsFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { getLeadStages } from '../Lofty/methods/leadPipeline';
import { loftyRequest } from '../Lofty/transport/request';
import { STANDARD_TRANSACTION_FIELDS } from './filters';

/** The filter options of the trigger (filters.ts applies them), shown under Options once their event is chosen (n8n sorts options by name). */
export const FILTER_OPTIONS: INodeProperties[] = [
	{
		displayName: 'Only When Stage Changes From',
		name: 'stageFrom',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getPipelineStages' },
		displayOptions: { show: { '/events': [12] } },
		default: [],
		description:
			'Pipeline Change: start the workflow only when a lead leaves one of these stages; empty for any. Names or stage IDs, comma-separated in an expression; case and spacing do not matter. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Only When Stage Changes To',
		name: 'stageTo',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getPipelineStages' },
		displayOptions: { show: { '/events': [12] } },
		default: [],
		description:
			'Pipeline Change: start the workflow only when a lead moves into one of these stages; empty for any. Names or stage IDs, comma-separated in an expression; case and spacing do not matter. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Only When These Fields Changed',
		name: 'changedFields',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getTransactionFieldNames' },
		displayOptions: { show: { '/events': [5] } },
		default: [],
		description:
			'Transaction updates: start the workflow only when at least one of these fields changed; empty for any. Created and deleted transactions still pass (Only Actions drops them). Field names, comma-separated in an expression. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
];

/** The standard transaction fields, then the team's custom fields (GET /v1.0/transaction/customfields). */
async function getTransactionFieldNames(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const standard = STANDARD_TRANSACTION_FIELDS.map((f) => ({ name: f.label, value: f.name }));
	const response = await loftyRequest(this, { method: 'GET', path: '/v1.0/transaction/customfields' });
	const custom = ((Array.isArray(response) ? response : []) as IDataObject[])
		.filter((f) => typeof f.name === 'string' && f.name.trim() !== '')
		.map((f) => ({ name: `${String(f.name).trim()} (Custom Field)`, value: String(f.name).trim(), description: `Custom field ID ${String(f.id)}` }))
		.sort((a, b) => a.name.localeCompare(b.name));
	return [...standard, ...custom];
}

async function getPipelineStages(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await getLeadStages.call(this);
}

export const triggerMethods = { loadOptions: { getPipelineStages, getTransactionFieldNames } };
