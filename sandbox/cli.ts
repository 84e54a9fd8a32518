/**
 * Standalone sandbox: `node .build/sandbox/cli.js`
 * Env: LOFTY_SANDBOX_PORT (default 4010), LOFTY_SANDBOX_HOST (default 127.0.0.1),
 *      LOFTY_SANDBOX_RATE_LIMIT as "<perWindow>/<windowMs>" (default 100/60000),
 *      LOFTY_SANDBOX_LATENCY as "<fixedMs>" or "<fixedMs>+<jitterMs>" (default 0: answers at once);
 *      the flag `--latency 300+60` (npm run sandbox -- --latency 300+60) wins over the variable;
 *      LOFTY_SANDBOX_WEBHOOKS_FILE: keep the webhook subscriptions made through the API in this file across restarts
 *      (resources/webhook/persist.ts; `npm start` sets it);
 *      LOFTY_SANDBOX_IDS_FILE: counts the starts in this file, so that new records never get an ID an earlier start
 *      handed out (core/idStart.ts; `npm start` sets it).
 * Serves the try-out page at /tryout (sandbox/web). Prints KEY=value lines (URL, page, demo API key, OAuth demo client)
 * on stdout.
 */
import { DEMO_CLIENT_ID, DEMO_CLIENT_SECRET, OTHER_AGENT_API_KEY, SEED_IDS, parseLatency, startSandbox } from './index';
import { claimIdStart } from './core/idStart';
import { type KeptSubscriptions, keepSubscriptions } from './resources/webhook/persist';
import { WEB_PATH } from './web';

function rateLimitFromEnv(raw: string | undefined): { perWindow: number; windowMs: number } | undefined {
	if (!raw) return undefined;
	const m = /^(\d+)\/(\d+)$/.exec(raw.trim());
	if (!m) throw new Error(`LOFTY_SANDBOX_RATE_LIMIT must look like 100/60000, got '${raw}'`);
	return { perWindow: Number(m[1]), windowMs: Number(m[2]) };
}

function latencyFromArgs(argv: string[]): string | undefined {
	const at = argv.findIndex((a) => a === '--latency' || a.startsWith('--latency='));
	if (at < 0) return undefined;
	return argv[at].includes('=') ? argv[at].slice('--latency='.length) : argv[at + 1];
}

async function main(): Promise<void> {
	const latencyText = latencyFromArgs(process.argv.slice(2)) ?? process.env.LOFTY_SANDBOX_LATENCY;
	const latency = latencyText ? parseLatency(latencyText) : undefined;
	const port = Number(process.env.LOFTY_SANDBOX_PORT ?? 4010);
	const host = process.env.LOFTY_SANDBOX_HOST ?? '127.0.0.1';
	// Standalone use (npm run sandbox, npm start) delivers webhooks on real timers, and accepts http:// callbacks on
	// loopback so a local n8n can subscribe; Lofty itself, and the sandbox by default, require HTTPS.
	const sandbox = await startSandbox({
		port,
		host,
		rateLimit: rateLimitFromEnv(process.env.LOFTY_SANDBOX_RATE_LIMIT),
		webhooks: { autoDeliver: true, allowHttpCallbacks: true },
		latency,
		web: true,
		idStart: process.env.LOFTY_SANDBOX_IDS_FILE ? claimIdStart(process.env.LOFTY_SANDBOX_IDS_FILE) : undefined,
	});
	const webhooksFile = process.env.LOFTY_SANDBOX_WEBHOOKS_FILE;
	let kept: KeptSubscriptions | undefined;
	if (webhooksFile) kept = keepSubscriptions(sandbox.store, webhooksFile);
	const out = [
		`Lofty sandbox listening on ${sandbox.url}${latency ? ` (answers after ${latency.fixedMs} ms + 0 to ${latency.jitterMs} ms)` : ''}`,
		`LOFTY_SANDBOX_URL=${sandbox.url}`,
		`LOFTY_SANDBOX_PAGE=${sandbox.url}${WEB_PATH}`,
		`LOFTY_API_KEY=${sandbox.apiKey}`,
		`LOFTY_OTHER_AGENT_API_KEY=${OTHER_AGENT_API_KEY}`,
		`LOFTY_OAUTH_CLIENT_ID=${DEMO_CLIENT_ID}`,
		`LOFTY_OAUTH_CLIENT_SECRET=${DEMO_CLIENT_SECRET}`,
		`LOFTY_OAUTH_AUTHORIZE_URL=${sandbox.url}/page/vendor-auth.html`,
		`LOFTY_OAUTH_TOKEN_URL=${sandbox.url}/api/user-web/oauth/token`,
		`LOFTY_DEMO_USER_ID=${SEED_IDS.demoUserId}`,
		...(kept ? [`LOFTY_SANDBOX_WEBHOOKS_KEPT=${kept.restored} subscription(s) restored from ${webhooksFile}`] : []),
	];
	process.stdout.write(`${out.join('\n')}\n`);
	let stopping = false;
	const stop = (signal: string): void => {
		if (stopping) return;
		stopping = true;
		kept?.stop();
		sandbox.stop().then(
			() => {
				process.stdout.write(`Lofty sandbox stopped (${signal})\n`);
				process.exit(0);
			},
			() => process.exit(1),
		);
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((e) => {
	process.stderr.write(`Lofty sandbox failed to start: ${e instanceof Error ? e.message : String(e)}\n`);
	process.exit(1);
});
