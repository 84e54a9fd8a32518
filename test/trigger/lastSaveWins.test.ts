/**
 * Lofty Trigger: n8n saves each request's copy of the static data whole, and the last save wins. A mark this
 * process confirmed (a delivery answered 2xx, an event an execution passed) must be in whatever copy is saved
 * last, also one loaded before the mark and saved long after it (a catch-up that failed), so that a new process
 * (a restart) knows it; and an event an execution already passed starts nothing when a delivery or catch-up of
 * it comes (dedupe.ts owns both marks).
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { CATCH_UP_BODY_KEY, firstInProcess } from '../../nodes/LoftyTrigger/catchUpRequest';
import { claim, forgetProcessMemory, track } from '../../nodes/LoftyTrigger/dedupe';
import { parsePayload } from '../../nodes/LoftyTrigger/parse';
import { closeServer } from '../harness/receiver';
import { TriggerHarness, newProcess } from '../harness/trigger';

const SECRET = 'b'.repeat(64);
const TEAM = 88001;

/** A Lofty that holds every request until `release()`, then refuses it (400: not retried). */
async function holdingLofty() {
	let release = () => undefined as void;
	const released = new Promise<void>((resolve) => (release = resolve));
	let held = 0;
	const server: Server = createServer((_req, res) => {
		held++;
		void released.then(() => {
			res.statusCode = 400;
			res.setHeader('content-type', 'application/json');
			res.end(JSON.stringify({ code: 400, message: 'refused by the test' }));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return { url, server, release, held: () => held };
}

function harness(baseUrl = 'http://127.0.0.1:9'): TriggerHarness {
	const h = new TriggerHarness({ params: { events: [2, 8] }, credential: { type: 'loftyApi', data: { apiKey: 'k', baseUrl } } });
	h.staticData.secret = SECRET;
	return h;
}

const created = (leadId: number, updateTime = Date.now()) => ({ teamId: TEAM, listId: 2, createdLead: [{ leadId, updateTime }] });
/** Lets the answer's 'finish' reach the node (n8n sends it after the node returned). */
const answered = () => new Promise((resolve) => setImmediate(resolve));

async function deliver(h: TriggerHarness, body: unknown, id: string) {
	const answer = await h.receive({ body, headers: { 'service-webhook-id': id } });
	await answered();
	return answer;
}

function itemsOf(body: IDataObject, deliveryId: string): INodeExecutionData[] {
	const parsed = parsePayload(body, deliveryId);
	if (parsed.kind !== 'events') throw new Error('not events');
	return parsed.events.map((e) => ({ json: e.json }));
}

async function waitFor(what: string, check: () => boolean, withinMs = 30_000): Promise<void> {
	const until = Date.now() + withinMs;
	while (!check()) {
		if (Date.now() > until) throw new Error(`not within ${withinMs} ms: ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}

afterEach(() => newProcess());

describe('the last save wins: every saved copy holds what this process confirmed', () => {
	it('a catch-up that loaded the static data before a delivery and fails after it (its copy saved last) does not make a restart forget that delivery', async () => {
		const lofty = await holdingLofty();
		try {
			const h = harness(lofty.url);
			const now = Date.now();
			h.staticData.catchUp = { since: now - 3_600_000, listenedAt: now - 60_000 };
			// not the process's first request (that one would start a catch-up of its own)
			firstInProcess(h.webhookUrl);
			const catchUp = h.receive({ body: { [CATCH_UP_BODY_KEY]: { owed: { '2': { from: now - 60_000 } } } } });
			await waitFor('the catch-up reading Lofty', () => lofty.held() > 0);

			expect((await deliver(h, created(7), 'x')).status).toBe(200);
			expect(h.executions).toHaveLength(1);
			lofty.release();
			expect((await catchUp).status).toBe(500);
			await answered();

			// n8n restarts; Lofty sends the same delivery again (its answer was lost, say)
			newProcess();
			expect((await deliver(h, created(7), 'x')).status).toBe(200);
			expect(h.executions).toHaveLength(1);
		} finally {
			await closeServer(lofty.server);
		}
	});

	it('an event an execution passed (one n8n recovered at its start, whose delivery left no mark) starts nothing when its delivery comes again, in this process or the next', async () => {
		const h = harness();
		const event = created(3);
		expect(await h.execute(itemsOf(event, 'lost'))).toHaveLength(1);
		// Lofty's retry of the delivery n8n answered 500 as it stopped
		expect((await deliver(h, event, 'lost')).body).toMatchObject({ received: 1, started: 0 });
		// a delivery of another event saved the mark: a new process knows it too
		expect((await deliver(h, created(4), 'other')).status).toBe(200);
		newProcess();
		expect((await deliver(h, event, 'lost-again')).body).toMatchObject({ received: 1, started: 0 });
		expect(h.executions.flat().map((i) => i.leadId)).toEqual(['4']);
	});

	it('a delivery of the same moment saved after this one and before its answer: a catch-up after a restart does not bring this one back; Lofty\'s retry of it still runs', () => {
		// the trigger's steps on two requests' copies of the static data, loaded together (a lead and its text arrive at once)
		const now = Date.now();
		const text = { key: 'text content', timed: true, seenAs: ['caught|8|created|5'], marks: ['heard|8|created|5'] };
		const textCopy: IDataObject = {};
		const stageCopy: IDataObject = {};
		track('moment', textCopy, undefined, now);
		track('moment', stageCopy, undefined, now);
		const delivered = claim('moment', textCopy, 'text-delivery', [text], now);
		if (delivered.kind !== 'new') throw new Error(delivered.kind);
		delivered.commit();
		// n8n saves the text's copy, then the stage change's (the last save wins); it stops before the text's answer went out
		const saved = JSON.parse(JSON.stringify(stageCopy)) as IDataObject;
		forgetProcessMemory();
		const caughtUp = { key: 'caught|8|created|5', timed: true, seenAs: ['heard|8|created|5', 'ran|8|created|5'] };
		expect(claim('moment', JSON.parse(JSON.stringify(saved)) as IDataObject, undefined, [caughtUp], now + 1, true)).toMatchObject({ kind: 'new', fresh: [] });
		// had its execution failed (no 2xx), Lofty retries the delivery: that runs
		expect(claim('moment', JSON.parse(JSON.stringify(saved)) as IDataObject, 'text-delivery', [text], now + 2)).toMatchObject({ kind: 'new', fresh: [0] });
	});

	it('a request that begins after a delivery committed and before its answer (its copy loaded before that save, saved after it): a catch-up after a restart does not bring the delivery back', () => {
		const now = Date.now();
		const lead = { key: 'lead content', timed: true, seenAs: ['caught|2|created|6'], marks: ['heard|2|created|6'] };
		const leadCopy: IDataObject = {};
		track('begins-late', leadCopy, undefined, now);
		const delivered = claim('begins-late', leadCopy, 'lead-delivery', [lead], now);
		if (delivered.kind !== 'new') throw new Error(delivered.kind);
		delivered.commit();
		// the text of the same moment: n8n loaded its copy before the lead's save; its webhook() begins only now
		const textCopy: IDataObject = {};
		track('begins-late', textCopy, undefined, now + 1);
		// n8n saves the lead's copy, then the text's; it stops before the lead's answer went out
		const saved = JSON.parse(JSON.stringify(textCopy)) as IDataObject;
		forgetProcessMemory();
		const caughtUp = { key: 'caught|2|created|6', timed: true, seenAs: ['heard|2|created|6', 'ran|2|created|6'] };
		expect(claim('begins-late', JSON.parse(JSON.stringify(saved)) as IDataObject, undefined, [caughtUp], now + 2, true)).toMatchObject({ kind: 'new', fresh: [] });
		expect(claim('begins-late', JSON.parse(JSON.stringify(saved)) as IDataObject, 'lead-delivery', [lead], now + 3)).toMatchObject({ kind: 'new', fresh: [0] });
	});
});
