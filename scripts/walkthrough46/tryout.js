/**
 * The walkthrough's try-out (scripts/walkthrough46.js): `npm start --reset` in a folder of its own, started and stopped
 * with Ctrl-C as a person does; n8n's REST API in a session of its own (workflows, executions, their run data) and the
 * sandbox's API (what Lofty holds).
 */
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn } = require('child_process');
const flatted = require('flatted');
const { ROOT } = require('../n8n-harness');
const { OWNER, CREDENTIAL } = require('../tryout/config');
const { t0, log, sleep } = require('./editor');

const TRYOUT_DIR = path.resolve(process.env.LOFTY_TRYOUT_DIR || path.join(os.tmpdir(), 'lofty-walkthrough46'));
const NODE_TYPE = 'n8n-nodes-lofty.lofty';
const CRED = { loftyApi: { id: CREDENTIAL.id, name: CREDENTIAL.name } };
const BROWSER_ID = 'walkthrough46';
let tryout; // the npm start child

// ---------- the try-out (npm start) ----------

async function startTryout() {
	fs.mkdirSync(TRYOUT_DIR, { recursive: true });
	const logFile = `${TRYOUT_DIR}-npm-start.log`; // beside the try-out folder (--reset empties it), not with the screenshots: the banner prints the sandbox's keys
	fs.writeFileSync(logFile, '');
	const env = { ...process.env, LOFTY_TRYOUT_DIR: TRYOUT_DIR, LOFTY_TRYOUT_PORT: process.env.LOFTY_TRYOUT_PORT || '5688', LOFTY_SANDBOX_PORT: process.env.LOFTY_SANDBOX_PORT || '4028' };
	tryout = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.js'), '--reset'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
	let out = '';
	const take = (d) => {
		out += d;
		fs.appendFileSync(logFile, d);
	};
	tryout.stdout.on('data', take);
	tryout.stderr.on('data', take);
	log(`npm start (scripts/start.js --reset, folder ${TRYOUT_DIR}), pid ${tryout.pid}, output in ${logFile}`);
	for (const end = Date.now() + 20 * 60_000; !/Press Ctrl-C to stop/.test(out); await sleep(1000)) {
		if (tryout.exitCode !== null || Date.now() > end) throw new Error(`npm start ${tryout.exitCode !== null ? `exited (${tryout.exitCode})` : 'printed no banner in 20 minutes'}:\n${out.slice(-2000)}`);
	}
	const base = /n8n editor:\s+(http:\/\/\S+?)\/?\s/.exec(out)[1];
	const [, sandboxUrl, apiKey] = /Sandbox API:\s+(http:\/\/\S+)\s+\(API key (\S+)\)/.exec(out);
	log(`try-out ready in ${((Date.now() - t0) / 1000).toFixed(0)}s: n8n ${base}, sandbox ${sandboxUrl}`);
	return { base, sandboxUrl, apiKey };
}

async function stopTryout() {
	if (!tryout || tryout.exitCode !== null) return;
	const exited = new Promise((r) => tryout.once('exit', r));
	tryout.kill('SIGINT');
	if (await Promise.race([exited.then(() => true), sleep(45_000).then(() => false)])) return log('npm start stopped');
	tryout.kill('SIGINT'); // a second Ctrl-C: start.js kills its process groups
	if (!(await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]))) process.kill(-tryout.pid, 'SIGKILL');
	log('npm start stopped (second Ctrl-C)');
}

// ---------- n8n's REST API (own session) and the sandbox's API ----------

function restClient(base) {
	let cookie = '';
	async function call(method, p, body) {
		const res = await fetch(`${base}${p}`, {
			method,
			headers: { 'content-type': 'application/json', 'browser-id': BROWSER_ID, ...(cookie ? { cookie } : {}) },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await res.text();
		let json;
		try {
			json = JSON.parse(text);
		} catch {
			json = undefined;
		}
		if (p === '/rest/login') cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
		return { status: res.status, text, json };
	}
	const data = (r) => r.json?.data ?? r.json;
	return {
		call,
		login: () => call('POST', '/rest/login', { emailOrLdapLoginId: OWNER.email, password: OWNER.password }),
		async createWorkflow(wf) {
			const r = await call('POST', '/rest/workflows', { settings: { executionOrder: 'v1' }, active: false, ...wf });
			if (r.status !== 200) throw new Error(`creating "${wf.name}" answered ${r.status}: ${r.text.slice(0, 400)}`);
			return String(data(r).id);
		},
		async workflow(id) {
			return data(await call('GET', `/rest/workflows/${id}`));
		},
		async executions(workflowId) {
			const r = await call('GET', `/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}&limit=20`);
			return data(r)?.results ?? [];
		},
		/** An execution's run data by node name (n8n stores it "flatted"). */
		async runData(id) {
			const r = data(await call('GET', `/rest/executions/${id}`));
			const parsed = typeof r.data === 'string' ? flatted.parse(r.data) : r.data;
			return parsed?.resultData?.runData ?? {};
		},
	};
}

function sandboxClient(url, apiKey) {
	return async function get(p) {
		const res = await fetch(`${url}${p}`, { headers: { Authorization: `token ${apiKey}` } });
		return await res.text();
	};
}

/** The first lead ID in a raw answer (IDs are 64-bit: read as text). */
const firstLeadId = (text) => /"leadId"\s*:\s*"?(\d+)/.exec(text)?.[1];

module.exports = { TRYOUT_DIR, NODE_TYPE, CRED, startTryout, stopTryout, restClient, sandboxClient, firstLeadId };
