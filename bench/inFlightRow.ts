/**
 * Row 11 of `npm run bench`: requests in flight at once, what jest asserts only as an upper bound (issue 45: how many
 * run at once depends on the machine's speed). At 100 ms latency: Lead > Update of 40 leads (one record each) at
 * Parallel Requests 1, 3 and 8, and a 1000-lead Return All at 4; the most the sandbox served at once / the setting
 * (1.00: the setting used to the full, never passed); also six plain requests sent together (the sandbox's latency).
 */
import { performance } from 'node:perf_hooks';

import axios from 'axios';

import { resetPacing } from '../nodes/Lofty/transport/pacing';
import type { Sandbox } from '../sandbox';
import { type Row, addLeads, fmt, runLofty, seconds, updateJob } from './common';

const LATENCY_MS = 100;

async function mostAt(sandbox: Sandbox, parallel: number, job: 'updates' | 'returnAll'): Promise<{ most: number; ms: number; failed: number }> {
	sandbox.reset();
	resetPacing();
	sandbox.setRateLimit({ perWindow: 1_000_000_000, windowMs: 60_000 });
	const ids = addLeads(sandbox, job === 'updates' ? 40 : 1000, `InFlight${parallel}`);
	sandbox.setLatency({ fixedMs: LATENCY_MS });
	sandbox.resetConcurrency();
	const requestOptions = { parallelRequests: parallel };
	const start = performance.now();
	const out =
		job === 'updates'
			? await runLofty(sandbox, updateJob(ids, { requestOptions }), ids.length)
			: await runLofty(sandbox, { resource: 'lead', operation: 'getAll', returnAll: true, simplify: false, requestOptions });
	const ms = performance.now() - start;
	return { most: sandbox.concurrency().most, ms, failed: out.filter((o) => o.json.error !== undefined).length };
}

export async function inFlightRow(sandbox: Sandbox): Promise<Row> {
	const figures: Record<string, number> = {};
	const parts: string[] = [];
	const ratios: number[] = [];
	for (const [parallel, job] of [[1, 'updates'], [3, 'updates'], [8, 'updates'], [4, 'returnAll']] as const) {
		const { most, ms, failed } = await mostAt(sandbox, parallel, job);
		ratios.push(most / parallel);
		figures[`${job}${parallel}Most`] = most;
		figures[`${job}${parallel}Ms`] = ms;
		parts.push(`${job === 'updates' ? '40 updates' : 'Return All of 1000'} at ${parallel}: ${most} at once (${seconds(ms)}${failed ? `, ${failed} failed` : ''})`);
	}
	sandbox.reset();
	sandbox.setLatency({ fixedMs: 150, jitterMs: 50 });
	sandbox.resetConcurrency();
	await Promise.all(Array.from({ length: 6 }, async () => await axios.get(`${sandbox.url}/v1.0/me`, { headers: { authorization: `token ${sandbox.apiKey}` } })));
	figures.plainSixMost = sandbox.concurrency().most;
	sandbox.setLatency({ fixedMs: 0, jitterMs: 0 });
	return {
		id: 'in-flight',
		name: `11. Requests in flight at ${LATENCY_MS} ms latency: the most at once / Parallel Requests (the lowest of four settings)`,
		ratio: Math.min(...ratios),
		result: fmt(Math.min(...ratios)),
		details: `${parts.join('; ')}; six plain requests sent together: ${figures.plainSixMost} at once`,
		figures,
	};
}
