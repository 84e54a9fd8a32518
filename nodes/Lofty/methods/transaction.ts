import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult, INodePropertyOptions } from 'n8n-workflow';

import { loftyRequest } from '../transport/request';
import type { MethodSet } from './types';

const PAGE = 50;

/** A parameter of the node as currently edited, or undefined when it is not there (or not readable). */
function current(ctx: ILoadOptionsFunctions, name: string, extractValue = false): unknown {
	try {
		return ctx.getCurrentNodeParameter(name, extractValue ? { extractValue: true } : undefined);
	} catch {
		return undefined;
	}
}

/** The lead chosen on the node (when it is a plain ID), so that the transaction list shows its deals. */
function chosenLead(ctx: ILoadOptionsFunctions): string | undefined {
	const value = current(ctx, 'leadId', true);
	const text = typeof value === 'object' && value !== null ? (value as IDataObject).value : value;
	return typeof text === 'string' && /^\s*\d+\s*$/.test(text) ? text.trim() : typeof text === 'number' ? String(text) : undefined;
}

/** Transactions for the transaction picker: every type, of the chosen lead when there is one, 50 at a time. */
export async function searchTransactions(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const pageNum = Number(paginationToken ?? 0) || 0;
	const response = (await loftyRequest(this, {
		method: 'GET',
		path: '/v2.0/transactions',
		qs: { transactionType: 'All', pageNum, pageSize: PAGE, queryKey: filter?.trim() || undefined, leadId: chosenLead(this) },
	})) as IDataObject;
	const deals = (response.pageData as IDataObject[] | undefined) ?? [];
	const total = Number(response.totalCount);
	const seen = pageNum * PAGE + deals.length;
	return {
		results: deals.map((deal) => {
			const details = [deal.transactionType, deal.transactionStatus, deal.leadName].filter(Boolean).join(', ');
			const name = (deal.transactionName as string) || `Transaction ${String(deal.transactionId)}`;
			return { name: details ? `${name} (${details})` : name, value: String(deal.transactionId) };
		}),
		paginationToken: deals.length === PAGE && !(Number.isFinite(total) && seen >= total) ? String(pageNum + 1) : undefined,
	};
}

interface Pipeline {
	transactionType?: string;
	stages?: Array<{ id?: string | number; name?: string; default?: boolean }>;
}

async function pipelines(ctx: ILoadOptionsFunctions): Promise<Pipeline[]> {
	const response = (await loftyRequest(ctx, { method: 'GET', path: '/v2.0/transactions/pipelines' })) as IDataObject;
	return (Array.isArray(response?.pipelines) ? response.pipelines : []) as Pipeline[];
}

/** The transaction types the team has pipelines for. */
export async function getTransactionTypes(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return (await pipelines(this))
		.map((p) => p.transactionType)
		.filter((type): type is string => typeof type === 'string' && type !== '')
		.map((type) => ({ name: type, value: type }))
		.sort((a, b) => a.name.localeCompare(b.name));
}

/** The type chosen in the optional fields of the operation being edited, if any. */
function chosenType(ctx: ILoadOptionsFunctions): string | undefined {
	for (const collection of ['additionalFields', 'updateFields']) {
		const fields = current(ctx, collection) as IDataObject | undefined;
		const type = fields?.transactionType;
		if (typeof type === 'string' && type !== '' && !type.startsWith('=')) return type;
	}
	return undefined;
}

/** Stage names of the chosen type's pipeline; of every pipeline (each name once) when no type is chosen. */
export async function getTransactionStatuses(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const type = chosenType(this);
	const all = await pipelines(this);
	const own = all.filter((p) => p.transactionType === type);
	const shown = own.length ? own : all;
	const byName = new Map<string, { name: string; types: string[] }>();
	for (const pipeline of shown) {
		for (const stage of pipeline.stages ?? []) {
			if (!stage.name) continue;
			const key = stage.name.toLowerCase();
			const entry = byName.get(key) ?? { name: stage.name, types: [] };
			if (pipeline.transactionType) entry.types.push(pipeline.transactionType);
			byName.set(key, entry);
		}
	}
	return [...byName.values()]
		.map((entry) => ({ name: entry.name, value: entry.name, description: `Stage of ${entry.types.join(', ')}` }))
		.sort((a, b) => a.name.localeCompare(b.name));
}

/** The team's transaction custom fields, by ID. */
export async function getTransactionCustomFields(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const response = await loftyRequest(this, { method: 'GET', path: '/v1.0/transaction/customfields' });
	const fields = (Array.isArray(response) ? response : []) as IDataObject[];
	return fields
		.map((field) => ({
			name: String(field.name ?? field.id),
			value: String(field.id),
			description: field.type ? `Type: ${String(field.type)}` : undefined,
		}))
		.sort((a, b) => a.name.localeCompare(b.name));
}

/** List searches (resource locators) and dropdowns of the Transaction resource. */
export const transactionMethods: MethodSet = {
	listSearch: { searchTransactions },
	loadOptions: { getTransactionTypes, getTransactionStatuses, getTransactionCustomFields },
};
