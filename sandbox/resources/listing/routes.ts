/**
 * Listings:
 * - GET  /v1.0/listing               search active and sold listings of an agent, an office or by IDs
 *                                     (ListingSearchResponse: `listIng`, `soldListing`, `_listingMetadata`);
 * - GET  /v1.0/getPublishedListings   the team's published listings as an XML feed (type LuxVT, AptCom, AllOnMarket);
 * - POST /v2.0/listings/search        search by scope and filter conditions (ListingV2SearchResponse).
 *
 * Rules from the OpenAPI / api-spec.md / api-notes.md:
 * - v1: limit in (0, 1000], default 25, else 400 LISTING_LIMIT_NOT_VALID; listingId together with
 *   soldListingId is an error envelope on HTTP 200; one of agentListings, officeListings, listingId,
 *   soldListingId, mlsListingIds, buildingName, buildingAddress must name the target; a userId other
 *   than the caller needs MANAGE_TEAM_AGENT (owner/admin here), else 403 NO_ACCESS_WEBSITE; an unknown
 *   userId is 404 USER_NOT_EXIST; a failed alert-condition lookup is 404 ALERT_CONDITION_FEGIN_FAIL.
 *   Personal API keys cannot read listing data (live report): 403 NO_ACCESS_WEBSITE; OAuth tokens can.
 * - XML feed: needs `Accept: application/xml`, else 406; the answer is `application/xml`.
 * - v2: pageNum from 1 (default 1), pageSize 1..100 (default 25, else 400 LISTING_LIMIT_NOT_VALID);
 *   a body key that is not one of ListingQueryRequest's (or a filter condition that is not known)
 *   is answered 200 with zero results, as the live API does.
 *
 * Where the spec is silent: v1 `listIng` / `soldListing` are objects `{listings: [...]}`; the page
 * keys are opaque strings (null on the last page); the target criteria combine with AND (agent and
 * office with OR); a missing target, a bad page key or a malformed range is 400 INVALID_PARAMETER;
 * `showCondition=true` adds the agent's listing-alert condition as `_listingMetadata.condition`
 * (set `listingState(store).conditionServiceDown` to make that lookup fail). Feed types: AllOnMarket
 * is every published active listing of the team, LuxVT those priced 1,000,000 or more, AptCom rentals.
 */
import { ApiError, Codes, invalidParam, missingParam, userNotExist } from '../../core/errors';
import { toInt64 } from '../../core/json';
import type { SandboxModule } from '../../core/module';
import { asObject, boolParam, has, int64Param, listParam } from '../../core/params';
import type { Ctx, Route } from '../../core/router';
import { SEED_IDS } from '../../core/seed';
import type { Store } from '../../core/store';
import type { User } from '../../core/types';

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

// ---------------------------------------------------------------- seed

const T0 = Date.UTC(2025, 0, 1);
const DAY = 86_400_000;
const PLACES: Array<[string, string, string, string, string]> = [
	['Austin', 'TX', '78701', 'Travis', 'Downtown'],
	['Austin', 'TX', '78704', 'Travis', 'South Congress'],
	['Round Rock', 'TX', '78664', 'Williamson', 'Round Rock'],
	['Cedar Park', 'TX', '78613', 'Williamson', 'Cedar Park'],
	['Seattle', 'WA', '98101', 'King', 'Belltown'],
];
const TYPES: Array<[string, string]> = [
	['Residential', 'Single Family Home'],
	['Residential', 'Condo'],
	['Residential', 'Townhouse'],
	['Residential', 'Multi-Family'],
	['Land', 'Land'],
];
const STREETS = ['Oak', 'Maple', 'Cedar', 'Lamar', 'Congress', 'Riverside', 'Pine', 'Elm'];
const BUILDINGS = ['The Bowie', 'Austonian', 'Seaholm Residences'];

