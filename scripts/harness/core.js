/**
 * The basics every part of the n8n harness (scripts/n8n-harness.js) uses: the repository root, the sandbox's
 * CLI path, a failed step (StepError, fail), package.json, a free port and sleep.
 */
'use strict';

const fs = require('fs');
const net = require('net');
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');
const SANDBOX_CLI = '.build/sandbox/cli.js';

/** A failed step: the message says what failed (no stack trace needed). */
class StepError extends Error {}

function fail(msg) {
	throw new StepError(msg);
}

function readPackageJson() {
	return JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
}

/** A free TCP port on 127.0.0.1; `preferred` first when it is free. */
function freePort(preferred) {
	const tryPort = (port) =>
		new Promise((resolve, reject) => {
			const srv = net.createServer();
			srv.unref();
			srv.on('error', reject);
			srv.listen(port, '127.0.0.1', () => {
				const got = srv.address().port;
				srv.close(() => resolve(got));
			});
		});
	if (preferred) return tryPort(preferred).catch(() => tryPort(0));
	return tryPort(0);
}

function sleep(ms) {
	return new Promise((r) => setTimeout(r, ms));
}

module.exports = { ROOT, SANDBOX_CLI, StepError, fail, readPackageJson, freePort, sleep };
