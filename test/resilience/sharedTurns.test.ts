/**
 * An item's turn is taken before its first await, and held across executions where the write sends what it read
 * (issue 26, model/turns.ts). The cases of the issue: at the default Parallel Requests, and with two executions at
 * once, the result is the one of Parallel Requests 1, one execution after the other.
 */
import { SEED_IDS, parseJson } from '../../sandbox';
import { TX_SEED } from '../../sandbox/resources/transaction';
import { heldTurns } from '../../nodes/Lofty/model/turns';
import { forgetProcessMemory } from '../harness/processMemory';
import { byId, run, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
beforeEach(() => {
	forgetProcessMemory();
	sandbox().setLatency({ fixedMs: 30, jitterMs: 10 });
});
afterEach(() => expect(heldTurns()).toBe(0));

const mapped = (value: Record<string, unknown>) => ({ mappingMode: 'defineBelow', value, matchingColumns: [], schema: [] });

describe('Create or Update: two items for one new person', () => {
	// Item 0 makes the node read the team's tags or custom fields before it searches; item 1 does not.
	const firstItems: Array<[string, Record<string, unknown>]> = [
		['a tag', { additionalFields: { tags: ['Hot'] } }],
		['a mapped custom field', { customFieldValues: mapped({ 'Preferred School District': 'Eanes ISD' }) }],
	];
	it.each(firstItems)('item 0 with %s creates the lead, item 1 without finds it: as at Parallel Requests 1', async (_, extra) => {
		const params = (parallelRequests: number) => (i: number) => ({
			resource: 'lead',
			operation: 'upsert',
			email: 'new.person@example.com',
			firstName: i === 0 ? 'Earlier' : 'Later',
			...(i === 0 ? extra : {}),
			requestOptions: { parallelRequests },
		});
		const outcome = async (parallelRequests: number) => {
			sandbox().reset();
			forgetProcessMemory();
			const out = await run(sandbox(), params(parallelRequests), { items: [{}, {}] });
			const leads = [...sandbox().store.leads.values()].filter((l) => l.emails.includes('new.person@example.com'));
			return { actions: out.map((o) => o.json.action), firstNames: leads.map((l) => l.firstName) };
		};
		const one = await outcome(1);
		expect(one).toEqual({ actions: ['created', 'unchanged'], firstNames: ['Earlier'] });
		expect(await outcome(8)).toEqual(one);
	});
});

describe('two executions at once on one transaction', () => {
	it('mapping different custom fields: both values are kept', async () => {
		const tx = { resource: 'transaction', operation: 'update', leadId: byId(SEED_IDS.bigLeadId), transactionId: byId(TX_SEED.purchaseId) };
		const values = [{ '1002': 'First Lender Bank' }, { '1003': 2.5 }];
		// The pace is known (a first request tells the window), so that neither execution's first request waits for the other's.
		await run(sandbox(), { ...tx, operation: 'get' });
		// Two trigger deliveries, two workflows: two executions of the node with their own contexts, at the same moment.
		await Promise.all(values.map(async (value) => await run(sandbox(), { ...tx, customFieldValues: mapped(value) })));
		const [read] = await run(sandbox(), { ...tx, operation: 'get', simplify: false, options: { customFieldsByName: true } });
		expect(read.json.customFields).toMatchObject({ 'Lender Name': 'First Lender Bank', 'Referral Fee': 2.5 });
		// The second write carried the value the first had written.
		const writes = sandbox()
			.requests.filter((r) => r.method === 'PUT' && /\/transaction\/\d+$/.test(r.path) && r.status === 200)
			.map((r) => parseJson(r.body) as { customFields: unknown[] });
		expect(writes[1].customFields).toEqual(expect.arrayContaining([{ id: 1002, value: 'First Lender Bank' }, { id: 1003, value: '2.5' }]));
	});
});

describe('tag names spelled in item order', () => {
	it('two leads, one new tag in two spellings, the first item with a lookup to make before: as at Parallel Requests 1', async () => {
		const leads = [SEED_IDS.bigLeadId, SEED_IDS.bigLeadId2];
		const params = (parallelRequests: number) => (i: number) => ({
			resource: 'lead',
			operation: 'update',
			leadId: byId(leads[i]),
			updateFields: { tagsAdd: [i === 0 ? 'Fresh Tag' : 'fresh tag'] },
			...(i === 0 ? { customFieldValues: mapped({ 'Preferred School District': 'Eanes ISD' }) } : {}),
			requestOptions: { parallelRequests },
		});
		const outcome = async (parallelRequests: number) => {
			sandbox().reset();
			forgetProcessMemory();
			await run(sandbox(), params(parallelRequests), { items: [{}, {}] });
			return leads.map((id) => sandbox().store.getLead(id)?.tags.map((t) => t.tagName).filter((name) => name.toLowerCase() === 'fresh tag'));
		};
		const one = await outcome(1);
		expect(await outcome(8)).toEqual(one);
	});
});
