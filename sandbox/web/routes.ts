/**
 * The try-out page's HTTP side, served by the sandbox beside the API (option `web` of startSandbox; the standalone
 * sandbox turns it on): outside the API pipeline, so it needs no key and never counts against an app's rate limit.
 *
 *   GET  /tryout               the page (./page.ts)
 *   GET  /tryout/state?q=text  {leads, stages, subscriptions, deliveries} as JSON, every ID a string
 *   POST /tryout/events        {kind: lead|stage|call|text|email, leadId?, stage?, ...}: makes the event (./actions.ts);
 *                              JSON from this server's own page only (core/origin.ts)
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { type EventRequest, type WebDeps, listDeliveries, listLeads, listSubscriptions, makeEvent } from './actions';
import { foreignRequest, isJsonRequest } from '../core/origin';
import { PAGE_HTML } from './page';

export const WEB_PATH = '/tryout';

function send(res: ServerResponse, status: number, body: string, type: string): void {
	res.writeHead(status, { 'Content-Type': type, 'Content-Length': String(Buffer.byteLength(body)), 'Cache-Control': 'no-store' });
	res.end(body);
}

const json = (res: ServerResponse, status: number, value: unknown): void => send(res, status, JSON.stringify(value), 'application/json;charset=UTF-8');

function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		let text = '';
		req.setEncoding('utf8');
		req.on('data', (d: string) => {
			text += d;
			if (text.length > 100_000) req.destroy(new Error('body too large'));
		});
		req.on('end', () => resolve(text));
		req.on('error', reject);
	});
}

/** Answers a request under /tryout and returns true; false for any other path (the API's). */
export function tryoutHandler(deps: WebDeps): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
	return async (req, res) => {
		const url = new URL(req.url ?? '/', 'http://sandbox.local');
		const path = url.pathname.replace(/\/+$/, '') || '/';
		if (path !== WEB_PATH && !path.startsWith(`${WEB_PATH}/`)) return false;
		const method = (req.method ?? 'GET').toUpperCase();
		if (method === 'GET' && path === WEB_PATH) {
			send(res, 200, PAGE_HTML, 'text/html;charset=UTF-8');
		} else if (method === 'GET' && path === `${WEB_PATH}/state`) {
			json(res, 200, {
				leads: listLeads(deps.store, url.searchParams.get('q') ?? ''),
				stages: deps.store.stages.map((s) => s.name),
				subscriptions: listSubscriptions(deps.store),
				deliveries: listDeliveries(deps.store),
			});
		} else if (method === 'POST' && path === `${WEB_PATH}/events`) {
			// Only this page makes events: not another site's page (its Origin, a text/plain or form body), nor a
			// hostile name resolved to this address (its Host).
			const foreign = foreignRequest(req);
			if (foreign || !isJsonRequest(req)) {
				json(res, 403, { ok: false, detail: `Not made: ${foreign ?? 'the request is not JSON (Content-Type: application/json)'}` });
				return true;
			}
			let input: EventRequest;
			try {
				input = JSON.parse(await readBody(req)) as EventRequest;
			} catch {
				json(res, 400, { ok: false, detail: 'Not made: the request was not JSON' });
				return true;
			}
			const result = makeEvent(deps, input);
			json(res, result.ok ? 200 : 400, result);
		} else {
			json(res, 404, { ok: false, detail: `No page at ${method} ${path}` });
		}
		return true;
	};
}
