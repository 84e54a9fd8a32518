import type { IDataObject } from 'n8n-workflow';

import { InvalidValue } from '../../model/params';
import type { LocatorDef, ParamDef, ResourceDef } from '../../model/types';
import { CUSTOM_FIELDS_BY_NAME } from '../../model/customFields';
import { TAG_SHAPE_READING } from '../../model/tagShape';
import { ONE_TAG_SET_VERSION } from '../../model/versions';
import { LEAD_CUSTOM_FIELDS } from '../../model/customFieldSources';
import {
	LEAD_SIMPLE,
	LEAD_UNSET,
	SORTS,
	TAG_FIELDS,
	TAG_REMOVE_HINT,
	assignedUser,
	checkOwnership,
	inquiryFields,
	leadWriteFields,
	propertyFields,
	requireOneOf,
	stageParam,
	tagField,
} from './fields';
import { createOrUpdateOperation } from './upsert';
import { CREATE_TURN, createAndRead } from './create';

export const LEAD_LOCATOR: LocatorDef = {
	searchMethod: 'searchLeads',
	idPlaceholder: '651095960136641',
	urlRegex: '(?:leadId=|/leads?/(?:detail/)?)(\\d+)',
	urlPlaceholder: 'e.g. https://crm.lofty.com/admin/home/lead/detail/651095960136641',
};

/** The lead chosen with a resource locator, placed in the path. */
export const leadInPath: ParamDef = {
	name: 'leadId',
	label: 'Lead',
	type: 'locator',
	locator: LEAD_LOCATOR,
	in: 'path',
	required: true,
	description: 'The lead to act on: pick it from the list, or give its ID or its Lofty URL',
};

