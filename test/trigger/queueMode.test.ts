/**
 * Lofty Trigger in n8n's queue mode: main activates the workflow (on publishing, and at every start), the `n8n webhook`
 * processes handle the deliveries, each process with its own memory, each request with its own copy of the static
 * data, saved whole (the last save wins, across processes as within one). A webhook process never activates, and its
 * start is no gap in listening (main and the other processes listened): its first delivery starts no catch-up
 * (catchUpState.ts). Such a catch-up read back what the other process was delivering, and the copy it loaded could lack
 * that process's marks: the queue e2e saw 6 executions for 4 leads delivered one at a time (2 lead.created twice).
 * A worker runs the executions with no static data (n8n 2.41) and no memory of the webhook: it decides at once.
 */
import type { IDataObject } from 'n8n-workflow';

import { DEMO_API_KEY } from '../../sandbox';
import { CATCH_UP_BODY_KEY } from '../../nodes/LoftyTrigger/catchUpRequest';
import { client } from '../sandbox/helpers';
import { newProcess } from '../harness/trigger';
import { useTriggerWorld } from '../harness/triggerSandbox';
import { LONG_TEST_MS } from '../harness/budgets';

const world = useTriggerWorld();
const api = () => client(world().sb.url, { token: DEMO_API_KEY });

async function createLead(firstName: string, phone: string): Promise<string> {
	const res = await api().post('/v1.0/leads', { body: { firstName, lastName: 'Queue', emails: [`${firstName.toLowerCase()}@example.com`], phones: [phone] } });
	expect(res.status).toBe(200);
	world().engine.clock.advance(1);
	return String((res.body as IDataObject).leadId);
}

describe('queue mode: deliveries handled by two webhook processes of a workflow main activated', () => {
	it('the first delivery of each webhook process starts no catch-up: a lead the other process ran, whose marks the copy this process loaded lacks, runs once', async () => {
		const { engine } = world();
		// main publishes the workflow
		const h = await world().activeTrigger({ events: [2] });
		// Lofty's clock (the sandbox's stands still unless moved) a few seconds on: the leads are made after the activation
		engine.clock.advance(5000);
		// webhook process A (never activated, no memory of main's) handles the first delivery; process B had loaded the
		// static data before A saved it
		newProcess();
		const loadedByB = h.persisted();
		const first = await createLead('First', '5550300001');
		await engine.flush();
		await h.idle();
		expect(h.items.map((i) => i.leadId)).toEqual([first]);

		// webhook process B: its own memory; a request of it that had loaded the static data before A saved, saved after
		newProcess();
		h.staticData = loadedByB;
		const second = await createLead('Second', '5550300002');
		await engine.flush();
		await h.idle();
		// a catch-up request either process sent (the load balancer hands it to B)
		await h.receive({ body: { [CATCH_UP_BODY_KEY]: { owed: {} } } });
		await h.idle();

		expect(h.items.map((i) => i.leadId)).toEqual([first, second]);
		expect(h.items.filter((i) => i.caughtUp === true)).toEqual([]);
		// neither delivery owed a catch-up
		expect((h.staticData.catchUp as IDataObject).owed ?? {}).toEqual({});
	}, LONG_TEST_MS);

	it('a worker runs the execution with the workflow as the execution stored it (no static data) and never met the webhook: its events pass at once, and the worker drops what it ran', async () => {
		const { engine } = world();
		const h = await world().activeTrigger({ events: [2] });
		const lead = await createLead('Worker', '5550300003');
		await engine.flush();
		await h.idle();
		const started = h.executions[0].map((json) => ({ json }));
		// the worker process: nothing of the webhook processes' memory, no static data (job-processor.js, n8n 2.41.1)
		newProcess();
		const run = h.execute(started, 'webhook', {});
		// nothing to wait for: it answers before any timer or I/O of this process runs
		const first = await Promise.race([run, new Promise<'waited'>((resolve) => setImmediate(() => resolve('waited')))]);
		expect(first === 'waited' ? first : first.map((i) => i.json.leadId)).toEqual([lead]);
		expect(await h.execute(started, 'webhook', {})).toEqual([]);
		expect(h.warnings).toEqual([]);
	}, LONG_TEST_MS);
});
