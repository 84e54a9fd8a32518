import { DEMO_API_KEY, SEED_IDS } from '../../sandbox';
import { TX_SEED, transactionState } from '../../sandbox/resources/transaction';
import { client, s, useSandbox } from './helpers';

const sb = useSandbox();

const api = () => client(sb.url, { token: DEMO_API_KEY });
const BIG = SEED_IDS.bigLeadId;
const tx = (leadId: string, id: string) => `/v1.0/leads/${leadId}/transaction/${id}`;

describe('POST /v1.0/leads/{leadId}/transaction', () => {
	it('creates and returns the persisted transaction; lead name, agent and ID in the body are ignored', async () => {
		const r = await api().post(`/v1.0/leads/${BIG}/transaction`, {
			body: {
				transactionName: '1 Test St',
				transactionType: 'Listing',
				transactionStatus: 'sold',
				homePrice: 500000,
				commissionRate: 3,
				offerDate: 1508580010000,
				leadName: 'Someone Else',
				assignedAgent: 1,
				transactionId: 5,
				customFields: [{ id: 1002, value: 'First Bank' }],
				commissions: { split: [{ payType: 'AGENT', payTo: 9007199254741001n.toString(), calculateType: 'PERCENT', value: 70 }] },
			},
		});
		expect(r.status).toBe(200);
		expect(r.body).toMatchObject({ transactionName: '1 Test St', transactionType: 'Listing', transactionStatus: 'Sold', homePrice: 500000, offerDate: 1508580010000 });
		expect(r.body.leadName).not.toBe('Someone Else');
		expect(s(r.body.assignedAgent)).not.toBe('1');
		expect(s(r.body.transactionId)).not.toBe('5');
		expect(r.body.customFields).toEqual([{ id: 1002, value: 'First Bank' }]);
		expect(s(r.body.commissions.split[0].payTo)).toBe('9007199254741001');
		expect(Object.keys(r.body)).toEqual(expect.arrayContaining(['created', 'updated', 'expiration', 'escrowDate', 'commissions']));
	});

	it('falls back silently: an unknown (or wrongly cased) type to the first pipeline, an unknown status to the first stage', async () => {
		const r = await api().post(`/v1.0/leads/${BIG}/transaction`, { body: { transactionName: 'X', transactionType: 'listing', transactionStatus: 'Nope' } });
		expect(r.status).toBe(200);
		expect(r.body).toMatchObject({ transactionType: 'Purchase', transactionStatus: 'Pre-contract' });
		const lease = await api().post(`/v1.0/leads/${BIG}/transaction`, { body: { transactionName: 'Y', transactionType: 'Lease' } });
		expect(lease.body.transactionStatus).toBe('Application');
	});

	it('blank or missing name: 400 200062 TRANSACTION_NAME_BLANK; < or >: TRANSACTION_NAME_HTML', async () => {
		for (const body of [{ transactionName: '  ' }, {}]) {
			const r = await api().post(`/v1.0/leads/${BIG}/transaction`, { body });
			expect(r.status).toBe(400);
			expect(r.body.code).toBe(200062);
			expect(r.body.message).toMatch(/^TRANSACTION_NAME_BLANK/);
		}
		const html = await api().post(`/v1.0/leads/${BIG}/transaction`, { body: { transactionName: '<b>1 Main</b>' } });
		expect(html.status).toBe(400);
		expect(html.body.message).toMatch(/^TRANSACTION_NAME_HTML/);
		expect([...transactionState(sb.store).transactions.values()].some((t) => t.transactionName.includes('Main'))).toBe(false);
	});

	it('rejects bad dates, commissions and unknown custom fields with 20012', async () => {
		const bad = [
			{ transactionName: 'A', closeDate: '2024-01-01' },
			{ transactionName: 'A', commissions: { split: [{ calculateType: 'HALF' }] } },
			{ transactionName: 'A', commissions: { preSplit: [{ payType: 'FRIEND' }] } },
			{ transactionName: 'A', customFields: [{ id: 42, value: 'x' }] },
			{ transactionName: 'A', homePrice: 'lots' },
		];
		for (const body of bad) {
			const r = await api().post(`/v1.0/leads/${BIG}/transaction`, { body });
			expect(r.status).toBe(400);
			expect(r.body.code).toBe(20012);
		}
		const date = await api().post(`/v1.0/leads/${BIG}/transaction`, { body: bad[0] });
		expect(date.body.message).toMatch(/closeDate.*epoch milliseconds.*2024-01-01/);
	});

	it('404 LEAD_NOT_EXIST for a lead the caller cannot manage or a trashed lead', async () => {
		for (const id of [SEED_IDS.notSharedLeadId, SEED_IDS.trashedLeadId]) {
			const r = await api().post(`/v1.0/leads/${id}/transaction`, { body: { transactionName: 'A' } });
			expect(r.status).toBe(404);
			expect(r.body.code).toBe('LEAD_NOT_EXIST');
		}
	});
});

