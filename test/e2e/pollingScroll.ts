/**
 * The Lofty Polling Trigger's lead backlog in n8n 2.41.1 with its database-backed poll scheduler, where Lofty makes
 * a backlog hard to read (issue 44): leads paged only by scroll (offset ignored, 25 a page), each scroll refused 2 s
 * after the answer that handed it out, a low rate limit and a second of latency an answer. One n8n, three workflows,
 * each with a Lofty (sandbox) of its own:
 *
 *   - a backlog deeper than one poll reads, made right after the first poll; once the poll that reads it emitted
 *     what it read from the top, leads come in and n8n stops (the reader reading on between the polls,
 *     backlogReader.ts, stops with it), more come while it is down, and it starts again: every lead starts the
 *     workflow once, no execution fails. One poll (36 s) reads at most 36 pages from the top at a second an answer;
 *     the rest is read by a scroll that must stay alive, within 75 requests a minute (below a second's latency's 60
 *     in a row, so it can). On the code before issue 44 the reader's requests all failed and the leads below what a
 *     poll reads from the top were never emitted (150 of these 1,000; 633 of 1,500);
 *   - 4,000 leads paged by offset (Lofty's other reading), Lofty answering in 1.5 s (about 24 pages of 100 a poll),
 *     read over more than one poll, then new leads: every lead once, the new ones too;
 *   - a backlog no read can get down to (3 requests a window of 10 s: every scroll expires in the wait for the next
 *     window): a failed execution says how many leads were not emitted, why and what to change, and the saved place
 *     stays above every one of them.
 *
 * Registered by polling.e2e.ts: it runs beside that file's other runs, while they wait for their ticks.
 */
import { type Sandbox, SEED_IDS, startSandbox } from '../../sandbox';
import { leadScrolls } from '../../sandbox/resources/lead';
import { DEFAULT_POLL_BUDGET_MS } from '../../nodes/LoftyPollingTrigger/LoftyPollingTrigger.node';
import { N8nServer } from './n8nServer';
import { BackgroundScenario } from './scenario';
import { DURABLE_SCHEDULER, TRIGGER, activate, createPollingWorkflow, executionsOf, finished, itemsOf, keyOf } from './pollingWorkflow';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** 40 pages of 25: more than one poll reads from the top (36 s at a second an answer: at most 36 pages). */
const BACKLOG = 1000;
/** Requests a minute: more than a second's latency allows in a row (60), less than Lofty's smallest limit (100). */
const RATE_LIMIT = 75;
/** 6 pages, where 3 requests a window of 10 s read at most 3 in a row. */
const DEEP_BACKLOG = 150;
const LATENCY_MS = 1000;
/** The backlog by offset: 40 pages of 100, about 24 a poll at 1.5 s an answer. */
const OFFSET_BACKLOG = 4000;
const OFFSET_LATENCY_MS = 1500;
const SCROLL_TTL_MS = 2000;
/** A wait that sees no lead of the backlog come for this long has failed (polls come every minute). */
const STALL_MS = 7 * 60_000;
/** The longest a wait may take (about ten times what it takes on a quiet machine). */
const WAIT_MS = 60 * 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** `ask()`, asked again while n8n does not answer (the other step restarts it), for at most 5 minutes. */
async function whileUp<T>(ask: () => Promise<T>): Promise<T> {
	const deadline = Date.now() + 5 * 60_000;
	for (;;) {
		try {
			return await ask();
		} catch (error) {
			if (Date.now() > deadline) throw error;
			await sleep(2000);
		}
	}
}

/** One workflow polling a Lofty of its own. */
class PolledLofty {
	sandbox!: Sandbox;
	workflowId = '';
	readonly started = Date.now();

	constructor(
		private readonly n8n: N8nServer,
		private readonly rateLimit: { perWindow: number; windowMs: number },
		/** Lofty's lead list pages by scroll only (offset ignored), its scrolls expiring; else by offset too. */
		private readonly scrollOnly = true,
		private readonly latencyMs = LATENCY_MS,
	) {}

	async setUp(name: string): Promise<void> {
		this.sandbox = await startSandbox({ port: 0, rateLimit: this.rateLimit });
		if (this.scrollOnly) {
			this.sandbox.readings.set({ leadPaging: 'scrollOnly' });
			leadScrolls(this.sandbox.store).ttlMs = SCROLL_TTL_MS;
		}
		this.sandbox.setLatency({ fixedMs: this.latencyMs, jitterMs: 0 });
		this.workflowId = await createPollingWorkflow(this.n8n, this.sandbox, name, ['lead']);
	}

