/**
 * Where timing decides what the trigger harness's n8n (test/harness/trigger.ts) shows a test:
 * - n8n 2.41 clears the static data's change flag while it creates a delivery's execution and saves the request's copy
 *   only when it was marked changed after that; receive.ts marks it again on a 1 ms timer until the answer went out.
 *   The database's answer is I/O, so a timer already due runs before it, however long the event loop was held up.
 * - Lofty gets the answer only after it went out, when the node's answer listeners (dedupe.ts settles the delivery
 *   there) have run.
 * The trigger tests rely on both: a delivery they waited for (`idle()`, `receive()`) is settled and its marks saved.
 */
import { firstInProcess } from '../../nodes/LoftyTrigger/catchUpRequest';
import { newProcess, TriggerHarness } from '../harness/trigger';

const SECRET = 'b'.repeat(64);

function harness(): TriggerHarness {
	const h = new TriggerHarness({ params: { events: [2] }, credential: { type: 'loftyApi', data: { apiKey: 'k', baseUrl: 'http://127.0.0.1:9' } } });
	h.staticData.secret = SECRET;
	return h;
}

const AT = Date.now();
const created = (leadId: number) => ({ teamId: 88001, listId: 2, createdLead: [{ leadId, updateTime: AT }] });
const deliver = async (h: TriggerHarness, leadId: number, id: string) => await h.receive({ body: created(leadId), headers: { 'service-webhook-id': id } });

/** The event loop held up (a long GC pause, another process on the core): nothing else of this process runs meanwhile. */
function stall(ms: number): void {
	const until = performance.now() + ms;
	while (performance.now() < until) {
		// held up
	}
}

afterEach(() => newProcess());

it('a delivery\'s marks are saved when the event loop stalls while n8n creates its execution', async () => {
	const h = harness();
	// Node runs due timers list by list, each list (one per delay) from its oldest: another request's 5 ms wait, armed
	// first, makes the 5 ms list due before the 1 ms timer of receive.ts; the harness's 5 ms wait for the database, armed
	// just after that, is due too once the loop stalled 6 ms, and runs before it.
	const realSetTimeout = global.setTimeout;
	let stallAfterNext5ms = false;
	global.setTimeout = ((callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
		const timer = realSetTimeout(callback, ms, ...args);
		if (stallAfterNext5ms && ms === 5) {
			stallAfterNext5ms = false;
			stall(6);
		}
		return timer;
	}) as typeof setTimeout;
	let first;
	try {
		realSetTimeout(() => undefined, 5);
		stall(8);
		stallAfterNext5ms = true;
		first = await deliver(h, 7, 'first');
	} finally {
		global.setTimeout = realSetTimeout;
	}
	expect(first).toMatchObject({ status: 200, body: { received: 1, started: 1 } });
	// a new process knows the event only from what n8n saved: the same event under another id starts nothing
	newProcess();
	firstInProcess(h.webhookUrl); // not the process's first request (that one would start a catch-up)
	expect(await deliver(h, 7, 'second')).toMatchObject({ status: 200, body: { received: 1, started: 0 } });
	expect(h.executions).toHaveLength(1);
});

it('Lofty gets the answer after the node settled the delivery: the event re-sent at once is known, also to a copy saved without it', async () => {
	const h = harness();
	expect(await deliver(h, 8, 'first')).toMatchObject({ status: 200, body: { started: 1 } });
	// another request, loaded before that save, saves its copy last: only this process's memory has the event now
	h.staticData = { secret: SECRET };
	expect(await deliver(h, 8, 'second')).toMatchObject({ status: 200, body: { received: 1, started: 0 } });
	expect(h.executions).toHaveLength(1);
});
