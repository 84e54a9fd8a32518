/** Listings as the sandbox keeps them, and the limits and keys of the listing searches. */
import type { Store } from '../../core/store';

export interface ListingRecord {
	listingId: string;
	mlsListingId: string;
	status: 'Active' | 'Sold';
	/** listing agent when a member of a sandbox team; null for other brokerages' MLS listings */
	agentUserId: bigint | null;
	teamId: bigint | null;
	officeId: bigint | null;
	agentName: string;
	agentOrgId: string;
	agentOrgName: string;
	street: string;
	city: string;
	state: string;
	zipCode: string;
	county: string;
	area: string;
	price: number;
	beds: number;
	baths: number;
	sqft: number;
	builtYear: number;
	lotSqft: number;
	propertyTypes: string[];
	propertyTypePrimary: string;
	propertyTypeSecondary: string;
	purchaseType: 'For Sale' | 'For Rent';
	buildingName: string | null;
	hoaFee: number;
	garageParkingSpaces: number;
	description: string;
	pictures: string[];
	listDate: number;
	soldDate: number | null;
	published: boolean;
	openHouse: string | null;
}

export class ListingState {
	listings: ListingRecord[] = [];
	/** makes the listing-alert condition lookup (showCondition) fail with ALERT_CONDITION_FEGIN_FAIL */
	conditionServiceDown = false;
}

export const listingState = (store: Store): ListingState => store.ext('listing', () => new ListingState());

export const V1_LIMIT_MAX = 1000;
export const V2_PAGE_SIZE_MAX = 100;
export const FEED_TYPES = ['LuxVT', 'AptCom', 'AllOnMarket'] as const;
export const QUERY_KEYS = ['searchScope', 'soldFlag', 'filterConditions', 'sortFields', 'returnFields', 'pageNum', 'pageSize'];
export const CONDITION_KEYS = ['location', 'price', 'beds', 'baths', 'sqFt', 'daysOnSite', 'propertyType', 'purchaseType'];
export const SORT_FIELDS = [
	'MLS_LIST_DATE_L_DESC', 'PRICE_DESC', 'PRICE_ASC', 'BEDROOMS_DESC', 'BATHS_DESC', 'BUILT_YEAR_DESC', 'SQFT_DESC', 'RELEVANCE', 'QUALITY_DESC', 'OPEN_HOUSE_DESC',
];
/** A demo-agent listing whose ID is above 2^53 (listing IDs are strings on the wire). */
export const BIG_LISTING_ID = '9007199254740999';
