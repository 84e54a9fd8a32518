import type { INodePropertyOptions } from 'n8n-workflow';

import { InvalidValue } from '../../model/params';
import type { OperationContext, ParamDef } from '../../model/types';
import { mergedBodyJson } from '../../model/collections';

/** Field sets shared by the lead write operations (LeadRequest and EditLeadRequest of the OpenAPI). */

const yesNo: INodePropertyOptions[] = [
	{ name: 'No', value: 'No' },
	{ name: 'Yes', value: 'Yes' },
];

const timeFrames: INodePropertyOptions[] = ['1-3', '3-6', '6-12', '12+', 'Just Looking', 'Refinancing'].map((v) => ({
	name: /\d/.test(v) ? `${v} Months` : v,
	value: v,
}));

export const PROPERTY_TYPES = [
	'Commercial',
	'Condo',
	'Manufactured Home',
	'Mobile Home',
	'Multi-Family',
	'Single Family Home',
	'Townhouse',
	'Vacant Land',
].map((v) => ({ name: v, value: v }));

const yesNoField = (name: string, label: string, description: string): ParamDef => ({
	name,
	label,
	type: 'options',
	in: 'body',
	options: yesNo,
	default: 'Yes',
	description,
});

/** Inquiry fields (LeadInquiry): nested under `inquiry` on create and update, flat on Add Inquiry. */
export function inquiryFields(prefix: '' | 'inquiry.'): ParamDef[] {
	const n = (name: string) => (prefix ? `inquiry${name.charAt(0).toUpperCase()}${name.slice(1)}` : name);
	const label = (text: string) => (prefix ? `Inquiry ${text}` : text);
	return [
		{ name: n('priceMin'), key: `${prefix}priceMin`, integer: true, label: label('Price Min'), type: 'number', in: 'body', min: 0, description: 'Lower end of the price range' },
		{ name: n('priceMax'), key: `${prefix}priceMax`, integer: true, label: label('Price Max'), type: 'number', in: 'body', min: 0, description: 'Upper end of the price range' },
		{ name: n('propertyType'), key: `${prefix}propertyType`, label: label('Property Types'), type: 'multiOptions', in: 'body', options: PROPERTY_TYPES },
		{ name: n('bedroomsMin'), key: `${prefix}bedroomsMin`, integer: true, label: label('Bedrooms Min'), type: 'number', in: 'body', min: 0 },
		{ name: n('bedroomsMax'), key: `${prefix}bedroomsMax`, integer: true, label: label('Bedrooms Max'), type: 'number', in: 'body', min: 0 },
		{ name: n('bathroomsMin'), key: `${prefix}bathroomsMin`, label: label('Bathrooms Min'), type: 'string', in: 'body', placeholder: 'e.g. 2' },
		{ name: n('bathroomsMax'), key: `${prefix}bathroomsMax`, label: label('Bathrooms Max'), type: 'string', in: 'body', placeholder: 'e.g. 3' },
		{
			name: n('locations'),
			key: `${prefix}locations`,
			label: label('Locations (JSON)'),
			type: 'json',
			in: 'body',
			jsonShape: 'array',
			description: 'Areas the lead is interested in, e.g. [{"city": "Palm Desert", "stateCode": "CA", "zipCode": "92211"}]. Used by routing.',
		},
	];
}

