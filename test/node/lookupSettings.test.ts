/**
 * The reads an operation makes for its item before or after its own request (the lead's user ID for Call History, the
 * team's custom fields, a transaction's valid statuses) follow the item's Request Options: Read Retries and Timeout
 * (model/itemRead.ts), as the operation's own request does.
 */
import { COMM_SEED } from '../../sandbox/resources/communication';
import { byId, run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const HISTORY = COMM_SEED.historyLeadId;
const sent = (method: string, path: string) => sandbox().requests.filter((r) => r.method === method && r.path === path).length;

describe('lookups take the item\'s Read Retries', () => {
	it('Call History: the lead read for its user ID is retried as often as Read Retries says (0: sent once)', async () => {
		sandbox().faults.inject({ kind: '500', status: 503, times: 10, match: { method: 'GET', path: `/v1.0/leads/${HISTORY}` } });
		const error = await runError(sandbox(), { resource: 'communication', operation: 'getCallHistory', leadId: byId(HISTORY), limit: 5, requestOptions: { readRetries: 0 } });
		expect(error.message).toMatch(/503|not available|Lofty/i);
		expect(sent('GET', `/v1.0/leads/${HISTORY}`)).toBe(1);
		expect(sent('GET', '/v1.0/communication/call/v2')).toBe(0);
	});

	it('Call History: Read Retries 1 sends the lead read twice, then the list', async () => {
		sandbox().faults.inject({ kind: '500', status: 503, times: 1, match: { method: 'GET', path: `/v1.0/leads/${HISTORY}` } });
		const items = await run(sandbox(), { resource: 'communication', operation: 'getCallHistory', leadId: byId(HISTORY), limit: 5, requestOptions: { readRetries: 1 } });
		expect(items).toHaveLength(5);
		expect(sent('GET', `/v1.0/leads/${HISTORY}`)).toBe(2);
	});

	it("Lead > Create with custom fields: the team's field list is read with the item's Read Retries (0: once)", async () => {
		sandbox().faults.inject({ kind: '500', status: 503, times: 10, match: { method: 'GET', path: '/v1.0/teamFeatures/listCustomField' } });
		const customFieldValues = { mappingMode: 'defineBelow', value: { 'Household Size': 2 }, matchingColumns: [], schema: [] };
		await runError(sandbox(), { resource: 'lead', operation: 'create', firstName: 'Lookup', customFieldValues, requestOptions: { readRetries: 0 } });
		expect(sent('GET', '/v1.0/teamFeatures/listCustomField')).toBe(1);
		expect(sent('POST', '/v1.0/leads')).toBe(0);
	});
});
