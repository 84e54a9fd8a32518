/**
 * The lead writes and the read after them (resources/lead/writeRead.ts) with a scripted Lofty: what an item gets
 * when the read after a write fails, what a create remembers, and what an uncertain create says and remembers. The
 * waits are recorded, not slept. The node runs against the sandbox: test/node/leadReadAfterWrite.test.ts,
 * leadCreateReadBack.test.ts, leadMade.test.ts, leadUncertainPerson.test.ts.
 */
import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { recall, emailKey, phoneKey, forgetRecentLeads } from '../../nodes/Lofty/resources/lead/keys';
import { forgetUncertainCreates, uncertainCreateFor } from '../../nodes/Lofty/resources/lead/uncertainCreates';
import { LEAD_READ_DELAY_MS, LEAD_READ_WAITS_MS, createThenRead, currentLead, failure, notFound, readAfterWrite, send } from '../../nodes/Lofty/resources/lead/writeRead';
import type { OperationContext, OperationDef } from '../../nodes/Lofty/model/types';
import { loftyRequest } from '../../nodes/Lofty/transport/request';
import { toNodeApiError } from '../../nodes/Lofty/transport/errors';

const mockSlept: number[] = [];
jest.mock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), sleep: async (ms: number) => void mockSlept.push(ms) }));
jest.mock('../../nodes/Lofty/transport/request', () => ({ ...jest.requireActual('../../nodes/Lofty/transport/request'), loftyRequest: jest.fn(), accountOf: async () => 'acct' }));
const lofty = loftyRequest as jest.MockedFunction<typeof loftyRequest>;

const node = { name: 'Lofty', type: 'n8n-nodes-lofty.lofty', typeVersion: 1, position: [0, 0], parameters: {} } as unknown as INode;
const op = (requestOptions: IDataObject = {}): OperationContext => ({
	ctx: { getNode: () => node, getNodeParameter: () => requestOptions, getExecutionId: () => '41' } as unknown as IExecuteFunctions,
	itemIndex: 2,
	values: {},
});
const error = (httpCode: number, message = 'no', code?: string) => toNodeApiError(node, { httpCode, code, message }, 0);
/** Lofty's answers in order: a value, or an error to throw. */
function answers(...list: unknown[]) {
	lofty.mockImplementation(async () => {
		const next = list.shift();
		if (next instanceof Error) throw next;
		return next;
	});
}
const CREATE = { method: 'POST' } as OperationDef;
const sentPaths = () => lofty.mock.calls.map(([, request]) => `${request.method} ${request.path}`);

beforeEach(() => {
	mockSlept.length = 0;
	lofty.mockReset();
	forgetRecentLeads();
	forgetUncertainCreates();
});

describe('send, notFound, failure', () => {
	it("sends with the item's request settings; an answer that is not an object is {}", async () => {
		answers({ leadId: 5 }, null, [1], 'text');
		await expect(send(op({ timeout: 5000, readRetries: 1 }), 'PUT', '/v1.0/leads/5', { firstName: 'A' })).resolves.toEqual({ leadId: 5 });
		expect(lofty.mock.calls[0][1]).toEqual({ method: 'PUT', path: '/v1.0/leads/5', qs: {}, body: { firstName: 'A' }, timeout: 5000, readRetries: 1, parallelRequests: undefined });
		expect(lofty.mock.calls[0][2]).toBe(2);
		for (let i = 0; i < 3; i++) await expect(send(op(), 'POST', '/v1.0/leads', {})).resolves.toEqual({});
	});

	it('a 404 is Lofty not finding it; the error as the node reports it', () => {
		expect(notFound(error(404))).toBe(true);
		expect(notFound(error(400))).toBe(false);
		expect(notFound(Object.assign(new Error('x'), { httpCode: '404' }))).toBe(false);
		const answered = error(500);
		expect(failure(op(), answered)).toBe(answered);
		const other = failure(op(), new Error('socket hang up'));
		expect(other).toBeInstanceOf(NodeOperationError);
		expect(other.message).toBe('socket hang up');
		expect((other as NodeOperationError).context.itemIndex).toBe(2);
	});
});

