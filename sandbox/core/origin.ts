/**
 * Which pages may drive the sandbox's own HTTP endpoints (the try-out's POST /tryout/events, the tool server at /mcp):
 * a request must name this server in its Host (against DNS rebinding: a hostile name resolved to 127.0.0.1 sends its
 * own Host), and an Origin, when a browser sends one, must be this server. Clients outside a browser send no Origin.
 */
import type { IncomingMessage } from 'node:http';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** The Host values that name the address and port this request came in on (and the loopback names, on loopback). */
export function hostsOf(req: IncomingMessage): string[] {
	const local = (req.socket.localAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
	const port = req.socket.localPort;
	const address = local.includes(':') ? `[${local}]` : local;
	const loopback = address === '[::1]' || address.startsWith('127.');
	return [...new Set([address, ...(loopback ? LOOPBACK_NAMES : [])])].map((h) => `${h}:${port}`);
}

/** Why the request may not act (a foreign Host or Origin), or undefined. */
export function foreignRequest(req: IncomingMessage): string | undefined {
	const hosts = hostsOf(req);
	const host = (req.headers.host ?? '').toLowerCase();
	if (!hosts.includes(host)) return `Host ${JSON.stringify(host)} is not this server (${hosts.join(', ')})`;
	const origin = req.headers.origin;
	if (origin !== undefined && !hosts.some((h) => origin.toLowerCase() === `http://${h}`)) return `Origin ${JSON.stringify(origin)} is not this server`;
	if (req.headers['sec-fetch-site'] === 'cross-site') return 'a cross-site request';
	return undefined;
}

/** Whether the request's body is declared as JSON (a cross-site form or text/plain request is not). */
export function isJsonRequest(req: IncomingMessage): boolean {
	return /^application\/json\s*(;|$)/i.test(String(req.headers['content-type'] ?? ''));
}

/** A URL with the values of secret-carrying query parameters (the Lofty Trigger's `token`) replaced by `***`. */
export function redactUrl(url: string): string {
	return url.replace(/([?&](?:token|secret|key|api_?key|access_?token|auth|signature|sig|password|code)=)[^&#]*/gi, '$1***');
}
