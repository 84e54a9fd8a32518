/**
 * Watches, in every jest worker, what the node shows a user: the harnesses hand each run's output or error and
 * every log line to `observe`, and the setup file (watch.ts) the console. At the end of each test file its tally
 * is written to .test-output/secret-scan/, where the reporter (reporter.js) adds it up and fails the run on a hit.
 * Only the tally and masked hits are written, never what was seen.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { inspect } from 'node:util';

/* eslint-disable-next-line @typescript-eslint/no-require-imports */
const { findSecrets } = require('../../scripts/secret-scan') as { findSecrets: (text: string, where: string) => unknown[] };

/** The reporter names the run (jest's workers inherit it); a run without the reporter writes to "unreported". */
const TALLY_DIR = path.resolve(__dirname, '../../.test-output/secret-scan', process.env.LOFTY_SECRET_SCAN_RUN ?? 'unreported');

const tally = { observed: 0, bytes: 0, hits: [] as unknown[] };

/** Everything n8n could show of a value; for an error that includes its stack and own fields (description, cause...). */
export function textOf(value: unknown): string {
	if (typeof value === 'string') return value;
	return inspect(value, { depth: 12, maxArrayLength: Infinity, maxStringLength: Infinity, breakLength: Infinity });
}

export function observe(where: string, value: unknown): void {
	const text = textOf(value);
	tally.observed++;
	tally.bytes += text.length;
	tally.hits.push(...findSecrets(text, where));
}

/** Writes this test file's tally (one file per test file and worker) and starts a new one. */
export function flushTally(testPath: string): void {
	fs.mkdirSync(TALLY_DIR, { recursive: true });
	const name = `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.json`;
	fs.writeFileSync(path.join(TALLY_DIR, name), JSON.stringify({ testPath, ...tally }));
	tally.observed = 0;
	tally.bytes = 0;
	tally.hits = [];
}
