import type { IDataObject } from 'n8n-workflow';

import { InvalidValue } from '../../model/params';
import type { BuiltRequest, OperationContext, OtherReading, ParamDef, ResourceDef } from '../../model/types';

const EXPRESSION_HINT = 'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.';

/** Contact and address fields shared by the company and office payloads. */
function contactFields(what: string): ParamDef[] {
	const field = (name: string, label: string, description?: string, placeholder?: string): ParamDef => ({ name, label, type: 'string', in: 'body', description, placeholder });
	return [
		{ ...field('phone', 'Phone', 'Phone number, digits only', 'e.g. 4155551234'), contact: 'phone' },
		field('phoneCode', 'Phone Country Code', 'Country calling code without +', 'e.g. 1'),
		field('phoneCountry', 'Phone Country', 'Two-letter ISO country code of the phone', 'e.g. US'),
		{ ...field('email', 'Email', `Contact e-mail of the ${what}`), placeholder: 'name@email.com', contact: 'email' },
		field('streetAddress', 'Street Address'),
		field('city', 'City'),
		field('state', 'State', undefined, 'e.g. CA'),
		field('zipcode', 'Zip Code'),
	];
}

const officeName: ParamDef = { name: 'name', label: 'Name', type: 'string', in: 'body', description: 'Office name', placeholder: 'e.g. Downtown Branch' };
const parentOffice: ParamDef = {
	name: 'parentId',
	label: 'Parent Office Name or ID',
	type: 'id',
	in: 'body',
	loadOptions: 'getOffices',
	description: `The office this one sits under; leave empty for a top-level office. ${EXPRESSION_HINT}`,
};
const allowManageSub: ParamDef = {
	name: 'allowManageSub',
	label: 'Members Manage Sub-Offices',
	type: 'boolean',
	in: 'body',
	description: 'Whether members of this office can manage its sub-offices',
};

/** The phone rules the company and office schemas state, checked before sending (the email's rule is its field's). */
function checkContact(op: OperationContext): void {
	const v = op.values;
	if (v.phone !== undefined && !/^\d+$/.test(v.phone as string)) throw new InvalidValue('Phone', `must be digits only, got ${v.phone as string}`);
	if (v.phoneCode !== undefined) {
		const code = String(v.phoneCode).replace(/^\+/, '');
		if (!/^\d{1,4}$/.test(code)) throw new InvalidValue('Phone Country Code', `must be the calling code in digits such as 1, got ${v.phoneCode as string}`);
		v.phoneCode = code;
	}
	if (v.phoneCountry !== undefined) {
		if (!/^[A-Za-z]{2}$/.test(v.phoneCountry as string)) throw new InvalidValue('Phone Country', `must be a two-letter country code such as US, got ${v.phoneCountry as string}`);
		v.phoneCountry = (v.phoneCountry as string).toUpperCase();
	}
}

function requireChange(op: OperationContext, title: string, ignore: string[]): void {
	if (!Object.keys(op.values).some((name) => !ignore.includes(name))) throw new InvalidValue(title, 'add at least one field to change');
}

const MANAGE_ORG_HINT =
	'The Lofty user behind this credential lacks the Manage Organization permission (MANAGE_ORGANIZATION for the whole company, MANAGE_ORGANIZATION_DEPARTMENT for their own offices). Use the credential of a company admin.';

/**
 * Create Office under the OpenAPI's reading (docs/api-readings.md, row 13): POST is "Update Office" and refuses
 * a body without an office id (404 "Office does not exist", or a message asking for the id). Nothing was
 * written, so the same office goes out as PUT, the OpenAPI's "Add Office". Only that refusal switches: a 404
 * about something else (a missing parent office) is the POST's own answer, shown as it is, and later items
 * still go by POST.
 */
function refusedAsUpdate(failure: { httpCode: number; message: string }, request: BuiltRequest): boolean {
	if (failure.httpCode === 405) return true;
	const { message } = failure;
	// The refusal names the parent (or its ID): the parent office is missing, not the office to update.
	const parentId = (request.body as IDataObject | undefined)?.parentId;
	if (/parent/i.test(message) || (parentId !== undefined && message.includes(String(parentId)))) return false;
	return /office does not exist|\bid\b[^.]*\brequired|required[^.]*\bid\b/i.test(message);
}

