/**
 * The HTTP POST of a delivery or ping. Callbacks go only to loopback hosts unless `loopbackOnly` is false;
 * others count as connection errors, so seeded subscriptions to example.com never reach the network.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

import type { DeliveryOptions, PostResult } from './types';
import { DEFAULT_TIMEOUT_MS } from './schedule';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export function isLoopbackUrl(value: string): boolean {
	try {
		return LOOPBACK.has(new URL(value).hostname);
	} catch {
		return false;
	}
}

/** How much of a callback's answer body is kept (the Lofty Trigger answers `{received, started}`). */
export const ANSWER_KEPT = 500;

/** POSTs `body` to the callback URL; resolves with the status, a timeout or a connection error (never rejects). */
export function postCallback(url: string, body: string, headers: Record<string, string>, options: DeliveryOptions): Promise<PostResult> {
	let target: URL;
	try {
		target = new URL(url);
	} catch {
		return Promise.resolve({ status: 'error', error: 'invalid callback URL' });
	}
	if ((options.loopbackOnly ?? true) && !LOOPBACK.has(target.hostname)) {
		return Promise.resolve({ status: 'error', error: `not sent: ${target.hostname} is not a loopback host (the sandbox never leaves this machine)` });
	}
	const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
	const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
	return new Promise<PostResult>((resolve) => {
		let settled = false;
		const done = (r: PostResult) => {
			if (!settled) {
				settled = true;
				resolve(r);
			}
		};
		const req = send(
			target,
			{
				method: 'POST',
				headers: {
					'Content-Type': 'application/json',
					'Content-Length': String(Buffer.byteLength(body)),
					'User-Agent': 'Lofty-Sandbox-Webhook/1.0',
					...headers,
				},
				agent: false,
			},
			(res) => {
				let answer = '';
				res.setEncoding('utf8');
				res.on('data', (chunk: string) => {
					if (answer.length < ANSWER_KEPT) answer = (answer + chunk).slice(0, ANSWER_KEPT);
				});
				res.on('end', () => {
					const retryAfter = res.headers['retry-after'];
					done({ status: res.statusCode ?? 0, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, answer });
				});
				res.on('error', (e) => done({ status: 'error', error: e.message }));
			},
		);
		req.setTimeout(timeoutMs, () => {
			done({ status: 'timeout', error: `no answer within ${timeoutMs} ms` });
			req.destroy();
		});
		req.on('error', (e) => done({ status: 'error', error: e.message }));
		req.end(body);
	});
}