export const lead: ResourceDef = {
	value: 'lead',
	name: 'Lead',
	description: 'Contacts in the Lofty CRM',
	operations: [
		{
			value: 'create',
			name: 'Create',
			action: 'Create a lead',
			description: 'Create a lead; without an assigned agent, Lofty routing assigns one',
			notice:
				'Create always adds a new lead: Lofty does not look for one with the same email or phone, so a form sent twice or a person already in Lofty becomes a duplicate. To add the person or update the lead they already have, use Create or Update.',
			method: 'POST',
			effect: 'write',
			path: '/v1.0/leads',
			params: [
				{ name: 'firstName', label: 'First Name', type: 'string', in: 'body', required: true, maxLength: 30, placeholder: 'e.g. Jane', hint: 'Email, phone, tags and more are under Additional Fields' },
				...leadWriteFields(),
				tagField('tags', 'Tags', 'Tags the new lead gets'),
				// Workflows of versions 1 and 1.1 may hold Tags to Add on Create (Lofty adds both on create): there it stays
				// (n8n drops a saved value whose field is gone); from 1.2 Create has one tag field.
				{ ...tagField('tagsAdd', 'Tags to Add', 'On a new lead the same as Tags (kept so that earlier workflows run as before); use Tags'), before: ONE_TAG_SET_VERSION },
				assignedUser,
				{
					name: 'assignGroupId',
					label: 'Routing Scope (Office ID)',
					type: 'id',
					in: 'body',
					allowMinusOne: true,
					description: 'When routing assigns the lead: -1 uses company-level rules, an office ID uses that office\'s rules',
				},
				{ name: 'welcomeEmail', label: 'Send Welcome Email', type: 'boolean', in: 'body', description: 'Whether Lofty sends the lead its welcome email' },
				{ name: 'leadAlert', label: 'Send New-Lead Alert', type: 'boolean', in: 'body', description: 'Whether Lofty emails the new-lead alert to the agent' },
				{ name: 'content', label: 'Note', type: 'string', in: 'body', description: 'A note added to the new lead' },
				{ name: 'isPin', label: 'Pin Note', type: 'boolean', in: 'body', description: 'Whether the note is pinned' },
			],
			validate: checkOwnership,
			otherReading: TAG_SHAPE_READING,
			run: async (op) => await createAndRead(op, byValue('create')),
			turn: CREATE_TURN,
			simplify: [...LEAD_SIMPLE, 'customAttributes', 'note'],
			simplifyFrom: 1.1,
			unsetNumbers: LEAD_UNSET,
			customFields: LEAD_CUSTOM_FIELDS,
		},
		{
			value: 'get',
			name: 'Get',
			action: 'Get a lead by ID',
			description: 'Get one lead by ID',
			method: 'GET',
			effect: 'read',
			path: '/v1.0/leads/{leadId}',
			params: [
				leadInPath,
				{ name: 'withTrash', label: 'Include Trashed', type: 'boolean', in: 'query', description: 'Whether a lead in the trash is found too' },
				CUSTOM_FIELDS_BY_NAME,
			],
			// Live clients saw `{lead: {...}}` although the OpenAPI shows the lead bare: accept both.
			unwrap: 'lead',
			simplify: LEAD_SIMPLE,
			simplifyFrom: 1.1,
			unsetNumbers: LEAD_UNSET,
			customFields: LEAD_CUSTOM_FIELDS,
		},
		{
			value: 'getAll',
			name: 'Get Many',
			action: 'Search leads by email, phone, name or other filters',
			description: 'Search leads with filters',
			method: 'GET',
			effect: 'read',
			path: '/v1.0/leads',
			// From page 2 on both offset and scrollId go out: right whichever the server follows (docs/api-readings.md, row 2).
			pagination: { style: 'offset', itemsKey: 'leads', idField: 'leadId', maxPageSize: 100, totalKey: '_metadata.total', scrollId: true },
			params: [
				{ name: 'key', label: 'Search Text', type: 'string', in: 'query', description: 'Fuzzy match on name, phone or email' },
				stageParam(true),
				{ name: 'source', label: 'Source', type: 'string', in: 'query' },
				{ name: 'phone', label: 'Phone', type: 'string', in: 'query', description: 'Exact phone number, e.g. 3479033333' },
				{ name: 'email', label: 'Email', type: 'string', in: 'query', placeholder: 'name@email.com', description: 'Exact email address' },
				{ ...assignedUser, in: 'query', label: 'Assigned Agent Name or ID', description: 'Only leads assigned to this agent. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.' },
				{ name: 'contacted', label: 'Contacted', type: 'boolean', in: 'query', description: 'Whether to keep only leads that have (on) or have not (off) been contacted' },
				{ name: 'segments', label: 'Segments', type: 'stringList', in: 'query' },
				{ name: 'groups', label: 'Groups (Deprecated)', type: 'stringList', in: 'query', description: 'Group names; use Segments instead' },
				tagField('allTags', 'Has All Tags', 'Only leads that have every one of these tags', true),
				tagField('anyTags', 'Has Any Tag', 'Only leads that have at least one of these tags', true),
				{ name: 'groupIds', label: 'Office ID', type: 'id', in: 'query' },
				{ name: 'querySubGroup', label: 'Include Sub-Offices', type: 'boolean', in: 'query', description: 'Whether leads of sub-offices are included' },
				{ name: 'languages', label: 'Languages', type: 'stringList', in: 'query', placeholder: 'e.g. en' },
				{ name: 'preciseSearchFlag', label: 'Precise Email/Phone Match', type: 'boolean', in: 'query', description: 'Whether email and phone must match exactly' },
				{ name: 'roleAssigneeFilters', label: 'Role Assignee Filters (JSON)', type: 'json', in: 'query', jsonShape: 'array', description: 'E.g. [{"roleName": "Lender", "assigneeToIds": [111, 222]}]' },
				{ name: 'otherFilters', label: 'Other Filters', type: 'string', in: 'query', description: 'Custom filter overrides, passed to Lofty as given' },
				{ name: 'returnFields', label: 'Return Fields', type: 'stringList', in: 'query', placeholder: 'e.g. firstName', description: 'Only these lead fields are returned (plus the ID)' },
				{ name: 'sort', label: 'Sort By', type: 'options', in: 'query', options: SORTS, default: 'Default' },
				{ name: 'desc', label: 'Descending', type: 'boolean', in: 'query', default: true, description: 'Whether to sort descending' },
				CUSTOM_FIELDS_BY_NAME,
			],
			simplify: LEAD_SIMPLE,
			simplifyFrom: 1.1,
			unsetNumbers: LEAD_UNSET,
			customFields: LEAD_CUSTOM_FIELDS,
		},
		{
			value: 'update',
			name: 'Update',
			action: "Update a lead's stage, fields or tags",
			description: 'Move a lead to another stage of the pipeline, or change its fields and tags',
			method: 'PUT',
			effect: 'write',
			path: '/v1.0/leads/{leadId}',
			optionalTitle: 'Update Fields',
			params: [
				leadInPath,
				{ name: 'firstName', label: 'First Name', type: 'string', in: 'body', maxLength: 30 },
				...leadWriteFields(),
				{ ...assignedUser, description: 'Agent to assign the lead to. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.' },
				tagField('tagsAdd', 'Tags to Add', 'Tags added to those the lead already has'),
				tagField('tags', 'Replace All Tags With', 'The lead ends up with exactly these tags (its other tags are removed)'),
				{
					...tagField('tagsRemove', 'Tags to Remove', ''),
					description: "Tags taken off the lead after the tags above are applied; names not on the lead are ignored. A name the team has exactly is kept; one in another case takes the team's spelling",
					maxLength: undefined,
					hint: TAG_REMOVE_HINT,
				},
				{ name: 'clearAllTags', label: 'Clear All Tags', type: 'boolean', in: 'body', sendOnlyIfTrue: true, description: 'Whether to remove every tag; cannot be combined with the other tag fields, which it would override' },
				{ name: 'isHidden', label: 'Hidden', type: 'boolean', in: 'body', description: 'Whether the lead is hidden' },
			],
			validate(op) {
				checkOwnership(op);
				const fields = Object.keys(op.values).filter((name) => name !== 'leadId');
				if (fields.length === 0) throw new InvalidValue('Update Fields', 'add at least one field to change');
				// The spec: clearAllTags takes precedence over tags, tagsAdd and tagsRemove. Sending both
				// would silently drop the other tag changes, so the combination is refused up front.
				if (op.values.clearAllTags === true && TAG_FIELDS.some((name) => op.values[name] !== undefined)) {
					throw new InvalidValue(
						'Clear All Tags',
						'removes every tag and overrides Tags to Add, Replace All Tags With and Tags to Remove; to replace all tags with a new set use "Replace All Tags With" alone',
					);
				}
			},
			otherReading: TAG_SHAPE_READING,
			customFields: LEAD_CUSTOM_FIELDS,
		},
		{
			value: 'delete',
			name: 'Delete',
			action: 'Move a lead to the trash',
			description: 'Move a lead to the trash',
			method: 'DELETE',
			effect: 'destructive',
			path: '/v1.0/leads/{leadId}',
			params: [
				leadInPath,
				{ name: 'reason', label: 'Reason', type: 'string', in: 'query', required: true, description: 'Why the lead is deleted; Lofty keeps it for audit' },
			],
			output: (response, op) => ({
				deleted: true,
				leadId: op.values.leadId as string,
				...(response !== null && typeof response === 'object' && !Array.isArray(response) ? (response as IDataObject) : {}),
			}),
		},
		{
			value: 'addInquiry',
			name: 'Add Inquiry',
			action: 'Add a property inquiry (what they look for) to a lead',
			description: 'Record what the lead is looking for (price, type, rooms, areas)',
			method: 'POST',
			effect: 'write',
			path: '/v1.0/leads/{leadId}/inquiry',
			optionalTitle: 'Inquiry Fields',
			params: [leadInPath, ...inquiryFields('')],
			validate: (op) => requireOneOf(op, inquiryFields('').map((p) => p.name), 'Inquiry Fields'),
		},
		{
			value: 'updateProperty',
			name: 'Update Property',
			action: 'Add or update a property address of a lead',
			description: 'Attach a property or mailing address to a lead, or update one by its ID',
			method: 'POST',
			effect: 'write',
			path: '/v1.0/leads/{leadId}/property',
			optionalTitle: 'Property Fields',
			params: [leadInPath, ...propertyFields('')],
			validate(op) {
				const address = ['streetAddress', 'city', 'state', 'zipCode'];
				// Lofty answers 200057 PROPERTY_ADDRESS_EMPTY otherwise.
				if (!address.some((name) => op.values[name] !== undefined)) {
					throw new InvalidValue('Property Fields', 'set at least one of Street Address, City, State or Zip Code');
				}
			},
		},
		{
			value: 'assign',
			name: 'Assign',
			action: 'Assign an agent, assistant or lender to a lead',
			description: 'Set the agent, assistant or lender of a lead',
			method: 'POST',
			effect: 'write',
			path: '/v1.0/leads/{leadId}/assignment',
			bodyFromList: 'assignees',
			params: [
				leadInPath,
				{
					name: 'assignees',
					label: 'Assignees',
					type: 'fixedCollection',
					in: 'body',
					required: true,
					fields: [
						{
							name: 'role',
							label: 'Role',
							type: 'options',
							in: 'body',
							required: true,
							options: [
								{ name: 'Agent', value: 'Agent' },
								{ name: 'Assistant', value: 'Assistant' },
								{ name: 'Lender', value: 'Lender' },
							],
							default: 'Agent',
						},
						{ name: 'assignee', label: 'Assignee Account', type: 'string', in: 'body', required: true, placeholder: 'agent@example.com', description: 'Lofty account (email) of the assignee' },
					],
				},
			],
		},
		{
			value: 'addActivity',
			name: 'Add Activity',
			action: 'Log a website activity on a lead',
			description: 'Log a website activity (search, view, favorite, showing request, form submission)',
			method: 'POST',
			effect: 'write',
			path: '/v1.0/leads/{leadId}/activity',
			params: [
				leadInPath,
				{
					name: 'type',
					label: 'Type',
					type: 'options',
					in: 'body',
					required: true,
					options: [
						{ name: 'Browse', value: 'Browse', description: 'The lead viewed a property page' },
						{ name: 'Favorite', value: 'Favorite', description: 'The lead saved a property' },
						{ name: 'Request', value: 'Request', description: 'The lead requested a showing' },
						{ name: 'Search', value: 'Search', description: 'The lead searched for properties' },
						{ name: 'Submission', value: 'Submission', description: 'The lead submitted a website form' },
					],
					default: 'Browse',
				},
				{ name: 'created', label: 'Happened At', type: 'dateTime', in: 'body', required: true },
				{ name: 'text', label: 'Text', type: 'string', in: 'body', required: true, description: 'What happened, e.g. the search text' },
				{ name: 'link', label: 'Link', type: 'string', in: 'body', required: true, placeholder: 'https://...', description: 'URL of the page' },
				{ name: 'picture', label: 'Picture URL', type: 'string', in: 'body', required: true, placeholder: 'https://...' },
				{ name: 'scheduledDate', label: 'Showing Date', type: 'string', in: 'body', description: 'Requested showing date (for Request)' },
				{ name: 'pageName', label: 'Page Name', type: 'string', in: 'body', description: 'Name of the submission page (for Submission)' },
				{ name: 'listing', label: 'Listing (JSON)', type: 'json', in: 'body', jsonShape: 'object', description: 'The property involved, e.g. {"streetAddress": "1 Main St", "city": "Austin", "price": 500000}' },
			],
		},
		{
			value: 'resolveAssignee',
			name: 'Resolve Assignee',
			action: 'Resolve which agents routing would assign to a lead',
			description: 'Preview which agents Lofty routing would assign to a lead with these details, without creating it',
			method: 'POST',
			effect: 'read',
			path: '/v1.0/leads/assignee',
			params: [
				{ name: 'firstName', label: 'First Name', type: 'string', in: 'body', required: true, requiredCode: 'PARAM_FIRST_NAME_FILL' },
				{ name: 'email', label: 'Email', type: 'string', in: 'body', required: true, requiredCode: 'PARAM_EMAIL_MUST_FILL', contact: 'email', placeholder: 'name@email.com' },
				{ name: 'lastName', label: 'Last Name', type: 'string', in: 'body' },
				{ name: 'phone', label: 'Phone', type: 'string', in: 'body', maxLength: 20, contact: 'phone' },
				{ name: 'birthday', label: 'Birthday', type: 'dateTime', in: 'body', format: 'date' },
			],
		},
		{
			value: 'getSiteActivities',
			name: 'Get Site Activities',
			action: 'Get the website activity of a lead',
			description: 'Website activity of a lead: browsing, searches, favorites, showing requests, submissions (v1)',
			method: 'GET',
			effect: 'read',
			path: '/v1.0/leads/{leadId}/activities',
			pagination: { style: 'page', pageParam: 'curPage', fixedPageSize: 100, maxPageSize: 100 },
			params: [leadInPath],
		},
		{
			value: 'getActivities',
			name: 'Get Communication Activities',
			action: "Get a lead's calls, texts and emails as one timeline",
			description: 'Calls, texts and emails of a lead, automatic and logged, oldest first (v2)',
			method: 'GET',
			effect: 'read',
			path: '/v2.0/leads/{leadId}/activities',
			pagination: { style: 'keyset', itemsKey: 'activities', maxPageSize: 1000, idField: 'id' },
			optionalTitle: 'Options',
			params: [
				leadInPath,
				{ name: 'timeZoneCode', label: 'Time Zone', type: 'string', in: 'query', placeholder: 'e.g. America/Los_Angeles', description: 'IANA time zone for activity times; defaults to the user\'s' },
			],
		},
		{
			value: 'getSavedSearches',
			name: 'Get Saved Searches',
			action: 'Get the saved property searches of a lead',
			description: 'Saved property searches of a lead with their listing-alert settings',
			method: 'GET',
			effect: 'read',
			path: '/v1.0/leads/{leadId}/savedSearches',
			params: [
				leadInPath,
				{
					name: 'source',
					label: 'Created By',
					type: 'multiOptions',
					in: 'query',
					options: [
						{ name: 'Agent', value: 'AGENT_CREATED' },
						{ name: 'Lead', value: 'LEAD_CREATED' },
						{ name: 'System', value: 'SYSTEM_CREATED' },
					],
					description: 'Keep only searches of these origins; all when empty',
				},
				{ name: 'includeInactive', label: 'Include Inactive', type: 'boolean', in: 'query', description: 'Whether searches whose alerts are switched off are included' },
			],
		},
		{
			value: 'syncFromBrokermint',
			name: 'Sync From Brokermint',
			action: 'Apply Brokermint contact changes to its Lofty lead',
			description: 'Apply Brokermint contact changes to the Lofty lead linked to that contact',
			notice: 'The contact must already be linked to a Lofty lead in Lofty (Brokermint integration); otherwise Lofty answers with a non-zero code and nothing changes.',
			method: 'PUT',
			effect: 'write',
			path: '/v1.0/brokermint/lead',
			record: ['externalId'],
			optionalTitle: 'Contact Fields',
			params: [
				{ name: 'externalId', label: 'Brokermint Contact ID', type: 'string', in: 'body', description: 'ID of the contact in Brokermint, which identifies the linked lead' },
				{ name: 'email', label: 'Email', type: 'string', in: 'body', contact: 'email', placeholder: 'name@email.com' },
				{ name: 'firstName', label: 'First Name', type: 'string', in: 'body' },
				{ name: 'lastName', label: 'Last Name', type: 'string', in: 'body' },
				{ name: 'phone', label: 'Phone', type: 'string', in: 'body', contact: 'phone' },
				{ name: 'address', label: 'Street Address', type: 'string', in: 'body' },
				{ name: 'city', label: 'City', type: 'string', in: 'body' },
				{ name: 'state', label: 'State', type: 'string', in: 'body' },
				{ name: 'zip', label: 'Zip Code', type: 'string', in: 'body' },
				{ name: 'contactType', label: 'Contact Type', type: 'string', in: 'body', placeholder: 'e.g. Buyer', description: 'Brokermint contact type' },
				{ name: 'leadSource', label: 'Source', type: 'string', in: 'body', description: 'Where the contact came from' },
				{ name: 'bmPrivate', label: 'Private in Brokermint', type: 'boolean', in: 'body', description: 'Whether the contact is private in Brokermint' },
			],
			validate(op) {
				if (Object.keys(op.values).length === 0) throw new InvalidValue('Contact Fields', 'add at least one field to sync');
			},
			errorHints: {
				'20006': 'No Lofty lead is linked to this Brokermint contact. Link the contact in Lofty (Brokermint integration) first, and check the Brokermint Contact ID.',
				LEAD_NOT_EXIST: 'No Lofty lead is linked to this Brokermint contact. Link the contact in Lofty (Brokermint integration) first, and check the Brokermint Contact ID.',
			},
		},
	],
};

// Create or Update takes the fields of Create and writes with Create or Update.
const byValue = (value: string) => lead.operations.find((op) => op.value === value)!;
const upsert = createOrUpdateOperation({ create: byValue('create'), update: byValue('update'), simplify: LEAD_SIMPLE });
lead.operations.splice(1, 0, { ...upsert, unsetNumbers: LEAD_UNSET });
