/**
 * What the node tests really sent: every request a test file's sandbox answered (method, path, status), written
 * to `.build/ops/<test file>.json` when the file ends. `npm run test:ops` (scripts/ops-check.js) maps them to the
 * operations of the resource tables: each operation must have been sent by a node test and answered 2xx.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Sandbox } from '../../sandbox';

export const OPS_LOG_DIR = join(__dirname, '..', '..', '.build', 'ops');

/** Records every request `sandbox` logs from now on (its request log is cleared by resets; this is not). */
export function recordRequests(sandbox: Sandbox): () => void {
	const seen = new Set<string>();
	const log = sandbox.requests;
	const push = log.push.bind(log);
	log.push = (...entries) => {
		for (const e of entries) seen.add(`${e.method} ${e.path} ${e.status}`);
		return push(...entries);
	};
	return () => {
		const testPath = expect.getState().testPath;
		if (!testPath || seen.size === 0) return;
		const file = relative(join(__dirname, '..', '..'), testPath);
		const requests = [...seen].sort().map((line) => {
			const [method, path, status] = line.split(' ');
			return { method, path, status: Number(status) };
		});
		mkdirSync(OPS_LOG_DIR, { recursive: true });
		writeFileSync(join(OPS_LOG_DIR, `${file.replace(/[\\/]/g, '__')}.json`), `${JSON.stringify({ file, requests })}\n`);
	};
}