describe('readAfterWrite', () => {
	it('a new lead is read again after each wait while Lofty answers 404; the lead inside the answer, or the answer', async () => {
		answers(error(404), error(404), error(404), error(404), { lead: { leadId: '9', firstName: 'A' } });
		await expect(readAfterWrite(op(), '9', 'created')).resolves.toEqual({ lead: { leadId: '9', firstName: 'A' }, readable: true });
		expect(mockSlept).toEqual(LEAD_READ_WAITS_MS);
		expect(LEAD_READ_DELAY_MS).toBe(3750);
		expect(sentPaths()).toEqual(Array(5).fill('GET /v1.0/leads/9'));
		answers({ leadId: '9' });
		await expect(readAfterWrite(op(), '9', false)).resolves.toEqual({ lead: { leadId: '9' }, readable: true });
	});

	it('still 404 after the waits: the ID and a note, never a failure', async () => {
		answers(...Array(5).fill(error(404)));
		await expect(readAfterWrite(op(), '9', 'created')).resolves.toEqual({
			lead: { leadId: '9', note: 'Lofty has not made the new lead readable yet; read it later with Lead > Get' },
			readable: false,
		});
		expect(lofty).toHaveBeenCalledTimes(5);
	});

	it('a lead created a moment ago is read once after an update; a 404 says it is not readable yet', async () => {
		answers(error(404));
		await expect(readAfterWrite(op(), '9', 'recent')).resolves.toEqual({
			lead: { leadId: '9', note: 'Lofty has not made the new lead readable yet; read it later with Lead > Get' },
			readable: false,
		});
		expect(mockSlept).toEqual([]);
	});

	it('another failure: what was done and why the read failed', async () => {
		answers(error(500, 'down'));
		const created = await readAfterWrite(op(), '9', 'created');
		expect(created.readable).toBe(false);
		expect(created.lead.note).toBe('The lead was created; reading it back failed (Lofty error (HTTP 500): down). Read it later with Lead > Get.');
		answers(error(404, 'gone'));
		const updated = await readAfterWrite(op(), '9', false);
		expect(updated.lead.note).toBe('The lead was updated; reading it back failed (Lofty error (HTTP 404): gone). Read it later with Lead > Get.');
		expect(mockSlept).toEqual([]);
	});
});

describe('currentLead', () => {
	it('the lead; while unreadable (404) what the caller knows; another failure fails the item', async () => {
		answers({ leadId: '3' }, error(404));
		await expect(currentLead(op(), '3', { known: true })).resolves.toEqual({ leadId: '3' });
		await expect(currentLead(op(), '3', { known: true })).resolves.toEqual({ known: true });
		const down = error(503);
		answers(down);
		await expect(currentLead(op(), '3', undefined)).rejects.toBe(down);
	});
});

