/**
 * `npm start -- --queue` as a user runs it: it starts Postgres, Redis, n8n's main, two workers, two webhook
 * processes and the sandbox, prints where everything is, serves the web-form example through the webhook
 * processes, and on Ctrl-C (SIGINT) stops everything: no process of the run is left (checked here independently
 * of the script's own check, by the run marker in every process's environment) and its ports are free again.
 *
 * Skipped with a log line where Postgres or Redis is not installed; a failure in CI (CI=true).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { ROOT, httpRequest } from './n8nServer';
import { queueServicesMissing } from './queueServer';

/* eslint-disable @typescript-eslint/no-require-imports */
const { leftovers } = require('../../scripts/queue-stack');
const { freePort } = require('../../scripts/n8n-harness');
const { cleanEnv } = require('../../scripts/n8n-runtime');
/* eslint-enable @typescript-eslint/no-require-imports */

const missing = queueServicesMissing();
// The script's folder (its sandbox log shows the demo key, as it should for a user) is a temp folder; what n8n,
// Postgres and Redis logged, and what the script printed, is copied to .e2e/queue-start for the run's secret scan.
const SCANNED = path.join(ROOT, '.e2e', 'queue-start');

if (missing.length && process.env.CI !== 'true') {
	// eslint-disable-next-line no-console
	console.log(`[e2e queue start] SKIPPED: ${missing.join(' and ')} not installed (apt-get install -y postgresql redis-server)`);
	test.skip('npm start -- --queue: postgresql or redis-server not installed', () => undefined);
} else {
	test('npm start -- --queue: starts the whole set, serves the webhook example through the webhook processes, and Ctrl-C leaves no process', async () => {
		if (missing.length) throw new Error(`queue mode needs ${missing.join(' and ')}: apt-get install -y postgresql redis-server`);
		const DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'lofty-queue-start-'));
		fs.rmSync(SCANNED, { recursive: true, force: true });
		fs.mkdirSync(SCANNED, { recursive: true });
		const env = { ...cleanEnv(), LOFTY_TRYOUT_DIR: DIR, LOFTY_SANDBOX_PORT: String(await freePort()) };
		delete env.NODE_ENV;
		let out = '';
		const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.js'), '--queue'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
		child.stdout!.on('data', (d) => (out += d));
		child.stderr!.on('data', (d) => (out += d));
		const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
		try {
			for (const deadline = Date.now() + 300_000; !out.includes('Press Ctrl-C'); await new Promise((r) => setTimeout(r, 200))) {
				if (child.exitCode !== null || Date.now() > deadline) throw new Error(`npm start -- --queue did not get ready:\n${out.slice(-4000)}`);
			}
			const editor = out.match(/n8n editor \(main\):\s+(http:\/\/127\.0\.0\.1:\d+)/)![1];
			const webhooks = out.match(/Webhooks:\s+(http:\/\/127\.0\.0\.1:\d+)/)![1];
			const ports = [...out.matchAll(/127\.0\.0\.1:(\d+)/g)].map((m) => Number(m[1])).concat(...[...out.matchAll(/(?:Postgres|Redis) (\d+)/g)].map((m) => Number(m[1])));
			expect((await httpRequest('GET', `${editor}/healthz/readiness`)).status).toBe(200);
			// The banner's curl line, through the proxy: a webhook process takes it, a worker runs the workflow.
			const email = `queue-start-${Date.now()}@example.com`;
			const posted = await httpRequest('POST', `${webhooks}/webhook/lofty-lead-intake`, { firstName: 'Ada', lastName: 'Queue', email, source: 'Website' });
			expect({ status: posted.status, json: posted.json }).toMatchObject({ status: 201, json: { status: 'created' } });

			child.kill('SIGINT');
			expect(await exited).toBe(0);
			expect(out).toMatch(/stopped; no process left/);
			expect(leftovers(`lofty-queue-${child.pid}-`)).toEqual([]);
			for (const port of new Set(ports)) expect(await freePort(port)).toBe(port);
		} finally {
			if (child.exitCode === null) child.kill('SIGKILL');
			// After a failure: nothing of this run may outlive the test (found by its marker, so only ours).
			for (const p of leftovers(`lofty-queue-${child.pid}-`)) process.kill(p.pid, 'SIGKILL');
			fs.writeFileSync(path.join(SCANNED, 'start-output.log'), out);
			const logs = path.join(DIR, 'queue', 'stack', 'logs');
			if (fs.existsSync(logs)) fs.cpSync(logs, path.join(SCANNED, 'logs'), { recursive: true });
			fs.rmSync(DIR, { recursive: true, force: true });
		}
	});
}
