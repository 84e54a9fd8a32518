/**
 * A queue-mode n8n for end-to-end runs: the same sign-in, API and workflow helpers as N8nServer, but behind them
 * Postgres, Redis, one main, workers and webhook processes (scripts/queue-stack.js), all under .e2e/<dir>/stack.
 * Manual runs ("Execute workflow") go to the workers. On stop, a plain-SQL dump of n8n's database is written to
 * .e2e/<dir>/postgres-dump.sql for the run's secret scan, and the processes left behind are recorded (none may be).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { N8nServer, PACKAGE_NAME, type PackedPackage } from './n8nServer';
import { envManagedInstall } from './installServer';

/* eslint-disable @typescript-eslint/no-require-imports */
const { QueueStack } = require('../../scripts/queue-stack');
const { missingServices } = require('../../scripts/queue-services');
/* eslint-enable @typescript-eslint/no-require-imports */

export interface QueueOptions {
	workers?: number;
	webhooks?: number;
	/** executions one worker runs at once (n8n's default 10) */
	workerConcurrency?: number;
	/**
	 * Installed as n8n 3.0 expects in queue mode: nothing unpacked by hand; a local registry serves the packed package
	 * and every process gets N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV and N8N_COMMUNITY_PACKAGES (installServer.ts).
	 */
	fromRegistry?: boolean;
}

/** What queue mode needs that is not installed here (postgresql, redis-server), [] when nothing. */
export const queueServicesMissing = (): string[] => missingServices();

export class QueueN8nServer extends N8nServer {
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	stack: any;
	/** Processes found still running after stop(): must stay empty. */
	leftovers: Array<{ pid: number; command: string }> = [];
	private readonly options: QueueOptions;
	/** The local registry (scripts/registry.js) when the package comes from one. */
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	registry: any;

	constructor(version: string, dirName = `queue-${version}`, options: QueueOptions = {}) {
		super(version, dirName);
		this.options = options;
	}

	/** Where n8n's WEBHOOK_URL points: the round-robin proxy in front of the webhook processes. */
	get webhookBase(): string {
		return this.stack.webhookUrl;
	}

	protected async startN8n(rt: { nodeBin: string; n8nBin: string }, pack: PackedPackage, extra: Record<string, string>): Promise<void> {
		const install = this.options.fromRegistry ? await envManagedInstall(path.join(this.dir, 'registry'), pack, (m) => this.log(m)) : undefined;
		this.registry = install?.registry;
		this.stack = new QueueStack({
			dir: path.join(this.dir, 'stack'),
			rt,
			version: this.version,
			pkg: install ? null : { tarball: pack.tarball, packageName: PACKAGE_NAME, version: pack.version },
			workers: this.options.workers,
			webhooks: this.options.webhooks,
			workerConcurrency: this.options.workerConcurrency,
			env: { ...(process.env.LOFTY_E2E_N8N_LOG_LEVEL ? { N8N_LOG_LEVEL: process.env.LOFTY_E2E_N8N_LOG_LEVEL } : {}), ...install?.env },
			mainEnv: extra,
			verbose: process.env.LOFTY_E2E_VERBOSE === '1',
			log: (m: string) => this.log(m),
		});
		await this.stack.start();
		this.server = this.stack.main.child;
		this.base = this.stack.main.base;
		for (const [k, v] of Object.entries(this.stack.timings as Record<string, number>)) this.timings[`queue ${k}`] = v;
		const folders = 1 + this.stack.workers.length + this.stack.webhooks.length;
		this.log(`${install ? `N8N_COMMUNITY_PACKAGES named ${pack.filename} for` : `installed ${pack.filename} (${pack.files} files) in`} ${folders} user folders; logs in ${path.relative(process.cwd(), this.stack.logDir)}`);
	}

	/** Which worker(s) logged "Worker started execution <id>", by execution id. */
	executionsByWorker(): Record<string, string[]> {
		return this.stack.executionsByWorker();
	}

	logTail(lines = 40): string {
		if (!this.stack) return '';
		const names: string[] = [this.stack.main, ...this.stack.workers, ...this.stack.webhooks].map((p: { name: string }) => p.name);
		return names.map((n) => `--- ${n}\n${this.stack.logOf(n).split('\n').slice(-Math.ceil(lines / 2)).join('\n')}`).join('\n');
	}

	private stopped = false;

	async stop(): Promise<void> {
		if (!this.stack || this.stopped) return;
		this.stopped = true;
		try {
			if (this.stack.postgres) this.stack.postgres.dump(path.join(this.dir, 'postgres-dump.sql'));
		} catch (e) {
			this.log(`pg_dump failed: ${(e as Error).message}`);
		}
		const t = Date.now();
		this.leftovers = await this.stack.stop();
		await this.registry?.stop();
		this.log(`queue set stopped in ${((Date.now() - t) / 1000).toFixed(1)}s; processes left: ${this.leftovers.length}`);
		fs.writeFileSync(path.join(this.dir, 'leftovers.json'), JSON.stringify(this.leftovers, null, 2));
	}
}
