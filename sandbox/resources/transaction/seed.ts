/** Transaction demo data: pipelines, custom fields, notable transactions (TX_SEED), bulk ones, Brokermint links. */
import { SEED_IDS } from '../../core/seed';
import type { Store } from '../../core/store';
import { type Transaction, transactionState } from './state';

/** Notable seeded records (exact digits; several above 2^53). */
export const TX_SEED = {
	/** Purchase, Under Contract, on SEED_IDS.bigLeadId; has a property address; linked to Brokermint */
	purchaseId: '9007199255800001',
	/** Listing on SEED_IDS.bigLeadId; no property address; not linked to Brokermint */
	listingId: '9007199255800003',
	/** Lease on SEED_IDS.bigLeadId, small ID */
	leaseId: '10001',
	/** deleted transaction of SEED_IDS.bigLeadId */
	deletedId: '9007199255800007',
	/** on the other agent's lead SEED_IDS.notSharedLeadId */
	notSharedId: '9007199255800009',
	/** on SEED_IDS.sharedLeadId (shared with the demo user) */
	sharedId: '9007199255800011',
	/** on the trashed lead SEED_IDS.trashedLeadId */
	trashedLeadTxId: '9007199255800013',
	/** bulk transactions on demo leads */
	bulkCount: 225,
	/** Brokermint contact linked to SEED_IDS.bigLeadId2 */
	brokermintContactId: 'BM-C-1001',
	/** custom field above 2^53 */
	bigCustomFieldId: '9007199254741234',
} as const;

const T0 = Date.UTC(2024, 0, 1);
const DAY = 86_400_000;
const STREETS = ['Barton Springs Rd', 'Lamar Blvd', 'Congress Ave', 'Cesar Chavez St', 'Riverside Dr', 'Guadalupe St', 'Burnet Rd', 'Mopac Expy'];

const PIPELINES: Array<[string, string[]]> = [
	['Purchase', ['Pre-contract', 'Under Contract', 'Pending', 'Closed', 'Cancelled']],
	['Listing', ['Pre-listing', 'Active Listing', 'Under Contract', 'Sold', 'Withdrawn']],
	['Lease', ['Application', 'Lease Signed', 'Move-in Complete', 'Cancelled']],
	['Other', ['Open', 'In Progress', 'Closed']],
];

export function seedTransactions(store: Store): void {
	const state = transactionState(store);
	state.pipelines = PIPELINES.map(([transactionType, names]) => ({
		transactionType,
		stages: names.map((name, i) => ({ id: state.nextStageId++, name, default: i === 0 })),
	}));
	state.customFields = [
		{ id: 1001n, name: 'Closing Agent', type: 'Single-Select', params: '[{"label":"Option A","value":"1"},{"label":"Option B","value":"2"}]' },
		{ id: 1002n, name: 'Lender Name', type: 'TEXT', params: null },
		{ id: 1003n, name: 'Referral Fee', type: 'PERCENTAGE', params: null },
		{ id: 1004n, name: 'Showing Days', type: 'Multi-Select', params: '[{"label":"Saturday","value":"sat"},{"label":"Sunday","value":"sun"}]' },
		{ id: BigInt(TX_SEED.bigCustomFieldId), name: 'Option Period End', type: 'DATE', params: null },
	];

	const demo = BigInt(SEED_IDS.demoUserId);
	const make = (id: bigint, leadId: bigint, k: number, type: string, status: string, name: string, extra: Partial<Transaction> = {}): Transaction => {
		const lead = store.getLead(leadId)!;
		const price = 250_000 + ((k * 7919) % 900) * 1000;
		const rate = [2.5, 3, 3][k % 3];
		const created = T0 + k * 2 * DAY + (k % 7) * 3_600_000;
		return state.add({
			transactionId: id,
			leadId,
			propertyId: state.nextPropertyId++,
			transactionName: name,
			transactionType: type,
			transactionStatus: status,
			assignedAgent: lead.assignedUserId ?? lead.ownerUserId,
			values: {
				homePrice: price,
				commissionRate: rate,
				gci: (price * rate) / 100,
				teamRevenue: (price * rate) / 400,
				agentRevenue: (price * rate * 3) / 400,
				expectedCloseDate: created + 45 * DAY,
				contractDate: k % 2 ? created + 10 * DAY : null,
			},
			customFields: [],
			commissions: { preSplit: [], split: [], postSplit: [] },
			created,
			updated: created + DAY,
			deleted: false,
			address: null,
			brokermintLinked: false,
			...extra,
		});
	};

	const big = BigInt(SEED_IDS.bigLeadId);
	make(BigInt(TX_SEED.purchaseId), big, 900, 'Purchase', 'Under Contract', '1200 Barton Springs Rd', {
		address: { unit: '4B', label: 'Primary Residence', state: 'TX', city: 'Austin', zipCode: '78704', streetAddress: '1200 Barton Springs Rd', county: 'Travis' },
		brokermintLinked: true,
		customFields: [{ id: 1001n, value: '1' }],
		commissions: { preSplit: [], split: [{ payType: 'AGENT', payTo: demo, calculateType: 'PERCENT', value: 70 }], postSplit: [] },
	});
	make(BigInt(TX_SEED.listingId), big, 901, 'Listing', 'Active Listing', '77 Lamar Blvd');
	make(BigInt(TX_SEED.leaseId), big, 902, 'Lease', 'Application', '5 Congress Ave #12');
	make(BigInt(TX_SEED.deletedId), big, 903, 'Purchase', 'Cancelled', '9 Old Deal Ln', { deleted: true });
	make(BigInt(TX_SEED.notSharedId), BigInt(SEED_IDS.notSharedLeadId), 904, 'Purchase', 'Pending', '404 Private Way', { brokermintLinked: true });
	make(BigInt(TX_SEED.sharedId), BigInt(SEED_IDS.sharedLeadId), 905, 'Purchase', 'Pre-contract', '12 Shared Ct');
	make(BigInt(TX_SEED.trashedLeadTxId), BigInt(SEED_IDS.trashedLeadId), 906, 'Other', 'Open', '1 Trash Alley');

	const special = new Set<string>([SEED_IDS.bigLeadId, SEED_IDS.trashedLeadId]);
	const leads = [...store.leads.values()]
		.filter((l) => l.ownerUserId === demo && l.deletedAt === null && !special.has(l.leadId.toString()))
		.sort((a, b) => (a.leadId < b.leadId ? -1 : 1));
	for (let k = 0; k < TX_SEED.bulkCount; k++) {
		const type = PIPELINES[[0, 0, 1, 2, 3][k % 5]][0];
		const stages = state.pipelineOf(type)!.stages;
		const id = k % 3 === 0 ? 5_200_000_000n + BigInt(k) : 9_007_199_255_000_000n + BigInt(k) * 11n;
		make(id, leads[k % leads.length].leadId, k, type, stages[k % stages.length].name, `${100 + k * 7} ${STREETS[k % STREETS.length]}`);
	}

	state.brokermintContacts.set(TX_SEED.brokermintContactId, BigInt(SEED_IDS.bigLeadId2));
	state.brokermintContacts.set('BM-C-1002', BigInt(SEED_IDS.sharedLeadId));
}