/** Property or mailing-address fields (LeadProperty): nested under `property` on create and update. */
export function propertyFields(prefix: '' | 'property.'): ParamDef[] {
	const n = (name: string) => (prefix ? `property${name.charAt(0).toUpperCase()}${name.slice(1)}` : name);
	const label = (text: string) => (prefix ? `Property ${text}` : text);
	const text = (name: string, title: string): ParamDef => ({ name: n(name), key: `${prefix}${name}`, label: label(title), type: 'string', in: 'body' });
	// Whole numbers where the OpenAPI's LeadProperty has integers (row 12 of docs/api-readings.md).
	const INTEGERS = ['price', 'priceMin', 'priceMax', 'bedrooms', 'squareFeet', 'parkingSpace', 'floors'];
	const num = (name: string, title: string): ParamDef => ({
		name: n(name),
		key: `${prefix}${name}`,
		label: label(title),
		type: 'number',
		in: 'body',
		min: 0,
		integer: INTEGERS.includes(name) || undefined,
	});
	return [
		{ name: n('id'), key: `${prefix}id`, label: label('ID'), type: 'id', in: 'body', description: 'ID of an existing property or mailing address to update in place; leave empty to add one (or merge with one at the same address)' },
		text('streetAddress', 'Street Address'),
		text('city', 'City'),
		text('state', 'State'),
		text('zipCode', 'Zip Code'),
		text('county', 'County'),
		num('price', 'Price'),
		num('priceMin', 'Price Min'),
		num('priceMax', 'Price Max'),
		{ name: n('propertyType'), key: `${prefix}propertyType`, label: label('Type'), type: 'options', in: 'body', options: PROPERTY_TYPES, default: 'Single Family Home' },
		num('bedrooms', 'Bedrooms'),
		num('bathrooms', 'Bathrooms'),
		num('squareFeet', 'Square Feet'),
		num('lotSize', 'Lot Size (Acres)'),
		num('parkingSpace', 'Parking Spaces'),
		num('floors', 'Floors'),
		{ name: n('mailAddress'), key: `${prefix}mailAddress`, label: label('Is Mailing Address'), type: 'boolean', in: 'body', description: 'Whether this is the mailing address rather than a property address' },
		text('label', 'Label'),
		text('note', 'Note'),
	];
}

const languages = [
	['Chinese (Simplified)', 'zh-CN'],
	['Chinese (Traditional)', 'zh-TW'],
	['English', 'en'],
	['French', 'fr'],
	['German', 'de'],
	['Japanese', 'ja'],
	['Spanish', 'es'],
].map(([name, value]) => ({ name, value }));

export const LEAD_TYPES: INodePropertyOptions[] = [
	['Agent', 7],
	['Buyer', 2],
	['Homeowner', 8],
	['Investor', 6],
	['Landlord', 9],
	['Other', -1],
	['Renter', 5],
	['Seller', 1],
].map(([name, value]) => ({ name: name as string, value }));

/** What a tag field that writes says: how to give a new tag, and how names meet the team's tags (model/tags.ts). */
const TAG_WRITE_HINT = 'Pick your Lofty tags; for a new tag, switch to Expression and type names separated by commas (e.g. VIP, Open House May)';
/** Added to a tag write's description (a hint has at most 120 characters). */
const TAG_WRITE_MORE = "A new tag is created as typed. A name the team has exactly is kept; one in another case takes the team's spelling";

/** What a tag filter says. */
const TAG_FILTER_HINT = 'Pick your Lofty tags here, or switch to Expression and give names separated by commas';
/** Added to a tag filter's description. */
const TAG_FILTER_MORE = "A name that is not one of the team's tags fails the item, naming the nearest tag";

/** What Tags to Remove says (nothing is created). */
export const TAG_REMOVE_HINT = 'Pick your Lofty tags here, or switch to Expression and give names separated by commas.';

/** A field of lead tag names (a dropdown of the team's tags, see ParamDef type `tagList`); `filter`: a search, which creates nothing. */
export function tagField(name: string, label: string, description: string, filter = false): ParamDef {
	const hint = filter ? `${TAG_FILTER_HINT}.` : `${TAG_WRITE_HINT}.`;
	const more = filter ? TAG_FILTER_MORE : TAG_WRITE_MORE;
	return { name, label, type: 'tagList', in: filter ? 'query' : 'body', loadOptions: 'getTags', maxLength: filter ? undefined : 64, description: `${description}. ${more}`, hint };
}

