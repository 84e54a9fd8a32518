/**
 * Every operation that writes an email or a phone checks it with the same rule before anything is sent
 * (model/contacts.ts); Lead > Create checks what Create or Update checks, and stores phones in one form.
 */
import { parseJson } from '../../sandbox';
import { SEED_IDS } from '../../sandbox/core/seed';
import { byId, run, runError, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const lead = byId(SEED_IDS.bigLeadId);

const cases: Array<[string, Record<string, unknown>, string]> = [
	['Lead > Create, Emails', { resource: 'lead', operation: 'create', firstName: 'Bad', additionalFields: { emails: ['not-an-email'] } }, 'Emails'],
	['Lead > Create, Phones', { resource: 'lead', operation: 'create', firstName: 'Bad', additionalFields: { phones: ['call me'] } }, 'Phones'],
	['Lead > Update, Emails', { resource: 'lead', operation: 'update', leadId: lead, updateFields: { emails: ['jane@'] } }, 'Emails'],
	['Lead > Update, Phones', { resource: 'lead', operation: 'update', leadId: lead, updateFields: { phones: ['12'] } }, 'Phones'],
	['Lead > Create or Update, Email', { resource: 'lead', operation: 'upsert', firstName: 'Bad', email: 'not-an-email' }, 'Email'],
	['Lead > Create or Update, Phones', { resource: 'lead', operation: 'upsert', firstName: 'Bad', email: 'ok@example.com', additionalFields: { phones: ['n/a'] } }, 'Phones'],
	['Lead > Resolve Assignee, Email', { resource: 'lead', operation: 'resolveAssignee', firstName: 'Bad', email: 'bad@example' }, 'Email'],
	['Lead > Resolve Assignee, Phone', { resource: 'lead', operation: 'resolveAssignee', firstName: 'Bad', email: 'ok@example.com', additionalFields: { phone: 'x' } }, 'Phone'],
	['Lead > Sync From Brokermint, Email', { resource: 'lead', operation: 'syncFromBrokermint', contactFields: { externalId: '1', email: 'no' } }, 'Email'],
	['Lead > Sync From Brokermint, Phone', { resource: 'lead', operation: 'syncFromBrokermint', contactFields: { externalId: '1', phone: '555' } }, 'Phone'],
	['Manual Log > Create, Lead Phone Number', { resource: 'manualLog', operation: 'create', leadId: lead, logType: 'logCall', content: 'x', additionalFields: { leadPhoneNumber: 'none' } }, 'Lead Phone Number'],
	['Manual Log > Create, To Email', { resource: 'manualLog', operation: 'create', leadId: lead, logType: 'logEmail', content: 'x', additionalFields: { toEmail: 'lead' } }, 'To Email'],
	['Communication > Send SMS, Phone Number', { resource: 'communication', operation: 'sendSms', leadId: lead, content: 'Hi', additionalFields: { phoneNumber: '58-65' } }, 'Phone Number'],
];

describe('a bad email or phone is refused before anything is sent, with one rule', () => {
	it.each(cases)('%s', async (_name, params, field) => {
		const error = await runError(sandbox(), params);
		expect(error.message).toMatch(new RegExp(`^Invalid value for "${field}": must be an? (email address such as jane@example.com|phone number such as 4155551234), got "`));
		expect(error.description).toBe('Nothing was sent to Lofty for this item. Correct the field and run again.');
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('Lead > Create', () => {
	it('stores phones in one form (+14155550101), as Create or Update compares them', async () => {
		const [item] = await run(sandbox(), { resource: 'lead', operation: 'create', firstName: 'Tess', additionalFields: { phones: ['(415) 555-0101', '+44 7700 900123', '415.555.0102 ext. 7'] } });
		const posted = sandbox().requests.find((r) => r.method === 'POST' && r.path === '/v1.0/leads');
		expect((parseJson(posted!.body!) as { phones: string[] }).phones).toEqual(['+14155550101', '+447700900123', '+14155550102 x7']);
		expect(item.json.leadId).toMatch(/^\d+$/);
	});
});
