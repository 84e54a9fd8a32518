/**
 * When n8n answers a Lofty delivery, does the execution already exist? n8n 2.8 moved the webhook's "on received"
 * answer after the execution is created; n8n 1.x answers first and creates it right after (webhook-helpers.js:
 * responseCallback, then WorkflowRunner.run), saving the trigger's memory of the delivery before the answer.
 *
 * Measured in a real n8n: a Lofty Trigger workflow is activated against the sandbox, then deliveries are posted one
 * at a time. The moment the answer's status line arrives, n8n's whole process group is frozen (SIGSTOP) and its
 * SQLite database is read (read-only) with n8n's own Node and sqlite3 module: is there a new execution, and does the
 * workflow's static data hold the delivery id? Then n8n goes on (SIGCONT). A crash at that moment is what the
 * frozen state shows: on 2.8 and later the execution is always there; on 1.x the answer (and the memory) can come
 * before it, and the delivery would be lost. At the end every delivery has its one execution.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as http from 'node:http';
import * as path from 'node:path';

import { type Sandbox, SEED_IDS, startSandbox, stringifyJson } from '../../sandbox';
import { configureDelivery } from '../../sandbox/resources/webhook/delivery';
import { webhookState } from '../../sandbox/resources/webhook';
import { deliveryKey } from '../../nodes/LoftyTrigger/dedupe';
import { atLeast } from './n8nApiChanges';
import { N8nServer, PACKAGE_NAME, n8nInstalled } from './n8nServer';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ensureN8n } = require('../../scripts/n8n-runtime') as { ensureN8n: (o: { version: string }) => { nodeBin: string; n8nBin: string } };

const PROBES = Number(process.env.LOFTY_E2E_ANSWER_PROBES) || 12;
const ANSWER_AFTER_EXECUTION_FROM = '2.8.0';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Frozen {
	status: number;
	executions: number | 'busy';
	remembered: boolean | 'busy';
}

export function defineWebhookAnswerSuite(version: string, skipWhenNotInstalled = false): void {
	const title = `n8n ${version}: a Lofty delivery's answer and its execution (n8n frozen the moment it answers)`;
	if (skipWhenNotInstalled && !n8nInstalled(version)) {
		describe(title, () => test.skip(`n8n ${version} not installed`, () => undefined));
		return;
	}
	// SQLite with a pool of read connections (WAL, 2.x's default; deprecated to run without on 1.x): a reader sees the
	// last committed state even while n8n is frozen in the middle of a write, so "no execution" means none committed.
	const n8n = new N8nServer(version, `answer-${version}`, { DB_SQLITE_POOL_SIZE: '2' });
	let sb: Sandbox;
	let nodeBin = '';
	let sqlite3Path = '';
	let workflowId = '';
	let callbackUrl = '';

	/**
	 * n8n's database, read with n8n's own Node: the workflow's executions and its static data. `waitMs`: how long to
	 * wait for a lock n8n holds (none while n8n is frozen: 'busy' then means a write of n8n's was under way).
	 */
	function readDb(waitMs: number): { executions: number; staticData: string } | 'busy' {
		const db = path.join(n8n.dir, 'user', '.n8n', 'database.sqlite');
		// n8n's own sqlite3 module, built for the Node that runs this n8n (Node 20 for 2.8.4, 24 for the others)
		const script = `const sqlite3 = require(${JSON.stringify(sqlite3Path)});
			const fail = (e) => { process.stderr.write(String(e && e.code) + ' ' + String(e)); process.exit(1); };
			const db = new sqlite3.Database(${JSON.stringify(db)}, sqlite3.OPEN_READONLY, (e) => e && fail(e));
			db.configure('busyTimeout', ${waitMs});
			db.get('SELECT COUNT(*) AS n FROM execution_entity WHERE "workflowId" = ?', [${JSON.stringify(workflowId)}], (e, a) => {
				if (e) return fail(e);
				db.get('SELECT "staticData" AS s FROM workflow_entity WHERE id = ?', [${JSON.stringify(workflowId)}], (e2, b) => {
					if (e2) return fail(e2);
					process.stdout.write(JSON.stringify({ executions: Number(a.n), staticData: String(b.s) }));
					db.close();
				});
			});`;
		const r = spawnSync(nodeBin, ['-e', script], { encoding: 'utf8', timeout: 30_000 });
		if (r.status === 0) return JSON.parse(r.stdout);
		if (/SQLITE_BUSY|database is locked/.test(r.stderr)) return 'busy';
		throw new Error(`reading n8n's database failed: ${r.stderr.slice(0, 500)}`);
	}

	function executionCount(): number {
		const db = readDb(10_000);
		if (db === 'busy') throw new Error("n8n's database is locked while n8n runs");
		return db.executions;
	}

	/** Posts one delivery; freezes n8n as soon as the answer's status line arrives, reads the database, thaws n8n. */
	function probe(leadId: number): Promise<Frozen> {
		const deliveryId = randomUUID();
		const before = executionCount();
		const body = stringifyJson({ listId: 2, teamId: BigInt(SEED_IDS.teamId), createdLead: [{ leadId, updateTime: Date.now() }] });
		return new Promise((resolve, reject) => {
			const req = http.request(callbackUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'Service-Webhook-Id': deliveryId } }, (res) => {
				n8n.signal('SIGSTOP');
				let seen: ReturnType<typeof readDb>;
				try {
					seen = readDb(0);
				} finally {
					n8n.signal('SIGCONT');
				}
				const frozen: Frozen =
					seen === 'busy'
						? { status: res.statusCode ?? 0, executions: 'busy', remembered: 'busy' }
						: { status: res.statusCode ?? 0, executions: seen.executions - before, remembered: seen.staticData.includes(deliveryKey(deliveryId)) };
				res.resume();
				res.on('end', () => resolve(frozen));
			});
			req.on('error', reject);
			req.end(body);
		});
	}

	describe(title, () => {
		beforeAll(async () => {
			const rt = ensureN8n({ version });
			nodeBin = rt.nodeBin;
			sqlite3Path = require.resolve('sqlite3', { paths: [path.dirname(path.dirname(rt.n8nBin))] });
			sb = await startSandbox({ port: 0, rateLimit: { perWindow: 1_000_000, windowMs: 60_000 } });
			configureDelivery(sb.store, { allowHttpCallbacks: true, autoDeliver: false });
			await n8n.start();
			const r = await n8n.rest('POST', '/rest/credentials', { name: 'Lofty API key (answer e2e)', type: 'loftyApi', data: { apiKey: sb.apiKey, baseUrl: sb.url } });
			if (r.status !== 200) throw new Error(`credential: ${r.status} ${r.text.slice(0, 300)}`);
			const cred = { id: (r.json?.data ?? r.json).id, name: 'Lofty API key (answer e2e)' };
			const webhookId = randomUUID();
			const trigger = {
				id: randomUUID(),
				name: 'Lofty Trigger',
				type: `${PACKAGE_NAME}.loftyTrigger`,
				typeVersion: 1,
				position: [0, 0],
				webhookId,
				parameters: { authentication: 'apiKey', events: [2], fetchFullRecord: false, options: {} },
				credentials: { loftyApi: cred },
			};
			workflowId = await n8n.createWorkflow({ name: 'Lofty e2e: answer and execution', nodes: [trigger], connections: {} });
			const a = await n8n.api('POST', `/workflows/${workflowId}/activate`);
			if (a.status !== 200) throw new Error(`activate answered ${a.status}: ${a.text.slice(0, 600)}`);
			const hook = `${n8n.base}/webhook/${webhookId}/webhook`;
			for (let i = 0; i < 120 && !callbackUrl; i++) {
				callbackUrl = [...webhookState(sb.store).subscriptions.values()].find((s) => s.callbackUrl.split('?')[0] === hook)?.callbackUrl ?? '';
				if (!callbackUrl) await sleep(250);
			}
			if (!callbackUrl) throw new Error(`no subscription for ${hook}\n${n8n.logTail(20)}`);
		});

		afterAll(async () => {
			await n8n.stop();
			await sb?.stop();
		});

		test(`${PROBES} deliveries: ${atLeast(version, ANSWER_AFTER_EXECUTION_FROM) ? 'each answered only once its execution exists' : 'how many answers came before their execution (a race: measured and logged)'}; each runs once`, async () => {
			const start = executionCount();
			const frozen: Frozen[] = [];
			for (let i = 0; i < PROBES; i++) frozen.push(await probe(1000 + i));
			const early = frozen.filter((f) => f.executions === 0);
			const remembered = early.filter((f) => f.remembered === true);
			n8n.log(`answer vs execution on n8n ${version}: ${early.length} of ${PROBES} answers came before their execution existed (${remembered.length} of those with the delivery already remembered); frozen reads: ${JSON.stringify(frozen)}`);
			expect(frozen.map((f) => f.status)).toEqual(frozen.map(() => 200));
			// Before 2.8 the answer and the execution's creation race (29 of 30 and 9 of 12 answers first on 1.123.81 here):
			// how often depends on the machine, so it is logged (.e2e/answer-<version>/e2e.log), not asserted.
			if (atLeast(version, ANSWER_AFTER_EXECUTION_FROM)) expect(early).toEqual([]);
			// thawed, every delivery ran once
			let total = 0;
			for (let i = 0; i < 120 && total < start + PROBES; i++) {
				total = executionCount();
				if (total < start + PROBES) await sleep(250);
			}
			expect(total).toBe(start + PROBES);
		});
	});
}