describe('GET / PUT /v1.0/leads/{leadId}/transaction/{transactionId}', () => {
	it('gets a transaction with IDs above 2^53 exactly', async () => {
		const r = await api().get(tx(BIG, TX_SEED.purchaseId));
		expect(r.status).toBe(200);
		expect(r.text).toContain(`"transactionId":${TX_SEED.purchaseId}`);
		expect(r.body.transactionStatus).toBe('Under Contract');
	});

	it('404 200060 TRANSACTION_NOT_EXIST: unknown, deleted, or bound to another lead', async () => {
		for (const [lead, id] of [
			[BIG, '123456'],
			[BIG, TX_SEED.deletedId],
			[SEED_IDS.bigLeadId2, TX_SEED.purchaseId],
		]) {
			const r = await api().get(tx(lead, id));
			expect(r.status).toBe(404);
			expect(r.body.code).toBe(200060);
			expect(r.body.message).toMatch(/^TRANSACTION_NOT_EXIST/);
		}
		expect((await api().get(tx(SEED_IDS.notSharedLeadId, TX_SEED.notSharedId))).body.code).toBe('LEAD_NOT_EXIST');
		expect((await api().get(tx(BIG, 'abc'))).body.code).toBe(20012);
	});

	it('updates only the fields given; the status matches case-insensitively', async () => {
		const r = await api().put(tx(BIG, TX_SEED.purchaseId), { body: { homePrice: 1, transactionStatus: 'closed' } });
		expect(r.status).toBe(200);
		expect(r.body).toMatchObject({ homePrice: 1, transactionStatus: 'Closed', transactionName: '1200 Barton Springs Rd', transactionType: 'Purchase' });
		expect(r.body.customFields).toEqual([{ id: 1001, value: '1' }]);
	});

	it('a status not in the pipeline of the type: 400 200125, nothing changed', async () => {
		const r = await api().put(tx(BIG, TX_SEED.purchaseId), { body: { homePrice: 2, transactionStatus: 'Sold' } });
		expect(r.status).toBe(400);
		expect(r.body.code).toBe(200125);
		expect(r.body.message).toMatch(/^TRANSACTION_STATUS_INVALID/);
		expect((await api().get(tx(BIG, TX_SEED.purchaseId))).body.homePrice).not.toBe(2);
		// ... but valid for the type given in the same request
		const listing = await api().put(tx(BIG, TX_SEED.purchaseId), { body: { transactionType: 'Listing', transactionStatus: 'Sold' } });
		expect(listing.body).toMatchObject({ transactionType: 'Listing', transactionStatus: 'Sold' });
	});

	it('a type change without status moves to the first stage when the old one is not in the new pipeline', async () => {
		const r = await api().put(tx(BIG, TX_SEED.purchaseId), { body: { transactionType: 'Other' } });
		expect(r.body).toMatchObject({ transactionType: 'Other', transactionStatus: 'Open' });
	});

	it('custom fields are replaced as a whole; name rules apply', async () => {
		const r = await api().put(tx(BIG, TX_SEED.purchaseId), { body: { customFields: [{ id: TX_SEED.bigCustomFieldId, value: '1700000000000' }] } });
		expect(r.text).toContain(`"customFields":[{"id":${TX_SEED.bigCustomFieldId},"value":"1700000000000"}]`);
		expect((await api().put(tx(BIG, TX_SEED.purchaseId), { body: { transactionName: '' } })).body.message).toMatch(/^TRANSACTION_NAME_BLANK/);
		expect((await api().put(tx(BIG, TX_SEED.purchaseId), { body: { transactionName: 'a>b' } })).body.message).toMatch(/^TRANSACTION_NAME_HTML/);
	});
});

describe('GET /v1.0/leads/{leadId}/transactions', () => {
	it('is a bare array of every type, without deleted ones', async () => {
		const r = await api().get(`/v1.0/leads/${BIG}/transactions`);
		expect(Array.isArray(r.body)).toBe(true);
		expect(r.body.map((t: any) => s(t.transactionId)).sort()).toEqual([TX_SEED.leaseId, TX_SEED.purchaseId, TX_SEED.listingId].sort());
		expect((await api().get(`/v1.0/leads/${SEED_IDS.notSharedLeadId}/transactions`)).status).toBe(404);
	});
});

