/**
 * The sandbox for the n8n harness (scripts/n8n-harness.js): `node .build/sandbox/cli.js` started, and its
 * URL and demo API key read from its KEY=value lines.
 */
'use strict';

const path = require('path');
const { cleanEnv } = require('../n8n-runtime');
const { ROOT, SANDBOX_CLI, StepError, freePort } = require('./core');

const SANDBOX_PORT_ENV = 'LOFTY_SANDBOX_PORT';
const SANDBOX_URL_VAR = 'LOFTY_SANDBOX_URL'; // printed by the sandbox as KEY=value lines
const SANDBOX_KEY_VAR = 'LOFTY_API_KEY';

/**
 * Start the sandbox (`node .build/sandbox/cli.js`) and wait for its URL and demo API key on stdout:
 * { child, port, url, apiKey, output() }. `onData(text)` sees everything it prints.
 */
async function startSandbox(procs, { env = cleanEnv(), port, onData } = {}) {
	const p = port ?? (await freePort());
	const child = procs.start(process.execPath, [path.join(ROOT, SANDBOX_CLI)], {
		cwd: ROOT,
		env: { ...env, [SANDBOX_PORT_ENV]: String(p) },
	});
	let out = '';
	let err = '';
	return new Promise((resolve, reject) => {
		let done = false;
		const timer = setTimeout(() => {
			done = true;
			reject(new StepError(`sandbox did not print its URL and API key within 20s. stdout:\n${out}\nstderr:\n${err}`));
		}, 20_000);
		const check = () => {
			if (done) return;
			// Contract: KEY=value lines (LOFTY_SANDBOX_URL=..., LOFTY_API_KEY=...); looser formats as a fallback.
			const url = out.match(new RegExp(`^${SANDBOX_URL_VAR}=(\\S+)`, 'm'))?.[1] ?? out.match(/https?:\/\/127\.0\.0\.1:\d+[^\s'"`,)]*/)?.[0];
			const key = out.match(new RegExp(`^${SANDBOX_KEY_VAR}=(\\S+)`, 'm'))?.[1] ?? parseApiKey(out);
			if (url && key) {
				done = true;
				clearTimeout(timer);
				resolve({ child, port: p, url: url.replace(/\/+$/, ''), apiKey: key, output: () => out + err });
			}
		};
		child.stdout.on('data', (d) => {
			out += d;
			onData?.(String(d));
			check();
		});
		child.stderr.on('data', (d) => {
			err += d;
			onData?.(String(d));
		});
		child.on('exit', (code) => {
			if (done) return;
			done = true;
			clearTimeout(timer);
			reject(new StepError(`sandbox exited early (code ${code}). stdout:\n${out}\nstderr:\n${err}`));
		});
	});
}

/** The demo key: a JSON field, or a line like "API key: xxx" / "apiKey=xxx". */
function parseApiKey(text) {
	for (const line of text.split('\n')) {
		try {
			const j = JSON.parse(line);
			const k = j.apiKey ?? j.api_key ?? j.demoApiKey ?? j.key;
			if (typeof k === 'string' && k) return k;
		} catch {
			/* not JSON */
		}
		const m = line.match(/api[ _-]?key\b[^:=]*[:=]\s*["'`]?([A-Za-z0-9._~+\/=-]{8,})/i);
		if (m) return m[1];
	}
	return null;
}

module.exports = { startSandbox, parseApiKey };