function seed(store: Store): void {
	const state = listingState(store);
	let a = 20250101;
	const r = (): number => {
		a = (a * 1103515245 + 12345) % 2147483648;
		return a / 2147483648;
	};
	const teamId = BigInt(SEED_IDS.teamId);
	const demo = store.getUser(SEED_IDS.demoUserId);
	const other = store.getUser(SEED_IDS.otherAgentUserId);
	const members = [...store.users.values()].filter((u) => u.teamId === teamId && u !== demo && u !== other && u.roleName === 'Agent');
	let n = 0;
	const make = (agent: User | undefined, status: 'Active' | 'Sold', opts: Partial<ListingRecord> = {}): void => {
		n++;
		const [city, st, zip, county, area] = PLACES[n % PLACES.length];
		const [primary, secondary] = TYPES[n % TYPES.length];
		const rent = n % 11 === 0;
		const building = secondary === 'Condo' && n % 2 === 0 ? BUILDINGS[n % BUILDINGS.length] : null;
		const listDate = T0 + Math.floor(r() * 300) * DAY;
		const price = rent ? 1500 + Math.floor(r() * 40) * 100 : 250000 + Math.floor(r() * 60) * 25000;
		state.listings.push({
			listingId: String(1179600000 + n),
			mlsListingId: `ATX${String(820000 + n * 7)}`,
			status,
			agentUserId: agent?.userId ?? null,
			teamId: agent ? agent.teamId : null,
			officeId: agent ? agent.groupId : null,
			agentName: agent ? `${agent.firstName} ${agent.lastName}` : `MLS Agent ${n % 17}`,
			agentOrgId: agent ? `ORG${agent.teamId}` : `ORG${600000 + (n % 9)}`,
			agentOrgName: agent ? 'Demo Realty' : `Brokerage ${n % 9}`,
			street: `${100 + n} ${STREETS[n % STREETS.length]} ${n % 3 ? 'St' : 'Ave'}${building ? ` #${n}` : ''}`,
			city,
			state: st,
			zipCode: zip,
			county,
			area,
			price: n % 13 === 0 ? 1_250_000 + n * 1000 : price,
			beds: 1 + (n % 5),
			baths: 1 + (n % 4) * 0.5 + (n % 3),
			sqft: 700 + (n % 20) * 150,
			builtYear: 1960 + (n % 60),
			lotSqft: secondary === 'Condo' ? 0 : 4000 + (n % 10) * 500,
			propertyTypes: [secondary],
			propertyTypePrimary: primary,
			propertyTypeSecondary: secondary,
			purchaseType: rent ? 'For Rent' : 'For Sale',
			buildingName: building,
			hoaFee: secondary === 'Condo' ? 250 + (n % 5) * 50 : -1,
			garageParkingSpaces: n % 3,
			description: `Bright ${secondary.toLowerCase()} in ${area}, ${city}.`,
			pictures: [`https://photos.example.com/listing/${1179600000 + n}/1.jpg`],
			listDate,
			soldDate: status === 'Sold' ? listDate + 40 * DAY : null,
			published: agent !== undefined && status === 'Active' && n % 4 !== 0,
			openHouse: n % 6 === 0 ? 'Sat 1:00pm - 4:00pm' : null,
			...opts,
		});
	};
	for (let i = 0; i < 57; i++) make(demo, 'Active', i === 0 ? { listingId: BIG_LISTING_ID, published: true } : {});
	for (let i = 0; i < 12; i++) make(demo, 'Sold');
	for (let i = 0; i < 8; i++) make(other, 'Active');
	for (let i = 0; i < 3; i++) make(other, 'Sold');
	members.slice(0, 10).forEach((m) => {
		make(m, 'Active');
		make(m, 'Active');
	});
	for (let i = 0; i < 150; i++) make(undefined, 'Active');
	for (let i = 0; i < 40; i++) make(undefined, 'Sold');
}

// ---------------------------------------------------------------- helpers

const canManageAgents = (user: User): boolean => user.isAdmin || user.roleName === 'Owner' || user.roleName === 'Admin';

function pageKey(kind: 'a' | 's', offset: number): string {
	return Buffer.from(`${kind}:${offset}`).toString('base64url');
}

function readPageKey(q: URLSearchParams, name: string, kind: 'a' | 's'): number {
	if (!has(q, name)) return 0;
	const text = Buffer.from(q.get(name)!.trim(), 'base64url').toString('utf8');
	const m = new RegExp(`^${kind}:(\\d{1,9})$`).exec(text);
	if (!m) throw invalidParam(`'${name}' is not a page key returned by this search`);
	return Number(m[1]);
}