describe('property address', () => {
	const addr = (id: string) => `${tx(BIG, id)}/property/address`;

	it('gets the address; RESOURCE_NOT_EXIST when none is set', async () => {
		const r = await api().get(addr(TX_SEED.purchaseId));
		expect(r.body).toMatchObject({ streetAddress: '1200 Barton Springs Rd', unit: '4B', county: 'Travis' });
		expect(s(r.body.transactionId)).toBe(TX_SEED.purchaseId);
		const none = await api().get(addr(TX_SEED.listingId));
		expect(none.status).toBe(404);
		expect(none.body.code).toBe('RESOURCE_NOT_EXIST');
	});

	it('update is a full replacement ({code: 0}); the transaction ID comes in the body', async () => {
		const r = await api().post(`/v1.0/leads/${BIG}/transaction/property/address`, { body: { transactionId: TX_SEED.purchaseId, city: 'Dallas' } });
		expect(r.body).toEqual({ code: 0, message: 'success' });
		const after = await api().get(addr(TX_SEED.purchaseId));
		expect(after.body).toMatchObject({ city: 'Dallas', streetAddress: null, unit: null });
	});

	it('missing transactionId: 400 20012; a transaction of another lead: 404 200060', async () => {
		const missing = await api().post(`/v1.0/leads/${BIG}/transaction/property/address`, { body: { city: 'X' } });
		expect([missing.status, missing.body.code]).toEqual([400, 20012]);
		const other = await api().post(`/v1.0/leads/${SEED_IDS.bigLeadId2}/transaction/property/address`, { body: { transactionId: TX_SEED.purchaseId } });
		expect([other.status, other.body.code]).toEqual([404, 200060]);
	});
});

describe('GET /v1.0/transaction/customfields and /v2.0/transactions/pipelines', () => {
	it('custom fields are a bare array with select choices as a JSON string', async () => {
		const r = await api().get('/v1.0/transaction/customfields');
		expect(r.body.map((f: any) => f.type)).toEqual(expect.arrayContaining(['Single-Select', 'TEXT', 'DATE']));
		expect(r.text).toContain(`"id":${TX_SEED.bigCustomFieldId}`);
		expect(JSON.parse(r.body[0].params)).toHaveLength(2);
	});

	it('pipelines list the stages of each type, first one default', async () => {
		const r = await api().get('/v2.0/transactions/pipelines');
		expect(r.body.pipelines.map((p: any) => p.transactionType)).toEqual(['Purchase', 'Listing', 'Lease', 'Other']);
		for (const p of r.body.pipelines) expect(p.stages.map((st: any) => st.default)).toEqual(p.stages.map((_: unknown, i: number) => i === 0));
	});
});

describe('GET /v2.0/transactions', () => {
	const search = (params: Record<string, unknown>) => api().get('/v2.0/transactions', { params });

	it('defaults to Purchase only, pageSize 20, pageNum 0', async () => {
		const r = await search({});
		expect(r.body).toMatchObject({ pageNum: 0, pageSize: 20 });
		expect(r.body.pageData).toHaveLength(20);
		expect(new Set(r.body.pageData.map((t: any) => t.transactionType))).toEqual(new Set(['Purchase']));
		const all = await search({ transactionType: 'All' });
		expect(all.body.totalCount).toBeGreaterThan(r.body.totalCount);
		expect(all.body.totalCount).toBe(TX_SEED.bulkCount + 4);
	});

	it('the type is case-insensitive; an unknown one is 400 20012', async () => {
		const r = await search({ transactionType: 'lEaSe', pageSize: 100 });
		expect(new Set(r.body.pageData.map((t: any) => t.transactionType))).toEqual(new Set(['Lease']));
		const bad = await search({ transactionType: 'Rental' });
		expect([bad.status, bad.body.code]).toEqual([400, 20012]);
	});

	it('pageSize is 1..100 (20042 LIMIT_NOT_VALID), pageNum at least 0 (20012)', async () => {
		for (const pageSize of [0, 101]) {
			const r = await search({ pageSize });
			expect([r.status, r.body.code]).toEqual([400, 20042]);
		}
		expect((await search({ pageNum: -1 })).body.code).toBe(20012);
	});

	it('pages cover every visible transaction once; other agents\', deleted and trashed-lead ones are hidden', async () => {
		const ids: string[] = [];
		for (let p = 0; p < 4; p++) ids.push(...(await search({ transactionType: 'All', pageSize: 100, pageNum: p })).body.pageData.map((t: any) => s(t.transactionId)));
		expect(ids).toHaveLength(TX_SEED.bulkCount + 4);
		expect(new Set(ids).size).toBe(ids.length);
		expect(ids).toEqual(expect.arrayContaining([TX_SEED.sharedId, TX_SEED.leaseId]));
		for (const hidden of [TX_SEED.notSharedId, TX_SEED.deletedId, TX_SEED.trashedLeadTxId]) expect(ids).not.toContain(hidden);
	});

	it('filters by lead and by the first 15 characters of the search text', async () => {
		const byLead = await search({ transactionType: 'All', leadId: BIG });
		expect(byLead.body.pageData.map((t: any) => s(t.leadId))).toEqual([BIG, BIG, BIG]);
		expect(byLead.body.pageData[0]).toHaveProperty('agentName');
		const key = await search({ transactionType: 'All', queryKey: '1200 Barton SprXXXXX' });
		expect(key.body.pageData.map((t: any) => s(t.transactionId))).toContain(TX_SEED.purchaseId);
		const none = await search({ transactionType: 'All', queryKey: 'zzzz-nothing' });
		expect(none.body).toMatchObject({ totalCount: 0, pageData: [] });
	});
});

