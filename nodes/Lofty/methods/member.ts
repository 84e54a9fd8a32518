import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { paginate } from '../transport/pagination';
import { loftyRequest } from '../transport/request';
import type { MethodSet } from './types';

/** Team members for agent dropdowns; the value is the member's user ID (`memberUserId`), not the member-record `id`. */
export async function getMembers(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const members = await paginate(
		{ style: 'offset', itemsKey: 'members', totalKey: '_metadata.total', maxPageSize: 100 },
		async (qs) => await loftyRequest(this, { method: 'GET', path: '/v1.0/members', qs }),
		Infinity,
	);
	return members
		.map((member: IDataObject) => {
			const name = [member.firstName, member.lastName].filter(Boolean).join(' ') || String(member.email ?? member.id);
			return { name: member.email ? `${name} (${member.email as string})` : name, value: String(member.memberUserId ?? member.id) };
		})
		.sort((a, b) => a.name.localeCompare(b.name));
}

/** List searches (resource locators) and dropdowns of the Member resource. */
export const memberMethods: MethodSet = { listSearch: {}, loadOptions: { getMembers } };