describe('createThenRead', () => {
	const body = { firstName: 'Ann', lastName: 'Lee', emails: ['ann@x.com', 7], phones: ['(415) 555-0101'] };

	it('remembers the lead it made under every email and phone: as written, then as Lofty holds it', async () => {
		answers({ leadId: 77n }, error(404), error(404), error(404), error(404), error(404));
		const made = await createThenRead(op(), CREATE, '/v1.0/leads', body, true);
		expect(made).toMatchObject({ leadId: '77', readable: false, answer: { leadId: 77n } });
		const known = recall('acct', phoneKey('4155550101'));
		expect(known).toEqual({ leadId: '77', emails: ['ann@x.com'], phones: ['(415) 555-0101'], fields: { firstName: 'Ann', lastName: 'Lee' }, recent: true, alone: true });
		expect(recall('acct', emailKey('ann@x.com'))).toBe(known);

		answers({ leadId: '78' }, { lead: { leadId: '78', firstName: 'Ann' } });
		await createThenRead(op(), CREATE, '/v1.0/leads', { ...body, emails: ['b@x.com'] });
		expect(recall('acct', emailKey('b@x.com'))).toEqual(expect.objectContaining({ leadId: '78', fields: { leadId: '78', firstName: 'Ann' }, recent: false, alone: false }));
	});

	it('no email or phone, or no lead ID in the answer: nothing remembered', async () => {
		answers({ leadId: '5' }, { leadId: '5' }, {}, {});
		await createThenRead(op(), CREATE, '/v1.0/leads', { firstName: 'Pia' });
		await createThenRead(op(), CREATE, '/v1.0/leads', { emails: ['n@x.com'] });
		expect(recall('acct', emailKey('n@x.com'))).toBeUndefined();
		answers({ leadId: null }, {});
		await createThenRead(op(), CREATE, '/v1.0/leads', { emails: ['m@x.com'] });
		expect(recall('acct', emailKey('m@x.com'))).toBeUndefined();
	});

	it('a refused create fails the item as it is and remembers nothing', async () => {
		const refused = error(400, 'bad');
		answers(refused);
		await expect(createThenRead(op(), CREATE, '/v1.0/leads', body)).rejects.toBe(refused);
		expect(uncertainCreateFor('acct', [emailKey('ann@x.com')])).toBeUndefined();
		expect(refused.context.writeUncertain).toBeUndefined();
	});

	it('an uncertain create fails the item saying what to search by, and is remembered with its person until found', async () => {
		const lost = error(500, 'down');
		answers(lost);
		const before = Date.now();
		await expect(createThenRead(op(), CREATE, '/v1.0/leads', body)).rejects.toBe(lost);
		expect(lost.context).toEqual(expect.objectContaining({ writeUncertain: true, searchBy: { emails: ['ann@x.com'], phones: ['(415) 555-0101'], name: 'Ann Lee' } }));
		expect(lost.description).toBe(
			'The lead may have been created. Search Lofty by email ann@x.com or phone (415) 555-0101 (Lead > Get Many) before running this item again. Create or Update items for this person in this n8n process search again once Lofty can read a new lead, and update the lead they find instead of creating another.',
		);
		const remembered = uncertainCreateFor('acct', [phoneKey('+14155550101')])!;
		expect(remembered).toMatchObject({ execution: '41', itemIndex: 2, what: lost.message, keys: [emailKey('ann@x.com'), phoneKey('4155550101')], person: { firstName: 'Ann', lastName: 'Lee', emails: ['ann@x.com'] } });
		expect(remembered.readableBy).toBeGreaterThanOrEqual(before + LEAD_READ_DELAY_MS);
		expect(remembered.readableBy).toBeLessThanOrEqual(Date.now() + LEAD_READ_DELAY_MS);
	});

	it('an uncertain create without email or phone: searched by name, nothing remembered', async () => {
		const lost = error(200, 'internal', '20005');
		answers(lost);
		await expect(createThenRead(op(), CREATE, '/v1.0/leads', { firstName: 'Pia', lastName: '' })).rejects.toBe(lost);
		expect(lost.context.searchBy).toEqual({ name: 'Pia' });
		expect(lost.description).toBe('The lead may have been created. Search Lofty by name Pia (Lead > Get Many) before running this item again.');
		const nameless = error(502);
		answers(nameless);
		await expect(createThenRead(op(), CREATE, '/v1.0/leads', { lastName: 7 })).rejects.toBe(nameless);
		expect(nameless.context.searchBy).toEqual({});
		expect(nameless.description).toMatch(/^The lead may have been created\. Search Lofty by name {2}\(Lead > Get Many\)/);
	});

	it('a create that failed before reaching Lofty fails as such, not uncertain', async () => {
		answers(new Error('getaddrinfo ENOTFOUND'));
		const thrown = await createThenRead(op(), CREATE, '/v1.0/leads', body).catch((e: unknown) => e);
		expect(thrown).toBeInstanceOf(NodeOperationError);
		expect(thrown).not.toBeInstanceOf(NodeApiError);
		expect((thrown as NodeOperationError).context.writeUncertain).toBeUndefined();
	});
});
