/**
 * What the node tests really sent: every request a node run sent to a test file's sandbox, with the operation of
 * that run (resource, operation, method, path, status), written to `.build/ops/<test file>.json` when the file ends.
 * `npm run test:ops` (scripts/ops-check.js) maps them to the operations of the resource tables: each operation must
 * have been sent by a node run of that operation and answered 2xx. Requests a test sends itself (its own setup)
 * come from no run and are not recorded.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Sandbox } from '../../sandbox';

export const OPS_LOG_DIR = join(__dirname, '..', '..', '.build', 'ops');

export interface SentRequest {
	resource: string;
	operation: string;
	method: string;
	url: string;
	status: number;
}

/** What the node runs of this test file sent, one line per distinct request (a jest module registry is per file). */
const sent = new Set<string>();

/** Notes one request a node run sent (context.ts calls it for every request of the run, with the run's operation). */
export function noteSent({ resource, operation, method, url, status }: SentRequest): void {
	sent.add(JSON.stringify([resource, operation, method.toUpperCase(), url.split('?')[0], status]));
}

/** The requests node runs of this test file sent to `sandbox`, with their operation, in a stable order. */
export function sentTo(sandbox: Sandbox): Array<Omit<SentRequest, 'url'> & { path: string }> {
	const origin = sandbox.url.replace(/\/+$/, '');
	return [...sent]
		.map((line) => JSON.parse(line) as [string, string, string, string, number])
		.filter(([, , , url]) => url.startsWith(`${origin}/`))
		.map(([resource, operation, method, url, status]) => ({ resource, operation, method, path: url.slice(origin.length), status }))
		.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

/** Writes, when called, what sentTo(sandbox) holds then as `.build/ops/<test file>.json`. */
export function recordRequests(sandbox: Sandbox): () => void {
	return () => {
		const testPath = expect.getState().testPath;
		const requests = sentTo(sandbox);
		if (!testPath || requests.length === 0) return;
		const file = relative(join(__dirname, '..', '..'), testPath);
		mkdirSync(OPS_LOG_DIR, { recursive: true });
		writeFileSync(join(OPS_LOG_DIR, `${file.replace(/[\\/]/g, '__')}.json`), `${JSON.stringify({ file, requests })}\n`);
	};
}