function v1View(l: ListingRecord) {
	return {
		listingId: l.listingId,
		mlsListingId: l.mlsListingId,
		status: l.status,
		streetAddress: l.street,
		city: l.city,
		state: l.state,
		zipCode: l.zipCode,
		price: l.price,
		beds: l.beds,
		baths: l.baths,
		sqft: l.sqft,
		propertyType: l.propertyTypeSecondary,
		purchaseType: l.purchaseType,
		buildingName: l.buildingName,
		agentUserId: l.agentUserId,
		agentName: l.agentName,
		officeId: l.officeId,
		listDate: l.listDate,
		soldDate: l.soldDate,
		pictures: l.pictures,
	};
}

function v2View(l: ListingRecord): Record<string, unknown> {
	return {
		listingId: l.listingId,
		mlsListingId: l.mlsListingId,
		listingStreetName: l.street,
		listingCity: l.city,
		listingState: l.state,
		listingZipcode: [l.zipCode],
		county: l.county,
		area: l.area,
		chimeArea: l.area,
		subDivisionName: null,
		community: null,
		chimeComplex: l.buildingName,
		price: String(l.price),
		beds: l.beds,
		baths: l.baths,
		sqft: l.sqft,
		builtYear: l.builtYear,
		totalAvailableAcres: String(l.lotSqft),
		detailsDescribe: l.description,
		listingStatus: l.status,
		purchaseType: l.purchaseType,
		propertyTypes: l.propertyTypes,
		propertyTypePrimary: l.propertyTypePrimary,
		propertyTypeSecondary: l.propertyTypeSecondary,
		pictureList: l.pictures,
		openHouseSchedules: l.openHouse,
		openHouseSchedulesStart: null,
		openHouseSchedulesEnd: null,
		agentId: l.agentUserId === null ? String(5100000 + Number(l.listingId) % 1000) : l.agentUserId.toString(),
		agentName: l.agentName,
		agentOrgId: l.agentOrgId,
		agentOrgName: l.agentOrgName,
		coAgentId: null,
		coAgentName: null,
		coAgentOrgId: null,
		coAgentOrgName: null,
		hoaFee: l.hoaFee,
		hoaFeeFrequency: l.hoaFee > 0 ? 'Monthly' : null,
		condoFee: -1,
		condoFeeFrequency: null,
		chimeMaintenanceFee: 0,
		garageParkingSpaces: l.garageParkingSpaces,
		interiorFeatures: null,
		exterior: null,
		mlsListDateL: l.listDate,
	};
}

const xmlEscape = (s: string): string =>
	s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

// ---------------------------------------------------------------- GET /v1.0/listing

