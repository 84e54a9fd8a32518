/**
 * A lead write Lofty answered is applied: when the read after it fails (a 5xx past the read retries, a 429 past its
 * retries), the item succeeds with the lead's ID and a note, for Lead > Create and Create or Update alike (one helper,
 * resources/lead/writeRead.ts). Failing it would have a person or Retry On Fail write again.
 */
import { run, useSandbox } from '../harness/sandbox';
import { LONG_TEST_MS, TEST_TIMEOUT_MS } from '../harness/budgets';

const sandbox = useSandbox();
const ONE_LEAD = '/v1.0/leads/{leadId}';
/** Every read of one lead fails: the first answer and the three read retries. */
const readsFail = (status = 500) => sandbox().faults.inject({ kind: '500', status, times: 4, match: { method: 'GET', path: ONE_LEAD } });
const leadsNamed = (firstName: string) => [...sandbox().store.leads.values()].filter((l) => l.firstName === firstName);
const leadsWith = (email: string) => [...sandbox().store.leads.values()].filter((l) => (l.emails as string[]).includes(email));

describe('the read after a lead write fails', () => {
	it('Create or Update, new person, 5xx on every read: created, with a note', async () => {
		readsFail();
		const [item] = await run(sandbox(), { resource: 'lead', operation: 'upsert', firstName: 'Quinn', email: 'quinn@example.com' }, { typeVersion: 1.1 });
		expect(item.json).toMatchObject({ action: 'created', leadId: String(leadsWith('quinn@example.com')[0].leadId) });
		expect(item.json.note).toMatch(/The lead was created; reading it back failed \(Lofty error \(HTTP 500/);
		expect(leadsWith('quinn@example.com')).toHaveLength(1);
	}, TEST_TIMEOUT_MS);

	it('Create or Update, known person, 503 on every read after the update: updated, with a note', async () => {
		const [created] = await run(sandbox(), { resource: 'lead', operation: 'create', firstName: 'Rhea', additionalFields: { emails: ['rhea@example.com'] } });
		readsFail(503);
		const [item] = await run(sandbox(), { resource: 'lead', operation: 'upsert', firstName: 'Rhea', email: 'rhea@example.com', additionalFields: { lastName: 'Stone' } }, { typeVersion: 1.1 });
		expect(item.json).toMatchObject({ action: 'updated', leadId: created.json.leadId });
		expect(item.json.note).toMatch(/The lead was updated; reading it back failed/);
		expect(sandbox().store.leads.get(created.json.leadId as string)?.lastName).toBe('Stone');
	}, TEST_TIMEOUT_MS);

	it('Create or Update, new person, 429 on the read past its retries: created, with a note', async () => {
		sandbox().faults.inject({ kind: '429', retryAfterSec: 0, times: 5, match: { method: 'GET', path: ONE_LEAD } });
		const [item] = await run(sandbox(), { resource: 'lead', operation: 'upsert', firstName: 'Sol', email: 'sol@example.com' }, { typeVersion: 1.1 });
		expect(item.json).toMatchObject({ action: 'created' });
		expect(item.json.note).toMatch(/reading it back failed \(Lofty error \(HTTP 429/);
		expect(leadsWith('sol@example.com')).toHaveLength(1);
	}, LONG_TEST_MS);

	it('Lead > Create, 5xx on every read: created, with the same note', async () => {
		readsFail();
		const [item] = await run(sandbox(), { resource: 'lead', operation: 'create', firstName: 'Tessaly' });
		expect(item.json.leadId).toBe(String(leadsNamed('Tessaly')[0].leadId));
		expect(item.json.note).toMatch(/The lead was created; reading it back failed/);
	}, TEST_TIMEOUT_MS);
});
