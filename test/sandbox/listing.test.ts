import { DEMO_API_KEY, SEED_IDS } from '../../sandbox';
import { BIG_LISTING_ID, listingState } from '../../sandbox/resources/listing';
import { client, useSandbox } from './helpers';

const sb = useSandbox();

const oauth = (userId: string = SEED_IDS.demoUserId) => client(sb.url, { bearer: sb.issueToken({ userId }) });
const v1 = (params: Record<string, unknown>, userId?: string) => oauth(userId).get('/v1.0/listing', { params });
const v2 = (body: unknown) => client(sb.url, { token: DEMO_API_KEY }).post('/v2.0/listings/search', { body });
const demoCount = (status: 'Active' | 'Sold') => listingState(sb.store).listings.filter((l) => l.agentUserId === BigInt(SEED_IDS.demoUserId) && l.status === status).length;

describe('GET /v1.0/listing', () => {
	it('refuses personal API keys with 403 NO_ACCESS_WEBSITE', async () => {
		const r = await client(sb.url, { token: DEMO_API_KEY }).get('/v1.0/listing', { params: { agentListings: true } });
		expect(r.status).toBe(403);
		expect(r.body.code).toBe('NO_ACCESS_WEBSITE');
	});

	it('returns active and sold listings with _listingMetadata, limit 25 by default', async () => {
		const r = await v1({ agentListings: true });
		expect(r.status).toBe(200);
		expect(r.body.listIng.listings).toHaveLength(25);
		expect(r.body.soldListing.listings).toHaveLength(demoCount('Sold'));
		expect(r.body._listingMetadata).toMatchObject({
			collection: 'listing',
			limit: 25,
			activeTotal: demoCount('Active'),
			soldTotal: demoCount('Sold'),
			total: demoCount('Active') + demoCount('Sold'),
			soldNextPageKey: null,
		});
		expect(typeof r.body._listingMetadata.nextPageKey).toBe('string');
		expect(r.body.listIng.listings[0].listingId).toBe(BIG_LISTING_ID);
	});

	it('follows nextPageKey to the end, where it is null', async () => {
		const seen: string[] = [];
		let key: string | null = '';
		for (let i = 0; i < 10 && key !== null; i++) {
			const r = await v1({ agentListings: true, limit: 20, ...(key ? { nextPageKey: key } : {}) });
			seen.push(...r.body.listIng.listings.map((l: any) => l.listingId));
			key = r.body._listingMetadata.nextPageKey;
		}
		expect(key).toBeNull();
		expect(seen).toHaveLength(demoCount('Active'));
		expect(new Set(seen).size).toBe(seen.length);
	});

	it('answers LISTING_LIMIT_NOT_VALID for a limit outside (0, 1000]', async () => {
		for (const limit of [0, -1, 1001, 'x']) {
			const r = await v1({ agentListings: true, limit });
			expect(r.status).toBe(400);
			expect(r.body.code).toBe('LISTING_LIMIT_NOT_VALID');
		}
		expect((await v1({ agentListings: true, limit: 1000 })).status).toBe(200);
	});

	it('answers an error envelope on HTTP 200 for listingId with soldListingId', async () => {
		const r = await v1({ listingId: '1', soldListingId: '2' });
		expect(r.status).toBe(200);
		expect(r.body).toEqual({ code: 20012, message: 'listingId and soldListingId cannot be supplied together' });
	});

	it('needs a search target (400 20012)', async () => {
		const r = await v1({ street: 'Oak' });
		expect(r.status).toBe(400);
		expect(r.body.code).toBe(20012);
	});

	it('finds by listingId, soldListingId, MLS IDs, building and street', async () => {
		const all = listingState(sb.store).listings;
		const sold = all.find((l) => l.status === 'Sold' && l.teamId !== null)!;
		expect((await v1({ listingId: BIG_LISTING_ID })).body.listIng.listings.map((l: any) => l.listingId)).toEqual([BIG_LISTING_ID]);
		const bySold = (await v1({ soldListingId: sold.listingId })).body;
		expect(bySold.soldListing.listings.map((l: any) => l.listingId)).toEqual([sold.listingId]);
		expect(bySold.listIng.listings).toEqual([]);
		const mls = all.filter((l) => l.teamId === null).slice(0, 3).map((l) => l.mlsListingId);
		const byMls = (await v1({ mlsListingIds: mls.join(',') })).body;
		expect([...byMls.listIng.listings, ...byMls.soldListing.listings].map((l: any) => l.mlsListingId).sort()).toEqual([...mls].sort());
		const building = all.find((l) => l.buildingName)!.buildingName!;
		const inBuilding = (await v1({ buildingName: building, limit: 1000 })).body.listIng.listings;
		expect(inBuilding.length).toBeGreaterThan(0);
		expect(inBuilding.every((l: any) => l.buildingName === building)).toBe(true);
		const oak = (await v1({ agentListings: true, street: 'oak', limit: 1000 })).body.listIng.listings;
		expect(oak.every((l: any) => /oak/i.test(l.streetAddress))).toBe(true);
	});

	it('searches another agent\'s and their office\'s listings for an owner; agents get NO_ACCESS_WEBSITE', async () => {
		const other = sb.store.getUser(SEED_IDS.otherAgentUserId)!;
		const r = await v1({ userId: SEED_IDS.otherAgentUserId, officeListings: true, limit: 1000 });
		expect(r.body.listIng.listings.length).toBeGreaterThan(0);
		expect(r.body.listIng.listings.every((l: any) => String(l.officeId) === String(other.groupId))).toBe(true);
		const denied = await v1({ userId: SEED_IDS.demoUserId, agentListings: true }, SEED_IDS.otherAgentUserId);
		expect(denied.status).toBe(403);
		expect(denied.body.code).toBe('NO_ACCESS_WEBSITE');
		expect((await v1({ userId: SEED_IDS.otherAgentUserId, agentListings: true }, SEED_IDS.otherAgentUserId)).status).toBe(200);
	});

	it('answers 404 USER_NOT_EXIST for a user outside the team', async () => {
		const r = await v1({ userId: 42, agentListings: true });
		expect(r.status).toBe(404);
		expect(r.body.code).toBe('USER_NOT_EXIST');
	});

	it('adds the alert condition with showCondition; a failed lookup is 404 ALERT_CONDITION_FEGIN_FAIL', async () => {
		const r = await v1({ agentListings: true, showCondition: true });
		expect(r.body._listingMetadata.condition).toMatchObject({ agentListings: true });
		listingState(sb.store).conditionServiceDown = true;
		const down = await v1({ agentListings: true, showCondition: true });
		expect(down.status).toBe(404);
		expect(down.body.code).toBe('ALERT_CONDITION_FEGIN_FAIL');
		expect((await v1({ agentListings: true })).status).toBe(200);
	});

	it('refuses a page key it did not issue (20012)', async () => {
		expect((await v1({ agentListings: true, nextPageKey: 'bogus' })).body.code).toBe(20012);
		expect((await v1({ agentListings: true, soldNextPageKey: Buffer.from('a:5').toString('base64url') })).body.code).toBe(20012);
	});
});

