/**
 * The load balancer of a queue-mode n8n, on loopback: production webhooks (`/webhook/...`) go round robin to the
 * `n8n webhook` processes, everything else to the main process. n8n's WEBHOOK_URL points here, so the addresses a
 * trigger registers (the Lofty Trigger's callback) reach the webhook processes the way a real deployment's
 * reverse proxy would send them. Every forwarded webhook request is logged ({ at, path, target }) for the tests.
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
	const log = [];
	const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
	const server = http.createServer((req, res) => {
		const isWebhook = req.url.startsWith('/webhook/');
		const target = isWebhook ? webhooks[next++ % webhooks.length] : main;
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
