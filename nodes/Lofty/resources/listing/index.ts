import { InvalidValue } from '../../model/params';
import type { OperationContext, OperationDef, ParamDef, ResourceDef } from '../../model/types';

const LISTING_HINTS: Record<string, string> = {
	NO_ACCESS_WEBSITE:
		'Lofty does not let this credential read these listings. Listing search by agent or office does not work with a personal API key: use the "Lofty OAuth2 API" credential. Reading another agent\'s listings also needs the Manage Team Agent permission (a team owner or admin).',
	USER_NOT_EXIST: 'The chosen agent is not a member of this Lofty team. Pick the agent from the list.',
	LISTING_LIMIT_NOT_VALID: 'Lofty takes at most 1000 listings per page here.',
	ALERT_CONDITION_FEGIN_FAIL: 'Lofty could not look up the listing-alert settings behind this search (an internal lookup failed). Try again later.',
	'20012':
		'Lofty refused the combination of filters: Listing ID and Sold Listing ID cannot be used together, and the search needs a target (the agent\'s or office\'s listings, listing IDs, MLS IDs or a building).',
};

/** What GET /v1.0/listing searches; one of these must be given (the agent's own listings when none is). */
const TARGETS = ['agentListings', 'officeListings', 'listingId', 'soldListingId', 'mlsListingIds', 'buildingName', 'buildingAddress'];

function agentListingParams(sold: boolean): ParamDef[] {
	return [
		{
			name: 'userId',
			label: 'Agent Name or ID',
			type: 'id',
			in: 'query',
			loadOptions: 'getMembers',
			description:
				'Whose listings (and whose office) to search; the user of the credential when empty. Another agent needs the Manage Team Agent permission. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		{ name: 'agentListings', label: 'Agent\'s Listings', type: 'boolean', in: 'query', sendOnlyIfTrue: true, description: 'Whether to include the agent\'s own listings (the default when no other target is set)' },
		{ name: 'officeListings', label: 'Office Listings', type: 'boolean', in: 'query', sendOnlyIfTrue: true, description: 'Whether to include the listings of the agent\'s office' },
		sold
			? { name: 'soldListingId', label: 'Sold Listing ID', type: 'string', in: 'query', description: 'Only the sold listing with this Lofty listing ID' }
			: { name: 'listingId', label: 'Listing ID', type: 'string', in: 'query', description: 'Only the listing with this Lofty listing ID' },
		{ name: 'mlsListingIds', label: 'MLS Listing IDs', type: 'stringList', in: 'query', placeholder: 'e.g. ML82040728', description: 'Only listings with these MLS numbers' },
		{ name: 'street', label: 'Street Contains', type: 'string', in: 'query', description: 'Only listings whose street address contains this text' },
		{ name: 'buildingName', label: 'Building Name', type: 'string', in: 'query', description: 'Only listings in a building with this name' },
		{ name: 'buildingAddress', label: 'Building Address', type: 'string', in: 'query', description: 'Only listings at this building address' },
	];
}

function checkTarget(op: OperationContext): void {
	if (op.values.listingId !== undefined && op.values.soldListingId !== undefined) {
		throw new InvalidValue('Listing ID', 'cannot be combined with Sold Listing ID');
	}
}

/** The spec requires a target; without one the user means "my listings", which is what the API defaults to. */
function defaultTarget(op: OperationContext): void {
	if (!TARGETS.some((name) => op.values[name] !== undefined)) op.values.agentListings = true;
}

function agentListingOperation(sold: boolean): OperationDef {
	return {
		value: sold ? 'getSold' : 'getActive',
		name: sold ? 'Get Sold Listings' : 'Get Active Listings',
		action: sold ? 'Get sold listings of an agent or office' : 'Get active listings of an agent or office',
		description: `${sold ? 'Sold' : 'Active'} listings of an agent, their office, or given listing or MLS IDs. Needs the OAuth2 credential: Lofty refuses personal API keys here.`,
		method: 'GET',
		effect: 'read',
		path: '/v1.0/listing',
		// Active and sold listings page separately, each with its own page key. The OpenAPI leaves listIng and
		// soldListing untyped: the records are read from `listings` there, else from the list found inside (row 4).
		pagination: sold
			? { style: 'cursor', cursorParam: 'soldNextPageKey', nextKey: '_listingMetadata.soldNextPageKey', limitParam: 'limit', maxPageSize: 1000, itemsKey: 'soldListing.listings', itemsIn: 'soldListing' }
			: { style: 'cursor', cursorParam: 'nextPageKey', nextKey: '_listingMetadata.nextPageKey', limitParam: 'limit', maxPageSize: 1000, itemsKey: 'listIng.listings', itemsIn: 'listIng' },
		params: agentListingParams(sold),
		validate: checkTarget,
		toWire: defaultTarget,
		errorHints: LISTING_HINTS,
	};
}