/** A lead's pipeline stage, picked from the team's stages (Lofty takes the stage's name in writes and in the filter). */
export function stageParam(filter: boolean): ParamDef {
	return {
		name: 'stage',
		label: 'Stage Name or ID',
		type: 'string',
		in: filter ? 'query' : 'body',
		maxLength: filter ? undefined : 20,
		loadOptions: 'getLeadStages',
		description: `${filter ? 'Only leads in this stage of' : 'A stage of'} the team's lead pipeline, e.g. New or Hot. Choose from the list, or specify a stage name using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
	};
}

/** Fields that LeadRequest (create) and EditLeadRequest (update) share; tags differ (see lead.ts). */
export function leadWriteFields(): ParamDef[] {
	return [
		{ name: 'lastName', label: 'Last Name', type: 'string', in: 'body', maxLength: 30, description: 'Lofty keeps only the first 30 characters' },
		{ name: 'emails', label: 'Emails', type: 'stringList', in: 'body', contact: 'email', placeholder: 'e.g. jane@example.com' },
		{ name: 'phones', label: 'Phones', type: 'stringList', in: 'body', maxLength: 20, contact: 'leadPhone', placeholder: 'e.g. 4155551234', description: 'Stored in one form, e.g. +14155551234 for (415) 555-1234 (10 digits without a country code are a US number); an extension is kept as x12' },
		{ name: 'leadTypes', label: 'Lead Types', type: 'multiOptions', in: 'body', options: LEAD_TYPES },
		stageParam(false),
		{ name: 'source', label: 'Source', type: 'string', in: 'body', description: 'Where the lead came from, e.g. Zillow' },
		{ name: 'referredBy', label: 'Referred By', type: 'string', in: 'body' },
		{ name: 'segments', label: 'Segments', type: 'stringList', in: 'body', maxLength: 30 },
		{ name: 'birthday', label: 'Birthday', type: 'dateTime', in: 'body', format: 'date', description: 'Sent in Lofty\'s "MMM d, yyyy" form' },
		{ name: 'language', label: 'Language', type: 'options', in: 'body', options: languages, default: 'en' },
		{ name: 'buyingTimeFrame', label: 'Buying Time Frame', type: 'options', in: 'body', options: timeFrames, default: '1-3' },
		{ name: 'sellingTimeFrame', label: 'Selling Time Frame', type: 'options', in: 'body', options: timeFrames, default: '1-3' },
		yesNoField('preQual', 'Pre-Qualified', 'Whether the lead is pre-qualified for a mortgage'),
		yesNoField('houseToSell', 'Has House to Sell', 'Whether the lead has a house to sell'),
		yesNoField('fthb', 'First-Time Home Buyer', 'Whether the lead is a first-time home buyer'),
		yesNoField('withBuyerAgent', 'Has Buyer Agent', 'Whether the lead already works with a buyer agent'),
		yesNoField('withListingAgent', 'Has Listing Agent', 'Whether the lead already works with a listing agent'),
		yesNoField('mortgage', 'Needs Mortgage', 'Whether the lead needs a mortgage'),
		yesNoField('buyHouse', 'Wants to Buy', 'Whether the lead wants to buy a house'),
		{ name: 'cannotText', label: 'Do Not Text', type: 'boolean', in: 'body', description: 'Whether texting this lead is blocked' },
		{ name: 'cannotCall', label: 'Do Not Call', type: 'boolean', in: 'body', description: 'Whether calling this lead is blocked' },
		{ name: 'cannotEmail', label: 'Do Not Email', type: 'boolean', in: 'body', description: 'Whether emailing this lead is blocked' },
		{ name: 'unsubscription', label: 'Unsubscribed From Email', type: 'boolean', in: 'body', description: 'Whether the lead is unsubscribed from email' },
		{
			name: 'ownershipScope',
			label: 'Ownership Scope',
			type: 'options',
			in: 'body',
			options: [
				{ name: 'Office', value: 'OFFICE', description: 'Visible within the office given in Ownership ID' },
				{ name: 'Personal (One Agent)', value: 'PERSONAL', description: 'Visible only to the agent given in Ownership ID' },
				{ name: 'Team (Whole Account)', value: 'TEAM', description: 'Visible to all users of the Lofty account' },
			],
			default: 'PERSONAL',
			description: 'Who can see the lead; Lofty defaults to the caller personally',
		},
		{ name: 'ownershipId', label: 'Ownership ID', type: 'id', in: 'body', description: 'Office ID (scope Office) or agent user ID (scope Personal)' },
		...inquiryFields('inquiry.'),
		...propertyFields('property.'),
		{
			name: 'customAttributeList',
			label: 'Custom Fields (JSON)',
			type: 'json',
			in: 'body',
			jsonShape: 'array',
			description: 'E.g. [{"attributeName": "Budget", "attributeType": "currency", "value": "500000"}]',
		},
		{
			name: 'leadFamilyMemberList',
			label: 'Family Members (JSON)',
			type: 'json',
			in: 'body',
			jsonShape: 'array',
			description: 'Up to 4, e.g. [{"firstName": "Sam", "relationship": "Husband", "emails": ["sam@example.com"]}]',
		},
		mergedBodyJson('extraBody', 'Any further LeadRequest fields as a JSON object, merged into the request body'),
	];
}

export const SORTS = [
	'Default', 'LastContact', 'LastCall', 'LastEmail', 'LastActivity', 'CreateTime', 'Inquries', 'DeleteTime',
	'AssignTime', 'Score', 'Activity', 'Communication', 'HasDrip', 'HasAlert', 'Task', 'Lender', 'ActivitySearch',
	'ActivityViews', 'ActivityFavorites', 'DripStatus', 'DripOpenRate', 'AlertFrequency', 'AlertOpenRate', 'SCOREV2',
	'SmartPlanStatus',
]
	.map((v) => ({ name: v === 'Inquries' ? 'Inquiries' : v.replace(/([a-z])([A-Z])/g, '$1 $2'), value: v }))
	// in the order of the names shown, as n8n's options-sorted-alphabetically asks
	.sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }));

export function requireOneOf(op: OperationContext, names: string[], what: string): void {
	if (!names.some((name) => op.values[name] !== undefined)) throw new InvalidValue(what, 'set at least one field');
}

export const assignedUser: ParamDef = {
	name: 'assignedUserId',
	label: 'Assigned Agent Name or ID',
	type: 'id',
	in: 'body',
	loadOptions: 'getMembers',
	description:
		'Agent to assign the lead to directly. Leave empty to let Lofty\'s lead routing choose. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

export function checkOwnership(op: OperationContext): void {
	const scope = op.values.ownershipScope;
	if ((scope === 'OFFICE' || scope === 'PERSONAL') && op.values.ownershipId === undefined && op.values.ownershipScope !== undefined) {
		throw new InvalidValue('Ownership ID', `is required when Ownership Scope is ${scope === 'OFFICE' ? 'Office' : 'Personal'}`);
	}
	const family = op.values.leadFamilyMemberList as unknown[] | undefined;
	if (family && family.length > 4) throw new InvalidValue('Family Members (JSON)', `takes at most 4 entries, got ${family.length}`);
}

export const TAG_FIELDS = ['tags', 'tagsAdd', 'tagsRemove'];

/**
 * Numbers Lofty's live service answers -1 for when they are not set (api-notes.md): null in the shaped outputs, as when
 * Lofty answers null (docs/api-readings.md, row 16).
 */
export const LEAD_UNSET = [
	'assignedUserId',
	'lenderUserId',
	'pondId',
	'ownershipId',
	...['priceMin', 'priceMax', 'bedroomsMin', 'bedroomsMax'].map((f) => `leadInquiry.${f}`),
	...['price', 'priceMin', 'priceMax', 'bedrooms', 'bathrooms', 'squareFeet', 'lotSize', 'parkingSpace', 'floors'].map((f) => `leadPropertyList.${f}`),
];

/** The fields of the Simplified output of Get and Get Many (node version 1.1). */
export const LEAD_SIMPLE = ['firstName', 'lastName', 'emails', 'phones', 'stage', 'source', 'tags', 'leadTypes', 'assignedUser', 'score', 'createTime', 'lastTouch'];
