/**
 * The n8n API differences the package guards at run time, with the n8n version that changed each: one table, read
 * by the unit test (test/unit/supportedVersions.test.ts: the guard's comment names that version) and checked here
 * against the n8n-workflow of a real installed n8n (1.123.81 has neither change, 2.8.4 neither, 2.41.1 both).
 * n8n-workflow's minor version follows n8n's on 2.x, so "from 2.9" means n8n 2.9.0 and its n8n-workflow 2.9.x.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { n8nInstalled } from './n8nServer';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ensureN8n } = require('../../scripts/n8n-runtime') as { ensureN8n: (o: { version: string }) => { nodeBin: string; n8nBin: string } };

export interface ApiChange {
	/** what changed, as a user of n8n-workflow sees it */
	api: string;
	/** the first n8n version with the new behaviour */
	from: string;
	/** the file whose run-time guard handles older n8n, and what it does there */
	guard: { file: string; does: string };
	/** from the installed n8n-workflow (`main`: its resolved cjs entry), run with n8n's own Node: whether it has the change */
	probe: (main: string, nodeBin: string) => boolean;
}

export const API_CHANGES: ApiChange[] = [
	{
		api: 'httpRequest option `ignoreHttpStatusErrors: { ignore, except }` (before: a boolean, any truthy value ignores every status)',
		from: '2.9.0',
		guard: { file: 'nodes/Lofty/transport/request.ts', does: 'an OAuth2 401 handed back is sent once more with errors thrown, so n8n refreshes the token' },
		probe: (main) => /ignoreHttpStatusErrors\?: boolean \| IgnoreStatusErrorConfig/.test(fs.readFileSync(path.join(path.dirname(main), 'interfaces.d.ts'), 'utf8')),
	},
	{
		api: '`sleep(ms, signal)` ends when the signal aborts (before: the signal is ignored, the timer runs out)',
		from: '2.34.0',
		guard: { file: 'nodes/Lofty/transport/pacing.ts', does: 'the pacing wait races the timer with the next answer instead of relying on the abort' },
		// Settled after abort() and its microtasks, before the next macrotask: the signal was honoured (no timing involved).
		probe: (main, nodeBin) => {
			const script = `const { sleep } = require(${JSON.stringify(main)}); const c = new AbortController();
				const p = sleep(600000, c.signal).then(() => 'settled', () => 'settled'); c.abort();
				Promise.race([p, new Promise((r) => setImmediate(() => r('pending')))]).then((v) => { process.stdout.write(v); process.exit(0); });`;
			const r = spawnSync(nodeBin, ['-e', script], { encoding: 'utf8', timeout: 60_000 });
			if (r.status !== 0 || !['settled', 'pending'].includes(r.stdout)) throw new Error(`sleep probe failed (exit ${r.status}): ${r.stdout} ${r.stderr}`);
			return r.stdout === 'settled';
		},
	},
];

export const atLeast = (version: string, from: string): boolean => {
	const [a, b] = [version, from].map((v) => v.split('.').map(Number));
	return (a[0] - b[0] || a[1] - b[1] || a[2] - b[2]) >= 0;
};

/** For each API change: this n8n's own n8n-workflow has it exactly when its version is at least `from`. */
export function defineApiChangeChecks(version: string, skipWhenNotInstalled = false): void {
	const title = `n8n ${version}: the n8n-workflow API differences the package guards`;
	if (skipWhenNotInstalled && !n8nInstalled(version)) {
		describe(title, () => test.skip(`n8n ${version} not installed`, () => undefined));
		return;
	}
	describe(title, () => {
		let main = '';
		let nodeBin = '';
		beforeAll(() => {
			const rt = ensureN8n({ version });
			nodeBin = rt.nodeBin;
			main = require.resolve('n8n-workflow', { paths: [path.dirname(path.dirname(rt.n8nBin))] });
		});
		for (const change of API_CHANGES) {
			test(`${change.api}: ${atLeast(version, change.from) ? 'present' : 'absent'} (from n8n ${change.from})`, () => {
				expect({ version, has: change.probe(main, nodeBin) }).toEqual({ version, has: atLeast(version, change.from) });
			});
		}
	});
}
