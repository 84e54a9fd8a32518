/**
 * Lofty Trigger: receiving. Every payload of the spec's table, pings, forged requests, bodies it does not
 * know (never a 4xx to an authenticated sender), deliveries for lists it did not choose.
 */
import { parsePayload } from '../../nodes/LoftyTrigger/parse';
import { TriggerHarness } from '../harness/trigger';

const SECRET = 'a'.repeat(64);
const TEAM = 88001;
const T = Date.UTC(2026, 0, 2, 3, 4, 5);
const ISO = new Date(T).toISOString();

const ALL_LISTS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

function harness(params: Record<string, unknown> = { events: ALL_LISTS }): TriggerHarness {
	const h = new TriggerHarness({ params, credential: { type: 'loftyApi', data: { apiKey: 'k', baseUrl: 'http://127.0.0.1:9' } } });
	h.staticData.secret = SECRET;
	return h;
}

let webhookCounter = 0;
const deliveryId = () => `d-${++webhookCounter}`;

/** Posts a payload (raw text keeps 64-bit ids exact) with a fresh Service-Webhook-Id. */
async function deliver(h: TriggerHarness, body: unknown, headers: Record<string, string> = { 'service-webhook-id': deliveryId() }) {
	return await h.receive({ body, headers });
}

describe('every listId of the payload table becomes the right items', () => {
	const cases: Array<[string, string, Array<Record<string, unknown>>]> = [
		[
			'1 Agent Info',
			`{"teamId":${TEAM},"listId":1,"updatedAgent":[{"agentUserId":9007199254741001,"updateTime":${T}}]}`,
			[{ event: 'agent.updated', action: 'updated', agentUserId: '9007199254741001' }],
		],
		[
			'2 Lead Info',
			`{"teamId":${TEAM},"listId":2,"createdLead":[{"leadId":9007199254740993,"updateTime":${T}}],"updatedLead":[{"leadId":1,"updateTime":${T}},{"leadId":2,"updateTime":${T}}],"deletedLead":[{"leadId":3,"updateTime":${T}}]}`,
			[
				{ event: 'lead.created', action: 'created', leadId: '9007199254740993' },
				{ event: 'lead.updated', action: 'updated', leadId: '1' },
				{ event: 'lead.updated', action: 'updated', leadId: '2' },
				{ event: 'lead.deleted', action: 'deleted', leadId: '3' },
			],
		],
		[
			'3 Lead Activity',
			`{"teamId":${TEAM},"listId":3,"updatedLead":[{"leadId":44,"updateTime":${T}}]}`,
			[{ event: 'leadActivity.updated', action: 'updated', leadId: '44' }],
		],
		['4 Listing Alert', `{"teamId":${TEAM},"listId":4,"alertId":12345678901234567}`, [{ event: 'listingAlert.triggered', action: 'triggered', alertId: '12345678901234567', updateTime: null }]],
		[
			'5 Transaction',
			`{"teamId":${TEAM},"listId":5,"createdTransaction":[{"leadId":1,"transactionId":9007199254790001,"updateTime":${T}}],"updatedTransaction":[{"leadId":1,"transactionId":7,"updateTime":${T},"updatedField":{"transactionStatus":"Closed"},"updatedFields":["transactionStatus"]}],"deletedTransaction":[{"leadId":1,"transactionId":8,"updateTime":${T}}]}`,
			[
				{ event: 'transaction.created', transactionId: '9007199254790001', leadId: '1' },
				{ event: 'transaction.updated', transactionId: '7', updatedFields: ['transactionStatus'] },
				{ event: 'transaction.deleted', transactionId: '8' },
			],
		],
		[
			'6 Call',
			`{"teamId":${TEAM},"listId":6,"createdCall":[{"callId":400000012345,"timelineId":1224565261000000001,"leadId":5,"updateTime":${T},"agentId":6,"communicationType":"MANUAL"}]}`,
			[{ event: 'call.created', callId: '400000012345', timelineId: '1224565261000000001', leadId: '5', agentId: '6', communicationType: 'MANUAL' }],
		],
		[
			'7 Email',
			`{"teamId":${TEAM},"listId":7,"createdEmail":[{"emailId":11,"timelineId":12,"leadId":5,"updateTime":${T},"agentId":6,"communicationType":"LOGGED"}]}`,
			[{ event: 'email.created', emailId: '11', timelineId: '12', communicationType: 'LOGGED' }],
		],
		[
			'8 Text',
			`{"teamId":${TEAM},"listId":8,"createdText":[{"textId":21,"timelineId":22,"leadId":5,"updateTime":${T},"agentId":6,"communicationType":"MANUAL"}]}`,
			[{ event: 'text.created', textId: '21', timelineId: '22', communicationType: 'MANUAL' }],
		],
		[
			'9 Note (createdNote[] array, updatedNote and deletedNote objects)',
			`{"teamId":${TEAM},"listId":9,"createdNote":[{"noteId":31,"leadId":5,"updateTime":${T},"noteType":"Manual","agentId":6},{"noteId":32,"leadId":5,"updateTime":${T},"noteType":"AI","agentId":6}],"updatedNote":{"noteId":33,"leadId":5,"updateTime":${T},"noteType":"System","agentId":6},"deletedNote":{"noteId":34,"leadId":5,"updateTime":${T},"noteType":"Manual","agentId":6}}`,
			[
				{ event: 'note.created', noteId: '31', noteType: 'Manual' },
				{ event: 'note.created', noteId: '32', noteType: 'AI' },
				{ event: 'note.updated', noteId: '33', noteType: 'System' },
				{ event: 'note.deleted', noteId: '34' },
			],
		],
		[
			'10 Task (several actions together)',
			`{"teamId":${TEAM},"listId":10,"createdTask":[{"taskId":41,"leadId":5,"updateTime":${T}}],"updatedTask":[{"taskId":42,"leadId":5,"updateTime":${T}}],"finishedTask":[{"taskId":43,"leadId":5,"updateTime":${T}}],"deletedTask":[{"taskId":44,"leadId":5,"updateTime":${T}}]}`,
			[
				{ event: 'task.created', taskId: '41' },
				{ event: 'task.updated', taskId: '42' },
				{ event: 'task.finished', action: 'finished', taskId: '43' },
				{ event: 'task.deleted', taskId: '44' },
			],
		],
		[
			'11 Appointment',
			`{"teamId":${TEAM},"listId":11,"createdAppt":[{"apptId":51,"leadId":5,"updateTime":${T}}],"finishedAppt":[{"apptId":52,"leadId":5,"updateTime":${T}}]}`,
			[
				{ event: 'appointment.created', apptId: '51' },
				{ event: 'appointment.finished', apptId: '52' },
			],
		],
		[
			'12 Pipeline Change',
			`{"teamId":${TEAM},"listId":12,"updatedLeadstage":[{"leadId":5,"updateTime":${T},"changeInfo":{"oldstage":"New","newstage":"Hot"}}]}`,
			[{ event: 'pipeline.updated', action: 'updated', leadId: '5', oldStage: 'New', newStage: 'Hot' }],
		],
	];

	it.each(cases)('listId %s', async (_name, text, expected) => {
		const h = harness();
		const id = deliveryId();
		const answer = await deliver(h, text, { 'service-webhook-id': id });
		expect(answer.status).toBe(200);
		expect(h.executions).toHaveLength(1);
		const items = h.executions[0];
		expect(items).toHaveLength(expected.length);
		const body = JSON.parse(text);
		items.forEach((item, i) => {
			expect(item).toMatchObject(expected[i]);
			expect(item).toMatchObject({ listId: body.listId, teamId: String(TEAM), deliveryId: id });
			expect(item.raw).toBeDefined();
			if (expected[i].updateTime !== null) expect(item).toMatchObject({ updateTime: T, updateTimeIso: ISO });
		});
	});

	it('keeps the raw event (ids as exact strings) and the payload key on each item', async () => {
		const h = harness();
		await deliver(h, `{"teamId":${TEAM},"listId":2,"updatedLead":[{"leadId":9007199254740993,"updateTime":${T},"extra":"kept"}]}`);
		expect(h.items[0]).toMatchObject({ eventKey: 'updatedLead', raw: { leadId: '9007199254740993', updateTime: T, extra: 'kept' } });
	});

	it('parses array keys generically: an action Lofty adds later still gives items', async () => {
		const h = harness();
		await deliver(h, { teamId: TEAM, listId: 2, restoredLead: [{ leadId: 7, updateTime: T }], mergedLead: [{ leadId: 8, updateTime: String(T) }] });
		expect(h.items.map((i) => [i.event, i.leadId, i.updateTime])).toEqual([
			['lead.restored', '7', T],
			['lead.merged', '8', T],
		]);
	});

	it('a payload with no events answers 2xx and starts nothing', async () => {
		const h = harness();
		expect((await deliver(h, { teamId: TEAM, listId: 2 })).status).toBe(200);
		expect((await deliver(h, { teamId: TEAM, listId: 2, updatedLead: [] })).status).toBe(200);
		expect(h.executions).toHaveLength(0);
	});

	it('"Only Actions" keeps the chosen actions (listing alerts always pass)', async () => {
		const h = harness({ events: [4, 10], options: { actions: ['finished', 'deleted'] } });
		await deliver(h, { teamId: TEAM, listId: 10, createdTask: [{ taskId: 1, leadId: 5, updateTime: T }], finishedTask: [{ taskId: 1, leadId: 5, updateTime: T + 1 }], deletedTask: [{ taskId: 2, leadId: 5, updateTime: T }] });
		await deliver(h, { teamId: TEAM, listId: 10, updatedTask: [{ taskId: 1, leadId: 5, updateTime: T + 2 }] });
		await deliver(h, { teamId: TEAM, listId: 4, alertId: 9 });
		expect(h.items.map((i) => i.event)).toEqual(['task.finished', 'task.deleted', 'listingAlert.triggered']);
		expect(h.executions).toHaveLength(2);
	});
});

