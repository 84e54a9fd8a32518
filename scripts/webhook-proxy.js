/**
 * The load balancer of a queue-mode n8n, on loopback: production webhooks (`/webhook/...`) go round robin to the
 * `n8n webhook` processes, everything else to the main process. n8n's WEBHOOK_URL points here, so the addresses a
 * trigger registers (the Lofty Trigger's callback) reach the webhook processes the way a real deployment's
 * reverse proxy would send them. Every forwarded webhook request is logged ({ at, path, target }) for the tests.
 *
 * `setRouting('by-path')` sends every request for one webhook path to the same process instead (what nginx's
 * `hash $uri consistent` does): the copies of one delivery then meet in one process.
 *
 * Plain Node.js, no dependencies.
 */
'use strict';

const http = require('http');

/**
 * Starts the proxy on 127.0.0.1:`port`. `webhooks`: base URLs of the webhook processes; `main`: the main's.
 * Resolves { url, log, stop() }.
 */
function startWebhookProxy({ port, webhooks, main }) {
	let next = 0;
	let routing = 'round-robin';
	const log = [];
	const byPath = (p) => webhooks[[...p].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) % webhooks.length];
	const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
	const server = http.createServer((req, res) => {
		const isWebhook = req.url.startsWith('/webhook/');
		const target = !isWebhook ? main : routing === 'by-path' ? byPath(req.url.split('?')[0]) : webhooks[next++ % webhooks.length];
		if (isWebhook) log.push({ at: Date.now(), path: req.url.split('?')[0], target });
		const url = new URL(req.url, target);
		const upstream = http.request(url, { method: req.method, headers: { ...req.headers, host: url.host }, agent }, (answer) => {
			res.writeHead(answer.statusCode ?? 502, answer.headers);
			answer.pipe(res);
		});
		upstream.on('error', (e) => {
			if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
			res.end(`proxy: ${target} did not answer: ${e.message}`);
		});
		req.pipe(upstream);
	});
	return new Promise((resolve, reject) => {
		server.on('error', reject);
		server.listen(port, '127.0.0.1', () =>
			resolve({
				url: `http://127.0.0.1:${port}`,
				log,
				/** 'round-robin' (default) or 'by-path' */
				setRouting: (mode) => {
					if (mode !== 'round-robin' && mode !== 'by-path') throw new Error(`unknown routing ${mode}`);
					routing = mode;
				},
				stop: () =>
					new Promise((done) => {
						agent.destroy();
						server.close(() => done());
						server.closeAllConnections?.();
					}),
			}),
		);
	});
}

module.exports = { startWebhookProxy };
