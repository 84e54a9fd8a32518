/** Listing demo data: active and sold listings of the demo team (BIG_LISTING_ID above 2^53), deterministic. */
import { SEED_IDS } from '../../core/seed';
import type { Store } from '../../core/store';
import type { User } from '../../core/types';
import { BIG_LISTING_ID, type ListingRecord, listingState } from './state';

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

export function seedListings(store: Store): void {
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
