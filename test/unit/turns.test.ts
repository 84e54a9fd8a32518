/** Turns (model/turns.ts): their keys and scope from the resource tables, and who waits for whom. */
import type { IExecuteFunctions } from 'n8n-workflow';

import { forgetTurns, heldTurns, inTurn, placeInLine, recordParams, turnKeys, turnScope } from '../../nodes/Lofty/model/turns';
import type { OperationDef } from '../../nodes/Lofty/model/types';
import { findOperation } from '../../nodes/Lofty/resources';
import { gate, tick } from '../harness/gates';
import { secondWaits } from './turnWaits';

const op = (resource: string, operation: string) => findOperation(resource, operation)!.op;

/** An execution context as far as turns read it: the node's credential (n8n's ID, and the credential's data). */
const execution = (credentialId = '1', data: Record<string, unknown> = { apiKey: 'key-1' }, authentication = 'apiKey') =>
	({
		getNodeParameter: (name: string, __: number, fallback: unknown) => (name === 'authentication' ? authentication : fallback),
		getNode: () => ({ credentials: { [authentication === 'oAuth2' ? 'loftyOAuth2Api' : 'loftyApi']: { id: credentialId, name: 'Lofty' } } }),
		getCredentials: async () => data,
	}) as unknown as IExecuteFunctions;

/** A write whose keys are given as they are, in an execution or across executions. */
const write = (scope: 'execution' | 'account' = 'execution'): OperationDef =>
	({ value: 'w', name: 'W', action: 'w', description: 'w', method: 'PUT', effect: 'write', path: '/w', params: [], turn: { keys: (v: Record<string, unknown>) => v.keys as string[], scope } }) as OperationDef;

describe('turn keys and scope from the tables', () => {
	it('a write is named by the IDs in its path; reads and plain creates take no turn', () => {
		expect(turnKeys(op('lead', 'update'), { leadId: '9007199254740993', firstName: 'A' })).toEqual(['leadId=9007199254740993']);
		expect(turnKeys(op('transaction', 'update'), { leadId: '1', transactionId: '2' })).toEqual(['leadId=1', 'transactionId=2']);
		expect(turnKeys(op('lead', 'get'), { leadId: '1' })).toEqual([]);
		expect(turnKeys(op('lead', 'getAll'), {})).toEqual([]);
		expect(turnKeys(op('lead', 'create'), { firstName: 'A' })).toEqual([]);
	});

	it('an ID in the body, or one thing of the team, is named by the table', () => {
		expect(turnKeys(op('organization', 'updateOffice'), { officeId: '12347', name: 'X' })).toEqual(['officeId=12347']);
		expect(turnKeys(op('organization', 'updateCompany'), { name: 'X' })).toEqual(['#company']);
		expect(turnKeys(op('salesAgent', 'updateSettings'), { id: '5', assistantName: 'X' })).toEqual(['#salesAgent']);
		expect(turnKeys(op('agent', 'reactivate'), { agentId: '7' })).toEqual(['agentId=7', '#licenseSeats']);
		expect(turnKeys(op('transaction', 'syncFromBrokermint'), { transactionId: '9' })).toEqual(['transactionId=9']);
		expect(turnKeys(op('transaction', 'updatePropertyAddress'), { leadId: '1', transactionId: '9' })).toEqual(['leadId=1', 'transactionId=9']);
		expect(turnKeys(op('agent', 'addTags'), { agentId: '7', tagNames: ['VIP', 'Hot'] })).toEqual(['agentId=7', 'tagNames=VIP', 'tagNames=Hot']);
		// A record parameter left empty names nothing.
		expect(turnKeys(op('lead', 'syncFromBrokermint'), { email: 'a@b.co' })).toEqual([]);
		expect(recordParams(op('organization', 'createOffice'))).toEqual([]);
	});

	it('Create or Update is named by every email and phone of the person, compared as the match compares them', () => {
		const keys = turnKeys(op('lead', 'upsert'), { email: 'Jane@Example.com ', phone: '(415) 555-0101', emails: ['jane@example.com', 'j2@example.com'], phones: ['+1 415 555 0101'] });
		expect(keys).toEqual(['email:jane@example.com', 'email:j2@example.com', 'phone:+14155550101']);
	});

	it('Lead > Create is named by the person it makes, on the account, so that it meets Create or Update for them', () => {
		expect(turnKeys(op('lead', 'create'), { firstName: 'A', emails: ['A@Example.com'], phones: ['(415) 555-0101', 7] })).toEqual(['email:a@example.com', 'phone:+14155550101']);
		expect(turnKeys(op('lead', 'create'), { firstName: 'A', emails: 'a@example.com' })).toEqual([]);
		expect(turnScope(op('lead', 'create'))).toBe('account');
	});

	it('writes that send what they read first hold their turn across executions; plain writes within theirs', () => {
		expect(turnScope(op('lead', 'upsert'))).toBe('account');
		// Lofty replaces the whole custom-field list of a transaction: the values read are sent back.
		expect(turnScope(op('transaction', 'update'))).toBe('account');
		expect(turnScope(op('transaction', 'create'))).toBe('execution');
		// Multi-Choice Values "Add" reads the lead's choices and sends them back with the new ones.
		expect(turnScope(op('lead', 'update'))).toBe('account');
		expect(turnScope(op('transaction', 'updatePropertyAddress'))).toBe('execution');
	});
});

