import type { IDataObject } from 'n8n-workflow';

import { InvalidValue } from '../../model/params';
import type { LocatorDef, OperationContext, ParamDef, ResourceDef } from '../../model/types';

/** An agent (team member) picked from the member list or given by user ID; agent IDs are user IDs. */
export const AGENT_LOCATOR: LocatorDef = {
	searchMethod: 'searchAgents',
	idPlaceholder: '302656410082719',
};

/** The agent chosen with a resource locator, placed in the path as `{agentId}`. */
export const agentInPath: ParamDef = {
	name: 'agentId',
	label: 'Agent',
	type: 'locator',
	locator: AGENT_LOCATOR,
	in: 'path',
	required: true,
	description: 'The agent: pick them from the team list, or give their user ID',
};

/** At most 5 license entries per agent (spec, Limits). */
const MAX_LICENSES = 5;

const AGENT_NOT_IN_TEAM = 'The agent is not a member of your team. Pick the agent from the list or check the user ID.';

/** Agent lifecycle answers come with HTTP 200 and one of these codes in the body (spec, Errors). */
const LIFECYCLE_HINTS: Record<string, string> = {
	'990105': 'The agent is already deactivated; nothing changed. Use Reactivate to give them access again.',
	'990106': 'The agent is a team owner or an office owner, who cannot be deactivated. Transfer that ownership in Lofty first.',
	'990107': 'You cannot deactivate your own account. Run this with the credential of another admin.',
	'990112': 'The agent is already active; nothing changed.',
	'990113': 'The agent has not completed onboarding (no password set yet). They must accept the invitation and finish onboarding in Lofty first.',
	'310111': 'Your team has no free license seat. Deactivate another agent or buy seats in Lofty, then try again.',
	SEAT_INSUFFICIENT: 'Your team has no free license seat. Deactivate another agent or buy seats in Lofty, then try again.',
	'1900012':
		'The Lofty user behind this credential lacks the Manage Team Agent permission (MANAGE_TEAM_AGENT, or MANAGE_TEAM_AGENT_DEPARTMENT for agents of their own offices). Use the credential of an admin who manages this agent.',
	'20012': `The agent ID was rejected. ${AGENT_NOT_IN_TEAM}`,
};

function record(response: unknown): IDataObject {
	return response !== null && typeof response === 'object' && !Array.isArray(response) ? (response as IDataObject) : {};
}

const text = (name: string, label: string, key: string, description?: string, placeholder?: string): ParamDef => ({
	name,
	label,
	type: 'string',
	in: 'body',
	key,
	description,
	placeholder,
});

function checkCreate(op: OperationContext): void {
	if (!Number.isInteger(op.values.accountType)) throw new InvalidValue('Account Type', `must be a whole number, got ${String(op.values.accountType)}`);
	const phoneCode = op.values.phoneCode as string | undefined;
	if (phoneCode !== undefined && !/^\+?\d{1,6}$/.test(phoneCode)) throw new InvalidValue('Phone Country Code', `must be digits such as 1, got ${phoneCode}`);
	// Licenses given in the raw JSON option count against the same limit.
	const extra = op.values.profileJson as IDataObject | undefined;
	const inJson = (record(extra?.workInfo).licenses ?? extra?.licenses) as unknown;
	if (Array.isArray(inJson) && inJson.length > MAX_LICENSES) {
		throw new InvalidValue('Additional Profile (JSON)', `licenses takes at most ${MAX_LICENSES} entries, got ${inJson.length}`);
	}
}