function searchV1(ctx: Ctx) {
	const { query: q, store, user, caller } = ctx;
	const state = listingState(store);
	let limit = 25;
	if (has(q, 'limit')) {
		const raw = q.get('limit')!.trim();
		const n = /^-?\d+$/.test(raw) ? Number(raw) : NaN;
		if (!Number.isSafeInteger(n) || n <= 0 || n > V1_LIMIT_MAX) {
			throw new ApiError(400, 'LISTING_LIMIT_NOT_VALID', `limit must be greater than 0 and at most ${V1_LIMIT_MAX}, got '${raw}'`);
		}
		limit = n;
	}
	const listingId = (q.get('listingId') ?? '').trim();
	const soldListingId = (q.get('soldListingId') ?? '').trim();
	if (listingId && soldListingId) {
		return { body: { code: Codes.INVALID_PARAMETER, message: 'listingId and soldListingId cannot be supplied together' } };
	}
	const agentListings = boolParam(q, 'agentListings') ?? false;
	const officeListings = boolParam(q, 'officeListings') ?? false;
	const showCondition = boolParam(q, 'showCondition') ?? false;
	const mlsIds = listParam(q, 'mlsListingIds');
	const buildingName = (q.get('buildingName') ?? '').trim().toLowerCase();
	const buildingAddress = (q.get('buildingAddress') ?? '').trim().toLowerCase();
	const street = (q.get('street') ?? '').trim().toLowerCase();
	if (!agentListings && !officeListings && !listingId && !soldListingId && !mlsIds && !buildingName && !buildingAddress) {
		throw invalidParam('name what to search: agentListings, officeListings, listingId, soldListingId, mlsListingIds, buildingName or buildingAddress');
	}
	const activeFrom = readPageKey(q, 'nextPageKey', 'a');
	const soldFrom = readPageKey(q, 'soldNextPageKey', 's');

	const userId = int64Param(q, 'userId', false) ?? 0n;
	let target = user;
	if (userId !== 0n && userId !== user.userId) {
		const found = store.getUser(userId);
		if (!found || found.teamId !== user.teamId) throw userNotExist(userId.toString());
		target = found;
	}
	if (caller?.scheme === 'token') {
		throw new ApiError(403, 'NO_ACCESS_WEBSITE', 'No access to the listing data of this user: listing search is not available to personal API keys');
	}
	if (target !== user && !canManageAgents(user)) {
		throw new ApiError(403, 'NO_ACCESS_WEBSITE', `No access to the listing data of user ${target.userId}`);
	}
	let condition: Record<string, unknown> | undefined;
	if (showCondition) {
		if (state.conditionServiceDown) throw new ApiError(404, 'ALERT_CONDITION_FEGIN_FAIL', 'Listing alert condition lookup failed');
		condition = { userId: target.userId, agentListings, officeListings, listingId, soldListingId, mlsListingIds: mlsIds ?? [], street, buildingName, buildingAddress };
	}

	let pool = state.listings.filter((l) => l.teamId === null || l.teamId === user.teamId);
	if (agentListings || officeListings) {
		pool = pool.filter((l) => (agentListings && l.agentUserId === target.userId) || (officeListings && l.officeId !== null && l.officeId === target.groupId));
	}
	if (mlsIds) pool = pool.filter((l) => mlsIds.includes(l.mlsListingId));
	if (buildingName) pool = pool.filter((l) => (l.buildingName ?? '').toLowerCase().includes(buildingName));
	if (buildingAddress) pool = pool.filter((l) => l.street.toLowerCase().includes(buildingAddress));
	if (street) pool = pool.filter((l) => l.street.toLowerCase().includes(street));
	let active = pool.filter((l) => l.status === 'Active');
	let sold = pool.filter((l) => l.status === 'Sold');
	if (listingId) {
		const ids = listingId.split(',').map((s) => s.trim());
		active = active.filter((l) => ids.includes(l.listingId));
		sold = [];
	}
	if (soldListingId) {
		const ids = soldListingId.split(',').map((s) => s.trim());
		sold = sold.filter((l) => ids.includes(l.listingId));
		active = [];
	}
	const activePage = active.slice(activeFrom, activeFrom + limit);
	const soldPage = sold.slice(soldFrom, soldFrom + limit);
	return {
		body: {
			listIng: { listings: activePage.map(v1View) },
			soldListing: { listings: soldPage.map(v1View) },
			_listingMetadata: {
				collection: 'listing',
				limit,
				total: active.length + sold.length,
				activeTotal: active.length,
				soldTotal: sold.length,
				nextPageKey: activeFrom + limit < active.length ? pageKey('a', activeFrom + limit) : null,
				soldNextPageKey: soldFrom + limit < sold.length ? pageKey('s', soldFrom + limit) : null,
				...(condition ? { condition } : {}),
			},
		},
	};
}

// ---------------------------------------------------------------- POST /v2.0/listings/search

/** "min,max" with either side optional; undefined when malformed. */
function parseRange(v: unknown): [number | undefined, number | undefined] | undefined {
	if (typeof v !== 'string' && typeof v !== 'number') return undefined;
	const text = String(v).trim();
	const m = /^(-?\d+(?:\.\d+)?)?\s*(?:,\s*(-?\d+(?:\.\d+)?)?)?$/.exec(text);
	if (!m || text === '') return undefined;
	return [m[1] === undefined ? undefined : Number(m[1]), m[2] === undefined ? undefined : Number(m[2])];
}

const inRange = (value: number, [min, max]: [number | undefined, number | undefined]): boolean =>
	(min === undefined || value >= min) && (max === undefined || value <= max);

function labels(v: unknown, name: string): string[] {
	const list = Array.isArray(v) ? v : [v];
	if (list.some((x) => typeof x !== 'string')) throw invalidParam(`filter condition '${name}' takes labels (strings)`);
	return (list as string[]).map((s) => s.trim().toLowerCase());
}

