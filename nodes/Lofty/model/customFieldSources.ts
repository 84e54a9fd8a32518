import type { IDataObject } from 'n8n-workflow';

import type { CustomFieldDefinition, CustomFieldKind, CustomFieldSource } from './types';
import { itemRead } from './itemRead';

/**
 * The two families of custom fields Lofty keeps per team and how their values travel:
 *
 * - lead fields (GET /v1.0/teamFeatures/listCustomField, CustomAttribute): written by name as
 *   `customAttributeList: [{attributeName, attributeType, value}]`, read from `customAttributes`; choices come as
 *   the text `{"option": [...]}` in `params`; a multi-select value is the JSON text of the chosen items.
 * - transaction fields (GET /v1.0/transaction/customfields, CustomFieldResponse): written by ID as
 *   `customFields: [{id, value}]`, a full-coverage write (fields left out are cleared); choices are
 *   `[{label, value}]` in `params` and the value sent is the option's value. From node version 1.4 their editor
 *   fields have names of their own (`transactionCustomFieldValues`), so that switching between Lead and Transaction
 *   shows the other family's fields (n8n keeps a field of the same name, and its list, across the switch).
 *
 * Dates: the API documents no format for custom date values. Lead fields take the lead's date pattern
 * (`MMM d, yyyy`, as `birthday`), transaction fields epoch milliseconds (as every transaction date).
 */

const record = (value: unknown): IDataObject => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject) : {});
const list = (response: unknown): IDataObject[] => (Array.isArray(response) ? response.map(record) : []);

function parseJsonText(text: unknown): unknown {
	if (typeof text !== 'string' || text.trim() === '') return undefined;
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

const LEAD_KINDS: Record<string, CustomFieldKind> = {
	text: 'text',
	number: 'number',
	currency: 'number',
	percentage: 'number',
	date: 'date',
	anniversary_date: 'date',
	single_select: 'choice',
	multi_select: 'choices',
};

function leadDefinitions(response: unknown): CustomFieldDefinition[] {
	return list(response)
		.filter((f) => typeof f.attributeName === 'string' && f.attributeName.trim() !== '')
		.map((f) => {
			const loftyType = String(f.attributeType ?? 'text');
			const kind = LEAD_KINDS[loftyType.toLowerCase()] ?? 'text';
			const option = record(parseJsonText(f.params)).option;
			const options = Array.isArray(option) ? option.map((o) => ({ name: String(o), value: String(o) })) : undefined;
			const name = f.attributeName as string;
			return { key: name, name, loftyType, kind: options || !kind.startsWith('choice') ? kind : 'text', options };
		});
}

export const LEAD_CUSTOM_FIELDS: CustomFieldSource = {
	what: 'lead',
	listPath: '/v1.0/teamFeatures/listCustomField',
	definitions: leadDefinitions,
	dateFormat: 'MMM d, yyyy',
	param: 'customAttributeList',
	entry: (field, value) => ({ attributeName: field.name, attributeType: field.loftyType, value }),
	entryKey: (entry) => String(entry.attributeName ?? ''),
	recordKey: 'customAttributes',
	async currentEntries(op) {
		// Lead > Get's answer: the lead, bare or under `lead` (both were seen).
		const answer = record(await itemRead(op.ctx, op.itemIndex, { method: 'GET', path: `/v1.0/leads/${String(op.values.leadId)}` }));
		const lead = answer.lead !== null && typeof answer.lead === 'object' ? record(answer.lead) : answer;
		return list(lead.customAttributes).filter((e) => typeof e.attributeName === 'string');
	},
	mapperMethod: 'getLeadCustomFieldMapping',
	choicesMethod: 'getLeadCustomFieldChoices',
};

const TRANSACTION_KINDS: Record<string, CustomFieldKind> = {
	text: 'text',
	html: 'text',
	number: 'number',
	currency: 'number',
	percentage: 'number',
	date: 'date',
	'single-select': 'choice',
	'multi-select': 'choices',
};

function transactionDefinitions(response: unknown): CustomFieldDefinition[] {
	return list(response)
		.filter((f) => f.id !== undefined && f.id !== null)
		.map((f) => {
			const loftyType = String(f.type ?? 'TEXT');
			const kind = TRANSACTION_KINDS[loftyType.toLowerCase()] ?? 'text';
			const choices = parseJsonText(f.params);
			const options = Array.isArray(choices)
				? choices.map(record).map((c) => ({ name: String(c.label ?? c.value), value: String(c.value ?? c.label) }))
				: undefined;
			return { key: String(f.id), name: String(f.name ?? f.id), loftyType, kind: options || !kind.startsWith('choice') ? kind : 'text', options };
		});
}

export const TRANSACTION_CUSTOM_FIELDS: CustomFieldSource = {
	what: 'transaction',
	listPath: '/v1.0/transaction/customfields',
	definitions: transactionDefinitions,
	dateFormat: 'epochMs',
	param: 'customFields',
	entry: (field, value) => ({ id: field.key, value }),
	entryKey: (entry) => String(entry.id ?? ''),
	recordKey: 'customFields',
	fullCoverage: true,
	async currentEntries(op) {
		const { leadId, transactionId } = op.values as { leadId: string; transactionId: string };
		const current = record(await itemRead(op.ctx, op.itemIndex, { method: 'GET', path: `/v1.0/leads/${leadId}/transaction/${transactionId}` }));
		return list(current.customFields)
			.filter((e) => e.id !== undefined && e.id !== null)
			.map((e) => ({ id: String(e.id), value: e.value ?? null }));
	},
	mapperMethod: 'getTransactionCustomFieldMapping',
	choicesMethod: 'getTransactionCustomFieldChoices',
	ownParams: { mapper: 'transactionCustomFieldValues', choices: 'transactionCustomFieldChoices' },
};