const OFFICE_CREATE_READING: OtherReading = {
	name: 'officeCreateByPut',
	detect: refusedAsUpdate,
	method: 'PUT',
	rewrite: (request: BuiltRequest): BuiltRequest => ({ ...request, method: 'PUT' }),
};

export const organization: ResourceDef = {
	value: 'organization',
	name: 'Organization',
	description: 'Company, offices and permission profiles',
	errorHints: {
		'20017': MANAGE_ORG_HINT,
		PERMISSION_DENIED: MANAGE_ORG_HINT,
	},
	operations: [
		{
			value: 'get',
			name: 'Get',
			action: 'Get your organization and its offices',
			description:
				"Your office, permission profile and the offices you may see (all with Manage Organization, your sub-offices with its department variant), or the multi-team group you belong to",
			method: 'GET',
			effect: 'read',
			path: '/v1.0/org',
			params: [],
		},
		{
			value: 'updateCompany',
			name: 'Update Company',
			action: 'Update the company profile',
			description: 'Change the company name, contact details or header image; needs the Manage Organization permission',
			method: 'POST',
			effect: 'write',
			path: '/v1.0/org/company',
			// The one company of the credential: its items take turns.
			record: ['company'],
			optionalTitle: 'Update Fields',
			params: [
				{ name: 'name', label: 'Company Name', type: 'string', in: 'body', placeholder: 'e.g. Lofty Realty Group' },
				...contactFields('company'),
				{ name: 'header', label: 'Header Image URL', type: 'string', in: 'body', description: 'URL of the header or banner image' },
			],
			validate(op) {
				requireChange(op, 'Update Fields', []);
				checkContact(op);
			},
			output: (response) => ({ updated: true, ...(response !== null && typeof response === 'object' ? (response as IDataObject) : {}) }),
		},
		{
			// Office writes: api-spec.md says POST creates or updates, the id deciding; the OpenAPI names PUT "Add
			// Office" (id ignored) and POST "Update Office" (id required). Create sends the spec's POST without an
			// id and, when Lofty refuses it as an update of no office, PUT (OFFICE_CREATE_READING). Update uses
			// POST with the id, on which both agree.
			value: 'createOffice',
			name: 'Create Office',
			action: 'Create an office',
			description: 'Add an office to your company, at the top level or under another office; needs the Manage Organization permission',
			method: 'POST',
			effect: 'write',
			path: '/v1.0/org/office',
			unwrap: 'data',
			params: [{ ...officeName, required: true }, parentOffice, ...contactFields('office'), allowManageSub],
			validate: checkContact,
			otherReading: OFFICE_CREATE_READING,
		},
		{
			value: 'updateOffice',
			name: 'Update Office',
			action: 'Update an office',
			description: 'Change the name, parent or contact details of an office; needs the Manage Organization permission',
			method: 'POST',
			effect: 'write',
			path: '/v1.0/org/office',
			unwrap: 'data',
			record: ['officeId'],
			optionalTitle: 'Update Fields',
			params: [
				{
					name: 'officeId',
					label: 'Office Name or ID',
					type: 'id',
					in: 'body',
					key: 'id',
					required: true,
					loadOptions: 'getOffices',
					description: `The office to change. ${EXPRESSION_HINT}`,
				},
				officeName,
				{ ...parentOffice, description: `Move the office under this one. ${EXPRESSION_HINT}` },
				...contactFields('office'),
				allowManageSub,
			],
			validate(op) {
				requireChange(op, 'Update Fields', ['officeId']);
				if (op.values.parentId !== undefined && op.values.parentId === op.values.officeId) {
					throw new InvalidValue('Parent Office Name or ID', 'must not be the office itself');
				}
				checkContact(op);
			},
			errorHints: {
				RESOURCE_NOT_EXIST: 'The office does not exist in your company. Pick it from the list.',
			},
		},
		{
			value: 'getPermissionProfiles',
			name: 'Get Permission Profiles',
			action: "Get the team's permission profiles",
			description: 'The permission profiles (role templates) of your team, with the IDs used when assigning roles',
			method: 'GET',
			effect: 'read',
			path: '/v1.0/org/permission/profiles',
			params: [],
			errorHints: {
				VENDOR_HAS_NO_PERMISSION:
					'The Lofty user behind this credential needs the Manage Team Agent or the Manage Permission Profile permission to read permission profiles. Use the credential of a team admin.',
			},
		},
	],
};