/** Range filters of the v2 search: two number fields sent together as "min,max" under one condition. */
const RANGES: Array<[string, string, string, string]> = [
	['priceMin', 'priceMax', 'filterConditions.price', 'Price'],
	['bedsMin', 'bedsMax', 'filterConditions.beds', 'Bedrooms'],
	['bathsMin', 'bathsMax', 'filterConditions.baths', 'Bathrooms'],
	['sqftMin', 'sqftMax', 'filterConditions.sqFt', 'Square Feet'],
];

function rangeParams(): ParamDef[] {
	return RANGES.flatMap(([min, max, key, label]) => [
		{ name: min, label: `${label} Min`, type: 'number' as const, in: 'body' as const, key, min: 0, description: `Lowest ${label.toLowerCase()}` },
		{ name: max, label: `${label} Max`, type: 'number' as const, in: 'body' as const, key, min: 0, description: `Highest ${label.toLowerCase()}` },
	]);
}

const SORT_FIELDS = [
	{ name: 'Bathrooms (Most First)', value: 'BATHS_DESC' },
	{ name: 'Bedrooms (Most First)', value: 'BEDROOMS_DESC' },
	{ name: 'List Date (Newest First)', value: 'MLS_LIST_DATE_L_DESC' },
	{ name: 'Open House First', value: 'OPEN_HOUSE_DESC' },
	{ name: 'Price (Highest First)', value: 'PRICE_DESC' },
	{ name: 'Price (Lowest First)', value: 'PRICE_ASC' },
	{ name: 'Quality', value: 'QUALITY_DESC' },
	{ name: 'Relevance', value: 'RELEVANCE' },
	{ name: 'Square Feet (Largest First)', value: 'SQFT_DESC' },
	{ name: 'Year Built (Newest First)', value: 'BUILT_YEAR_DESC' },
];

/** Fields of a v2 listing (ListingItem), for Return Fields. */
const LISTING_FIELDS = [
	'agentId', 'agentName', 'agentOrgId', 'agentOrgName', 'area', 'baths', 'beds', 'builtYear', 'chimeArea', 'chimeComplex',
	'chimeMaintenanceFee', 'coAgentId', 'coAgentName', 'coAgentOrgId', 'coAgentOrgName', 'community', 'condoFee', 'condoFeeFrequency',
	'county', 'detailsDescribe', 'exterior', 'garageParkingSpaces', 'hoaFee', 'hoaFeeFrequency', 'interiorFeatures', 'listingCity',
	'listingId', 'listingState', 'listingStatus', 'listingStreetName', 'listingZipcode', 'mlsListDateL', 'mlsListingId',
	'openHouseSchedules', 'openHouseSchedulesEnd', 'openHouseSchedulesStart', 'pictureList', 'price', 'propertyTypePrimary',
	'propertyTypeSecondary', 'propertyTypes', 'purchaseType', 'sqft', 'subDivisionName', 'totalAvailableAcres',
].map((f) => ({ name: f, value: f }));

/**
 * Turns the friendly filter fields into the condition values Lofty expects: ranges become
 * "min,max" (either side may be empty), "listed within N days" becomes ",N", a purchase type a
 * one-label list. The friendly fields share their condition key, so one value per key is kept.
 */
function buildConditions(op: OperationContext): void {
	const v = op.values;
	for (const [min, max, , label] of RANGES) {
		const low = v[min] as number | undefined;
		const high = v[max] as number | undefined;
		if (low !== undefined && high !== undefined && low > high) throw new InvalidValue(`${label} Min`, `must not be more than ${label} Max`);
		if (low === undefined && high === undefined) continue;
		v[min] = `${low ?? ''},${high ?? ''}`;
		delete v[max];
	}
	if (v.daysOnSite !== undefined) v.daysOnSite = `,${v.daysOnSite as number}`;
	if (v.purchaseType !== undefined) v.purchaseType = [v.purchaseType as string];
}