describe('pings', () => {
	it('a ping is answered 2xx and starts no execution', async () => {
		const h = harness();
		const answer = await deliver(h, '{"eventType":"ping","webhookId":9007199254745001}', {});
		expect(answer.status).toBe(200);
		expect(h.executions).toHaveLength(0);
		expect(answer.items).toBeUndefined();
	});
});

describe('forged requests', () => {
	it('a request without the token, or with a wrong one, gets 401 and starts nothing', async () => {
		const h = harness();
		const body = { teamId: TEAM, listId: 2, updatedLead: [{ leadId: 1, updateTime: T }] };
		for (const query of [{}, { token: 'b'.repeat(64) }, { token: SECRET.slice(1) }, { token: '' }] as Array<Record<string, string>>) {
			const answer = await h.receive({ body, query });
			expect(answer.status).toBe(401);
		}
		// also when the body is not JSON: the token is checked first
		expect((await h.receive({ body: 'not json', query: { token: 'x' }, headers: { 'content-type': 'text/plain' } })).status).toBe(401);
		expect(h.executions).toHaveLength(0);
		// the same body with the token works, so the refusals were about the token only
		expect((await h.receive({ body })).status).toBe(200);
		expect(h.executions).toHaveLength(1);
	});

	it('a delivery that comes before n8n saved the activation that subscribed (no secret stored yet) gets 503, so Lofty retries it, never 401 (a 4xx discards it)', async () => {
		const h = harness();
		delete h.staticData.secret;
		const body = { teamId: TEAM, listId: 2, createdLead: [{ leadId: 1, updateTime: T }] };
		const headers = { 'service-webhook-id': deliveryId() };
		expect((await h.receive({ body, headers, query: { token: SECRET } })).status).toBe(503);
		expect((await h.receive({ body, query: { token: 'undefined' } })).status).toBe(503);
		expect(h.executions).toHaveLength(0);
		// the activation is saved: Lofty's retry of the same delivery runs
		h.staticData.secret = SECRET;
		expect((await h.receive({ body, headers })).status).toBe(200);
		expect(h.executions).toHaveLength(1);
	});
});