describe('inTurn', () => {
	afterEach(() => forgetTurns());

	it('runs the items of one key one after another in call order, other keys alongside; a failure does not stop the next', async () => {
		const ctx = execution();
		const log: string[] = [];
		const gates = [gate(), gate()];
		const a0 = inTurn(ctx, write(), { keys: ['a'] }, async () => (log.push('a0 start'), await gates[0].promise, log.push('a0 end')));
		const a1 = inTurn(ctx, write(), { keys: ['a'] }, async () => log.push('a1'));
		const b0 = inTurn(ctx, write(), { keys: ['b'] }, async () => (log.push('b0 start'), await gates[1].promise, log.push('b0 end')));
		await tick();
		expect(log).toEqual(['a0 start', 'b0 start']);
		gates[1].open();
		await tick();
		expect(log).toEqual(['a0 start', 'b0 start', 'b0 end']);
		gates[0].fail(new Error('a0 failed'));
		await expect(a0).rejects.toThrow('a0 failed');
		await Promise.all([a1, b0]);
		expect(log).toEqual(['a0 start', 'b0 start', 'b0 end', 'a1']);
		expect(heldTurns()).toBe(0);
	});

	it('an item on two keys waits for the earlier items of each, and later items of either wait for it', async () => {
		const ctx = execution();
		const log: string[] = [];
		const gates = [gate(), gate(), gate()];
		const a = inTurn(ctx, write(), { keys: ['a'] }, async () => (log.push('a start'), await gates[0].promise, log.push('a end')));
		const b = inTurn(ctx, write(), { keys: ['b'] }, async () => (log.push('b start'), await gates[1].promise, log.push('b end')));
		const ab = inTurn(ctx, write(), { keys: ['a', 'b'] }, async () => (log.push('ab start'), await gates[2].promise, log.push('ab end')));
		const b2 = inTurn(ctx, write(), { keys: ['b'] }, async () => log.push('b2'));
		const none = inTurn(ctx, write(), { keys: [] }, async () => log.push('no key'));
		await tick();
		expect(log).toEqual(['no key', 'a start', 'b start']);
		gates[0].open();
		await tick();
		expect(log).toEqual(['no key', 'a start', 'b start', 'a end']);
		gates[1].open();
		await tick();
		expect(log).toEqual(['no key', 'a start', 'b start', 'a end', 'b end', 'ab start']);
		gates[2].open();
		await Promise.all([a, b, ab, b2, none]);
		expect(log.slice(-2)).toEqual(['ab end', 'b2']);
		expect(heldTurns()).toBe(0);
	});

	it('an account turn waits for another execution on the same credential; a plain turn, or another account, does not', async () => {
		const [first, second, otherCredential] = [execution('1'), execution('1'), execution('2', { apiKey: 'key-2' })];
		const log: string[] = [];
		const held = gate();
		const a = inTurn(first, write('account'), { keys: ['k'] }, async () => (log.push('first'), await held.promise, log.push('first end')));
		const b = inTurn(second, write('account'), { keys: ['k'] }, async () => log.push('second, same account'));
		const c = inTurn(second, write('execution'), { keys: ['k2'] }, async () => log.push('second, plain'));
		const d = inTurn(otherCredential, write('account'), { keys: ['k'] }, async () => log.push('other account'));
		await tick();
		// The account's keys are taken after the execution's (model/turns.ts, step 2): a few promise rounds later.
		expect([...log].sort()).toEqual(['first', 'other account', 'second, plain']);
		held.open();
		await Promise.all([a, b, c, d]);
		expect(log.slice(-2)).toEqual(['first end', 'second, same account']);
	});

	it("an account turn keeps its place among its own execution's plain writes on the same key", async () => {
		const ctx = execution();
		const log: string[] = [];
		const held = gate();
		const plain = inTurn(ctx, write('execution'), { keys: ['k'] }, async () => (log.push('plain'), await held.promise, log.push('plain end')));
		const account = inTurn(ctx, write('account'), { keys: ['k'] }, async () => log.push('account'));
		await tick();
		expect(log).toEqual(['plain']);
		held.open();
		await Promise.all([plain, account]);
		expect(log).toEqual(['plain', 'plain end', 'account']);
	});

	it('a place in a line: steps run in the order the places were taken, whatever turn each item waits for; a released place lets the next go', async () => {
		const ctx = execution();
		const log: string[] = [];
		const held = gate();
		const places = [placeInLine(ctx, 'l'), placeInLine(ctx, 'l'), placeInLine(ctx, 'l')];
		// Item 0 reaches its step only after a turn it waits for; item 2 is there at once; item 1 never gets there.
		const first = held.promise.then(async () => await places[0].run(async () => log.push('item 0')));
		const third = places[2].run(async () => log.push('item 2'));
		await tick();
		expect(log).toEqual([]);
		held.open();
		await first;
		await tick();
		expect(log).toEqual(['item 0']);
		places[1].release();
		await third;
		expect(log).toEqual(['item 0', 'item 2']);
		expect(heldTurns()).toBe(0);
	});
});

