import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult, INodePropertyOptions } from 'n8n-workflow';

import { paginate } from '../transport/pagination';
import { loftyRequest } from '../transport/request';
import type { MethodSet } from './types';

const MEMBERS_PAGE = 100;

function memberName(member: IDataObject): string {
	const name = [member.firstName, member.lastName].filter(Boolean).join(' ') || String(member.email ?? member.id);
	return member.email ? `${name} (${member.email as string})` : name;
}

async function allMembers(ctx: ILoadOptionsFunctions): Promise<IDataObject[]> {
	return await paginate(
		{ style: 'offset', itemsKey: 'members', totalKey: '_metadata.total', maxPageSize: MEMBERS_PAGE },
		async (qs) => await loftyRequest(ctx, { method: 'GET', path: '/v1.0/members', qs }),
		Infinity,
	);
}

/** Team members for agent dropdowns; the value is the member's user ID (`memberUserId`), not the member-record `id`. */
export async function getMembers(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const members = await allMembers(this);
	return members
		.map((member: IDataObject) => ({ name: memberName(member), value: String(member.memberUserId ?? member.id) }))
		.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Team members for the member and agent pickers, by user ID. Lofty's member list has no search
 * parameter: without a filter one page of 100 is read at a time; with one, the whole team is read
 * and matched on name and e-mail.
 */
export async function searchMembers(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const toResult = (member: IDataObject) => ({ name: memberName(member), value: String(member.memberUserId ?? member.id) });
	const text = filter?.trim().toLowerCase();
	if (text) {
		const members = await allMembers(this);
		const matches = members.filter((m) => [m.firstName, m.lastName, m.email].filter(Boolean).join(' ').toLowerCase().includes(text) || `${m.firstName as string} ${m.lastName as string}`.toLowerCase().includes(text));
		return { results: matches.map(toResult) };
	}
	const offset = Number(paginationToken ?? 0) || 0;
	const response = (await loftyRequest(this, { method: 'GET', path: '/v1.0/members', qs: { limit: MEMBERS_PAGE, offset } })) as IDataObject;
	const members = (response.members as IDataObject[] | undefined) ?? [];
	const total = Number((response._metadata as IDataObject | undefined)?.total);
	const next = offset + members.length;
	return {
		results: members.map(toResult),
		paginationToken: members.length === MEMBERS_PAGE && !(Number.isFinite(total) && next >= total) ? String(next) : undefined,
	};
}

/** List searches (resource locators) and dropdowns of the Member resource. */
export const memberMethods: MethodSet = { listSearch: { searchMembers }, loadOptions: { getMembers } };
