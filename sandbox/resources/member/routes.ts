/** GET /v1.0/me, /v1.0/members, /v1.0/members/{account}, /v1.0/users/{userId} */
import { ApiError, Codes, invalidParam, userNotExist } from '../../core/errors';
import { toInt64 } from '../../core/json';
import { intParam, pathId } from '../../core/params';
import { readingsOf } from '../../core/readings';
import type { Route } from '../../core/router';
import { agentState } from '../agent/state';
import type { Store } from '../../core/store';
import type { User } from '../../core/types';

/** UserResponse */
function userView(user: User, store: Store): Record<string, unknown> {
	const office = store.offices.get(user.groupId.toString());
	let assignedLeadCount = 0;
	for (const l of store.leads.values()) if (l.assignedUserId === user.userId && l.deletedAt === null) assignedLeadCount++;
	return {
		id: user.memberId,
		teamId: user.teamId,
		invitorUserId: user.invitorUserId,
		memberUserId: user.userId,
		role: user.role,
		roleName: user.roleName,
		firstLetter: user.firstName.slice(0, 1).toUpperCase(),
		email: user.email,
		firstName: user.firstName,
		lastName: user.lastName,
		phoneNumber: user.phoneNumber,
		status: user.status,
		virtualNumber: user.virtualNumber,
		newLeadCount: 0,
		assignedLeadCount,
		isAdmin: user.isAdmin,
		agentInfo: { licenseId: user.licenseId, position: user.roleName, companyName: 'Sandbox Realty', companyAddress: '100 Congress Ave, Austin, TX', mlsAgentId: `MLS${user.memberId}`, agentPid: `P${user.memberId}` },
		timeZoneId: user.timeZoneId,
		groupId: user.groupId,
		groupName: office?.name ?? '',
		group: office
			? { id: office.id, teamId: office.teamId, parentId: office.parentId, name: office.name, city: office.city, state: office.state, status: 'ACTIVE', type: 1 }
			: null,
		accountStatus: user.accountStatus,
	};
}

/**
 * UserResponse with the agent's license entries: `agentInfo.licenses` (at most 5 `{label, value}`)
 * is the additive field the spec names; the deprecated `agentInfo.licenseId` stays.
 */
function memberView(user: User, store: Store): Record<string, unknown> {
	const view = userView(user, store);
	const agentInfo = view.agentInfo as Record<string, unknown>;
	view.agentInfo = { ...agentInfo, licenses: agentState(store).licensesOf(user) };
	return view;
}

const MEMBERS_MAX_LIMIT = 100;

export const memberRoutes: Route[] = [
	{
		method: 'GET',
		pattern: '/v1.0/me',
		handler: ({ user, store }) => ({ body: memberView(user, store) }),
	},
	{
		method: 'GET',
		pattern: '/v1.0/members',
		handler: ({ query, user, store }) => {
			let offset = intParam(query, 'offset', { def: 0 });
			if (offset < 0) offset = 0;
			const limit = intParam(query, 'limit', {
				def: 25,
				min: 1,
				outOfRange: (raw) => new ApiError(400, Codes.LIMIT_NOT_VALID, `limit must be at least 1, got '${raw}'`),
			});
			if (limit > MEMBERS_MAX_LIMIT) {
				throw new ApiError(400, Codes.LIMIT_PARAM_OVERSIZE, `limit must not exceed ${MEMBERS_MAX_LIMIT}, got ${limit}`);
			}
			// An array parameter: comma-joined or repeated (spec reading), or repeated only (the queryArrays reading
			// `openapi`: the OpenAPI's array in its default form, groupIds=1&groupIds=2; "1,2" is not an integer).
			const repeatedOnly = readingsOf(store).get('queryArrays') === 'openapi';
			const groupIds = query
				.getAll('groupIds')
				.flatMap((v) => (repeatedOnly ? [v] : v.split(',')))
				.map((s) => s.trim())
				.filter(Boolean)
				.map((s) => {
					const id = toInt64(s);
					if (id === null || id === undefined) throw invalidParam(`'groupIds' must be integers, got '${s}'`);
					return id;
				});
			let members = store.teamMembers(user.teamId);
			if (groupIds.length) members = members.filter((m) => groupIds.includes(m.groupId));
			if (members.length === 0) throw new ApiError(404, Codes.USER_NOT_EXIST, 'Team has no members matching the filter');
			return {
				body: {
					_metadata: { collection: 'members', limit, offset, total: members.length, scrollId: null },
					members: members.slice(offset, offset + limit).map((m) => memberView(m, store)),
				},
			};
		},
	},
	{
		method: 'GET',
		pattern: '/v1.0/members/{account}',
		handler: ({ params, user, store }) => {
			const m = store.findUserByEmail(params.account);
			if (!m || m.teamId !== user.teamId || m.status !== 1) throw userNotExist(`'${params.account}'`);
			return { body: memberView(m, store) };
		},
	},
	{
		method: 'GET',
		pattern: '/v1.0/users/{userId}',
		handler: ({ params, user, store }) => {
			const id = pathId(params.userId, 'userId');
			const m = store.getUser(id);
			if (!m || m.teamId !== user.teamId) throw userNotExist(id.toString());
			return { body: memberView(m, store) };
		},
	},
];
