import type { IDataObject, INodePropertyOptions } from 'n8n-workflow';

import { InvalidValue } from '../model/params';
import type { LocatorDef, OperationContext, OperationDef, ParamDef, ResourceDef } from '../model/types';
import { loftyRequest } from '../transport/request';
import { CUSTOM_FIELDS_BY_NAME } from '../model/customFields';
import { TRANSACTION_CUSTOM_FIELDS } from './customFieldSources';
import { leadInPath } from './lead';

/**
 * Transactions (deals) of leads: V1 per-lead endpoints, the V2 search and pipelines, and the
 * Brokermint sync callback. Rules from api-spec.md (Resources > Transaction, POST/PUT transaction)
 * and the OpenAPI descriptions of LeadTransaction and the V2 endpoints.
 */

/** The transaction types of the API, case-sensitive on write (Purchase is the first pipeline). */
export const TRANSACTION_TYPES = ['Purchase', 'Listing', 'Lease', 'Other'];

const byName = (values: string[]): INodePropertyOptions[] =>
	values.map((v) => ({ name: v, value: v })).sort((a, b) => a.name.localeCompare(b.name));

export const TRANSACTION_LOCATOR: LocatorDef = {
	searchMethod: 'searchTransactions',
	idPlaceholder: '10001',
};

/** The transaction picked with a resource locator (the list shows the chosen lead's deals). */
const transactionInPath: ParamDef = {
	name: 'transactionId',
	label: 'Transaction',
	type: 'locator',
	locator: TRANSACTION_LOCATOR,
	in: 'path',
	required: true,
	description: 'The transaction: pick it from the list (deals of the chosen lead), or give its ID',
};

const CHOOSE = 'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.';

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
function transactionFields(onUpdate: boolean): ParamDef[] {
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
		{
			name: 'extraBody',
			key: '$merge',
			label: 'Other Fields (JSON)',
			type: 'json',
			in: 'body',
			jsonShape: 'object',
			description: 'Any further LeadTransaction fields as a JSON object, merged into the request body',
		},
	];
}

const PAY_TYPES = ['TEAM', 'AGENT', 'VENDOR_PARTNER', 'LEAD', 'OTHER', 'BROKERAGE', 'UPLINE'];
const COMMISSION_LISTS = ['preSplit', 'split', 'postSplit'];
const COMMISSION_IDS = ['id', 'payTo', 'splitPayTo'];

/** IDs inside user JSON arrive as digit strings when large; Lofty gets them as exact integers. */
function exactId(value: unknown): unknown {
	return typeof value === 'string' && /^\d+$/.test(value.trim()) ? BigInt(value.trim()) : value;
}

/** Checks the commission structure against the enums of the OpenAPI Commission schema. */
function checkCommissions(op: OperationContext): void {
	const commissions = op.values.commissions as IDataObject | undefined;
	if (commissions === undefined) return;
	const field = 'Commissions (JSON)';
	for (const [key, list] of Object.entries(commissions)) {
		if (!COMMISSION_LISTS.includes(key)) throw new InvalidValue(field, `has an unknown key "${key}"; use preSplit, split and postSplit`);
		if (!Array.isArray(list)) throw new InvalidValue(field, `"${key}" must be a list of commission entries`);
		list.forEach((entry: unknown, index) => {
			if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
				throw new InvalidValue(field, `${key}[${index}] must be an object`);
			}
			const row = entry as IDataObject;
			for (const name of ['payType', 'splitPayType']) {
				if (row[name] !== undefined && !PAY_TYPES.includes(row[name] as string)) {
					throw new InvalidValue(field, `${key}[${index}].${name} must be one of ${PAY_TYPES.join(', ')}, got ${JSON.stringify(row[name])}`);
				}
			}
			if (row.calculateType !== undefined && row.calculateType !== 'PERCENT' && row.calculateType !== 'AMOUNT') {
				throw new InvalidValue(field, `${key}[${index}].calculateType must be PERCENT or AMOUNT, got ${JSON.stringify(row.calculateType)}`);
			}
			if (row.value !== undefined && (typeof row.value !== 'number' || !Number.isFinite(row.value))) {
				throw new InvalidValue(field, `${key}[${index}].value must be a number`);
			}
			for (const name of COMMISSION_IDS) if (row[name] !== undefined) row[name] = exactId(row[name]) as IDataObject;
		});
	}
}

