import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';


import { loftyRequest } from '../transport/request';
import type { MethodSet } from './types';

const PAGE = 50;

function leadName(lead: IDataObject): string {
	const name = [lead.firstName, lead.lastName].filter(Boolean).join(' ') || 'Unnamed lead';
	const email = Array.isArray(lead.emails) ? lead.emails[0] : undefined;
	return email ? `${name} (${email as string})` : name;
}

/** Leads for the lead picker, searched by name, phone or email, 50 at a time. */
export async function searchLeads(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const offset = Number(paginationToken ?? 0) || 0;
	const response = (await loftyRequest(this, {
		method: 'GET',
		path: '/v1.0/leads',
		qs: { limit: PAGE, offset, key: filter?.trim() || undefined, returnFields: 'firstName,lastName,emails' },
	})) as IDataObject;
	const leads = (response.leads as IDataObject[] | undefined) ?? [];
	const total = Number((response._metadata as IDataObject | undefined)?.total);
	const next = offset + leads.length;
	return {
		results: leads.map((lead) => ({ name: leadName(lead), value: String(lead.leadId) })),
		paginationToken: leads.length === PAGE && !(Number.isFinite(total) && next >= total) ? String(next) : undefined,
	};
}

export const leadMethods: MethodSet = { listSearch: { searchLeads }, loadOptions: {} };
