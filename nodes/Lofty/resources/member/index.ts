import { InvalidValue } from '../../model/params';
import type { LocatorDef, ResourceDef } from '../../model/types';

/** A team member picked from the member list (by name or e-mail) or given by user ID (`memberUserId`). */
export const MEMBER_LOCATOR: LocatorDef = {
	searchMethod: 'searchMembers',
	idPlaceholder: '302656410082719',
};

/** Fields a simplified member record keeps (identifiers are always kept). */
const MEMBER_SIMPLE = ['email', 'firstName', 'lastName', 'roleName', 'phoneNumber', 'status', 'accountStatus', 'groupName', 'isAdmin', 'timeZoneId'];

const NOT_IN_TEAM =
	'No member of your team has this user ID or e-mail. Check for typos; Get By Email finds only members who have accepted their team invitation.';

export const member: ResourceDef = {
	value: 'member',
	name: 'Member',
	description: 'Team members and the current user',
	errorHints: {
		USER_NOT_EXIST: NOT_IN_TEAM,
		// The OpenAPI gives USER_NOT_EXIST the number 20003.
		'20003': NOT_IN_TEAM,
	},
	operations: [
		{
			value: 'getMe',
			name: 'Get Current User',
			action: 'Get your own Lofty user profile',
			description: 'The profile of the Lofty user behind this credential',
			method: 'GET',
			effect: 'read',
			path: '/v1.0/me',
			params: [],
			simplify: MEMBER_SIMPLE,
		},
		{
			value: 'getAll',
			name: 'Get Many',
			action: 'Get the members of your team',
			description: 'Members of your team, optionally only those of some offices',
			method: 'GET',
			effect: 'read',
			path: '/v1.0/members',
			pagination: { style: 'offset', itemsKey: 'members', maxPageSize: 100, totalKey: '_metadata.total' },
			simplify: MEMBER_SIMPLE,
			params: [
				{
					name: 'groupIds',
					label: 'Office Names or IDs',
					type: 'multiOptions',
					in: 'query',
					loadOptions: 'getOffices',
					// An array parameter in the OpenAPI: its default form repeats the key (row 10 of docs/api-readings.md).
					queryArray: 'repeat',
					description:
						'Only members of these offices. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				},
			],
			validate(op) {
				const ids = op.values.groupIds as unknown[] | undefined;
				for (const id of ids ?? []) {
					if (!/^\d+$/.test(String(id).trim())) throw new InvalidValue('Office Names or IDs', `must be office IDs (whole numbers), got ${String(id)}`);
				}
			},
			errorHints: {
				USER_NOT_EXIST: 'No member of your team belongs to the chosen offices. Check the office filter.',
				'20003': 'No member of your team belongs to the chosen offices. Check the office filter.',
				LIMIT_PARAM_OVERSIZE: 'Lofty returns at most 100 members per page; the node pages for you, so this should not happen. Report it if it does.',
			},
		},
		{
			value: 'get',
			name: 'Get',
			action: 'Get a team member by user ID',
			description: 'One member of your team by user ID (Lofty marks this endpoint deprecated; Get By Email is its successor)',
			method: 'GET',
			effect: 'read',
			path: '/v1.0/users/{userId}',
			simplify: MEMBER_SIMPLE,
			params: [
				{
					name: 'userId',
					label: 'Member',
					type: 'locator',
					locator: MEMBER_LOCATOR,
					in: 'path',
					required: true,
					description: 'The team member: pick them from the list, or give their user ID',
				},
			],
		},
		{
			value: 'getByEmail',
			name: 'Get By Email',
			action: 'Get a team member by email',
			description: 'One member of your team by their login e-mail; the member must have accepted the team invitation',
			method: 'GET',
			effect: 'read',
			path: '/v1.0/members/{account}',
			simplify: MEMBER_SIMPLE,
			params: [
				{
					name: 'account',
					label: 'Email',
					type: 'string',
					in: 'path',
					required: true,
					placeholder: 'name@email.com',
					description: 'Login e-mail of the team member',
				},
			],
			validate(op) {
				const email = String(op.values.account ?? '');
				if (!/^[^\s@/]+@[^\s@/]+$/.test(email)) throw new InvalidValue('Email', `must be an e-mail address such as name@email.com, got ${email}`);
			},
		},
	],
};