describe('GET /v1.0/getPublishedListings', () => {
	const feed = (type: string | undefined, accept = 'application/xml') =>
		client(sb.url, { token: DEMO_API_KEY }).get('/v1.0/getPublishedListings', { params: type === undefined ? {} : { type }, headers: { Accept: accept } });

	it('serves application/xml', async () => {
		const r = await feed('AllOnMarket');
		expect(r.status).toBe(200);
		expect(r.headers['content-type']).toMatch(/^application\/xml/);
		expect(r.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><listings type="AllOnMarket" count="\d+">/);
		expect(r.text).toContain(`<listingId>${BIG_LISTING_ID}</listingId>`);
	});

	it('answers 406 without Accept: application/xml', async () => {
		expect((await feed('AllOnMarket', 'application/json')).status).toBe(406);
		expect((await feed('AllOnMarket', '*/*')).status).toBe(406);
	});

	it('filters by feed type', async () => {
		const all = (await feed('AllOnMarket')).text.match(/<listing>/g)!.length;
		const lux = (await feed('LuxVT')).text;
		const apt = (await feed('AptCom')).text;
		expect([...lux.matchAll(/<price>(\d+)<\/price>/g)].every((m) => Number(m[1]) >= 1_000_000)).toBe(true);
		expect([...apt.matchAll(/<purchaseType>([^<]+)<\/purchaseType>/g)].every((m) => m[1] === 'For Rent')).toBe(true);
		expect(lux.match(/<listing>/g)!.length).toBeLessThan(all);
	});

	it('needs a known type: MISSING_PARAMETER, then 20012', async () => {
		const missing = await feed(undefined);
		expect(missing.status).toBe(400);
		expect(missing.body.code).toBe('MISSING_PARAMETER');
		expect((await feed('Zillow')).body.code).toBe(20012);
	});
});

