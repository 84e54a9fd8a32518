/**
 * The try-out's --verify (scripts/start.js): the manual-trigger examples run with `n8n execute` on a copy of the
 * user folder, and the published webhook example checked with two POSTs.
 */
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const H = require('../n8n-harness');
const { N8N_DIR, WEBHOOK_PATH } = require('./config');
const { log } = require('./logs');
const { httpRequest } = require('./http');

/**
 * The webhook example (published), through `base` (n8n, or the proxy in front of webhook processes): a new email
 * creates a lead, the same email again updates it. Resolves { ok, detail }.
 */
async function checkLeadIntake(base, sandbox) {
	const email = `tryout-${Date.now()}@example.com`;
	const body = { firstName: 'Ada', lastName: 'Lovelace', email, phone: '4155550123', source: 'Website' };
	try {
		const first = await httpRequest('POST', `${base}/webhook/${WEBHOOK_PATH}`, body);
		const second = await httpRequest('POST', `${base}/webhook/${WEBHOOK_PATH}`, body);
		const found = await httpRequest('GET', `${sandbox.url}/v1.0/leads?email=${encodeURIComponent(email)}`, undefined, { Authorization: `token ${sandbox.apiKey}` });
		const leads = found.json?.leads ?? [];
		const tags = (leads[0]?.tags ?? []).map((t) => t.tagName ?? t);
		const ok =
			first.status === 201 && first.json?.status === 'created' && second.status === 200 && second.json?.status === 'updated' && leads.length === 1 && tags.includes('Web Form');
		const detail = `1st POST ${first.status} ${first.text.slice(0, 120)}; 2nd POST ${second.status} ${second.text.slice(0, 120)}; sandbox has ${leads.length} lead(s) with ${email}, tags ${JSON.stringify(tags)}`;
		return { ok, detail };
	} catch (e) {
		return { ok: false, detail: e.message };
	}
}

/** Run the examples against the sandbox and report (the --verify option). Returns whether all passed. */
async function verify({ procs, rt, base, env, ports, sandbox, examples }) {
	const results = [];
	const record = (name, ok, detail) => {
		results.push({ name, ok });
		log(`${ok ? 'PASS' : 'FAIL'} ${name}: ${detail}`);
	};
	// Manual-trigger examples: `n8n execute` on a copy of the user folder (the server keeps the original).
	const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'lofty-tryout-verify-'));
	try {
		fs.cpSync(N8N_DIR, path.join(copy, '.n8n'), { recursive: true });
		const execEnv = { ...env, N8N_USER_FOLDER: copy, N8N_PORT: String(await H.freePort()), N8N_RUNNERS_BROKER_PORT: String(await H.freePort()) };
		for (const e of examples) {
			if (!e.wf.nodes.some((n) => n.type === 'n8n-nodes-base.manualTrigger')) continue;
			const r = await procs.run(rt.nodeBin, [rt.n8nBin, 'execute', `--id=${e.wf.id}`, '--rawOutput'], { label: 'n8n execute', env: execEnv, cwd: copy });
			const result = H.parseRawOutput(r.stdout);
			const last = e.wf.nodes[e.wf.nodes.length - 1].name;
			const { items, error } = result ? H.itemsOf(result, last) : { error: `no JSON result (exit ${r.code}): ${(r.stdout + r.stderr).slice(-1500)}` };
			if (error || r.code !== 0) {
				record(e.file, false, error ?? `exit ${r.code}`);
				continue;
			}
			const sample = items.slice(0, 12).map((it) => JSON.stringify(it.json).slice(0, 160));
			record(e.file, items.length > 0, `${items.length} items from "${last}" in ${r.secs}s\n      ${sample.join('\n      ')}`);
		}
	} finally {
		fs.rmSync(copy, { recursive: true, force: true });
	}
	const intake = await checkLeadIntake(base, sandbox);
	record('lead-intake-webhook.json', intake.ok, intake.detail);
	const failed = results.filter((r) => !r.ok);
	log(`verify: ${results.length - failed.length}/${results.length} examples passed`);
	return failed.length === 0;
}

module.exports = { checkLeadIntake, verify };
