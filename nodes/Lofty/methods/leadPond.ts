import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { loftyRequest } from '../transport/request';
import type { MethodSet } from './types';

/** Lead ponds the user may see, for pond dropdowns; the value is the pond ID. */
export async function getLeadPonds(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const response = await loftyRequest(this, { method: 'GET', path: '/v1.0/team-features/lead-ponds' });
	const ponds = Array.isArray(response) ? (response as IDataObject[]) : [];
	return ponds
		.filter((p) => p.id !== undefined && p.id !== null)
		.map((p) => ({ name: typeof p.pondName === 'string' && p.pondName ? p.pondName : `Pond ${String(p.id)}`, value: String(p.id) }))
		.sort((a, b) => a.name.localeCompare(b.name));
}

/** List searches (resource locators) and dropdowns of the Lead Pond resource. */
export const leadPondMethods: MethodSet = { listSearch: {}, loadOptions: { getLeadPonds } };