export const agent: ResourceDef = {
	value: 'agent',
	name: 'Agent',
	description: 'Agents of the team: profiles, tags, deactivation',
	operations: [
		{
			value: 'create',
			name: 'Create',
			action: 'Create an agent',
			description: 'Add a new agent to your team from a profile: name, e-mail, phone, office, work details and licenses',
			method: 'POST',
			effect: 'write',
			path: '/v1.0/agent/profile/add',
			// Creating, deactivating and reactivating take and free the team's license seats: one after another.
			record: ['licenseSeats'],
			params: [
				{
					name: 'accountType',
					label: 'Account Type',
					type: 'number',
					in: 'body',
					required: true,
					default: 1,
					description: "Lofty's account type code of the new agent (as configured for your team)",
				},
				{ ...text('firstName', 'First Name', 'accountInfo.firstName'), required: true },
				{ ...text('lastName', 'Last Name', 'accountInfo.lastName'), required: true },
				{ ...text('emailAddress', 'Email', 'accountInfo.emailAddress', 'Login e-mail of the new agent', 'name@email.com'), required: true, contact: 'email' },
				{ ...text('phoneNumber', 'Phone Number', 'accountInfo.phoneNumber', 'Phone number without the country code', 'e.g. 5125550100'), required: true, contact: 'phone' },
				text('phoneCode', 'Phone Country Code', 'accountInfo.phoneCode', 'Country calling code without +; Lofty uses 1 (US) when empty', 'e.g. 1'),
				text('phoneCountry', 'Phone Country', 'accountInfo.phoneCountry', 'ISO country code of the phone', 'e.g. US'),
				text('headUrl', 'Photo URL', 'accountInfo.headUrl', 'URL of the profile picture'),
				{ name: 'tagIds', label: 'Tag IDs', type: 'idList', in: 'body', key: 'accountInfo.tagIds', description: 'IDs of agent tags to attach' },
				{ ...text('sendingEmail', 'Sending Email', 'accountInfo.sendingEmail', 'Address Lofty sends the agent\'s e-mails from'), contact: 'email' },
				text('domain', 'Domain', 'accountInfo.domain', 'Website domain of the agent'),
				{ name: 'allowChangeDomain', label: 'Allow Domain Change', type: 'boolean', in: 'body', key: 'accountInfo.allowChangeDomain', description: 'Whether the agent may change the domain' },
				text('roleName', 'Role Name', 'accountInfo.roleName', "Name of a role of your team, e.g. Agent; a name Lofty does not know is ignored and the agent gets no role"),
				{ name: 'roleId', label: 'Role ID', type: 'id', in: 'body', key: 'accountInfo.roleId' },
				{
					name: 'groupId',
					label: 'Office Name or ID',
					type: 'id',
					in: 'body',
					key: 'accountInfo.groupId',
					loadOptions: 'getOffices',
					description: 'Office the agent joins. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				},
				text('seatTypeName', 'Seat Type', 'accountInfo.seatTypeName', 'Seat type of the agent', 'e.g. Full Time Agent'),
				{
					name: 'licenses',
					label: 'Licenses',
					type: 'fixedCollection',
					in: 'body',
					// The spec names `licenses` on agent records (replacing licenseId) without its place in this body;
					// it is sent next to licenseId, inside workInfo. The OpenAPI knows only licenseId: the first license
					// also goes there (toWire), so one license arrives under either reading (docs/api-readings.md, row 7).
					key: 'workInfo.licenses',
					maxItems: MAX_LICENSES,
					description:
						"Up to 5 real-estate licenses, each a label (e.g. the state) and the license number. The first one's number is also sent as the older single License ID, which is all a Lofty following its OpenAPI keeps.",
					fields: [
						{ name: 'label', label: 'Label', type: 'string', in: 'body', required: true, placeholder: 'e.g. TX' },
						{ name: 'value', label: 'License Number', type: 'string', in: 'body', required: true, placeholder: 'e.g. TX-0654321' },
					],
				},
				text('licenseId', 'License ID (Deprecated)', 'workInfo.licenseId', 'Single license number; use Licenses instead (the first of them is sent here when this is empty)'),
				text('position', 'Position', 'workInfo.position', 'Job title'),
				text('companyName', 'Company Name', 'workInfo.companyName'),
				text('companyAddress', 'Company Address', 'workInfo.companyAddress'),
				text('streetAddress', 'Street Address', 'workInfo.streetAddress'),
				text('city', 'City', 'workInfo.city'),
				text('state', 'State', 'workInfo.state', undefined, 'e.g. TX'),
				text('zipcode', 'Zip Code', 'workInfo.zipcode'),
				text('country', 'Country', 'workInfo.country', undefined, 'e.g. US'),
				text('personalWebsite', 'Personal Website', 'workInfo.personalWebsite'),
				text('personalIntroduction', 'Personal Introduction', 'workInfo.personalIntroduction', 'About the agent; Lofty shortens long texts'),
				{
					name: 'personalAttachments',
					label: 'Personal Attachments (JSON)',
					type: 'json',
					in: 'body',
					key: 'workInfo.personalAttachments',
					jsonShape: 'array',
					description: 'Files, e.g. [{"fileName": "bio.pdf", "queryLink": "https://...", "contentType": "application/pdf", "size": 1024}]',
				},
				{
					name: 'personalDisclaimers',
					label: 'Personal Disclaimers (JSON)',
					type: 'json',
					in: 'body',
					key: 'workInfo.personalDisclaimers',
					jsonShape: 'array',
					description: 'Files in the same shape as Personal Attachments',
				},
				{
					name: 'socialMedias',
					label: 'Social Media',
					type: 'fixedCollection',
					in: 'body',
					key: 'socialMedias.items',
					fields: [
						{ name: 'type', label: 'Type', type: 'string', in: 'body', placeholder: 'e.g. facebook' },
						{ name: 'name', label: 'Name', type: 'string', in: 'body' },
						{ name: 'value', label: 'Value', type: 'string', in: 'body', placeholder: 'e.g. https://facebook.com/...' },
					],
				},
				{ name: 'personalPhotos', label: 'Photo URLs', type: 'stringList', in: 'body', key: 'personalPhotos.urls' },
				{ name: 'hasBackOffice', label: 'Has Back Office', type: 'boolean', in: 'body', description: 'Whether the agent has a back-office account' },
				{ name: 'agentPid', label: 'Agent PID', type: 'string', in: 'body', description: 'External agent identifier' },
				{ name: 'fullSync', label: 'Full Sync', type: 'boolean', in: 'body', description: 'Whether the profile is fully synchronised' },
				{ name: 'shouldSync', label: 'Should Sync', type: 'boolean', in: 'body', description: 'Whether the profile is synchronised' },
				{ name: 'checkRosterNum', label: 'Check Roster Number', type: 'boolean', in: 'body', description: 'Whether Lofty checks the roster number' },
				{
					name: 'profileJson',
					label: 'Additional Profile (JSON)',
					type: 'json',
					in: 'body',
					key: '$merge',
					jsonShape: 'object',
					description: 'Raw profile fields merged over the top level of the body, e.g. {"workInfo": {...}}; replaces a whole section set above',
				},
			],
			validate: checkCreate,
			// Lofty takes the country code as digits only; the first license also fills the deprecated licenseId.
			toWire(op) {
				const phoneCode = op.values.phoneCode as string | undefined;
				if (phoneCode?.startsWith('+')) op.values.phoneCode = phoneCode.slice(1);
				const licenses = op.values.licenses as IDataObject[] | undefined;
				if (licenses?.length && op.values.licenseId === undefined) op.values.licenseId = licenses[0].value as string;
			},
			output(response) {
				const r = record(response);
				const id = r.data === undefined || r.data === null || String(r.data) === '0' ? null : String(r.data);
				if (id !== null) return { agentId: id, created: true };
				// Lofty answers 0 without an error when it returns an existing agent instead of creating one.
				return {
					agentId: null,
					created: false,
					message: (r.errorMsg as string) || 'Lofty created no new agent; an agent with this e-mail may already be in the team',
				};
			},
			errorHints: {
				'20012': 'A profile field was rejected (the message names it): Email, First Name, Last Name, Phone Number and Account Type are required, and at most 5 licenses are allowed.',
			},
		},
		{
			value: 'addTags',
			name: 'Add Tags',
			action: 'Add tags to an agent',
			description: 'Attach agent tags (up to 20 per run), optionally creating tags the team does not have yet',
			method: 'POST',
			effect: 'write',
			path: '/v1.0/agent/{agentId}/tag/add',
			// The team's tags: an item that creates a missing tag comes before the later items naming it.
			record: ['agentId', 'tagNames'],
			params: [
				agentInPath,
				{ name: 'tagNames', label: 'Tag Names', type: 'stringList', in: 'body', required: true, maxItems: 20, placeholder: 'e.g. Top Producer' },
				{
					name: 'autoCreate',
					label: 'Create Missing Tags',
					type: 'boolean',
					in: 'body',
					description: 'Whether tag names your team does not have yet are created; when off, an unknown name fails the item',
				},
			],
			output: (response, op) => ({ agentId: op.values.agentId as string, tagNames: op.values.tagNames as string[], added: record(response).data !== false }),
			errorHints: {
				'20012': 'A tag name is not defined on your team (switch on Create Missing Tags), or the list of tag names is empty or longer than 20, or the agent ID is not valid.',
				'20003': AGENT_NOT_IN_TEAM,
				USER_NOT_EXIST: AGENT_NOT_IN_TEAM,
			},
		},
		{
			value: 'deactivate',
			name: 'Deactivate',
			action: 'Deactivate an agent',
			description:
				"Release the agent's license seat and revoke their sessions and tokens (leads, deals and data stay with them); needs the Manage Team Agent permission, and owners or yourself cannot be deactivated",
			method: 'POST',
			effect: 'destructive',
			path: '/v2.0/agents/{agentId}/deactivate',
			record: ['agentId', 'licenseSeats'],
			params: [agentInPath],
			output: (response, op) => ({ agentId: op.values.agentId as string, status: 'deactivated', ...record(response) }),
			errorHints: LIFECYCLE_HINTS,
		},
		{
			value: 'reactivate',
			name: 'Reactivate',
			action: 'Reactivate an agent',
			description: 'Give a deactivated agent access again; needs a free license seat and an agent who completed onboarding',
			method: 'POST',
			effect: 'write',
			path: '/v2.0/agents/{agentId}/reactivate',
			record: ['agentId', 'licenseSeats'],
			params: [agentInPath],
			output: (response, op) => ({ agentId: op.values.agentId as string, status: 'active', ...record(response) }),
			errorHints: LIFECYCLE_HINTS,
		},
	],
};
