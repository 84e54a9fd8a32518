/**
 * Row 10 of `npm run bench`: two executions (two workflows) sharing one credential in one n8n process, at a
 * Development app's 100 requests a minute, under both readings of X-RateLimit-Remaining: as of the request (the
 * sandbox's default) and as of the answer (it then also counts the requests that arrived while this one was
 * served). Wall time / the fixed window's bound: full windows, then the rest at the pace of the same two
 * executions without a limit (measured in this run). The pacer must neither overrun the window (0 answers 429)
 * nor leave a window's room unused while it waits for the next (within 1.05 of the bound).
 */
import { performance } from 'node:perf_hooks';

import { resetPacing } from '../nodes/Lofty/transport/pacing';
import type { Sandbox } from '../sandbox';
import { type Row, WINDOW_MS, addLeads, fmt, latency, runLofty, scaleNote, seconds, updateJob, windowBound } from './common';

const PER_MINUTE = 100;
const PER_EXECUTION = 125;
const LATENCY_MS = 300;
const LEAD_PATH = '/v1.0/leads/{leadId}';

interface Outcome {
	wallMs: number;
	failed: number;
	refused: number;
	applied: number;
}

async function twoExecutions(sandbox: Sandbox, limited: boolean, remainingAt: 'request' | 'answer'): Promise<Outcome> {
	sandbox.reset();
	resetPacing();
	sandbox.setRateLimit(limited ? { perWindow: PER_MINUTE, windowMs: WINDOW_MS, remainingAt } : { perWindow: 1_000_000_000, windowMs: 60_000 });
	sandbox.setLatency(latency(LATENCY_MS));
	const a = addLeads(sandbox, PER_EXECUTION, 'SharedA');
	const b = addLeads(sandbox, PER_EXECUTION, 'SharedB');
	const start = performance.now();
	const outputs = await Promise.all([runLofty(sandbox, updateJob(a), PER_EXECUTION), runLofty(sandbox, updateJob(b), PER_EXECUTION)]);
	const wallMs = performance.now() - start;
	return {
		wallMs,
		failed: outputs.flat().filter((item) => item.json.error !== undefined).length,
		refused: sandbox.requests.filter((r) => r.status === 429).length,
		applied: sandbox.faults.writes('PUT', LEAD_PATH),
	};
}

export async function sharedCredentialRow(sandbox: Sandbox): Promise<Row> {
	const n = 2 * PER_EXECUTION;
	const free = await twoExecutions(sandbox, false, 'request');
	const bound = windowBound(n, PER_MINUTE, WINDOW_MS, free.wallMs);
	const request = await twoExecutions(sandbox, true, 'request');
	const answer = await twoExecutions(sandbox, true, 'answer');
	sandbox.setLatency({ fixedMs: 0, jitterMs: 0 });
	const one = (label: string, o: Outcome) => `${label} ${fmt(o.wallMs / bound)} (${seconds(o.wallMs)})`;
	const counts = (o: Outcome) => `${o.failed} failed, ${o.refused} × 429, ${o.applied} writes`;
	return {
		id: 'shared-credential',
		name: `10. Two executions sharing one credential, ${n} lead updates at ${PER_MINUTE}/min, ${LATENCY_MS} ms latency: wall time / the fixed window's bound${scaleNote}`,
		ratio: Math.max(request.wallMs, answer.wallMs) / bound,
		result: `${one('Remaining as of the request', request)}; ${one('as of the answer', answer)}`,
		details:
			`bound ${seconds(bound)}: ${Math.ceil(n / PER_MINUTE) - 1} full windows, then the rest at the pace of the two executions without a limit (${seconds(free.wallMs)}); ` +
			`as of the request: ${counts(request)}; as of the answer: ${counts(answer)}`,
		figures: {
			n,
			boundMs: bound,
			freeMs: free.wallMs,
			requestMs: request.wallMs,
			answerMs: answer.wallMs,
			requestRefused: request.refused,
			answerRefused: answer.refused,
			requestFailed: request.failed,
			answerFailed: answer.failed,
			requestApplied: request.applied,
			answerApplied: answer.applied,
		},
	};
}
