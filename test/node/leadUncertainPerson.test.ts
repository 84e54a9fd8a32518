/**
 * A create without a certain answer (resources/lead/uncertainCreates.ts) holds back only Create or Update items that
 * may be its person: consulted under the keys the item matches by (Match By Email never by the phone), and a phone
 * alone only when the item's own rules (If Only the Phone Matches) would take that person for the item's. Ann and
 * Bob of one household (own emails, one phone): Ann's create applied and its answer lost must not stop Bob.
 */
import type { IDataObject } from 'n8n-workflow';

import { leadPersistence } from '../../sandbox/resources/lead';
import { run, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const LEADS = '/v1.0/leads';
const PHONE = '(415) 555-0142';
const upsert = (firstName: string, email: string | undefined, extra: IDataObject = {}) => ({ resource: 'lead', operation: 'upsert', firstName, email, phone: PHONE, ...extra });
const leadsWithPhone = () => [...sandbox().store.leads.values()].filter((l) => (l.phones as string[]).includes('+14155550142'));
const readDelay = (ms: number) => (leadPersistence(sandbox().store).readDelayMs = ms);
const twoItems = { items: [{}, {}], continueOnFail: true, typeVersion: 1.1 };
/** Ann's create is applied and its answer lost; Bob comes next. */
const annLostThenBob = async (bob: IDataObject) => {
	sandbox().faults.inject({ kind: 'drop', match: { method: 'POST', path: LEADS } });
	return await run(sandbox(), (i) => (i === 0 ? upsert('Ann', 'ann@example.com') : bob), twoItems);
};

describe("an uncertain create holds back only its person's items", () => {
	it('Match By Email: a shared phone is not a match, so Bob is created', async () => {
		readDelay(60_000);
		const [ann, bob] = await annLostThenBob(upsert('Bob', 'bob@example.com', { matchBy: 'email' }));
		expect(ann.json.writeUncertain).toBe(true);
		expect(bob.json).toMatchObject({ action: 'created' });
		expect(leadsWithPhone().map((l) => l.firstName).sort()).toEqual(['Ann', 'Bob']);
	}, 30_000);

	it("Email, Then Phone: Ann's create shares only the phone and the rules set her apart (another name and email), so Bob is created", async () => {
		readDelay(60_000);
		const [, bob] = await annLostThenBob(upsert('Bob', 'bob@example.com'));
		expect(bob.json).toMatchObject({ action: 'created' });
		expect(leadsWithPhone()).toHaveLength(2);
	}, 30_000);

	it('Lofty shows Ann by then: Bob is created, and the output says Ann was not merged', async () => {
		readDelay(1);
		const [, bob] = await annLostThenBob(upsert('Bob', 'bob@example.com'));
		expect(bob.json).toMatchObject({ action: 'created', notMergedWith: [{ matchedBy: 'phone', differs: ['firstName', 'emails'] }] });
		expect(leadsWithPhone()).toHaveLength(2);
	}, 30_000);

	it('Always Update It: the phone is the person, so Bob waits for Lofty to show the lead and updates it', async () => {
		readDelay(1000);
		const [, bob] = await annLostThenBob(upsert('Bob', 'bob@example.com', { options: { phoneOnly: 'update' } }));
		expect(bob.json).toMatchObject({ action: 'updated', matchedBy: 'phone' });
		expect(leadsWithPhone()).toHaveLength(1);
	}, 30_000);

	it('Match By Phone: the phone is the person, so the item waits and fails naming Ann\'s item while Lofty shows nothing', async () => {
		readDelay(60_000);
		const [, bob] = await annLostThenBob(upsert('Bob', undefined, { matchBy: 'phone' }));
		expect(bob.json.error).toBe(
			'A create for this person by item 0 of this execution got no certain answer, and Lofty shows no lead for them yet: this item created none, so that the person does not get two',
		);
		expect(leadsWithPhone()).toHaveLength(1);
	}, 30_000);

	it("the same first name and no email on the earlier create: waited for; a lead Lofty shows that the rules set apart is named, and the item does not say that nothing exists", async () => {
		readDelay(0);
		const [carl] = await run(sandbox(), upsert('Carl', 'carl@example.com'), { typeVersion: 1.1 });
		// Ann's create (no email) is refused with a server error: not made, uncertain.
		sandbox().faults.inject({ kind: '500', match: { method: 'POST', path: LEADS } });
		const items = await run(sandbox(), (i) => (i === 0 ? upsert('Ann', undefined) : upsert('Ann', 'ann2@example.com')), twoItems);
		expect(items[0].json.writeUncertain).toBe(true);
		expect(items[1].json.error).toMatch(/^A create for this person by item 0 of this execution got no certain answer/);
		expect(items[1].json.description).toContain(`Lofty shows lead ${String(carl.json.leadId)} with this phone, which Options > If Only the Phone Matches takes for another person.`);
	}, 30_000);
});
