/**
 * One owner for a write's outcome (transport/writeOutcome.ts): a create that gets no answer, or a 5xx, may have been
 * applied. It is never sent again, its item says `writeUncertain`, and Create or Update for the same person (later
 * in the run, or in another execution of the process) searches again once Lofty can read the lead, updates what it
 * finds, and otherwise fails naming the earlier item: never a second lead for one person.
 */
import type { IDataObject } from 'n8n-workflow';

import { leadPersistence } from '../../sandbox/resources/lead';
import { run, runError, useSandbox } from '../harness/sandbox';
import { TEST_TIMEOUT_MS } from '../harness/budgets';

const sandbox = useSandbox();
const LEADS = '/v1.0/leads';
const upsert = (params: Record<string, unknown>) => ({ resource: 'lead', operation: 'upsert', ...params });
/** The leads the sandbox holds with this email. */
const leadsWith = (email: string) => [...sandbox().store.leads.values()].filter((l) => (l.emails as string[]).includes(email));
const readDelay = (ms: number) => (leadPersistence(sandbox().store).readDelayMs = ms);
/** The create of the next new lead is applied and its answer lost. */
const dropCreate = () => sandbox().faults.inject({ kind: 'drop', match: { method: 'POST', path: LEADS } });
const twice = { items: [{}, {}], continueOnFail: true, typeVersion: 1.1 };

describe('Create or Update after a create without an answer', () => {
	it('two items for one new email, the first create applied and its answer lost: the second updates that lead (after the read delay)', async () => {
		readDelay(1000);
		dropCreate();
		const items = await run(sandbox(), (i) => upsert({ firstName: 'Rosa', email: 'rosa@example.com', additionalFields: { lastName: i ? 'Ramos' : undefined } }), twice);
		expect(items[0].json).toMatchObject({ writeUncertain: true });
		expect(items[0].json.error).toMatch(/may or may not have been applied/);
		expect(items[0].json.description).toMatch(/Search Lofty by email rosa@example\.com/);
		expect(items[1].json).toMatchObject({ action: 'updated', matchedBy: 'email' });
		expect(leadsWith('rosa@example.com')).toHaveLength(1);
		expect(items[1].json.leadId).toBe(String(leadsWith('rosa@example.com')[0].leadId));
		expect(sandbox().faults.writes('POST', LEADS)).toBe(1);
	}, TEST_TIMEOUT_MS);

	it('Lofty still cannot read it after the delay: the second item fails naming the first, and creates nothing', async () => {
		readDelay(60_000);
		dropCreate();
		const items = await run(sandbox(), () => upsert({ firstName: 'Rosa', email: 'rosa@example.com' }), twice);
		expect(items[0].json.writeUncertain).toBe(true);
		expect(items[1].json.error).toMatch(/A create for this person by item 0 of this execution got no certain answer/);
		expect(leadsWith('rosa@example.com')).toHaveLength(1);
		expect(sandbox().count('POST', LEADS)).toBe(1);
	}, TEST_TIMEOUT_MS);

	it('a 5xx on the create is "may have been applied" too: not sent again, and the next item for the person does not create blindly', async () => {
		sandbox().faults.inject({ kind: '500', match: { method: 'POST', path: LEADS } });
		const items = await run(sandbox(), () => upsert({ firstName: 'Ines', phone: '(415) 555-0191' }), twice);
		expect(items[0].json).toMatchObject({ writeUncertain: true, httpCode: '500' });
		expect(items[0].json.description).toMatch(/Search Lofty by phone \+14155550191/);
		expect(items[1].json.error).toMatch(/by item 0 of this execution/);
		expect(sandbox().count('POST', LEADS)).toBe(1);
	}, TEST_TIMEOUT_MS);

	it('another execution of the process for the same person updates the lead the first one created without an answer', async () => {
		readDelay(1000);
		dropCreate();
		const error = await runError(sandbox(), upsert({ firstName: 'Tomas', email: 'tomas@example.com' }), { typeVersion: 1.1 });
		expect((error as Error & { context?: IDataObject }).context?.writeUncertain).toBe(true);
		const [item] = await run(sandbox(), upsert({ firstName: 'Tomas', email: 'tomas@example.com', additionalFields: { lastName: 'Vidal' } }), { typeVersion: 1.1 });
		expect(item.json).toMatchObject({ action: 'updated', lastName: 'Vidal' });
		expect(leadsWith('tomas@example.com')).toHaveLength(1);
	}, TEST_TIMEOUT_MS);

	it('after Lead > Create without an answer, Create or Update for that email finds the lead instead of making another', async () => {
		readDelay(1000);
		dropCreate();
		await runError(sandbox(), { resource: 'lead', operation: 'create', firstName: 'Uma', additionalFields: { emails: ['uma@example.com'] } });
		const [item] = await run(sandbox(), upsert({ firstName: 'Uma', email: 'uma@example.com', additionalFields: { lastName: 'Ueda' } }), { typeVersion: 1.1 });
		expect(item.json.action).toBe('updated');
		expect(leadsWith('uma@example.com')).toHaveLength(1);
	}, TEST_TIMEOUT_MS);

	it('a refused create (400) is not uncertain: the next item for the person creates as usual', async () => {
		sandbox().faults.inject({ kind: '500', status: 400, code: 20012, message: 'INVALID_PARAMETER: firstName is too long', match: { method: 'POST', path: LEADS } });
		const items = await run(sandbox(), () => upsert({ firstName: 'Vera', email: 'vera@example.com' }), twice);
		expect(items[0].json.writeUncertain).toBeUndefined();
		expect(items[1].json.action).toBe('created');
		expect(leadsWith('vera@example.com')).toHaveLength(1);
	});
});

