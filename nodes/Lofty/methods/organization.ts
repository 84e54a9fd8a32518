import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { loftyRequest } from '../transport/request';
import type { MethodSet } from './types';

/**
 * Offices for dropdowns, from GET /v1.0/org: the caller's own office plus the offices visible to them
 * (every office with Manage Organization, the sub-offices with its department variant). The value
 * is the office (group) ID.
 */
export async function getOffices(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const org = (await loftyRequest(this, { method: 'GET', path: '/v1.0/org' })) as IDataObject;
	const info = (org?.enterpriseInfo ?? {}) as IDataObject;
	const offices = new Map<string, string>();
	if (info.groupId !== undefined && info.groupId !== null) offices.set(String(info.groupId), String(info.groupName ?? info.groupId));
	for (const office of (info.visibleOrgInfoList as IDataObject[] | undefined) ?? []) {
		offices.set(String(office.groupId), String(office.groupName ?? office.groupId));
	}
	return [...offices.entries()].map(([value, name]) => ({ name, value })).sort((a, b) => a.name.localeCompare(b.name));
}

/** List searches (resource locators) and dropdowns of the Organization resource. */
export const organizationMethods: MethodSet = { listSearch: {}, loadOptions: { getOffices } };