describe('the account of a turn: the Lofty user the credential acts as, whichever n8n credential holds the key', () => {
	afterEach(() => forgetTurns());

	/** Whether an account turn of `second` waits for one `first` holds. */
	const waits = (first: IExecuteFunctions, second: IExecuteFunctions) => secondWaits(first, second, write('account'), { keys: ['person'] });
	const clientCredentials = (customerApiKey: string, clientId = 'client-1') => ({ grantType: 'clientCredentials', clientId, clientSecret: 's', customerApiKey });

	it('two n8n credentials of one API key wait for each other; two keys do not', async () => {
		expect(await waits(execution('1', { apiKey: 'key-1' }), execution('2', { apiKey: 'key-1' }))).toBe(true);
		expect(await waits(execution('1', { apiKey: 'key-1' }), execution('1', { apiKey: 'key-2' }))).toBe(false);
	});

	it('the base URL is part of the account: one key on two Lofty hosts does not wait', async () => {
		expect(await waits(execution('1', { apiKey: 'key-1', baseUrl: 'https://a.example' }), execution('2', { apiKey: 'key-1', baseUrl: 'https://a.example/' }))).toBe(true);
		expect(await waits(execution('1', { apiKey: 'key-1', baseUrl: 'https://a.example' }), execution('2', { apiKey: 'key-1', baseUrl: 'https://b.example' }))).toBe(false);
	});

	it('OAuth2 Client Credentials: the Customer Key is the account (the same user as its API key), whatever the client', async () => {
		const oauth = (id: string, data: Record<string, unknown>) => execution(id, data, 'oAuth2');
		expect(await waits(oauth('1', clientCredentials('key-1')), oauth('2', clientCredentials('key-1', 'client-2')))).toBe(true);
		expect(await waits(oauth('1', clientCredentials('key-1')), execution('2', { apiKey: 'key-1' }))).toBe(true);
		expect(await waits(oauth('1', clientCredentials('key-1')), oauth('1', clientCredentials('key-2')))).toBe(false);
	});

	it('OAuth2 Authorization Code names no user: its n8n credential is the account', async () => {
		const code = (id: string) => execution(id, { grantType: 'authorizationCode', clientId: 'client-1', oauthTokenData: { access_token: `t${id}` } }, 'oAuth2');
		expect(await waits(code('1'), code('1'))).toBe(true);
		expect(await waits(code('1'), code('2'))).toBe(false);
	});

	it('the account is read as the item starts, once per execution, and a credential that cannot be read fails the item and holds nothing', async () => {
		let reads = 0;
		const ctx = execution('1');
		const read = ctx.getCredentials.bind(ctx);
		(ctx as { getCredentials: unknown }).getCredentials = async (type: string) => (reads++, await read(type));
		const started = inTurn(ctx, write('account'), { keys: ['k'] }, async () => 'done');
		expect(reads).toBe(1);
		await started;
		await inTurn(ctx, write('account'), { keys: ['k2'] }, async () => 'done');
		expect(reads).toBe(1);
		const broken = execution('3');
		(broken as { getCredentials: unknown }).getCredentials = async () => {
			throw new Error('Node does not have any credentials set');
		};
		await expect(inTurn(broken, write('account'), { keys: ['k'] }, async () => 'ran')).rejects.toThrow('Node does not have any credentials set');
		expect(heldTurns()).toBe(0);
		// A plain write on no record of the account does not read the credential.
		expect(await inTurn(broken, write('execution'), { keys: ['#team'] }, async () => 'ran')).toBe('ran');
	});
});