export const listing: ResourceDef = {
	value: 'listing',
	name: 'Listing',
	description: 'Property listings',
	operations: [
		{
			value: 'search',
			name: 'Search',
			action: 'Search active or sold listings',
			description: 'Search active or sold listings by location, price, rooms, size and type',
			method: 'POST',
			effect: 'read',
			path: '/v2.0/listings/search',
			// Only ListingQueryRequest's own keys are ever sent: Lofty answers an unknown key with zero results.
			pagination: { style: 'page', in: 'body', pageParam: 'pageNum', sizeParam: 'pageSize', firstPage: 1, maxPageSize: 100, itemsKey: 'listing', hasMoreKey: 'metadata.hasMore', totalKey: 'metadata.totalCount' },
			simplify: [
				'mlsListingId', 'listingStreetName', 'listingCity', 'listingState', 'listingZipcode', 'price', 'beds', 'baths', 'sqft',
				'listingStatus', 'purchaseType', 'propertyTypeSecondary', 'agentName', 'pictureList', 'mlsListDateL', 'openHouseSchedules',
			],
			params: [
				{
					name: 'searchScope',
					label: 'Search Scope',
					type: 'options',
					in: 'body',
					options: [
						{ name: 'All', value: 'all', description: 'Every listing the agent has access to' },
						{ name: 'My Listings', value: 'my', description: 'The agent\'s own listings' },
						{ name: 'Office Listings', value: 'office', description: 'Listings of the agent\'s office' },
					],
					default: 'all',
				},
				{ name: 'soldFlag', label: 'Sold Listings', type: 'boolean', in: 'body', description: 'Whether to search sold listings instead of active ones' },
				{
					// Listed before the friendly filters so that they are placed inside it.
					name: 'filterConditions',
					label: 'Filter Conditions (JSON)',
					type: 'json',
					in: 'body',
					jsonShape: 'object',
					description:
						'More conditions, keyed by Lofty condition names, e.g. {"location": {"city": ["Seattle"]}, "price": "100000,500000"}. Lofty matches nothing when a name is unknown. The fields below win over the same condition here.',
				},
				{ name: 'cities', label: 'Cities', type: 'stringList', in: 'body', key: 'filterConditions.location.city', placeholder: 'e.g. Austin' },
				...rangeParams(),
				{ name: 'daysOnSite', label: 'Listed Within Days', type: 'number', in: 'body', key: 'filterConditions.daysOnSite', min: 0, description: 'Only listings listed within this many days' },
				{ name: 'propertyType', label: 'Property Types', type: 'stringList', in: 'body', key: 'filterConditions.propertyType', placeholder: 'e.g. Condo', description: 'Property type labels as Lofty shows them, e.g. Condo, Townhouse, Single Family Home' },
				{ name: 'purchaseType', label: 'Purchase Type', type: 'string', in: 'body', key: 'filterConditions.purchaseType', placeholder: 'e.g. For Sale', description: 'Purchase type label as Lofty shows it, e.g. For Sale' },
				{ name: 'sortFields', label: 'Sort By', type: 'multiOptions', in: 'body', options: SORT_FIELDS, description: 'Sort orders, applied in the order chosen' },
				{ name: 'returnFields', label: 'Return Fields', type: 'multiOptions', in: 'body', options: LISTING_FIELDS, description: 'Only these listing fields are returned; Lofty\'s default set when empty' },
			],
			validate: buildConditions,
			errorHints: { LISTING_LIMIT_NOT_VALID: 'Lofty takes 1 to 100 listings per page here.', '20012': 'Lofty refused a filter value: ranges are numbers, and Sort By takes the listed orders.' },
		},
		agentListingOperation(false),
		agentListingOperation(true),
		{
			value: 'getPublishedFeed',
			name: 'Get Published Feed',
			action: 'Get the published listings feed as XML',
			description: 'The team\'s published listings as the XML feed Lofty gives syndication partners, in the field "xml" (turn it into items with the XML node)',
			method: 'GET',
			effect: 'read',
			path: '/v1.0/getPublishedListings',
			accept: 'xml',
			params: [
				{
					name: 'type',
					label: 'Feed Type',
					type: 'options',
					in: 'query',
					required: true,
					options: [
						{ name: 'All On Market', value: 'AllOnMarket', description: 'Every published listing on the market' },
						{ name: 'AptCom', value: 'AptCom', description: 'The feed variant for Apartments.com' },
						{ name: 'LuxVT', value: 'LuxVT', description: 'The luxury feed variant' },
					],
					default: 'AllOnMarket',
				},
			],
		},
	],
};