function matchConditions(conditions: Record<string, unknown>, now: number): ((l: ListingRecord) => boolean) | 'none' {
	const tests: Array<(l: ListingRecord) => boolean> = [];
	for (const [key, value] of Object.entries(conditions)) {
		if (!CONDITION_KEYS.includes(key)) return 'none';
		if (value === null || value === undefined || value === '') continue;
		switch (key) {
			case 'location': {
				const loc = asObject(value, "filter condition 'location'");
				for (const [lk, lv] of Object.entries(loc)) {
					if (lk !== 'city') return 'none';
					const cities = labels(lv, 'location.city');
					tests.push((l) => cities.includes(l.city.toLowerCase()));
				}
				break;
			}
			case 'propertyType': {
				const wanted = labels(value, key);
				tests.push((l) => l.propertyTypes.some((t) => wanted.includes(t.toLowerCase())) || wanted.includes(l.propertyTypePrimary.toLowerCase()));
				break;
			}
			case 'purchaseType': {
				const wanted = labels(value, key);
				tests.push((l) => wanted.includes(l.purchaseType.toLowerCase()));
				break;
			}
			default: {
				const range = parseRange(value);
				if (!range) throw invalidParam(`filter condition '${key}' must be a range "min,max" (either side may be empty), got ${JSON.stringify(value)}`);
				if (key === 'price') tests.push((l) => inRange(l.price, range));
				if (key === 'beds') tests.push((l) => inRange(l.beds, range));
				if (key === 'baths') tests.push((l) => inRange(l.baths, range));
				if (key === 'sqFt') tests.push((l) => inRange(l.sqft, range));
				if (key === 'daysOnSite') tests.push((l) => inRange(Math.floor((now - l.listDate) / DAY), range));
			}
		}
	}
	return (l) => tests.every((t) => t(l));
}

const SORTERS: Record<string, (a: ListingRecord, b: ListingRecord) => number> = {
	MLS_LIST_DATE_L_DESC: (a, b) => b.listDate - a.listDate,
	PRICE_DESC: (a, b) => b.price - a.price,
	PRICE_ASC: (a, b) => a.price - b.price,
	BEDROOMS_DESC: (a, b) => b.beds - a.beds,
	BATHS_DESC: (a, b) => b.baths - a.baths,
	BUILT_YEAR_DESC: (a, b) => b.builtYear - a.builtYear,
	SQFT_DESC: (a, b) => b.sqft - a.sqft,
};

function intOf(o: Record<string, unknown>, name: string, def: number): number {
	const v = toInt64(o[name]);
	if (v === undefined) return def;
	if (v === null || v > 2_147_483_647n || v < -2_147_483_648n) throw invalidParam(`'${name}' must be an integer`);
	return Number(v);
}

