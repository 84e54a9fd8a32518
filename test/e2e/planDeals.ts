/**
 * Flows of the end-to-end plan (plan.ts) about deals: listings, transactions and vendors.
 */
import { SEED_IDS } from '../../sandbox';
import { TX_SEED } from '../../sandbox/resources/transaction';
import { type Flow, allHave, byId, isId, ref } from './planSteps';

const BIG = SEED_IDS.bigLeadId;

export function listingFlow(): Flow {
	return {
		title: 'listing',
		steps: [
			{ name: 'Search Listings', resource: 'listing', operation: 'search', params: { returnAll: false, limit: 30 }, count: 30, check: (items) => allHave(items, 'listingId') },
			{ name: 'Active Listings', resource: 'listing', operation: 'getActive', oauth: true, params: { returnAll: false, limit: 20 }, count: [1, 20] },
			{
				name: 'Sold Listings',
				resource: 'listing',
				operation: 'getSold',
				oauth: true,
				params: { returnAll: true, filters: { userId: SEED_IDS.otherAgentUserId, officeListings: true } },
				count: [1, 10000],
			},
			{
				name: 'Published Feed',
				resource: 'listing',
				operation: 'getPublishedFeed',
				params: { type: 'AllOnMarket' },
				count: 1,
				check: ([it]) => expect(String(it.xml)).toMatch(/^<\?xml|</),
			},
		],
	};
}

export function transactionFlow(): Flow {
	return {
		title: 'transaction',
		steps: [
			{
				name: 'Create Transaction',
				resource: 'transaction',
				operation: 'create',
				params: {
					leadId: byId(BIG),
					transactionName: '500 Congress Ave',
					additionalFields: { transactionType: 'Listing', transactionStatus: 'Active Listing', homePrice: 650000, expectedCloseDate: '2026-03-01T00:00:00Z' },
				},
				count: 1,
				check: ([it]) => {
					isId(it.transactionId);
					expect(it).toMatchObject({ transactionName: '500 Congress Ave', homePrice: 650000 });
				},
			},
			{
				name: 'Get Transaction',
				resource: 'transaction',
				operation: 'get',
				params: { leadId: byId(BIG), transactionId: byId(ref('Create Transaction', 'transactionId')) },
				count: 1,
			},
			{
				name: 'Update Transaction',
				resource: 'transaction',
				operation: 'update',
				params: { leadId: byId(BIG), transactionId: byId(ref('Create Transaction', 'transactionId')), updateFields: { homePrice: 660000 } },
				count: 1,
			},
			{ name: 'Transactions Of Lead', resource: 'transaction', operation: 'getAllForLead', params: { leadId: byId(BIG) }, count: [3, 100] },
			{ name: 'Get Many Transactions', resource: 'transaction', operation: 'getAll', params: { transactionType: 'Purchase', returnAll: false, limit: 30 }, count: [1, 30] },
			{
				name: 'Property Address',
				resource: 'transaction',
				operation: 'getPropertyAddress',
				params: { leadId: byId(BIG), transactionId: byId(TX_SEED.purchaseId) },
				count: 1,
			},
			{
				name: 'Update Property Address',
				resource: 'transaction',
				operation: 'updatePropertyAddress',
				params: { leadId: byId(BIG), transactionId: byId(TX_SEED.listingId), addressFields: { streetAddress: '77 Lamar Blvd', city: 'Austin', zipCode: '78703' } },
				count: 1,
			},
			{ name: 'Transaction Custom Fields', resource: 'transaction', operation: 'getCustomFields', count: [1, 1000] },
			{ name: 'Transaction Pipelines', resource: 'transaction', operation: 'getPipelines', count: [1, 1000] },
			{
				name: 'Sync Transaction From Brokermint',
				resource: 'transaction',
				operation: 'syncFromBrokermint',
				params: { transactionId: byId(TX_SEED.purchaseId), additionalFields: { price: 801000 } },
				count: 1,
				check: ([it]) => expect(it).toEqual({ code: 0, message: 'success' }),
			},
		],
	};
}

export function vendorFlow(): Flow {
	return {
		title: 'vendor',
		steps: [{ name: 'Vendors', resource: 'vendor', operation: 'getAll', count: [1, 1000] }],
	};
}
