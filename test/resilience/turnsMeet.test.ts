/**
 * Turns meet across operations (issue 35, item 3; model/turns.ts): Create or Update decides from what it read (fill
 * empty fields), so once it knows the lead it holds the account's turn on it and reads it again there; Lead > Update
 * of that lead, in another execution, takes the same key. The final lead is then the one of some serial order.
 */
import type { IDataObject } from 'n8n-workflow';

import { heldTurns } from '../../nodes/Lofty/model/turns';
import { parseJson } from '../../sandbox';
import { gate, tick, until } from '../harness/gates';
import { forgetProcessMemory } from '../harness/processMemory';
import { byId, run, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
beforeEach(() => forgetProcessMemory());
afterEach(() => expect(heldTurns()).toBe(0));

/** A lead Lofty knows: the email, no last name. */
async function leadWithoutLastName(email: string): Promise<string> {
	const r = await fetch(`${sandbox().url}/v1.0/leads`, {
		method: 'POST',
		headers: { authorization: `token ${sandbox().apiKey}`, 'content-type': 'application/json' },
		body: JSON.stringify({ firstName: 'Ana', emails: [email] }),
	});
	return String((parseJson(await r.text()) as IDataObject).leadId);
}

const upsert = (email: string, extra: IDataObject = {}) => ({
	resource: 'lead',
	operation: 'upsert',
	email,
	firstName: 'Ana',
	additionalFields: { lastName: 'Ramos' },
	options: { whenExists: 'fillEmpty' },
	...extra,
});
const update = (leadId: string, extra: IDataObject = {}) => ({ resource: 'lead', operation: 'update', leadId: byId(leadId), updateFields: { lastName: 'Ramos-Diaz' }, ...extra });

describe('Create or Update (fill empty) and Lead > Update of one lead, two executions at once', () => {
	it('Lead > Update lands between the search and the fill-empty write: the lead keeps "Ramos-Diaz", as in both serial orders', async () => {
		const email = 'ramos@example.com';
		const leadId = await leadWithoutLastName(email);
		// The search's answer (read when it arrives: no last name yet) is held back until Lead > Update has ended.
		const searched = gate();
		sandbox().faults.inject({ kind: 'slow', until: searched.promise, match: { method: 'GET', path: '/v1.0/leads' } });
		const form = run(sandbox(), upsert(email));
		await until(() => sandbox().requests.some((r) => r.method === 'GET' && r.path === '/v1.0/leads'));
		await run(sandbox(), update(leadId));
		searched.open();
		const [out] = await form;
		expect(sandbox().store.getLead(leadId)?.lastName).toBe('Ramos-Diaz');
		expect(out.json).toMatchObject({ leadId, lastName: 'Ramos-Diaz' });
	});

	it('Lead > Update waits while Create or Update holds the lead: its write comes after the fill-empty one', async () => {
		const email = 'ramos2@example.com';
		const leadId = await leadWithoutLastName(email);
		const written = gate();
		sandbox().faults.inject({ kind: 'slow', until: written.promise, match: { method: 'PUT', path: `/v1.0/leads/${leadId}` } });
		const form = run(sandbox(), upsert(email));
		await until(() => sandbox().requests.some((r) => r.method === 'PUT'));
		const agent = run(sandbox(), update(leadId));
		await tick(20);
		// Still one write: Lead > Update waits for the lead's turn.
		expect(sandbox().requests.filter((r) => r.method === 'PUT').length).toBe(1);
		written.open();
		await Promise.all([form, agent]);
		expect(sandbox().store.getLead(leadId)?.lastName).toBe('Ramos-Diaz');
	});
});

describe('no deadlock', () => {
	it('a person, a lead and tag spellings met by three executions at once, each waiting for the others: all end', async () => {
		const email = 'cycle@example.com';
		const leadId = await leadWithoutLastName(email);
		// Execution 1 holds the person and is about to learn the lead; execution 2 has the person in item 0 (with a
		// tag to spell) and the lead in item 1 (with a tag: it spells after item 0); execution 3 updates the lead.
		const searched = gate();
		sandbox().faults.inject({ kind: 'slow', until: searched.promise, match: { method: 'GET', path: '/v1.0/leads' } });
		const first = run(sandbox(), upsert(email));
		await until(() => sandbox().requests.some((r) => r.method === 'GET' && r.path === '/v1.0/leads'));
		const second = run(
			sandbox(),
			(i) => (i === 0 ? upsert(email, { additionalFields: { tags: ['Cycle A'] } }) : update(leadId, { updateFields: { tagsAdd: ['cycle b'] } })),
			{ items: [{}, {}] },
		);
		const third = run(sandbox(), update(leadId, { updateFields: { firstName: 'Ana Maria' } }));
		await tick(20);
		searched.open();
		const outs = await Promise.all([first, second, third]);
		expect(outs.flat().map((o) => o.json.error)).toEqual([undefined, undefined, undefined, undefined]);
		const lead = sandbox().store.getLead(leadId)!;
		expect(lead).toMatchObject({ firstName: 'Ana Maria', lastName: 'Ramos' });
		expect([...sandbox().store.leads.values()].filter((l) => l.emails.includes(email)).length).toBe(1);
	});
});