describe('bodies it does not know: never a 4xx to an authenticated sender', () => {
	it.each([
		['a JSON array', '[{"listId":2}]', [{ event: 'unknown.unknown', listId: null, raw: [{ listId: '2' }] }]],
		['a JSON string', '"hello"', [{ event: 'unknown.unknown', raw: 'hello' }]],
		['no listId', `{"teamId":${TEAM},"updatedLead":[{"leadId":1}]}`, [{ event: 'unknown.unknown', listId: null, teamId: String(TEAM), raw: { teamId: String(TEAM), updatedLead: [{ leadId: '1' }] } }]],
		['listId not a positive integer', `{"teamId":${TEAM},"listId":"two"}`, [{ event: 'unknown.unknown', raw: { teamId: String(TEAM), listId: 'two' } }]],
		['an event that is not an object', `{"teamId":${TEAM},"listId":2,"updatedLead":[5,{"leadId":6,"updateTime":${T}}]}`, [{ event: 'lead.updated', raw: 5 }, { event: 'lead.updated', leadId: '6' }]],
		['unknown top-level keys', `{"teamId":${TEAM},"listId":2,"source":"api","meta":{"v":2},"updatedLead":[{"leadId":7,"updateTime":${T}}]}`, [{ event: 'lead.updated', leadId: '7', extra: { source: 'api', meta: { v: 2 } } }]],
		['a new event array name', `{"teamId":${TEAM},"listId":2,"restoredLead":[{"leadId":8,"updateTime":${T},"why":"undo"}]}`, [{ event: 'lead.restored', leadId: '8', raw: { leadId: '8', updateTime: T, why: 'undo' } }]],
	])('%s: 2xx, an execution whose items carry it', async (_name, text, expected) => {
		const h = harness();
		const answer = await deliver(h, text);
		expect(answer.status).toBe(200);
		expect(h.executions).toHaveLength(1);
		expect(h.executions[0]).toEqual(expected.map((e) => expect.objectContaining(e)));
	});

	it.each([
		['not JSON', '{"listId": 2, '],
		['XML', '<listId>2</listId>'],
		['empty', ''],
	])('a body that is %s (sent as text/plain) gets 500, so Lofty retries it, and a log line', async (_name, text) => {
		const h = harness();
		const answer = await deliver(h, text, { 'service-webhook-id': 'broken-1', 'content-type': 'text/plain' });
		expect(answer.status).toBe(500);
		expect(h.executions).toHaveLength(0);
		expect(h.warnings).toEqual([expect.stringMatching(/answered 500 to a delivery whose body is not JSON .*Service-Webhook-Id broken-1/)]);
	});

	it('a body sent as application/json that is not JSON is answered 422 by n8n itself, before the node runs', async () => {
		// n8n's webhook body parser (both 2.8.4 and 2.41.1) throws UnprocessableRequestError before any node code:
		// the node cannot answer this one. Lofty sends JSON (api-spec.md, Events); see docs/triggers.md, Lofty Trigger.
		const h = harness();
		const answer = await deliver(h, '{"listId": 2, ');
		expect(answer.status).toBe(422);
		expect(h.warnings).toEqual([]);
	});
});