	executions(): Promise<Json[]> {
		return executionsOf(this.n8n, this.workflowId);
	}

	async leadsEmitted(): Promise<{ ids: string[]; executions: Json[] }> {
		const executions = await this.executions();
		const ids = executions
			.flatMap(itemsOf)
			.filter((i) => i.event === 'lead.created')
			.map((i) => String(i.leadId));
		return { ids, executions };
	}

	/** `count` leads a millisecond apart up to now (Lofty's store, as another user makes them); their IDs. */
	addLeads(count: number, name: string): string[] {
		const now = Date.now();
		return Array.from({ length: count }, (_, i) =>
			this.sandbox.store.addLead({ firstName: `${name} ${i}`, ownerUserId: BigInt(SEED_IDS.demoUserId), teamId: BigInt(SEED_IDS.teamId), createTime: now - count + i }).leadId.toString(),
		);
	}

	/**
	 * `count` leads whose create times all come after the last poll's answer: it took note of the list as of then (a
	 * lead dated before it, shown later, is one of at most 100 a poll reads again).
	 */
	async addBacklog(count: number, name: string): Promise<string[]> {
		const lastPage = this.sandbox.requests.filter((q) => q.path === '/v1.0/leads').at(-1)?.time ?? 0;
		await sleep(lastPage + this.latencyMs + count + 1000 - Date.now());
		return this.addLeads(count, name);
	}

	/** The lead pages asked, 20 s at a time: `<s>:<answered>/<refused scrolls>/<429>`. */
	timeline(): string {
		const slots = new Map<number, number[]>();
		for (const q of this.sandbox.requests) {
			if (q.method !== 'GET' || q.path !== '/v1.0/leads') continue;
			const slot = Math.floor((q.time - this.started) / 20_000) * 20;
			const counts = slots.get(slot) ?? [0, 0, 0];
			counts[q.status === 200 ? 0 : q.status === 429 ? 2 : 1]++;
			slots.set(slot, counts);
		}
		return [...slots].map(([slot, c]) => `${slot}:${c.join('/')}`).join(' ');
	}

	figures(): string {
		const pages = this.sandbox.requests.filter((q) => q.method === 'GET' && q.path === '/v1.0/leads');
		const refused = leadScrolls(this.sandbox.store).refused;
		return `${pages.length} lead pages asked, ${refused} scrolls refused as expired, ${pages.filter((q) => q.status === 429).length} answered 429, ${((Date.now() - this.started) / 1000).toFixed(0)} s; pages by 20 s, answered/refused/429: ${this.timeline()}`;
	}

	/** The trigger's saved lead place (the workflow's static data, as n8n's public API shows it). */
	async place(): Promise<Json | undefined> {
		const r = await this.n8n.api('GET', `/workflows/${this.workflowId}`);
		return r.json?.staticData?.[`node:${TRIGGER}`]?.pollState?.sources?.lead;
	}
}

