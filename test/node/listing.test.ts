import { READING_VALUES, SEED_IDS, parseJson } from '../../sandbox';
import { BIG_LISTING_ID, type ListingRecord, QUERY_KEYS, listingState } from '../../sandbox/resources/listing';
import { oauthCredential, run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const listings = (): ListingRecord[] => listingState(sandbox().store).listings;
const teamOrMls = (l: ListingRecord) => l.teamId === null || l.teamId === BigInt(SEED_IDS.teamId);
const lastBody = () => parseJson(sandbox().requests[sandbox().requests.length - 1].body) as Record<string, any>;
const oauth = (userId: string = SEED_IDS.demoUserId) => ({ credential: oauthCredential(sandbox(), sandbox().issueToken({ userId })) });

describe('Listing: Search', () => {
	const search = (extra: Record<string, unknown> = {}) => run(sandbox(), { resource: 'listing', operation: 'search', ...extra });

	it('Return All pages 100 at a time from page 1 in the body: ceil(N/100) requests', async () => {
		const n = listings().filter((l) => teamOrMls(l) && l.status === 'Active').length;
		const items = await search({ returnAll: true, simplify: false });
		expect(items).toHaveLength(n);
		expect(sandbox().count('POST', '/v2.0/listings/search')).toBe(Math.ceil(n / 100));
		expect(sandbox().requests.map((r) => parseJson(r.body))).toEqual(
			Array.from({ length: Math.ceil(n / 100) }, (_, k) => ({ pageNum: k + 1, pageSize: 100 })),
		);
		expect(new Set(items.map((i) => i.json.listingId)).size).toBe(n);
	});

	it('Limit asks for one page of that size and Simplify keeps the main fields', async () => {
		const items = await search({ limit: 30 });
		expect(items).toHaveLength(30);
		expect(lastBody()).toEqual({ pageNum: 1, pageSize: 30 });
		expect(Object.keys(items[0].json)).toEqual(expect.arrayContaining(['listingId', 'listingStreetName', 'price', 'beds', 'agentName']));
		expect(items[0].json).not.toHaveProperty('detailsDescribe');
	});

	it('sends the friendly filters as Lofty condition values, and only ListingQueryRequest keys', async () => {
		const items = await search({
			returnAll: true,
			filters: {
				searchScope: 'all',
				cities: ['Austin'],
				priceMin: 300000,
				priceMax: 700000,
				bedsMin: 2,
				bathsMax: 3,
				daysOnSite: 400,
				propertyType: ['Single Family Home', 'Condo'],
				purchaseType: 'For Sale',
				sortFields: ['PRICE_ASC'],
			},
		});
		const body = lastBody();
		expect(Object.keys(body).every((k) => QUERY_KEYS.includes(k))).toBe(true);
		expect(body.filterConditions).toEqual({
			location: { city: ['Austin'] },
			price: '300000,700000',
			beds: '2,',
			baths: ',3',
			daysOnSite: ',400',
			propertyType: ['Single Family Home', 'Condo'],
			purchaseType: ['For Sale'],
		});
		expect(body.sortFields).toEqual(['PRICE_ASC']);
		expect(items.length).toBeGreaterThan(0);
		const prices = items.map((i) => Number(i.json.price));
		expect(prices).toEqual([...prices].sort((a, b) => a - b));
		for (const { json } of items) {
			expect(json.listingCity).toBe('Austin');
			expect(Number(json.price)).toBeGreaterThanOrEqual(300000);
			expect(Number(json.price)).toBeLessThanOrEqual(700000);
			expect(json.beds).toBeGreaterThanOrEqual(2);
			expect(['Single Family Home', 'Condo']).toContain(json.propertyTypeSecondary);
		}
	});

	it('puts raw Filter Conditions under filterConditions, the friendly fields winning', async () => {
		await search({ filters: { filterConditions: '{"price": "1,2", "sqFt": "1000,"}', priceMax: 900000 } });
		expect(lastBody().filterConditions).toEqual({ price: ',900000', sqFt: '1000,' });
	});

	it('searches sold listings of the agent with chosen return fields', async () => {
		const mine = listings().filter((l) => l.agentUserId === BigInt(SEED_IDS.demoUserId) && l.status === 'Sold').length;
		const items = await search({ returnAll: true, simplify: false, filters: { searchScope: 'my', soldFlag: true, returnFields: ['listingStatus', 'price'] } });
		expect(items).toHaveLength(mine);
		expect(items[0].json).toEqual({ listingId: expect.any(String), listingStatus: 'Sold', price: expect.any(String) });
		expect(lastBody()).toMatchObject({ searchScope: 'my', soldFlag: true, returnFields: ['listingStatus', 'price'] });
	});

	it('refuses a minimum above the maximum before sending', async () => {
		const error = await runError(sandbox(), { resource: 'listing', operation: 'search', filters: { priceMin: 500000, priceMax: 100000 } });
		expect(error.message).toBe('Invalid value for "Price Min": must not be more than Price Max');
		expect(sandbox().requests).toHaveLength(0);
	});

	it('refuses Filter Conditions that are not a JSON object before sending', async () => {
		const error = await runError(sandbox(), { resource: 'listing', operation: 'search', filters: { filterConditions: '["price"]' } });
		expect(error.message).toBe('Invalid value for "Filter Conditions (JSON)": must be a JSON object');
		expect(sandbox().requests).toHaveLength(0);
	});

	it('explains a malformed condition value Lofty rejects (20012)', async () => {
		const error = await runError(sandbox(), { resource: 'listing', operation: 'search', filters: { filterConditions: '{"price": "cheap"}' } });
		expect(error.message).toMatch(/HTTP 400 20012/);
		expect(error.description).toMatch(/ranges are numbers/);
	});
});

// docs/api-readings.md, row 4: records in listIng.listings (the sandbox's spec reading) or, the OpenAPI's listIng
// being an untyped object, in another list inside it: every test of these operations runs under both.
describe.each(READING_VALUES.listingShape)('Listing: Get Active Listings / Get Sold Listings (listingShape %s)', (reading) => {
	beforeEach(() => sandbox().readings.set({ listingShape: reading }));
	const demoActive = () => listings().filter((l) => l.agentUserId === BigInt(SEED_IDS.demoUserId) && l.status === 'Active');

	it('is refused for a personal API key with NO_ACCESS_WEBSITE, explaining to use OAuth2', async () => {
		const error = await runError(sandbox(), { resource: 'listing', operation: 'getActive' });
		expect(error.message).toMatch(/HTTP 403 NO_ACCESS_WEBSITE/);
		expect(error.description).toMatch(/personal API key: use the "Lofty OAuth2 API" credential/);
	});

	it('searches the user\'s own active listings by default (agentListings=true)', async () => {
		const items = await run(sandbox(), { resource: 'listing', operation: 'getActive', returnAll: true }, oauth());
		expect(items).toHaveLength(demoActive().length);
		expect(items.map((i) => i.json.listingId)).toContain(BIG_LISTING_ID);
		expect(sandbox().requests[0].query).toEqual({ agentListings: 'true', limit: '1000' });
	});

	it('Return All follows nextPageKey 1000 at a time until Lofty gives none', async () => {
		const extra = Array.from({ length: 1500 }, (_, k) => ({ ...demoActive()[1], listingId: String(2200000000 + k) }));
		listings().push(...extra);
		const n = demoActive().length;
		const items = await run(sandbox(), { resource: 'listing', operation: 'getActive', returnAll: true }, oauth());
		expect(items).toHaveLength(n);
		expect(sandbox().count('GET', '/v1.0/listing')).toBe(Math.ceil(n / 1000));
		expect(sandbox().requests[0].query.nextPageKey).toBeUndefined();
		expect(sandbox().requests[1].query.nextPageKey).toMatch(/\S/);
		expect(new Set(items.map((i) => i.json.listingId)).size).toBe(n);
	});

	it('Limit asks for that many and stops', async () => {
		const items = await run(sandbox(), { resource: 'listing', operation: 'getActive', limit: 20 }, oauth());
		expect(items).toHaveLength(20);
		expect(sandbox().requests.map((r) => r.query.limit)).toEqual(['20']);
	});

	it('gets sold listings of another agent\'s office with soldNextPageKey paging', async () => {
		const other = sandbox().store.getUser(SEED_IDS.otherAgentUserId)!;
		const n = listings().filter((l) => l.status === 'Sold' && l.officeId === other.groupId).length;
		const items = await run(
			sandbox(),
			{ resource: 'listing', operation: 'getSold', returnAll: true, filters: { userId: SEED_IDS.otherAgentUserId, officeListings: true } },
			oauth(),
		);
		expect(n).toBeGreaterThan(0);
		expect(items).toHaveLength(n);
		expect(items.every((i) => i.json.status === 'Sold')).toBe(true);
		expect(sandbox().requests[0].query).toEqual({ userId: SEED_IDS.otherAgentUserId, officeListings: 'true', limit: '1000' });
	});

	it('finds listings by MLS number, sent comma-joined', async () => {
		const wanted = demoActive().slice(0, 2).map((l) => l.mlsListingId);
		const items = await run(sandbox(), { resource: 'listing', operation: 'getActive', returnAll: true, filters: { mlsListingIds: wanted } }, oauth());
		expect(items.map((i) => i.json.mlsListingId).sort()).toEqual([...wanted].sort());
		expect(sandbox().requests[0].query.mlsListingIds).toBe(wanted.join(','));
		expect(sandbox().requests[0].query.agentListings).toBeUndefined();
	});

	it('explains NO_ACCESS_WEBSITE when an agent asks for another agent\'s listings', async () => {
		const error = await runError(sandbox(), { resource: 'listing', operation: 'getActive', filters: { userId: SEED_IDS.demoUserId } }, oauth(SEED_IDS.otherAgentUserId));
		expect(error.message).toMatch(/HTTP 403 NO_ACCESS_WEBSITE/);
		expect(error.description).toMatch(/Manage Team Agent permission/);
	});

	it('explains USER_NOT_EXIST for an agent outside the team', async () => {
		const error = await runError(sandbox(), { resource: 'listing', operation: 'getActive', filters: { userId: '123' } }, oauth());
		expect(error.message).toMatch(/HTTP 404 USER_NOT_EXIST/);
		expect(error.description).toMatch(/not a member of this Lofty team/);
	});
});

describe('Listing: Get Published Feed', () => {
	it('returns the XML feed in the field "xml" (asking for application/xml)', async () => {
		const [item] = await run(sandbox(), { resource: 'listing', operation: 'getPublishedFeed', type: 'AllOnMarket' });
		const xml = item.json.xml as string;
		expect(xml.startsWith('<?xml')).toBe(true);
		const published = listings().filter((l) => l.published && l.status === 'Active' && l.teamId === BigInt(SEED_IDS.teamId)).length;
		expect(xml.match(/<listing>/g)).toHaveLength(published);
		expect(sandbox().requests[0].query).toEqual({ type: 'AllOnMarket' });
	});

	it('LuxVT holds only listings of a million or more', async () => {
		const [item] = await run(sandbox(), { resource: 'listing', operation: 'getPublishedFeed', type: 'LuxVT' });
		const prices = [...(item.json.xml as string).matchAll(/<price>(\d+)<\/price>/g)].map((m) => Number(m[1]));
		expect(prices.length).toBeGreaterThan(0);
		expect(prices.every((p) => p >= 1_000_000)).toBe(true);
	});

	it('refuses a feed type Lofty does not know before sending', async () => {
		const error = await runError(sandbox(), { resource: 'listing', operation: 'getPublishedFeed', type: 'Zillow' });
		expect(error.message).toMatch(/^Invalid value for "Feed Type": must be one of AllOnMarket, AptCom, LuxVT/);
		expect(sandbox().requests).toHaveLength(0);
	});
});
