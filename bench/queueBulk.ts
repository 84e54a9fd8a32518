/**
 * Row 9 of `npm run bench`: row 2's job (1000 lead updates with one credential while the sandbox allows 500 a minute,
 * in real time unless LOFTY_BENCH_SCALE is set) in n8n's queue mode (Postgres, Redis, main, 2 workers; n8n 2.41.1),
 * done by 1 worker (one execution of 1000 items) and by 2 workers at once (two executions of 500, started
 * together, each taken by its own worker). Both workers pace on their own: what they share is Lofty's
 * X-RateLimit-Remaining, which every answer announces for the whole application.
 *
 * Time: from the first Lofty node's start to the last one's end (n8n's own figures in the saved executions). The
 * bound (windowBound) comes from the same setup's run without a limit in this run; the limit's pace (row 2's bound,
 * 120 s) is given beside it. Real time, because X-RateLimit-Reset has whole seconds: a time-scaled window of a few
 * seconds makes that rounding, which costs under 2 % of a real minute, a large share of each window. Between the
 * limited runs the bench waits one window, so that no worker starts inside a window the previous run used up.
 *
 * test/e2e/queueServer.ts + test/e2e/queueBulk.ts, in .e2e/bench-queue-2.41.1. About 6 minutes in real time. Skipped when
 * Postgres or Redis is not installed, or with LOFTY_BENCH_QUEUE=0.
 */
import './scriptsLink';

import type { Sandbox } from '../sandbox';
import { type BulkOutcome, runBulk } from '../test/e2e/queueBulk';
import { QueueN8nServer, queueServicesMissing } from '../test/e2e/queueServer';
import { LIMIT, type Row, WINDOW_MS, fmt, limitBound, scaleNote, windowBound } from './common';

const VERSION = '2.41.1';
const N = 1000;

export const queueBenchSkipped = (): string | null => {
	if (process.env.LOFTY_BENCH_QUEUE === '0') return 'LOFTY_BENCH_QUEUE=0';
	const missing = queueServicesMissing();
	return missing.length ? `${missing.join(' and ')} not installed` : null;
};

const s = (ms: number) => `${fmt(ms / 1000, 1)} s`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function queueBulkRow(sandbox: Sandbox): Promise<Row> {
	const n8n = new QueueN8nServer(VERSION, `bench-queue-${VERSION}`);
	try {
		await n8n.start();
		sandbox.reset();
		sandbox.setLatency({ fixedMs: 0, jitterMs: 0 }); // loopback, as the rows before at 0 ms
		const credential = { id: await n8n.createCredential('Lofty (queue bench)', 'loftyApi', { apiKey: sandbox.apiKey, baseUrl: sandbox.url }), name: 'Lofty (queue bench)' };
		const free = () => sandbox.setRateLimit({ perWindow: 1_000_000_000, windowMs: 60_000 });
		const limited = async () => {
			await sleep(WINDOW_MS + 500); // the previous run's announced window is over in every worker
			sandbox.setRateLimit({ perWindow: LIMIT, windowMs: WINDOW_MS });
		};

		free();
		// Not measured: a fresh worker's first executions are slower (task runner, expression isolate, JIT).
		await runBulk(n8n, sandbox, credential, { jobs: 2, n: 200, label: 'warm-up' });
		const free1 = await runBulk(n8n, sandbox, credential, { jobs: 1, n: N, label: '1 worker, no limit', windowMs: WINDOW_MS });
		const free2 = await runBulk(n8n, sandbox, credential, { jobs: 2, n: N, label: '2 workers, no limit', windowMs: WINDOW_MS });
		await limited();
		const one = await runBulk(n8n, sandbox, credential, { jobs: 1, n: N, label: '1 worker', windowMs: WINDOW_MS });
		await limited();
		const two = await runBulk(n8n, sandbox, credential, { jobs: 2, n: N, label: '2 workers', windowMs: WINDOW_MS });

		const bound1 = windowBound(N, LIMIT, WINDOW_MS, free1.jobMs);
		const bound2 = windowBound(N, LIMIT, WINDOW_MS, free2.jobMs);
		const done = (o: BulkOutcome) => o.statuses.every((x) => x === 'success') && o.failed === 0 && o.updated === N && o.writtenTwice === 0;
		const ratio = (o: BulkOutcome, bound: number) => (done(o) ? `${fmt(o.jobMs / bound)} (bound ${s(bound)})` : '- (job not done)');
		console.log(`\n${N} lead updates in n8n ${VERSION} queue mode at ${LIMIT} per ${WINDOW_MS / 1000} s, one credential:\n`);
		console.log('| Run | Executions (worker) | Items (failed) | PUTs sent (429) | Leads written twice | Leads updated | Job time | Job / bound |');
		console.log('|---|---|---|---|---|---|---|---|');
		for (const [label, o, bound] of [
			['1 worker, no limit', free1, 0],
			['2 workers, no limit', free2, 0],
			['1 worker', one, bound1],
			['2 workers', two, bound2],
		] as const) {
			const runs = o.statuses.map((st, i) => `${st} (${o.workers[i]})`).join(', ');
			console.log(`| ${label} | ${runs} | ${o.items} (${o.failed}) | ${o.sent} (${o.refused}) | ${o.writtenTwice} | ${o.updated} | ${s(o.jobMs)} | ${bound ? ratio(o, bound) : '-'} |`);
			if (o.errors.length) console.log(`|   errors: ${o.errors.join('; ')} |`);
		}
		return {
			id: 'queue-workers',
			name: `9. The 1000 updates in n8n ${VERSION} queue mode at 500/min${scaleNote}: 1 worker vs 2 workers at once, one credential, job time / bound`,
			ratio: done(two) ? two.jobMs / bound2 : undefined,
			result: `1 worker ${ratio(one, bound1)}; 2 workers ${ratio(two, bound2)}`,
			details:
				`429 answers: ${one.refused} (1 worker), ${two.refused} (2 workers); failed items ${one.failed} and ${two.failed}; leads written twice ${one.writtenTwice} and ${two.writtenTwice}; ` +
				`2 workers ran on ${two.workers.join(' and ')}. Bound: a full window, then the rest at the pace of the same setup's run without a limit (${s(free1.jobMs)} and ${s(free2.jobMs)}); ` +
				`vs the limit's pace (${s(limitBound(N))}): ${fmt(one.jobMs / limitBound(N))} and ${fmt(two.jobMs / limitBound(N))}`,
			figures: {
				oneWorkerMs: one.jobMs,
				twoWorkersMs: two.jobMs,
				oneWorkerBoundMs: bound1,
				twoWorkersBoundMs: bound2,
				paceBoundMs: limitBound(N),
				busiest1: one.busiest,
				busiest2: two.busiest,
				refused1: one.refused,
				refused2: two.refused,
				failed1: one.failed,
				failed2: two.failed,
				writtenTwice1: one.writtenTwice,
				writtenTwice2: two.writtenTwice,
			},
		};
	} finally {
		await n8n.stop();
	}
}