describe('only its own lists', () => {
	it('a delivery for a list this trigger did not choose starts nothing, gets 2xx and a log line', async () => {
		const h = harness({ events: [2, 12] });
		const answer = await deliver(h, { teamId: TEAM, listId: 10, createdTask: [{ taskId: 1, leadId: 5, updateTime: T }] }, { 'service-webhook-id': 'foreign-1' });
		expect(answer).toMatchObject({ status: 200, body: { received: 0 } });
		expect(h.executions).toHaveLength(0);
		expect(h.warnings).toEqual([expect.stringMatching(/ignored a delivery for Task \(listId 10\), which this trigger does not subscribe to \(Service-Webhook-Id foreign-1\)/)]);
		// its own lists still run
		await deliver(h, { teamId: TEAM, listId: 12, updatedLeadstage: [{ leadId: 5, updateTime: T }] });
		expect(h.items.map((i) => i.event)).toEqual(['pipeline.updated']);
	});
});

describe('parsePayload', () => {
	it('reads string listIds and ignores reserved fields', () => {
		const parsed = parsePayload({ listId: '10', teamId: '1', webhookId: 3, finishedTask: [{ taskId: '9', updateTime: ISO }] });
		expect(parsed).toMatchObject({ kind: 'events', listId: 10, teamId: '1' });
		if (parsed.kind !== 'events') throw new Error('unreachable');
		expect(parsed.events[0].json).toMatchObject({ event: 'task.finished', taskId: '9', updateTime: T, updateTimeIso: ISO });
		expect(parsed.events[0].timed).toBe(true);
	});

	it('a listing alert is one event without a time', () => {
		const parsed = parsePayload({ listId: 4, teamId: 1, alertId: 5 });
		expect(parsed).toMatchObject({ kind: 'events', events: [{ timed: false, json: { event: 'listingAlert.triggered', alertId: '5', updateTime: null } }] });
	});
});
