/**
 * n8n itself for the n8n harness (scripts/n8n-harness.js): the quiet, offline environment, and the result of
 * `n8n execute --rawOutput` (its JSON document and a node's items).
 */
'use strict';

const { cleanEnv } = require('../n8n-runtime');

/**
 * n8n's environment: nothing n8n-related from the caller's environment, only local, quiet and offline
 * settings (see /work/shared/reference/n8n-runtime-notes.md). `extra` is merged last.
 */
function n8nEnv({ userFolder, ports, version, encryptionKey, extra = {} }) {
	const base = cleanEnv();
	for (const k of Object.keys(base)) if (/^(N8N_|DB_|EXECUTIONS_|QUEUE_|GENERIC_TIMEZONE)/.test(k)) delete base[k];
	const env = Object.assign(base, {
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: encryptionKey,
		N8N_HOST: '127.0.0.1',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_PORT: String(ports.http),
		N8N_RUNNERS_BROKER_PORT: String(ports.broker),
		N8N_WEBHOOK_URL: `http://127.0.0.1:${ports.http}/`,
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${ports.http}/`,
		N8N_SECURE_COOKIE: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
		N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
		N8N_AI_ENABLED: 'false',
		N8N_LOG_LEVEL: 'info',
		N8N_LOG_OUTPUT: 'console',
		DB_TYPE: 'sqlite',
	});
	// 2.8.x refuses to start with an unknown module name.
	if (/^2\.(4\d|[5-9]\d)\./.test(version)) env.N8N_DISABLED_MODULES = 'mcp-registry';
	return Object.assign(env, extra);
}

/** The JSON document `n8n execute --rawOutput` prints after its log lines: from the first line that is exactly "{". */
function parseRawOutput(stdout) {
	const lines = stdout.split('\n');
	const start = lines.findIndex((l) => l.trim() === '{');
	if (start < 0) return null;
	const end = lines.map((l) => l.trim()).lastIndexOf('}');
	try {
		return JSON.parse(lines.slice(start, end + 1).join('\n'));
	} catch {
		return null;
	}
}

/** The items a node output in an execution result: { items } or { error }. */
function itemsOf(result, nodeName, output = 0) {
	const runData = result?.data?.resultData?.runData ?? result?.resultData?.runData ?? result?.runData;
	if (!runData) return { error: `no runData in the result (keys: ${Object.keys(result ?? {}).join(', ')})` };
	const runs = runData[nodeName];
	if (!runs) return { error: `node "${nodeName}" did not run (ran: ${Object.keys(runData).join(', ')})` };
	const last = runs[runs.length - 1];
	if (last.error) return { error: `node "${nodeName}" failed: ${last.error.message ?? JSON.stringify(last.error)}` };
	return { items: last.data?.main?.[output] ?? [] };
}

module.exports = { n8nEnv, parseRawOutput, itemsOf };