/** The rules of the name (api-spec.md: not blank; `<` or `>` gives TRANSACTION_NAME_HTML). */
function checkName(op: OperationContext): void {
	const name = op.values.transactionName;
	if (typeof name === 'string' && /[<>]/.test(name)) {
		throw new InvalidValue('Transaction Name', 'must not contain < or > (Lofty would answer TRANSACTION_NAME_HTML)');
	}
}

function checkWrite(op: OperationContext): void {
	checkName(op);
	const type = op.values.transactionType;
	// The dropdown is filled from the pipelines; an expression may still give anything. The API
	// takes only these four, case-sensitive, and silently replaces any other value.
	if (type !== undefined && !TRANSACTION_TYPES.includes(type as string)) {
		throw new InvalidValue('Type', `must be one of ${TRANSACTION_TYPES.join(', ')} (case-sensitive), got ${JSON.stringify(type)}`);
	}
	checkCommissions(op);
}

/** Create and update answer with the saved transaction: say so when Lofty replaced the type or status. */
function withFallbackWarnings(response: unknown, op: OperationContext): IDataObject {
	const record: IDataObject =
		response !== null && typeof response === 'object' && !Array.isArray(response) ? { ...(response as IDataObject) } : { result: response as string };
	const warnings: string[] = [];
	const askedType = op.values.transactionType as string | undefined;
	const askedStatus = op.values.transactionStatus as string | undefined;
	if (askedType && typeof record.transactionType === 'string' && record.transactionType !== askedType) {
		warnings.push(`Lofty saved the type as "${record.transactionType}", not "${askedType}": the team has no pipeline of that type`);
	}
	if (askedStatus && typeof record.transactionStatus === 'string' && record.transactionStatus.toLowerCase() !== askedStatus.trim().toLowerCase()) {
		warnings.push(
			`Lofty saved the status as "${record.transactionStatus}", not "${askedStatus}": that name is not a stage of the ${String(record.transactionType ?? askedType ?? '')} pipeline, so the first stage was used`,
		);
	}
	if (warnings.length) record.warnings = warnings;
	return record;
}

interface Pipeline {
	transactionType?: string;
	stages?: Array<{ name?: string }>;
}

/** After 200125: the valid statuses of the transaction's type, fetched from the pipelines. */
async function listValidStatuses(failure: { code?: string | number }, op: OperationContext): Promise<string | undefined> {
	if (String(failure.code) !== '200125' && failure.code !== 'TRANSACTION_STATUS_INVALID') return undefined;
	let type = op.values.transactionType as string | undefined;
	if (!type) {
		const current = (await loftyRequest(
			op.ctx,
			{ method: 'GET', path: `/v1.0/leads/${op.values.leadId as string}/transaction/${op.values.transactionId as string}` },
			op.itemIndex,
		).catch(() => undefined)) as IDataObject | undefined;
		type = typeof current?.transactionType === 'string' ? current.transactionType : undefined;
	}
	const response = (await loftyRequest(op.ctx, { method: 'GET', path: '/v2.0/transactions/pipelines' }, op.itemIndex)) as IDataObject;
	const pipelines = (Array.isArray(response?.pipelines) ? response.pipelines : []) as Pipeline[];
	const names = (p: Pipeline) => (p.stages ?? []).map((s) => s.name).filter(Boolean).join(', ');
	const own = pipelines.find((p) => p.transactionType === type);
	if (own) return `Valid statuses for ${type}: ${names(own)}.`;
	const all = pipelines.map((p) => `${p.transactionType}: ${names(p)}`).join('; ');
	return all ? `Valid statuses by type: ${all}.` : undefined;
}

