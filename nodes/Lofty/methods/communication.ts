import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { leadRecord } from '../resources/communication';
import { loftyRequest } from '../transport/request';
import type { MethodSet } from './types';

/** The lead chosen in the current node's Lead field, as an ID (undefined when not set yet). */
function currentLeadId(ctx: ILoadOptionsFunctions): string | undefined {
	const raw = ctx.getCurrentNodeParameter('leadId', { extractValue: true }) as unknown;
	const value = raw !== null && typeof raw === 'object' ? (raw as IDataObject).value : raw;
	const text = String(value ?? '').trim();
	return /^\d+$/.test(text) ? text : undefined;
}

/** Email addresses of the chosen lead, for Send Email's recipient dropdown. */
export async function getLeadEmails(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const leadId = currentLeadId(this);
	if (!leadId) return [];
	const lead = leadRecord(await loftyRequest(this, { method: 'GET', path: `/v1.0/leads/${leadId}` }));
	const emails = Array.isArray(lead.emails) ? (lead.emails as unknown[]).map(String).filter(Boolean) : [];
	return emails.map((email, index) => ({ name: index === 0 ? `${email} (primary)` : email, value: email }));
}

/** List searches (resource locators) and dropdowns of the Communication resource. */
export const communicationMethods: MethodSet = { listSearch: {}, loadOptions: { getLeadEmails } };