export function defineScrollBacklogRun(version: string, register: (scenario: BackgroundScenario) => void, startOneAtATime: (start: () => Promise<void>) => Promise<void>): void {
	describe(`Lofty Polling Trigger in n8n ${version} (durable poll scheduler): scroll-only lead backlogs, scrolls expiring, a low rate limit, a restart`, () => {
		const n8n = new N8nServer(version, `polling-${version}-scroll`, DURABLE_SCHEDULER);
		const lofty = new PolledLofty(n8n, { perWindow: RATE_LIMIT, windowMs: 60_000 });
		const deep = new PolledLofty(n8n, { perWindow: 3, windowMs: 10_000 });
		const offset = new PolledLofty(n8n, { perWindow: 1_000_000, windowMs: 60_000 }, false, OFFSET_LATENCY_MS);
		let deepRun: Promise<void> | undefined;
		let offsetRun: Promise<void> | undefined;

		/** Waits until every one of `ids` was emitted, failing when none of them came for STALL_MS, or after WAIT_MS. */
		const waitFor = async (ids: string[], what: string, each?: (executions: number) => Promise<void>): Promise<string[]> => {
			const deadline = Date.now() + WAIT_MS;
			let [seen, since, executions] = [-1, Date.now(), 0];
			for (;;) {
				const got = await lofty.leadsEmitted();
				const have = new Set(got.ids);
				const count = ids.filter((id) => have.has(id)).length;
				if (got.executions.every(finished) && count === ids.length) return got.ids;
				if (count !== seen) [seen, since] = [count, Date.now()];
				if (Date.now() - since > STALL_MS || Date.now() > deadline) {
					const emitted = got.executions.map((ex) => `${((new Date(ex.startedAt).getTime() - lofty.started) / 1000).toFixed(0)}s:${itemsOf(ex).length}`).join(' ');
					throw new Error(`${what}: ${ids.length - count} of ${ids.length} never emitted (none came for ${((Date.now() - since) / 1000).toFixed(0)} s; executions ${emitted}; ${lofty.figures()})\n${n8n.logTail(30)}`);
				}
				if (got.executions.length > executions) {
					executions = got.executions.length;
					await each?.(executions);
				}
				await sleep(2000);
			}
		};

		/** The deep backlog: a failed execution says so; the saved place stays above every lead not emitted. */
		const deepBacklog = async (): Promise<void> => {
			const backlog = await deep.addBacklog(DEEP_BACKLOG, 'Deep');
			const deadline = Date.now() + WAIT_MS;
			let failed: Json | undefined;
			while (!failed) {
				if (Date.now() > deadline) throw new Error(`no execution said the deep backlog cannot be read (${deep.figures()})\n${n8n.logTail(30)}`);
				await sleep(3000);
				failed = (await whileUp(() => deep.executions())).find((ex) => finished(ex) && ex.status === 'error');
			}
			const { ids, executions } = await whileUp(() => deep.leadsEmitted());
			const error = failed.data?.resultData?.error ?? {};
			const unread = backlog.filter((id) => !ids.includes(id));
			n8n.log(`deep backlog: ${DEEP_BACKLOG - unread.length} of ${DEEP_BACKLOG} emitted, then a failed execution: "${error.message}" ${error.description} (${deep.figures()})`);
			expect(unread.length).toBeGreaterThan(0);
			expect(error.message).toBe(`About ${unread.length} new leads were not emitted yet: the trigger cannot read down to them in Lofty's lead list`);
			expect(error.description).toMatch(/each scroll expired before the rate limit allowed the next request: the trigger read at most \d pages? of 25 in a row/);
			expect(error.description).toMatch(/raise the requests a minute Lofty allows this app/);
			expect(ids.length - new Set(ids).size).toBe(0);
			expect(executions.filter((ex) => ex.status === 'error')).toHaveLength(1);
			// Every lead not emitted lies between the saved place and the cursor below it: nothing was passed over.
			const place = await whileUp(() => deep.place());
			const times = unread.map((id) => Number(deep.sandbox.store.getLead(BigInt(id))!.createTime));
			expect(place?.pass?.at).toBeGreaterThanOrEqual(Math.max(...times));
			expect(place?.cursor).toBeLessThan(Math.min(...times));
		};

		/**
		 * The backlog by offset, made after the restart: more than one poll of 36 s reads (Lofty answering in 1.5 s: about
		 * 24 pages a poll), then new leads: every lead once, the new ones too, no execution failed.
		 */
		const offsetBacklog = async (): Promise<void> => {
			const backlog = await offset.addBacklog(OFFSET_BACKLOG, 'Import');
			const emitted = async (ids: string[], what: string): Promise<Json[]> => {
				const deadline = Date.now() + WAIT_MS;
				for (;;) {
					const executions = await whileUp(() => offset.executions());
					const have = new Set((await whileUp(() => offset.leadsEmitted())).ids);
					if (executions.every(finished) && ids.every((id) => have.has(id))) return executions;
					if (Date.now() > deadline) throw new Error(`${what}: ${ids.filter((id) => have.has(id)).length} of ${ids.length} emitted (${offset.figures()})\n${n8n.logTail(30)}`);
					await sleep(2000);
				}
			};
			const madeAt = Date.now();
			const polls = (await emitted(backlog, 'the backlog by offset')).length;
			const pages = offset.sandbox.requests.filter((q) => q.method === 'GET' && q.path === '/v1.0/leads' && q.time >= madeAt).map((q) => q.time);
			const fresh = offset.addLeads(3, 'After Backlog');
			const executions = await emitted([...backlog, ...fresh], 'the leads after the backlog by offset');
			const items = executions.flatMap(itemsOf);
			n8n.log(`backlog by offset: ${polls} executions for the backlog, read over ${((Math.max(...pages) - Math.min(...pages)) / 1000).toFixed(0)} s, ${offset.figures()}`);
			// Its pages were asked over more than one poll's budget (36 s): the read went on past the poll that began it.
			// Usually two executions emit it; in one local run one execution emitted all 4,000, each once (why is not
			// known: n8n's info log said nothing). The guarantee is every lead once, not the number of executions.
			expect(Math.max(...pages) - Math.min(...pages)).toBeGreaterThan(DEFAULT_POLL_BUDGET_MS);
			expect(polls).toBeGreaterThanOrEqual(1);
			expect(items.filter((i) => i.event === 'lead.created').map((i) => String(i.leadId)).sort()).toEqual([...backlog, ...fresh].sort());
			expect(new Set(items.map(keyOf)).size).toBe(items.length);
			expect(executions.filter((ex) => ex.status !== 'success').map((ex) => ex.data?.resultData?.error?.message)).toEqual([]);
		};

		const setup = async () => {
			await startOneAtATime(() => n8n.start());
			await lofty.setUp(`Lofty e2e: polling trigger, scroll-only backlog (${version})`);
			await deep.setUp(`Lofty e2e: polling trigger, a backlog too deep to read (${version})`);
			await offset.setUp(`Lofty e2e: polling trigger, a backlog by offset (${version})`);
		};
		const teardown = async () => {
			for (const one of [lofty, deep, offset]) if (one.workflowId) await n8n.api('POST', `/workflows/${one.workflowId}/deactivate`).catch(() => undefined);
			await n8n.stop();
			await Promise.all([lofty.sandbox?.stop(), deep.sandbox?.stop(), offset.sandbox?.stop()]);
		};
		const scenario = new BackgroundScenario(setup, teardown);
		register(scenario);

		scenario.test('activation takes note of what is there', async () => {
			for (const one of [lofty, deep, offset]) await activate(n8n, one.sandbox, one.workflowId, ['/v1.0/leads']);
			await sleep(2000);
			expect([...(await lofty.executions()), ...(await deep.executions()), ...(await offset.executions())]).toEqual([]);
		});

		scenario.test(`${BACKLOG} leads at once, more meanwhile, n8n restarted while they are read: every lead once, no failed execution`, async () => {
			const backlog = await lofty.addBacklog(BACKLOG, 'Backlog');
			const meanwhile: string[] = [];
			let restarted = false;
			await waitFor(backlog, 'the backlog', async (executions) => {
				// After the first execution (the poll emitted what it read from the top, the reader reads on), leads come
				// in and n8n stops, more leads come while it is down, and it starts again.
				if (executions === 1 && !restarted) {
					restarted = true;
					meanwhile.push(...lofty.addLeads(2, 'Meanwhile'));
					await n8n.halt();
					meanwhile.push(...lofty.addLeads(2, 'While Down'));
					await n8n.restart();
					// The other workflows' backlogs come now and are read at the same time (their own steps report
					// them). Not before: n8n 2.41.1 saves a poll's static data, then starts its execution
					// (trigger-execution-context.factory.js, __emit), and a stop while their poll was handing over lost
					// its leads once (50 of the deep backlog saved as seen, no execution; issue 44 report).
					deepRun = deepBacklog();
					deepRun.catch(() => undefined);
					offsetRun = offsetBacklog();
					offsetRun.catch(() => undefined);
				}
			});
			const polls = (await lofty.executions()).length;
			// They come once the backlog is read: the next pass, from the top, reads what came in since it began.
			const ids = await waitFor(meanwhile, 'the leads made meanwhile');
			n8n.log(`scroll-only backlog: ${polls} executions for the backlog, ${lofty.figures()}`);
			expect(restarted).toBe(true);
			expect(polls).toBeGreaterThan(1);
			expect(ids.length - new Set(ids).size).toBe(0);
			expect([...ids].sort()).toEqual([...backlog, ...meanwhile].sort());
			const executions = await lofty.executions();
			expect(executions.filter((ex) => ex.status !== 'success').map((ex) => ex.data?.resultData?.error?.message)).toEqual([]);
			expect(new Set(executions.flatMap(itemsOf).map(keyOf)).size).toBe(ids.length);
		});

		scenario.test(`${DEEP_BACKLOG} leads deeper than any read gets (3 requests a window of 10 s): a failed execution says how many, why and what to change; the place stays above them`, async () => {
			if (!deepRun) throw new Error('the deep backlog was not started');
			await deepRun;
		});

		scenario.test(`${OFFSET_BACKLOG} leads paged by offset, more than one poll reads, then new leads: every lead once`, async () => {
			if (!offsetRun) throw new Error('the backlog by offset was not started');
			await offsetRun;
		});
	});
}