function searchV2(ctx: Ctx) {
	const { store, user } = ctx;
	const o = asObject(ctx.body);
	const pageNum = intOf(o, 'pageNum', 1);
	if (pageNum < 1) throw invalidParam(`'pageNum' starts from 1, got ${pageNum}`);
	const pageSize = intOf(o, 'pageSize', 25);
	if (pageSize < 1 || pageSize > V2_PAGE_SIZE_MAX) {
		throw new ApiError(400, 'LISTING_LIMIT_NOT_VALID', `pageSize must be between 1 and ${V2_PAGE_SIZE_MAX}, got ${pageSize}`);
	}
	const scope = o.searchScope ?? 'all';
	if (scope !== 'my' && scope !== 'office' && scope !== 'all') throw invalidParam(`'searchScope' must be my, office or all, got ${JSON.stringify(scope)}`);
	const sortFields = o.sortFields ?? [];
	if (!Array.isArray(sortFields) || sortFields.some((s) => typeof s !== 'string' || !SORT_FIELDS.includes(s))) {
		throw invalidParam(`'sortFields' must be values of ${SORT_FIELDS.join(', ')}`);
	}
	const returnFields = o.returnFields ?? [];
	if (!Array.isArray(returnFields) || returnFields.some((s) => typeof s !== 'string')) throw invalidParam("'returnFields' must be an array of strings");
	const sold = o.soldFlag === true || o.soldFlag === 'true';
	const conditions = o.filterConditions === undefined || o.filterConditions === null ? {} : asObject(o.filterConditions, "'filterConditions'");

	const empty = () => ({
		body: { listing: [], metadata: { collection: 'listing', pageSize, pageNum, totalCount: 0, totalPage: 0, hasMore: false } },
	});
	// The live API ignores what it does not know by matching nothing (api-notes.md).
	if (Object.keys(o).some((k) => !QUERY_KEYS.includes(k))) return empty();
	const test = matchConditions(conditions, ctx.now);
	if (test === 'none') return empty();

	let pool = listingState(store).listings.filter((l) => (l.teamId === null || l.teamId === user.teamId) && l.status === (sold ? 'Sold' : 'Active'));
	if (scope === 'my') pool = pool.filter((l) => l.agentUserId === user.userId);
	if (scope === 'office') pool = pool.filter((l) => l.teamId === user.teamId && l.officeId === user.groupId);
	pool = pool.filter(test);
	const sorter = (sortFields as string[]).map((s) => SORTERS[s]).find(Boolean);
	if (sorter) pool = [...pool].sort(sorter);
	const from = (pageNum - 1) * pageSize;
	const page = pool.slice(from, from + pageSize).map((l) => {
		const full = v2View(l);
		if (returnFields.length === 0) return full;
		const out: Record<string, unknown> = { listingId: full.listingId };
		for (const f of returnFields as string[]) if (f in full) out[f] = full[f];
		return out;
	});
	const totalPage = Math.ceil(pool.length / pageSize);
	return {
		body: {
			listing: page,
			metadata: { collection: 'listing', pageSize, pageNum, totalCount: pool.length, totalPage, hasMore: pageNum < totalPage },
		},
	};
}

// ---------------------------------------------------------------- GET /v1.0/getPublishedListings

function publishedFeed(ctx: Ctx) {
	const accept = String(ctx.headers.accept ?? '').toLowerCase();
	if (!accept.includes('application/xml') && !accept.includes('text/xml')) {
		return { status: 406, body: { code: 'NOT_ACCEPTABLE', message: 'This endpoint produces application/xml: send Accept: application/xml' } };
	}
	if (!has(ctx.query, 'type')) throw missingParam('type');
	const type = ctx.query.get('type')!.trim();
	if (!(FEED_TYPES as readonly string[]).includes(type)) throw invalidParam(`'type' must be one of ${FEED_TYPES.join(', ')}, got '${type}'`);
	const listings = listingState(ctx.store).listings.filter(
		(l) =>
			l.teamId === ctx.user.teamId &&
			l.published &&
			l.status === 'Active' &&
			(type === 'AllOnMarket' || (type === 'LuxVT' && l.price >= 1_000_000) || (type === 'AptCom' && l.purchaseType === 'For Rent')),
	);
	const tag = (name: string, value: string | number) => `<${name}>${xmlEscape(String(value))}</${name}>`;
	const items = listings.map(
		(l) =>
			`<listing>${tag('listingId', l.listingId)}${tag('mlsListingId', l.mlsListingId)}${tag('status', l.status)}${tag('address', l.street)}${tag('city', l.city)}${tag('state', l.state)}${tag('zipCode', l.zipCode)}${tag('price', l.price)}${tag('bedrooms', l.beds)}${tag('bathrooms', l.baths)}${tag('squareFeet', l.sqft)}${tag('propertyType', l.propertyTypeSecondary)}${tag('purchaseType', l.purchaseType)}${tag('agentName', l.agentName)}<photos>${l.pictures.map((p) => tag('photo', p)).join('')}</photos></listing>`,
	);
	const xml = `<?xml version="1.0" encoding="UTF-8"?><listings type="${type}" count="${listings.length}">${items.join('')}</listings>`;
	return { raw: xml, headers: { 'Content-Type': 'application/xml;charset=UTF-8' } };
}

const routes: Route[] = [
	{ method: 'GET', pattern: '/v1.0/listing', handler: searchV1 },
	{ method: 'GET', pattern: '/v1.0/getPublishedListings', handler: publishedFeed },
	{ method: 'POST', pattern: '/v2.0/listings/search', body: 'json', handler: searchV2 },
];

/** Listing endpoints. */
export const listingModule: SandboxModule = { name: 'listing', routes, seed };
