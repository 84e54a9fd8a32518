/**
 * HTTP for the try-out (scripts/start.js): one request over loopback, and waiting for n8n to be ready.
 */
'use strict';

const http = require('http');
const H = require('../n8n-harness');
const { tail } = require('./logs');

function httpRequest(method, url, body, headers = {}) {
	return new Promise((resolve, reject) => {
		const data = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
		const req = http.request(
			url,
			{ method, headers: { ...(data !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } : {}), ...headers }, timeout: 60_000 },
			(res) => {
				let text = '';
				res.setEncoding('utf8');
				res.on('data', (d) => (text += d));
				res.on('end', () => {
					let json;
					try {
						json = JSON.parse(text);
					} catch {
						/* not JSON */
					}
					resolve({ status: res.statusCode, text, json, headers: res.headers });
				});
			},
		);
		req.on('timeout', () => req.destroy(new Error('timed out')));
		req.on('error', reject);
		if (data !== undefined) req.write(data);
		req.end();
	});
}

async function waitReady(url, child, logFile, timeoutMs = 180_000) {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (child.exitCode !== null || child.signalCode !== null)
			H.fail(`n8n exited during start-up (code ${child.exitCode}, ${child.signalCode ?? 'no signal'}). Last lines of ${logFile}:\n${tail(logFile)}`);
		try {
			const r = await httpRequest('GET', url);
			if (r.status === 200) return;
		} catch {
			/* not listening yet */
		}
		await H.sleep(300);
	}
	H.fail(`n8n was not ready within ${timeoutMs / 1000}s. Last lines of ${logFile}:\n${tail(logFile)}`);
}

module.exports = { httpRequest, waitReady };