describe('Brokermint callbacks', () => {
	it('syncs a linked transaction: agent, price, dates, address, Closed', async () => {
		const r = await api().put('/v1.0/brokermint/transaction', {
			body: { id: TX_SEED.purchaseId, status: 'Closed', price: 777000, closedAt: '2025-03-01T12:00:00Z', zip: '78705', agentId: SEED_IDS.otherAgentUserId, representing: 'Buyer' },
		});
		expect(r.body).toEqual({ code: 0, message: 'success' });
		const after = (await api().get(tx(BIG, TX_SEED.purchaseId))).body;
		expect(after).toMatchObject({ transactionStatus: 'Closed', homePrice: 777000, closeDate: Date.UTC(2025, 2, 1, 12) });
		expect(s(after.assignedAgent)).toBe(SEED_IDS.otherAgentUserId);
		expect((await api().get(`${tx(BIG, TX_SEED.purchaseId)}/property/address`)).body).toMatchObject({ zipCode: '78705', streetAddress: '1200 Barton Springs Rd' });
	});

	it('ignores other statuses and unknown types', async () => {
		await api().put('/v1.0/brokermint/transaction', { body: { id: TX_SEED.purchaseId, status: 'Pending', transactionType: 'purchase' } });
		expect((await api().get(tx(BIG, TX_SEED.purchaseId))).body).toMatchObject({ transactionStatus: 'Under Contract', transactionType: 'Purchase' });
	});

	it('HTTP 200 with code 200060 when not linked, deleted or unknown; 400 without id or with a bad date', async () => {
		for (const id of [TX_SEED.listingId, TX_SEED.deletedId, '99']) {
			const r = await api().put('/v1.0/brokermint/transaction', { body: { id, price: 1 } });
			expect(r.status).toBe(200);
			expect(r.body.code).toBe(200060);
		}
		expect((await api().put('/v1.0/brokermint/transaction', { body: { price: 1 } })).body.code).toBe(20012);
		expect((await api().put('/v1.0/brokermint/transaction', { body: { id: TX_SEED.purchaseId, closedAt: 'soon' } })).body.code).toBe(20012);
	});

	it('syncs a linked contact into its lead; an unlinked one gets code 20006 at HTTP 200', async () => {
		const r = await api().put('/v1.0/brokermint/lead', { body: { externalId: TX_SEED.brokermintContactId, firstName: 'Brook', city: 'Waco', email: 'brook@example.com' } });
		expect(r.body).toEqual({ code: 0, message: 'success' });
		const lead = sb.store.getLead(SEED_IDS.bigLeadId2)!;
		expect([lead.firstName, lead.city, lead.emails[0]]).toEqual(['Brook', 'Waco', 'brook@example.com']);
		const byEmail = await api().put('/v1.0/brokermint/lead', { body: { email: 'BROOK@example.com', lastName: 'Mint' } });
		expect(byEmail.body.code).toBe(0);
		expect(lead.lastName).toBe('Mint');
		const unlinked = await api().put('/v1.0/brokermint/lead', { body: { externalId: 'BM-NOPE', firstName: 'X' } });
		expect([unlinked.status, unlinked.body.code]).toEqual([200, 20006]);
	});
});
