import type { ILoadOptionsFunctions } from 'n8n-workflow';

import { SEED_IDS } from '../../sandbox';
import { TX_SEED } from '../../sandbox/resources/transaction';
import {
	getTransactionCustomFields,
	getTransactionStatuses,
	getTransactionTypes,
	searchTransactions,
} from '../../nodes/Lofty/methods/transaction';
import { createContext } from '../harness/context';
import { apiKeyCredential, byId, node, run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const BIG = SEED_IDS.bigLeadId;
const VISIBLE = TX_SEED.bulkCount + 4;

const base = { resource: 'transaction' };
const lastBody = () => sandbox().requests[sandbox().requests.length - 1].body;

async function fetchTx(id: string, leadId = BIG) {
	const [item] = await run(sandbox(), { ...base, operation: 'get', leadId: byId(leadId), transactionId: byId(id), simplify: false });
	return item.json;
}

describe('Transaction: Create', () => {
	it('creates a transaction, sending dates as epoch ms and custom field IDs exactly', async () => {
		const [item] = await run(sandbox(), {
			...base,
			operation: 'create',
			leadId: byId(BIG),
			transactionName: '500 Congress Ave',
			additionalFields: {
				transactionType: 'Listing',
				transactionStatus: 'Active Listing',
				homePrice: 650000,
				commissionRate: 3,
				expectedCloseDate: '2026-03-01T00:00:00Z',
				customFields: { values: [{ id: TX_SEED.bigCustomFieldId, value: '1700000000000' }] },
				commissions: '{"split": [{"payType": "AGENT", "payTo": 9007199254741001, "calculateType": "PERCENT", "value": 70}]}',
			},
		});
		expect(item.json).toMatchObject({ transactionName: '500 Congress Ave', transactionType: 'Listing', transactionStatus: 'Active Listing', homePrice: 650000, commissionRate: 3 });
		expect(item.json.expectedCloseDate).toBe(Date.UTC(2026, 2, 1));
		expect(item.json.warnings).toBeUndefined();
		const body = lastBody();
		expect(body).toContain(`"customFields":[{"id":${TX_SEED.bigCustomFieldId},"value":"1700000000000"}]`);
		expect(body).toContain('"payTo":9007199254741001');
		expect(body).toContain(`"expectedCloseDate":${Date.UTC(2026, 2, 1)}`);
		expect(typeof item.json.transactionId).toBe('string');
		expect((await fetchTx(item.json.transactionId as string)).transactionName).toBe('500 Congress Ave');
	});

	it('warns when Lofty silently replaced the status with the first stage', async () => {
		const [item] = await run(sandbox(), {
			...base,
			operation: 'create',
			leadId: byId(BIG),
			transactionName: '1 Oak St',
			additionalFields: { transactionType: 'Purchase', transactionStatus: 'Sold' },
		});
		expect(item.json.transactionStatus).toBe('Pre-contract');
		expect(item.json.warnings).toEqual([expect.stringMatching(/saved the status as "Pre-contract", not "Sold"/)]);
	});

	it.each([
		['a blank name', { transactionName: '   ' }, /"Transaction Name": is required \(Lofty would answer TRANSACTION_NAME_BLANK\)/],
		['a name with < or >', { transactionName: '<b>Deal</b>' }, /"Transaction Name": must not contain < or >/],
		['a wrongly cased type', { transactionName: 'A', additionalFields: { transactionType: 'purchase' } }, /"Type": must be one of Purchase, Listing, Lease, Other \(case-sensitive\)/],
		['a commission rate above 100', { transactionName: 'A', additionalFields: { commissionRate: 300 } }, /"Commission Rate \(%\)": must be at most 100/],
		['a bad commission entry', { transactionName: 'A', additionalFields: { commissions: '{"split": [{"calculateType": "HALF"}]}' } }, /split\[0\]\.calculateType must be PERCENT or AMOUNT/],
		['an unknown commission list', { transactionName: 'A', additionalFields: { commissions: '{"splits": []}' } }, /unknown key "splits"/],
	])('refuses %s before sending', async (_, params, message) => {
		const error = await runError(sandbox(), { ...base, operation: 'create', leadId: byId(BIG), ...params });
		expect(error.message).toMatch(message);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('explains LEAD_NOT_EXIST for a lead of another agent', async () => {
		const error = await runError(sandbox(), { ...base, operation: 'create', leadId: byId(SEED_IDS.notSharedLeadId), transactionName: 'A' });
		expect(error.message).toMatch(/HTTP 404 LEAD_NOT_EXIST/);
		expect(error.description).toMatch(/cannot see it|cannot manage it/);
	});

	it('explains a value Lofty rejects with 20012', async () => {
		const error = await runError(sandbox(), {
			...base,
			operation: 'create',
			leadId: byId(BIG),
			transactionName: 'A',
			additionalFields: { customFields: { values: [{ id: '42', value: 'x' }] } },
		});
		expect(error.message).toMatch(/HTTP 400 20012.*custom field 42 does not exist/);
		expect(error.description).toMatch(/Lofty rejected a value/);
	});
});

describe('Transaction: Get', () => {
	it('returns a simplified record by default, IDs above 2^53 as exact strings', async () => {
		const [item] = await run(sandbox(), { ...base, operation: 'get', leadId: byId(BIG), transactionId: byId(TX_SEED.purchaseId) });
		expect(item.json.transactionId).toBe(TX_SEED.purchaseId);
		expect(item.json.transactionStatus).toBe('Under Contract');
		expect(item.json).not.toHaveProperty('escrowDate');
		expect(item.json).not.toHaveProperty('commissions');
		const full = await fetchTx(TX_SEED.purchaseId);
		expect(full).toHaveProperty('escrowDate');
		expect(full).toHaveProperty('commissions');
	});

	it('fails with TRANSACTION_NOT_EXIST (404 200060) for a transaction of another lead, explained', async () => {
		const error = await runError(sandbox(), { ...base, operation: 'get', leadId: byId(SEED_IDS.bigLeadId2), transactionId: byId(TX_SEED.purchaseId) });
		expect(error.message).toMatch(/HTTP 404 200060\): TRANSACTION_NOT_EXIST/);
		expect(error.description).toMatch(/belongs to another lead/);
	});

	it('rejects a transaction ID that is not a number before sending', async () => {
		const error = await runError(sandbox(), { ...base, operation: 'get', leadId: byId(BIG), transactionId: byId('TX-1') });
		expect(error.message).toMatch(/^Invalid value for "Transaction": must be a Lofty ID/);
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('Transaction: Get Many', () => {
	it('searches every type by default: Return All takes ceil(N/100) pages of 100', async () => {
		const items = await run(sandbox(), { ...base, operation: 'getAll', returnAll: true });
		expect(items).toHaveLength(VISIBLE);
		expect(new Set(items.map((i) => i.json.transactionId)).size).toBe(VISIBLE);
		expect(new Set(items.map((i) => i.json.transactionType))).toEqual(new Set(['Purchase', 'Listing', 'Lease', 'Other']));
		expect(sandbox().count('GET', '/v2.0/transactions')).toBe(Math.ceil(VISIBLE / 100));
		expect(sandbox().requests.map((r) => [r.query.transactionType, r.query.pageNum, r.query.pageSize])).toEqual([
			['All', '0', '100'],
			['All', '1', '100'],
			['All', '2', '100'],
		]);
	});

	it('Limit asks for one page of that size', async () => {
		const items = await run(sandbox(), { ...base, operation: 'getAll', limit: 30 });
		expect(items).toHaveLength(30);
		expect(sandbox().count('GET', '/v2.0/transactions')).toBe(1);
		expect(sandbox().requests[0].query.pageSize).toBe('30');
		expect(items[0].json).not.toHaveProperty('escrowDate');
		expect(items[0].json).toHaveProperty('leadId');
	});

	it('filters by type, lead and search text', async () => {
		const purchases = await run(sandbox(), { ...base, operation: 'getAll', returnAll: true, transactionType: 'Purchase' });
		expect(purchases.length).toBeGreaterThan(0);
		expect(purchases.length).toBeLessThan(VISIBLE);
		for (const { json } of purchases) expect(json.transactionType).toBe('Purchase');
		const ofLead = await run(sandbox(), { ...base, operation: 'getAll', returnAll: true, filters: { leadId: BIG, queryKey: 'Lamar' } });
		expect(ofLead.map((i) => i.json.transactionId)).toEqual([TX_SEED.listingId]);
	});

	it('rejects an unknown type before sending', async () => {
		const error = await runError(sandbox(), { ...base, operation: 'getAll', transactionType: 'Rental' });
		expect(error.message).toMatch(/"Transaction Type": must be one of All, Lease, Listing, Other, Purchase/);
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('Transaction: Get Lead Transactions', () => {
	it('returns every transaction of the lead, of all types', async () => {
		const items = await run(sandbox(), { ...base, operation: 'getAllForLead', leadId: byId(BIG) });
		expect(items.map((i) => i.json.transactionId).sort()).toEqual([TX_SEED.leaseId, TX_SEED.listingId, TX_SEED.purchaseId].sort());
		expect(sandbox().count('GET', '/v1.0/leads/{id}/transactions')).toBe(1);
	});
});

describe('Transaction: Update', () => {
	const update = (updateFields: Record<string, unknown>, id: string = TX_SEED.purchaseId) =>
		run(sandbox(), { ...base, operation: 'update', leadId: byId(BIG), transactionId: byId(id), updateFields });

	it('changes only the fields given', async () => {
		const [item] = await update({ transactionStatus: 'Closed', closeDate: '2025-05-01T00:00:00Z' });
		expect(item.json).toMatchObject({ transactionStatus: 'Closed', closeDate: Date.UTC(2025, 4, 1), transactionName: '1200 Barton Springs Rd' });
		expect(JSON.parse(lastBody())).toEqual({ transactionStatus: 'Closed', closeDate: Date.UTC(2025, 4, 1) });
	});

	it('on 200125 lists the valid statuses of the transaction\'s own type', async () => {
		const error = await runError(sandbox(), { ...base, operation: 'update', leadId: byId(BIG), transactionId: byId(TX_SEED.purchaseId), updateFields: { transactionStatus: 'Sold' } });
		expect(error.message).toMatch(/HTTP 400 200125\): TRANSACTION_STATUS_INVALID/);
		expect(error.description).toMatch(/not a stage of the team's transaction pipeline/);
		expect(error.description).toMatch(/Valid statuses for Purchase: Pre-contract, Under Contract, Pending, Closed, Cancelled\./);
		expect(sandbox().count('GET', '/v2.0/transactions/pipelines')).toBe(1);
	});

	it('on 200125 with a type given lists that type\'s statuses', async () => {
		const error = await runError(sandbox(), {
			...base,
			operation: 'update',
			leadId: byId(BIG),
			transactionId: byId(TX_SEED.purchaseId),
			updateFields: { transactionType: 'Lease', transactionStatus: 'Sold' },
		});
		expect(error.description).toMatch(/Valid statuses for Lease: Application, Lease Signed, Move-in Complete, Cancelled\./);
	});

	it('refuses an empty update and a name with < or > before sending', async () => {
		expect((await runError(sandbox(), { ...base, operation: 'update', leadId: byId(BIG), transactionId: byId(TX_SEED.purchaseId) })).message).toMatch(
			/"Update Fields": add at least one field/,
		);
		expect((await runError(sandbox(), { ...base, operation: 'update', leadId: byId(BIG), transactionId: byId(TX_SEED.purchaseId), updateFields: { transactionName: 'a<b' } })).message).toMatch(
			/must not contain < or >/,
		);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('fails with TRANSACTION_NOT_EXIST for a deleted transaction', async () => {
		const error = await runError(sandbox(), { ...base, operation: 'update', leadId: byId(BIG), transactionId: byId(TX_SEED.deletedId), updateFields: { homePrice: 1 } });
		expect(error.message).toMatch(/HTTP 404 200060/);
	});
});

describe('Transaction: property address', () => {
	it('gets the address', async () => {
		const [item] = await run(sandbox(), { ...base, operation: 'getPropertyAddress', leadId: byId(BIG), transactionId: byId(TX_SEED.purchaseId) });
		expect(item.json).toMatchObject({ transactionId: TX_SEED.purchaseId, streetAddress: '1200 Barton Springs Rd', city: 'Austin' });
	});

	it('explains RESOURCE_NOT_EXIST when the transaction has no address', async () => {
		const error = await runError(sandbox(), { ...base, operation: 'getPropertyAddress', leadId: byId(BIG), transactionId: byId(TX_SEED.listingId) });
		expect(error.message).toMatch(/HTTP 404 RESOURCE_NOT_EXIST/);
		expect(error.description).toMatch(/Update Property Address/);
	});

	it('updates the address, the transaction ID travelling exactly in the body', async () => {
		const [item] = await run(sandbox(), {
			...base,
			operation: 'updatePropertyAddress',
			leadId: byId(BIG),
			transactionId: byId(TX_SEED.listingId),
			addressFields: { streetAddress: '77 Lamar Blvd', city: 'Austin', zipCode: '78703' },
		});
		expect(item.json).toEqual({ code: 0, message: 'success' });
		expect(lastBody()).toContain(`"transactionId":${TX_SEED.listingId}`);
		const [address] = await run(sandbox(), { ...base, operation: 'getPropertyAddress', leadId: byId(BIG), transactionId: byId(TX_SEED.listingId) });
		expect(address.json).toMatchObject({ streetAddress: '77 Lamar Blvd', zipCode: '78703', unit: null });
	});

	it('refuses an update without any address field before sending', async () => {
		const error = await runError(sandbox(), { ...base, operation: 'updatePropertyAddress', leadId: byId(BIG), transactionId: byId(TX_SEED.listingId) });
		expect(error.message).toMatch(/"Address Fields": set at least one address field/);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('fails with TRANSACTION_NOT_EXIST for a transaction of another lead', async () => {
		const error = await runError(sandbox(), {
			...base,
			operation: 'updatePropertyAddress',
			leadId: byId(SEED_IDS.bigLeadId2),
			transactionId: byId(TX_SEED.purchaseId),
			addressFields: { city: 'X' },
		});
		expect(error.message).toMatch(/HTTP 404 200060/);
	});
});

describe('Transaction: custom fields and pipelines', () => {
	it('lists custom fields with select choices parsed', async () => {
		const items = await run(sandbox(), { ...base, operation: 'getCustomFields' });
		const select = items.find((i) => i.json.type === 'Single-Select')!.json;
		expect(select.choices).toEqual([{ label: 'Option A', value: '1' }, { label: 'Option B', value: '2' }]);
		expect(items.map((i) => i.json.id)).toContain(TX_SEED.bigCustomFieldId);
	});

	it('lists one item per pipeline', async () => {
		const items = await run(sandbox(), { ...base, operation: 'getPipelines' });
		expect(items.map((i) => i.json.transactionType)).toEqual(['Purchase', 'Listing', 'Lease', 'Other']);
		expect((items[0].json.stages as Array<{ name: string }>).map((s) => s.name)).toContain('Under Contract');
	});
});

describe('Transaction: Sync From Brokermint', () => {
	it('applies Brokermint changes, dates sent as ISO strings', async () => {
		const [item] = await run(sandbox(), {
			...base,
			operation: 'syncFromBrokermint',
			transactionId: byId(TX_SEED.purchaseId),
			additionalFields: { status: 'Closed', price: 801000, closedAt: '2025-06-01T15:00:00Z' },
		});
		expect(item.json).toEqual({ code: 0, message: 'success' });
		const body = JSON.parse(lastBody());
		expect(body).toMatchObject({ status: 'Closed', price: 801000 });
		expect(Date.parse(body.closedAt)).toBe(Date.UTC(2025, 5, 1, 15));
		expect(lastBody()).toContain(`"id":${TX_SEED.purchaseId}`);
		expect(await fetchTx(TX_SEED.purchaseId)).toMatchObject({ transactionStatus: 'Closed', homePrice: 801000 });
	});

	it('turns the HTTP 200 code 200060 of an unlinked transaction into an explained error', async () => {
		const error = await runError(sandbox(), { ...base, operation: 'syncFromBrokermint', transactionId: byId(TX_SEED.listingId), additionalFields: { price: 1 } });
		expect(error.message).toMatch(/HTTP 200 200060/);
		expect(error.description).toMatch(/link the transaction to Brokermint/);
	});

	it('refuses a sync without fields before sending', async () => {
		const error = await runError(sandbox(), { ...base, operation: 'syncFromBrokermint', transactionId: byId(TX_SEED.purchaseId) });
		expect(error.message).toMatch(/add at least one field to sync/);
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('Lead: Sync From Brokermint', () => {
	it('updates the lead linked to the Brokermint contact', async () => {
		const [item] = await run(sandbox(), {
			resource: 'lead',
			operation: 'syncFromBrokermint',
			contactFields: { externalId: TX_SEED.brokermintContactId, firstName: 'Brook', bmPrivate: true },
		});
		expect(item.json).toEqual({ code: 0, message: 'success' });
		expect(JSON.parse(lastBody())).toEqual({ externalId: TX_SEED.brokermintContactId, firstName: 'Brook', bmPrivate: true });
		const [lead] = await run(sandbox(), { resource: 'lead', operation: 'get', leadId: byId(SEED_IDS.bigLeadId2) });
		expect(lead.json.firstName).toBe('Brook');
	});

	it('explains the non-zero code of an unlinked contact', async () => {
		const error = await runError(sandbox(), { resource: 'lead', operation: 'syncFromBrokermint', contactFields: { externalId: 'BM-NONE', firstName: 'X' } });
		expect(error.message).toMatch(/HTTP 200 20006/);
		expect(error.description).toMatch(/No Lofty lead is linked/);
	});

	it('refuses an empty sync before sending', async () => {
		const error = await runError(sandbox(), { resource: 'lead', operation: 'syncFromBrokermint' });
		expect(error.message).toMatch(/"Contact Fields": add at least one field/);
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('Transaction pickers and dropdowns', () => {
	function loadContext(current: Record<string, unknown> = {}): ILoadOptionsFunctions {
		const ctx = createContext(node, { params: { authentication: 'apiKey' }, credential: apiKeyCredential(sandbox()) });
		return Object.assign(ctx, { getCurrentNodeParameter: (name: string) => current[name] }) as unknown as ILoadOptionsFunctions;
	}

	it('lists the chosen lead\'s transactions of every type', async () => {
		const result = await searchTransactions.call(loadContext({ leadId: byId(BIG) }));
		expect(result.results.map((r) => r.value).sort()).toEqual([TX_SEED.leaseId, TX_SEED.listingId, TX_SEED.purchaseId].sort());
		expect(result.results.find((r) => r.value === TX_SEED.purchaseId)?.name).toBe('1200 Barton Springs Rd (Purchase, Under Contract, ' + (await fetchTx(TX_SEED.purchaseId)).leadName + ')');
		expect(result.paginationToken).toBeUndefined();
		expect(sandbox().requests[0].query).toMatchObject({ transactionType: 'All', leadId: BIG });
	});

	it('pages through all transactions 50 at a time and filters by text', async () => {
		const first = await searchTransactions.call(loadContext());
		expect(first.results).toHaveLength(50);
		expect(first.paginationToken).toBe('1');
		const last = await searchTransactions.call(loadContext(), undefined, String(Math.floor(VISIBLE / 50)));
		expect(last.results).toHaveLength(VISIBLE % 50);
		expect(last.paginationToken).toBeUndefined();
		const found = await searchTransactions.call(loadContext(), '12 Shared');
		expect(found.results.map((r) => r.value)).toEqual([TX_SEED.sharedId]);
	});

	it('loads types and the statuses of the chosen type from the pipelines', async () => {
		expect((await getTransactionTypes.call(loadContext())).map((o) => o.value)).toEqual(['Lease', 'Listing', 'Other', 'Purchase']);
		const lease = await getTransactionStatuses.call(loadContext({ updateFields: { transactionType: 'Lease' } }));
		expect(lease.map((o) => o.value)).toEqual(['Application', 'Cancelled', 'Lease Signed', 'Move-in Complete']);
		const all = await getTransactionStatuses.call(loadContext());
		const underContract = all.find((o) => o.value === 'Under Contract');
		expect(underContract?.description).toBe('Stage of Purchase, Listing');
		expect(all.filter((o) => o.value === 'Closed')).toHaveLength(1);
	});

	it('loads the custom fields by ID', async () => {
		const options = await getTransactionCustomFields.call(loadContext());
		expect(options.find((o) => o.value === TX_SEED.bigCustomFieldId)?.name).toBe('Option Period End');
	});
});