describe('POST /v2.0/listings/search', () => {
	const activeAll = () => listingState(sb.store).listings.filter((l) => l.status === 'Active' && (l.teamId === null || l.teamId === BigInt(SEED_IDS.teamId))).length;

	it('defaults to page 1 of 25 active listings of every scope with metadata', async () => {
		const r = await v2({});
		expect(r.status).toBe(200);
		expect(r.body.listing).toHaveLength(25);
		expect(r.body.metadata).toEqual({ collection: 'listing', pageSize: 25, pageNum: 1, totalCount: activeAll(), totalPage: Math.ceil(activeAll() / 25), hasMore: true });
		expect(r.body.listing[0]).toHaveProperty('listingStreetName');
		expect(typeof r.body.listing[0].price).toBe('string');
	});

	it('says hasMore false on the last page', async () => {
		const last = Math.ceil(activeAll() / 100);
		const r = await v2({ pageNum: last, pageSize: 100 });
		expect(r.body.metadata.hasMore).toBe(false);
		expect(r.body.listing).toHaveLength(activeAll() - (last - 1) * 100);
	});

	it('answers LISTING_LIMIT_NOT_VALID for pageSize outside 1..100 and 20012 for pageNum below 1', async () => {
		for (const pageSize of [0, 101]) {
			const r = await v2({ pageSize });
			expect(r.status).toBe(400);
			expect(r.body.code).toBe('LISTING_LIMIT_NOT_VALID');
		}
		expect((await v2({ pageNum: 0 })).body.code).toBe(20012);
	});

	it('answers 200 with zero results for a body key or condition it does not know', async () => {
		for (const body of [{ pageSize: 10, city: 'Austin' }, { filterConditions: { bedrooms: '2,' } }, { filterConditions: { location: { town: ['Austin'] } } }]) {
			const r = await v2(body);
			expect(r.status).toBe(200);
			expect(r.body.listing).toEqual([]);
			expect(r.body.metadata).toMatchObject({ totalCount: 0, hasMore: false });
		}
	});

	it('applies scope, sold flag, conditions, sort and return fields', async () => {
		const mineSold = await v2({ searchScope: 'my', soldFlag: true, pageSize: 100 });
		expect(mineSold.body.metadata.totalCount).toBe(demoCount('Sold'));
		const office = await v2({ searchScope: 'office', pageSize: 100 });
		expect(office.body.listing.every((l: any) => l.agentOrgName === 'Demo Realty')).toBe(true);
		const r = await v2({
			filterConditions: { location: { city: ['Austin'] }, price: '300000,900000', beds: '2,', propertyType: ['Condo'], purchaseType: ['For Sale'] },
			sortFields: ['PRICE_DESC'],
			returnFields: ['price', 'beds', 'listingCity', 'propertyTypes', 'nonsense'],
			pageSize: 100,
		});
		expect(r.body.listing.length).toBeGreaterThan(0);
		const prices = r.body.listing.map((l: any) => Number(l.price));
		expect(prices).toEqual([...prices].sort((a, b) => b - a));
		for (const l of r.body.listing) {
			expect(Object.keys(l).sort()).toEqual(['beds', 'listingCity', 'listingId', 'price', 'propertyTypes']);
			expect(l).toMatchObject({ listingCity: 'Austin', propertyTypes: ['Condo'] });
			expect(l.beds).toBeGreaterThanOrEqual(2);
		}
	});

	it('refuses a malformed range, an unknown sort and a bad scope with 20012', async () => {
		for (const body of [{ filterConditions: { price: 'cheap' } }, { sortFields: ['CHEAPEST'] }, { searchScope: 'team' }]) {
			const r = await v2(body);
			expect(r.status).toBe(400);
			expect(r.body.code).toBe(20012);
		}
	});
});
