/**
 * The item is the unit of concurrency (issue 18): at the default Parallel Requests (8), items on one record run
 * whole and in item order, whatever each item does before its write (read the current custom-field values,
 * list the team's fields, wait out a 429); the record is named by the path's IDs or, where the table says so,
 * by an ID in the body. Each case differs between its items, so an item overtaking another shows.
 */
import { resetPacing } from '../../nodes/Lofty/transport/pacing';
import { SEED_IDS, parseJson } from '../../sandbox';
import { SALES_AGENT_IDS } from '../../sandbox/resources/salesAgent';
import { TX_SEED } from '../../sandbox/resources/transaction';
import { byId, run, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
beforeEach(() => {
	resetPacing();
	sandbox().setLatency({ fixedMs: 40, jitterMs: 20 });
});

const mapped = (value: Record<string, unknown>) => ({ mappingMode: 'defineBelow', value, matchingColumns: [], schema: [] });
const applied = (method: string, path: RegExp) =>
	sandbox()
		.requests.filter((r) => r.method === method && path.test(r.path) && r.status === 200)
		.map((r) => parseJson(r.body) as Record<string, unknown>);

describe('one record, items in item order, each item whole', () => {
	it('Transaction > Update: two items mapping different custom fields of one transaction keep both values', async () => {
		const tx = { resource: 'transaction', operation: 'update', leadId: byId(SEED_IDS.bigLeadId), transactionId: byId(TX_SEED.purchaseId) };
		const values = [{ '1002': 'First Lender Bank' }, { '1003': 2.5 }];
		const out = await run(sandbox(), (i) => ({ ...tx, customFieldValues: mapped(values[i]) }), { items: [{}, {}] });
		expect(out.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		const [read] = await run(sandbox(), { ...tx, operation: 'get', simplify: false, options: { customFieldsByName: true } });
		expect(read.json.customFields).toMatchObject({ 'Lender Name': 'First Lender Bank', 'Referral Fee': 2.5 });
		// The second item read the values the first had written.
		const [, second] = applied('PUT', /\/transaction\/\d+$/);
		expect(second.customFields).toEqual(expect.arrayContaining([{ id: 1002, value: 'First Lender Bank' }, { id: 1003, value: '2.5' }]));
	});

	it('Lead > Update: an item without mapped fields does not overtake an earlier one with them', async () => {
		const lead = { resource: 'lead', operation: 'update', leadId: byId(SEED_IDS.bigLeadId) };
		const out = await run(
			sandbox(),
			(i) =>
				i === 0
					? { ...lead, updateFields: { firstName: 'Earlier' }, customFieldValues: mapped({ 'Preferred School District': 'Eanes ISD' }) }
					: { ...lead, updateFields: { firstName: 'Later' } },
			{ items: [{}, {}] },
		);
		expect(out).toHaveLength(2);
		expect(applied('PUT', /^\/v1\.0\/leads\/\d+$/).map((b) => b.firstName)).toEqual(['Earlier', 'Later']);
		expect(sandbox().store.getLead(SEED_IDS.bigLeadId)?.firstName).toBe('Later');
	});

	// The ID is in the body (or there is one company): the table's `record` names it.
	const bodyRecords: Array<[string, (i: number) => Record<string, unknown>, string, RegExp, string]> = [
		['Update Office', (i) => ({ resource: 'organization', operation: 'updateOffice', officeId: SEED_IDS.downtownOfficeId, updateFields: { name: `Office ${i}` } }), 'POST', /^\/v1\.0\/org\/office$/, 'name'],
		['Update Company', (i) => ({ resource: 'organization', operation: 'updateCompany', updateFields: { name: `Company ${i}` } }), 'POST', /^\/v1\.0\/org\/company$/, 'name'],
		[
			'Sales Agent > Update Settings',
			(i) => ({ resource: 'salesAgent', operation: 'updateSettings', id: SALES_AGENT_IDS.demoSalesAgentId, updateFields: { assistantName: `Ava ${i}` } }),
			'PUT',
			/^\/v2\.0\/sales-agent\/settings$/,
			'assistantName',
		],
	];
	it.each(bodyRecords)('%s: writes to one record go in item order although the first is held back by a 429', async (_, params, method, path, field) => {
		sandbox().faults.inject({ kind: '429', times: 1, retryAfterSec: 1, match: { method, path } });
		const out = await run(sandbox(), params, { items: [{}, {}, {}, {}] });
		expect(out.map((o) => o.json.error)).toEqual([undefined, undefined, undefined, undefined]);
		const names = applied(method, path).map((b) => String(b[field]).replace(/\D/g, ''));
		expect(names).toEqual(['0', '1', '2', '3']);
	});

	it('items on other records: each write applied once, in its own record (how many run at once: `npm run bench`, row 11)', async () => {
		const ids = Array.from({ length: 12 }, (_, i) => sandbox().store.addLead({ firstName: `Other${i}`, ownerUserId: SEED_IDS.demoUserId }).leadId.toString());
		const out = await run(sandbox(), (i) => ({ resource: 'lead', operation: 'update', leadId: byId(ids[i]), updateFields: { firstName: `New${i}` } }), { items: ids.map(() => ({})) });
		expect(out.map((o) => o.json.error)).toEqual(ids.map(() => undefined));
		expect(ids.map((id) => sandbox().store.getLead(id)?.firstName)).toEqual(ids.map((_, i) => `New${i}`));
		expect(sandbox().concurrency().most).toBeLessThanOrEqual(8);
	});
});