const SIMPLE = [
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

const NAME_HINT =
	'The transaction name (the property address or deal name) is empty or contains < or >. Give a plain-text name such as "123 Main St".';
const NOT_EXIST_HINT =
	'No such transaction on this lead: the ID is wrong, the transaction was deleted, or it belongs to another lead. Pick the transaction from the list for the chosen lead.';
const STATUS_HINT =
	'The status is not a stage of the team\'s transaction pipeline for this transaction\'s type (stage names are set per team in Lofty). Pick a status from the list, or use one of the names below.';
const COMMISSION_HINT =
	'Lofty rejected a value; for commissions, check the preSplit / split / postSplit entries (pay types, PERCENT or AMOUNT, values). The message names what is wrong.';

const addressFields: ParamDef[] = [
	{ name: 'streetAddress', label: 'Street Address', type: 'string', in: 'body' },
	{ name: 'unit', label: 'Unit', type: 'string', in: 'body', description: 'Unit or apartment number' },
	{ name: 'city', label: 'City', type: 'string', in: 'body' },
	{ name: 'state', label: 'State', type: 'string', in: 'body', placeholder: 'e.g. CA' },
	{ name: 'zipCode', label: 'Zip Code', type: 'string', in: 'body' },
	{ name: 'county', label: 'County', type: 'string', in: 'body' },
	{ name: 'label', label: 'Label', type: 'string', in: 'body', placeholder: 'e.g. Investment', description: 'A free-form label for the address' },
];

const isoDate = (name: string, label: string, description: string): ParamDef => ({ name, label, type: 'dateTime', in: 'body', format: 'iso', description });

const operations: OperationDef[] = [
	{
		value: 'create',
		name: 'Create',
		action: 'Create a transaction',
		description: 'Create a transaction (deal) for a lead',
		method: 'POST',
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
		action: 'Get a transaction',
		description: 'Get one transaction of a lead',
		method: 'GET',
		path: '/v1.0/leads/{leadId}/transaction/{transactionId}',
		params: [leadInPath, transactionInPath, CUSTOM_FIELDS_BY_NAME],
		simplify: SIMPLE,
		customFields: TRANSACTION_CUSTOM_FIELDS,
	},
	{
		value: 'getAll',
		name: 'Get Many',
		action: 'Get many transactions',
		description: 'Search the transactions the user can see, of one type or of all types',
		method: 'GET',
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
		path: '/v1.0/leads/{leadId}/transaction/{transactionId}/property/address',
		params: [leadInPath, transactionInPath],
		errorHints: {
			RESOURCE_NOT_EXIST: 'The transaction has no property address yet. Set one with Update Property Address.',
		},
	},
	{
		value: 'updatePropertyAddress',
		name: 'Update Property Address',
		action: 'Update the property address of a transaction',
		description: 'Replace the property address of a transaction; fields left empty are cleared',
		notice:
			'This replaces the whole address: any address field left empty is cleared in Lofty. To change one field, read the address with Get Property Address first and pass its other fields along.',
		method: 'POST',
		path: '/v1.0/leads/{leadId}/transaction/property/address',
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
		action: 'Get the transaction pipelines',
		description: 'The team\'s stages (statuses) of each transaction type, in pipeline order; one item per type',
		method: 'GET',
		path: '/v2.0/transactions/pipelines',
		params: [],
		unwrap: 'pipelines',
	},
	{
		value: 'syncFromBrokermint',
		name: 'Sync From Brokermint',
		action: 'Sync a transaction from Brokermint',
		description: 'Apply Brokermint deal changes (agent, address, price, dates, Closed or Cancelled) to a Brokermint-linked Lofty transaction',
		notice: 'The transaction must already be linked to Brokermint in Lofty (Brokermint integration); otherwise Lofty answers that it does not exist.',
		method: 'PUT',
		path: '/v1.0/brokermint/transaction',
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
