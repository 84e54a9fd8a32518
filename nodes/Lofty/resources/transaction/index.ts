import type { IDataObject } from 'n8n-workflow';

import { InvalidValue } from '../../model/params';
import type { OperationDef, ResourceDef } from '../../model/types';
import { CUSTOM_FIELDS_BY_NAME } from '../../model/customFields';
import { TRANSACTION_CUSTOM_FIELDS } from '../../model/customFieldSources';
import { leadInPath } from '../lead';
import { COMMISSION_HINT, NAME_HINT, NOT_EXIST_HINT, STATUS_HINT, checkWrite, listValidStatuses, withFallbackWarnings } from './checks';
import { CHOOSE, SIMPLE, TRANSACTION_TYPES, addressFields, byName, isoDate, transactionFields, transactionInPath } from './fields';

export { TRANSACTION_LOCATOR, TRANSACTION_TYPES, transactionFields } from './fields';

/**
 * Transactions (deals) of leads: V1 per-lead endpoints, the V2 search and pipelines, and the
 * Brokermint sync callback. Rules from api-spec.md (Resources > Transaction, POST/PUT transaction)
 * and the OpenAPI descriptions of LeadTransaction and the V2 endpoints.
 */

const operations: OperationDef[] = [
	{
		value: 'create',
		name: 'Create',
		action: 'Create a transaction (deal) for a lead',
		description: 'Create a transaction (deal) for a lead',
		method: 'POST',
		effect: 'write',
		path: '/v1.0/leads/{leadId}/transaction',
		params: [
			leadInPath,
			{
				name: 'transactionName',
				label: 'Transaction Name',
				type: 'string',
				in: 'body',
				required: true,
				requiredCode: 'TRANSACTION_NAME_BLANK',
				placeholder: 'e.g. 123 Main St',
				description: 'The property address or deal name; must not contain < or >',
			},
			...transactionFields(false),
		],
		validate: checkWrite,
		output: withFallbackWarnings,
		customFields: TRANSACTION_CUSTOM_FIELDS,
		errorHints: { '200062': NAME_HINT, TRANSACTION_NAME_BLANK: NAME_HINT, TRANSACTION_NAME_HTML: NAME_HINT, '20012': COMMISSION_HINT },
	},
	{
		value: 'get',
		name: 'Get',
		action: 'Get a transaction of a lead by ID',
		description: 'Get one transaction of a lead',
		method: 'GET',
		effect: 'read',
		path: '/v1.0/leads/{leadId}/transaction/{transactionId}',
		params: [leadInPath, transactionInPath, CUSTOM_FIELDS_BY_NAME],
		simplify: SIMPLE,
		customFields: TRANSACTION_CUSTOM_FIELDS,
	},
	{
		value: 'getAll',
		name: 'Get Many',
		action: 'Search transactions',
		description: 'Search the transactions the user can see, of one type or of all types',
		method: 'GET',
		effect: 'read',
		path: '/v2.0/transactions',
		pagination: {
			style: 'page',
			pageParam: 'pageNum',
			sizeParam: 'pageSize',
			firstPage: 0,
			maxPageSize: 100,
			itemsKey: 'pageData',
			totalKey: 'totalCount',
		},
		simplify: SIMPLE,
		params: [
			{
				name: 'transactionType',
				label: 'Transaction Type',
				type: 'options',
				in: 'query',
				required: true,
				options: byName([...TRANSACTION_TYPES, 'All']).map((o) =>
					o.value === 'All' ? { ...o, description: 'Every type in one search' } : o,
				),
				default: 'All',
				description: 'Which deals to search; All includes Listing, Lease and Other deals, which Lofty leaves out unless asked (its own default is Purchase only)',
			},
			{
				name: 'queryKey',
				label: 'Search Text',
				type: 'string',
				in: 'query',
				description: 'Matches the transaction name, property address or lead name (contains; only the first 15 characters are used)',
			},
			{ name: 'leadId', label: 'Lead ID', type: 'id', in: 'query', description: 'Only transactions of this lead' },
			CUSTOM_FIELDS_BY_NAME,
		],
		customFields: TRANSACTION_CUSTOM_FIELDS,
		errorHints: {
			'20012': 'Lofty rejected a search parameter; the Transaction Type must be All, Purchase, Listing, Lease or Other.',
			'20042': 'The page size must be between 1 and 100.',
		},
	},
	{
		value: 'getAllForLead',
		name: 'Get Lead Transactions',
		action: 'Get all transactions of a lead',
		description: 'All transactions of one lead, of every type, in one list',
		method: 'GET',
		effect: 'read',
		path: '/v1.0/leads/{leadId}/transactions',
		params: [leadInPath, CUSTOM_FIELDS_BY_NAME],
		simplify: SIMPLE,
		customFields: TRANSACTION_CUSTOM_FIELDS,
	},
	{
		value: 'update',
		name: 'Update',
		action: 'Update a transaction',
		description: 'Change fields of a transaction; fields left out stay as they are',
		method: 'PUT',
		effect: 'write',
		path: '/v1.0/leads/{leadId}/transaction/{transactionId}',
		optionalTitle: 'Update Fields',
		params: [
			leadInPath,
			transactionInPath,
			{
				name: 'transactionName',
				label: 'Transaction Name',
				type: 'string',
				in: 'body',
				placeholder: 'e.g. 123 Main St',
				description: 'The property address or deal name; must not contain < or >',
			},
			...transactionFields(true),
		],
		validate(op) {
			const fields = Object.keys(op.values).filter((name) => name !== 'leadId' && name !== 'transactionId');
			if (fields.length === 0) throw new InvalidValue('Update Fields', 'add at least one field to change');
			checkWrite(op);
		},
		output: withFallbackWarnings,
		customFields: TRANSACTION_CUSTOM_FIELDS,
		explainFailure: listValidStatuses,
		errorHints: {
			'200125': STATUS_HINT,
			TRANSACTION_STATUS_INVALID: STATUS_HINT,
			'200062': NAME_HINT,
			TRANSACTION_NAME_BLANK: NAME_HINT,
			TRANSACTION_NAME_HTML: NAME_HINT,
			'20012': COMMISSION_HINT,
		},
	},
	{
		value: 'getPropertyAddress',
		name: 'Get Property Address',
		action: 'Get the property address of a transaction',
		description: 'The property address stored on a transaction',
		method: 'GET',
		effect: 'read',
		path: '/v1.0/leads/{leadId}/transaction/{transactionId}/property/address',
		params: [leadInPath, transactionInPath],
		errorHints: {
			RESOURCE_NOT_EXIST: 'The transaction has no property address yet. Set one with Update Property Address.',
		},
	},
	{
		value: 'updatePropertyAddress',
		name: 'Update Property Address',
		action: 'Replace the property address of a transaction',
		description: 'Replace the property address of a transaction; fields left empty are cleared',
		notice:
			'This replaces the whole address: any address field left empty is cleared in Lofty. To change one field, read the address with Get Property Address first and pass its other fields along.',
		method: 'POST',
		effect: 'write',
		path: '/v1.0/leads/{leadId}/transaction/property/address',
		// The transaction's ID travels in the body: its turn is shared with Update and Sync From Brokermint.
		record: ['leadId', 'transactionId'],
		optionalTitle: 'Address Fields',
		// The transaction ID travels in the body here, not in the path.
		params: [leadInPath, { ...transactionInPath, in: 'body' }, ...addressFields],
		validate(op) {
			if (!addressFields.some((p) => op.values[p.name] !== undefined)) {
				throw new InvalidValue('Address Fields', 'set at least one address field (an empty update would clear the whole address)');
			}
		},
	},
	{
		value: 'getCustomFields',
		name: 'Get Custom Fields',
		action: 'Get the transaction custom fields',
		description: 'The team\'s transaction custom field definitions (ID, name, type, choices), for use in Custom Fields',
		method: 'GET',
		effect: 'read',
		path: '/v1.0/transaction/customfields',
		params: [],
		output: (response) => {
			const list = Array.isArray(response) ? (response as IDataObject[]) : [];
			return list.map((field) => {
				// `params` is a JSON string of the choices of select fields: also given parsed, as `choices`.
				if (typeof field.params !== 'string' || !field.params.trim().startsWith('[')) return field;
				try {
					return { ...field, choices: JSON.parse(field.params) as IDataObject[] };
				} catch {
					return field;
				}
			});
		},
	},
	{
		value: 'getPipelines',
		name: 'Get Pipelines',
		action: 'Get the stages of each transaction pipeline',
		description: 'The team\'s stages (statuses) of each transaction type, in pipeline order; one item per type',
		method: 'GET',
		effect: 'read',
		path: '/v2.0/transactions/pipelines',
		params: [],
		unwrap: 'pipelines',
	},
	{
		value: 'syncFromBrokermint',
		name: 'Sync From Brokermint',
		action: 'Apply Brokermint deal changes to its Lofty transaction',
		description: 'Apply Brokermint deal changes (agent, address, price, dates, Closed or Cancelled) to a Brokermint-linked Lofty transaction',
		notice: 'The transaction must already be linked to Brokermint in Lofty (Brokermint integration); otherwise Lofty answers that it does not exist.',
		method: 'PUT',
		effect: 'write',
		path: '/v1.0/brokermint/transaction',
		record: ['transactionId'],
		params: [
			{ ...transactionInPath, key: 'id', in: 'body', description: 'The Lofty transaction to update: pick it from the list, or give its ID' },
			{
				name: 'agentId',
				label: 'Agent Name or ID',
				type: 'id',
				in: 'body',
				loadOptions: 'getMembers',
				description: `Agent who will own the transaction (replaces the current one). ${CHOOSE}`,
			},
			{ name: 'address', label: 'Street Address', type: 'string', in: 'body', description: 'Replaces the stored property street address' },
			{ name: 'city', label: 'City', type: 'string', in: 'body' },
			{ name: 'state', label: 'State', type: 'string', in: 'body' },
			{ name: 'zip', label: 'Zip Code', type: 'string', in: 'body' },
			{
				name: 'status',
				label: 'Status',
				type: 'options',
				in: 'body',
				options: byName(['Closed', 'Cancelled']),
				default: 'Closed',
				description: 'Moves the transaction to the pipeline stage of that name; Lofty ignores any other Brokermint status',
			},
			{
				name: 'transactionType',
				label: 'Transaction Type',
				type: 'options',
				in: 'body',
				options: byName(TRANSACTION_TYPES),
				default: 'Purchase',
			},
			{ name: 'price', label: 'Home Price', type: 'number', in: 'body', min: 0 },
			isoDate('closingDate', 'Expected Close Date', 'Brokermint\'s closing date, stored as the expected close date'),
			isoDate('closedAt', 'Actual Close Date', 'When the deal actually closed'),
			isoDate('expirationDate', 'Expiration Date', 'Listing or contract expiration'),
			{ name: 'agentName', label: 'Agent Display Name', type: 'string', in: 'body', description: 'Currently ignored by Lofty' },
			{ name: 'representing', label: 'Representing', type: 'string', in: 'body', placeholder: 'e.g. Buyer', description: 'The side the agent represented; currently ignored by Lofty' },
			isoDate('acceptanceDate', 'Offer Acceptance Date', 'Currently ignored by Lofty'),
		],
		validate(op) {
			if (Object.keys(op.values).filter((name) => name !== 'transactionId').length === 0) {
				throw new InvalidValue('Additional Fields', 'add at least one field to sync');
			}
		},
		errorHints: {
			'200060':
				'Lofty found no Brokermint-linked transaction with this ID: link the transaction to Brokermint in Lofty first (Brokermint integration), and check that it was not deleted.',
			TRANSACTION_NOT_EXIST:
				'Lofty found no Brokermint-linked transaction with this ID: link the transaction to Brokermint in Lofty first (Brokermint integration), and check that it was not deleted.',
		},
	},
];

export const transaction: ResourceDef = {
	value: 'transaction',
	name: 'Transaction',
	description: 'Deals: transactions, pipelines, property addresses',
	operations,
	errorHints: {
		'200060': NOT_EXIST_HINT,
		TRANSACTION_NOT_EXIST: NOT_EXIST_HINT,
		'20006':
			'The lead does not exist, is in the trash, or the user behind this credential cannot manage it. Check the lead ID.',
	},
};