describe('a write answered by a server error', () => {
	it('Lead > Update answered 500: the item says writeUncertain and the update was sent once', async () => {
		const [created] = await run(sandbox(), { resource: 'lead', operation: 'create', firstName: 'Walt' });
		sandbox().faults.inject({ kind: '500', status: 502, match: { method: 'PUT', path: '/v1.0/leads/{leadId}' } });
		const error = await runError(sandbox(), { resource: 'lead', operation: 'update', leadId: { __rl: true, mode: 'id', value: created.json.leadId }, updateFields: { lastName: 'W' } });
		expect((error as Error & { context?: IDataObject }).context?.writeUncertain).toBe(true);
		expect(error.description).toMatch(/may or may not have been applied/);
		expect(sandbox().count('PUT', '/v1.0/leads/{leadId}')).toBe(1);
	});
});

describe('a write answered 2xx with an error code: its outcome is what the code means', () => {
	/** The next lead create is answered HTTP 200 with this code; `applied`: Lofty made the lead first. */
	const codedCreate = (code: string | number, applied: boolean) =>
		sandbox().faults.inject({ kind: '500', status: 200, code, message: `injected ${code}`, applied, match: { method: 'POST', path: LEADS } });

	it("Lead > Create answered 200 with Lofty's internal-error code, the lead made: may have been applied, and Create or Update updates that lead", async () => {
		readDelay(1000);
		codedCreate(20005, true);
		const error = await runError(sandbox(), { resource: 'lead', operation: 'create', firstName: 'Xena', additionalFields: { emails: ['xena@example.com'] } });
		expect((error as Error & { context?: IDataObject }).context?.writeUncertain).toBe(true);
		expect(error.message).toBe('Lofty error (HTTP 200 20005): injected 20005');
		expect(error.description).toMatch(/^The lead may have been created\. Search Lofty by email xena@example\.com/);
		const [item] = await run(sandbox(), upsert({ firstName: 'Xena', email: 'xena@example.com', additionalFields: { lastName: 'Xu' } }), { typeVersion: 1.1 });
		expect(item.json).toMatchObject({ action: 'updated', lastName: 'Xu' });
		expect(leadsWith('xena@example.com')).toHaveLength(1);
		expect(sandbox().faults.writes('POST', LEADS)).toBe(1);
	}, 30_000);

	it('Create or Update answered so, nothing made: the next item for the person creates nothing blindly, naming the earlier item', async () => {
		codedCreate('20005', false);
		const items = await run(sandbox(), () => upsert({ firstName: 'Yara', email: 'yara@example.com' }), twice);
		expect(items[0].json).toMatchObject({ writeUncertain: true, httpCode: '200' });
		expect(items[1].json.error).toMatch(/^A create for this person by item 0 of this execution got no certain answer/);
		expect(sandbox().count('POST', LEADS)).toBe(1);
		expect(leadsWith('yara@example.com')).toHaveLength(0);
	}, 30_000);

	it.each([['INVALID_PARAMETER'], [20012], ['PERMISSION_DENIED'], [20006]])('answered 200 with the refusal code %s: refused, not uncertain; the next item creates as usual', async (code) => {
		codedCreate(code, false);
		const items = await run(sandbox(), () => upsert({ firstName: 'Zoe', email: 'zoe@example.com' }), twice);
		expect(items[0].json.error).toBe(`Lofty error (HTTP 200 ${code}): injected ${code}`);
		expect(items[0].json.writeUncertain).toBeUndefined();
		expect(items[1].json.action).toBe('created');
		expect(leadsWith('zoe@example.com')).toHaveLength(1);
	});

	it('Lead > Update answered 200 with the internal-error code: writeUncertain, sent once, and the description says why', async () => {
		const [created] = await run(sandbox(), { resource: 'lead', operation: 'create', firstName: 'Walt' });
		sandbox().faults.inject({ kind: '500', status: 200, code: 20005, applied: true, match: { method: 'PUT', path: '/v1.0/leads/{leadId}' } });
		const error = await runError(sandbox(), { resource: 'lead', operation: 'update', leadId: { __rl: true, mode: 'id', value: created.json.leadId }, updateFields: { lastName: 'W' } });
		expect((error as Error & { context?: IDataObject }).context?.writeUncertain).toBe(true);
		expect(error.description).toMatch(/^Lofty answered HTTP 200 with its internal-error code \(20005\), so this change may or may not have been applied\. It was not sent again/);
		expect(sandbox().count('PUT', '/v1.0/leads/{leadId}')).toBe(1);
		expect(sandbox().store.getLead(String(created.json.leadId))?.lastName).toBe('W');
	});
});
