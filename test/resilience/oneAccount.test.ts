/**
 * One account identity (transport/target.ts accountOf) for the turns (model/turns.ts), the leads made a moment ago and
 * the creates without a certain answer (resources/lead): two n8n credentials of one API key (one per workflow author,
 * or the old and new after a rotation) are one Lofty account, so two executions for one new person wait for each
 * other and make one lead.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { leadPersistence } from '../../sandbox/resources/lead';
import { createContext } from '../harness/context';
import { gate, until } from '../harness/gates';
import { forgetProcessMemory } from '../harness/processMemory';
import { observe } from '../secrets/observe';
import { apiKeyCredential, node, useSandbox } from '../harness/sandbox';
import { heldTurns } from '../../nodes/Lofty/model/turns';

const sandbox = useSandbox();
beforeEach(() => forgetProcessMemory());
afterEach(() => expect(heldTurns()).toBe(0));

const LEADS = '/v1.0/leads';

/** An execution of the node with the demo API key in the n8n credential `credentialId`; `read` settles once it read the credential. */
function execution(credentialId: string, params: IDataObject): { ctx: IExecuteFunctions; read: Promise<void> } {
	const ctx = createContext(node, { params: { authentication: 'apiKey', ...params }, credential: apiKeyCredential(sandbox()), typeVersion: 1.1 });
	ctx.getNode().credentials!.loftyApi.id = credentialId;
	const read = gate();
	const getCredentials = ctx.getCredentials.bind(ctx);
	(ctx as { getCredentials: unknown }).getCredentials = async (type: string) => (read.open(), await getCredentials(type));
	return { ctx, read: read.promise };
}

const output = async (ctx: IExecuteFunctions) => {
	const result = (await node.execute!.call(ctx)) as INodeExecutionData[][];
	observe('Lofty output', result);
	return result[0].map((o) => o.json);
};

describe('two n8n credentials of one API key are one account', () => {
	it('Create or Update for one new person in two executions at once: the second waits for the first and finds its lead', async () => {
		// Lofty cannot read the new lead for a minute; the first create is applied and its answer held back.
		leadPersistence(sandbox().store).readDelayMs = 60_000;
		const held = gate();
		sandbox().faults.inject({ kind: 'slow', until: held.promise, match: { method: 'POST', path: LEADS } });
		const upsert = (firstName: string, lastName: string) => ({ resource: 'lead', operation: 'upsert', email: 'one.person@example.com', firstName, additionalFields: { lastName } });
		const first = execution('1', upsert('Ana', 'Ortiz'));
		const firstRun = output(first.ctx);
		await until(() => sandbox().count('POST', LEADS) === 1);
		// The second execution, with another n8n credential of the same key, starts while the create is unanswered.
		const second = execution('2', upsert('Ana', 'Ortiz-Vega'));
		const secondRun = output(second.ctx);
		await second.read;
		held.open();
		const [a, b] = await Promise.all([firstRun, secondRun]);
		expect(a[0]).toMatchObject({ action: 'created' });
		// The lead it found has a last name: Only Fill Empty Fields keeps it.
		expect(b[0]).toMatchObject({ action: 'unchanged', leadId: a[0].leadId, keptFields: ['lastName'] });
		expect([...sandbox().store.leads.values()].filter((l) => l.emails.includes('one.person@example.com'))).toHaveLength(1);
		expect(sandbox().count('POST', LEADS)).toBe(1);
	}, 30_000);
});
