/**
 * One owner for "a lead we made" (resources/lead/writeRead.ts createThenRead): Lead > Create remembers the lead it
 * made as Create or Update does, so that Create or Update for the same person a moment later, while Lofty's read
 * delay outlasts the node's 3.75 s wait, updates that lead instead of making a second. Lead > Create takes the
 * person's turn, so the two meet across executions too.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { heldTurns } from '../../nodes/Lofty/model/turns';
import { leadPersistence } from '../../sandbox/resources/lead';
import { createContext } from '../harness/context';
import { gate, until } from '../harness/gates';
import { forgetProcessMemory } from '../harness/processMemory';
import { observe } from '../secrets/observe';
import { apiKeyCredential, node, run, useSandbox } from '../harness/sandbox';

const sandbox = useSandbox();
beforeEach(() => forgetProcessMemory());
afterEach(() => expect(heldTurns()).toBe(0));

const LEADS = '/v1.0/leads';
const leadsWith = (email: string) => [...sandbox().store.leads.values()].filter((l) => (l.emails as string[]).includes(email));
/** Lofty cannot read a new lead for a minute: longer than the node's wait after a create. */
const slowReads = () => (leadPersistence(sandbox().store).readDelayMs = 60_000);
const create = (firstName: string, extra: IDataObject) => ({ resource: 'lead', operation: 'create', firstName, additionalFields: extra });
const upsert = (firstName: string, extra: IDataObject) => ({ resource: 'lead', operation: 'upsert', firstName, ...extra });

describe('Lead > Create remembers the lead it made', () => {
	it('Create or Update for the email right after, while Lofty cannot read the lead yet: updates it, no second lead', async () => {
		slowReads();
		const [made] = await run(sandbox(), create('Nora', { emails: ['nora@example.com'], lastName: 'Nash' }), { typeVersion: 1.1 });
		expect(made.json.note).toBe('Lofty has not made the new lead readable yet; read it later with Lead > Get');
		const [item] = await run(sandbox(), upsert('Nora', { email: 'nora@example.com', additionalFields: { source: 'Open house' } }), { typeVersion: 1.1 });
		expect(item.json).toMatchObject({ action: 'updated', leadId: made.json.leadId });
		expect(leadsWith('nora@example.com')).toHaveLength(1);
		expect(leadsWith('nora@example.com')[0].source).toBe('Open house');
		expect(sandbox().count('POST', LEADS)).toBe(1);
	}, 30_000);

	it('by its phone as well, compared as the match compares phones', async () => {
		slowReads();
		const [made] = await run(sandbox(), create('Omar', { phones: ['(415) 555-0177'] }), { typeVersion: 1.1 });
		const [item] = await run(sandbox(), upsert('Omar', { matchBy: 'phone', phone: '+1 415 555 0177' }), { typeVersion: 1.1 });
		expect(item.json).toMatchObject({ action: 'unchanged', leadId: made.json.leadId });
		expect(sandbox().count('POST', LEADS)).toBe(1);
	}, 30_000);

	it('a create without email or phone remembers nothing, and another person is not taken for it', async () => {
		slowReads();
		await run(sandbox(), create('Pia', {}), { typeVersion: 1.1 });
		const [item] = await run(sandbox(), upsert('Pia', { email: 'pia@example.com' }), { typeVersion: 1.1 });
		expect(item.json.action).toBe('created');
		expect(sandbox().count('POST', LEADS)).toBe(2);
	}, 30_000);

	it('in two executions at once: Create or Update waits for the Create of its person and updates the lead it made', async () => {
		slowReads();
		const held = gate();
		sandbox().faults.inject({ kind: 'slow', until: held.promise, match: { method: 'POST', path: LEADS } });
		const execution = (params: IDataObject): IExecuteFunctions =>
			createContext(node, { params: { authentication: 'apiKey', ...params }, credential: apiKeyCredential(sandbox()), typeVersion: 1.1 });
		const output = async (ctx: IExecuteFunctions) => {
			const result = (await node.execute!.call(ctx)) as INodeExecutionData[][];
			observe('Lofty output', result);
			return result[0].map((o) => o.json);
		};
		const first = output(execution(create('Quinn', { emails: ['quinn@example.com'] })));
		await until(() => sandbox().count('POST', LEADS) === 1);
		const secondCtx = execution(upsert('Quinn', { email: 'quinn@example.com', additionalFields: { lastName: 'Q' } }));
		const read = gate();
		const getCredentials = secondCtx.getCredentials.bind(secondCtx);
		(secondCtx as { getCredentials: unknown }).getCredentials = async (type: string) => (read.open(), await getCredentials(type));
		const second = output(secondCtx);
		await read.promise;
		held.open();
		const [[a], [b]] = await Promise.all([first, second]);
		expect(b).toMatchObject({ action: 'updated', leadId: a.leadId });
		expect(leadsWith('quinn@example.com')).toHaveLength(1);
	}, 30_000);
});
