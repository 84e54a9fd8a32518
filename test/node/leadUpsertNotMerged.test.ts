/**
 * Lead > Create or Update never merges two people: with Match By "Email, Then Phone", a lead found only by the
 * phone is updated only when it is the item's person (Options > If Only the Phone Matches). The first case is the
 * curl line `npm start` prints, after Maria Santos got that phone.
 */
import type { IDataObject } from 'n8n-workflow';

import { parseJson } from '../../sandbox';
import { leadPersistence } from '../../sandbox/resources/lead';
import { byId, run, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
const upsert = (params: Record<string, unknown>) => ({ resource: 'lead', operation: 'upsert', ...params });

/** A lead put into Lofty directly (another app, an agent): its ID. */
async function lofty(body: IDataObject): Promise<string> {
	const r = await fetch(`${sandbox().url}/v1.0/leads`, {
		method: 'POST',
		headers: { authorization: `token ${sandbox().apiKey}`, 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	return String((parseJson(await r.text()) as IDataObject).leadId);
}

async function leadById(leadId: string): Promise<IDataObject> {
	leadPersistence(sandbox().store).readableAt.clear();
	const [item] = await run(sandbox(), { resource: 'lead', operation: 'get', leadId: byId(leadId), output: 'raw' });
	return item.json;
}

/** The curl line of `npm start`: the web-form example's Create or Update with default Match By. */
const ada = { firstName: 'Ada', email: 'ada@example.com', phone: '4155550123', additionalFields: { lastName: 'Lovelace', source: 'Website' } };

describe('a lead found only by the phone is not taken for another person', () => {
	it("Ada (the npm start curl line) does not update Maria, who has Ada's phone: a new lead, and the output names Maria's lead and why", async () => {
		const maria = await lofty({ firstName: 'Maria', lastName: 'Santos', emails: ['maria@example.com'], phones: ['(415) 555-0123'], source: 'Zillow' });
		const [item] = await run(sandbox(), upsert(ada));
		expect(item.json.action).toBe('created');
		expect(item.json.leadId).not.toBe(maria);
		expect(item.json.notMergedWith).toEqual([
			{
				leadId: maria,
				matchedBy: 'phone',
				differs: ['firstName', 'lastName', 'emails'],
				why: expect.stringMatching(/^Lead \d+ has this phone but another first name \(Maria\) and another last name \(Santos\) and other emails \(maria@example.com\)/),
			},
		]);
		expect(await leadById(maria)).toMatchObject({ firstName: 'Maria', lastName: 'Santos', emails: ['maria@example.com'], source: 'Zillow' });
		expect(await leadById(item.json.leadId as string)).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', emails: ['ada@example.com'], source: 'Website' });
	});

	it('another first name alone (the lead has no email) keeps them apart', async () => {
		const maria = await lofty({ firstName: 'Maria', phones: ['4155550123'] });
		const [item] = await run(sandbox(), upsert({ firstName: 'Ada', phone: '+1 415 555 0123' }));
		expect(item.json).toMatchObject({ action: 'created', notMergedWith: [{ leadId: maria, differs: ['firstName'] }] });
	});

	it("other emails alone keep them apart by default; Update It When the Name Agrees adds the item's email instead", async () => {
		const adaHome = await lofty({ firstName: 'Ada', lastName: 'Lovelace', emails: ['ada.home@example.com'], phones: ['4155550123'] });
		const [first] = await run(sandbox(), upsert(ada));
		expect(first.json).toMatchObject({ action: 'created', notMergedWith: [{ leadId: adaHome, differs: ['emails'] }] });

		sandbox().reset();
		const again = await lofty({ firstName: 'ada', lastName: 'LOVELACE', emails: ['ada.home@example.com'], phones: ['4155550123'] });
		const [second] = await run(sandbox(), upsert({ ...ada, options: { phoneOnly: 'nameAgrees' } }));
		expect(second.json).toMatchObject({ action: 'updated', matchedBy: 'phone', leadId: again });
		expect(second.json.notMergedWith).toBeUndefined();
		expect((await leadById(again)).emails).toEqual(['ada.home@example.com', 'ada@example.com']);
	});

	it('Update It When the Name Agrees still keeps another name apart', async () => {
		const maria = await lofty({ firstName: 'Maria', emails: ['maria@example.com'], phones: ['4155550123'] });
		const [item] = await run(sandbox(), upsert({ ...ada, options: { phoneOnly: 'nameAgrees' } }));
		expect(item.json).toMatchObject({ action: 'created', notMergedWith: [{ leadId: maria, differs: ['firstName'] }] });
	});

	it('nothing differs (same name, the lead has no email): the lead is updated as before', async () => {
		const known = await lofty({ firstName: 'Ada', phones: ['4155550123'] });
		const [item] = await run(sandbox(), upsert(ada));
		expect(item.json).toMatchObject({ action: 'updated', matchedBy: 'phone', leadId: known });
		expect(await leadById(known)).toMatchObject({ lastName: 'Lovelace', emails: ['ada@example.com'] });
	});

	it('Always Update It, and Match By Phone, update the lead with the phone whatever its name', async () => {
		const maria = await lofty({ firstName: 'Maria', emails: ['maria@example.com'], phones: ['4155550123'] });
		const items = await run(sandbox(), (i) => upsert([{ ...ada, options: { phoneOnly: 'update' } }, { ...ada, matchBy: 'phone', email: undefined }][i]), { items: [{}, {}] });
		expect(items.map((i) => [i.json.action, i.json.leadId])).toEqual([
			['updated', maria],
			['unchanged', maria],
		]);
	});

	it('of several leads with the phone, the one that is the same person is updated; the others are not named', async () => {
		const adaOld = await lofty({ firstName: 'Ada', phones: ['4155550123'] });
		// Created last: the one "If Several Match" would pick.
		const bob = await lofty({ firstName: 'Bob', phones: ['4155550123'] });
		const [item] = await run(sandbox(), upsert(ada));
		expect(item.json).toMatchObject({ action: 'updated', leadId: adaOld });
		expect(item.json.leadId).not.toBe(bob);
	});

	it('within one run, from memory (Lofty cannot read the new lead yet): Maria created by item 1 is not updated by Ada in item 2', async () => {
		leadPersistence(sandbox().store).readDelayMs = 60_000;
		const items = await run(
			sandbox(),
			(i) => upsert([{ firstName: 'Maria', email: 'maria@example.com', phone: '4155550123' }, ada][i]),
			{ items: [{}, {}] },
		);
		expect(items.map((i) => i.json.action)).toEqual(['created', 'created']);
		expect(items[1].json.notMergedWith).toEqual([expect.objectContaining({ leadId: items[0].json.leadId, differs: ['firstName', 'emails'] })]);
		expect(sandbox().count('POST', '/v1.0/leads')).toBe(2);
	});

	it('the Simplified output shows notMergedWith', async () => {
		await lofty({ firstName: 'Maria', phones: ['4155550123'] });
		const [item] = await run(sandbox(), upsert({ ...ada, output: 'simplified' }), { typeVersion: 1.2 });
		expect(Object.keys(item.json)).toEqual(expect.arrayContaining(['action', 'notMergedWith', 'leadId', 'firstName']));
	});
});
