/**
 * Fetching a file from a link Lofty hands out (a call recording on a storage host): the one request of the package
 * that does not go to Lofty. So it carries no credential (a signed link needs none, and Lofty's key must never reach
 * another host), goes through n8n's plain `httpRequest` (n8n's proxy and outbound settings apply), hands the body
 * on as a stream (n8n's prepareBinaryData stores a stream without holding the whole file in memory in its
 * filesystem and database modes), and never names the link's query (its signature) in an error or a log line.
 * It is a read: a timeout, a lost connection or a 5xx is tried again like any read (Request Options > Read Retries);
 * a body cut off halfway is downloaded again from the start by the caller (model/download.ts), n8n having stored none of it.
 */
import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { slotsOf } from './inFlight';
import { DEFAULT_READ_RETRIES, DEFAULT_TIMEOUT_MS, backoffMs, transportFault } from './request';

/** The body as n8n hands it over with `encoding: 'stream'` (a Node.js Readable; node:stream may not be imported here). */
export type ByteStream = AsyncIterable<Buffer | string> & { destroy: () => void };

export interface LinkAnswer {
	status: number;
	/** Lower-case header names. */
	headers: Record<string, string>;
	/** The body, not yet read: the caller reads it, or calls `discard`. */
	body: ByteStream;
}

/** A link without its query: what may be shown of a signed URL. */
export function withoutQuery(url: string): string {
	return url.replace(/[?#].*$/s, '');
}

function lowerHeaders(raw: unknown): Record<string, string> {
	const out: Record<string, string> = {};
	// n8n 2.x hands back axios' AxiosHeaders, 1.x a plain object: both enumerate their headers.
	const source = raw && typeof (raw as { toJSON?: unknown }).toJSON === 'function' ? (raw as { toJSON: () => object }).toJSON() : (raw ?? {});
	for (const [name, value] of Object.entries(source as Record<string, unknown>)) {
		if (value !== undefined && value !== null) out[name.toLowerCase()] = Array.isArray(value) ? String(value[0]) : String(value);
	}
	return out;
}

/** Reads at most `max` bytes of a body (an error page) and drops the rest. */
export async function readSome(body: ByteStream, max = 4096): Promise<string> {
	const chunks: Buffer[] = [];
	let size = 0;
	try {
		for await (const chunk of body) {
			const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
			chunks.push(buffer);
			size += buffer.length;
			if (size >= max) break;
		}
	} catch {
		// A cut-off error page still says what it could.
	}
	body.destroy();
	return Buffer.concat(chunks).toString('utf8').slice(0, max);
}

/**
 * GET `url` with no credential; answers with any status (the caller decides), the body as a stream. Retries reads
 * that got no answer or a 5xx, with growing pauses; fails with a message that shows the link's host and path only.
 */
export async function fetchLink(
	ctx: IExecuteFunctions,
	url: string,
	settings: { timeout?: number; readRetries?: number },
	itemIndex: number,
): Promise<LinkAnswer> {
	const timeout = settings.timeout && settings.timeout > 0 ? settings.timeout : DEFAULT_TIMEOUT_MS;
	const retries = Math.max(0, settings.readRetries ?? DEFAULT_READ_RETRIES);
	const shown = withoutQuery(url);
	const options: IHttpRequestOptions = {
		method: 'GET',
		url,
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout,
	};
	const slots = slotsOf(ctx);
	for (let tried = 0; ; tried++) {
		// A slot of Parallel Requests while the answer's head is awaited (the body is read by the caller).
		const release = slots ? await slots.take() : undefined;
		let answer: LinkAnswer | undefined;
		let reason = '';
		let fault: ReturnType<typeof transportFault> | undefined;
		try {
			const response = (await ctx.helpers.httpRequest(options)) as { statusCode: number; headers: unknown; body: ByteStream };
			answer = { status: response.statusCode, headers: lowerHeaders(response.headers), body: response.body };
		} catch (error) {
			fault = transportFault(error);
			// The raw error holds the request with the link: only its message travels on, the link's query removed.
			reason = (error instanceof Error ? error.message : String(error)).split(url).join(shown);
		} finally {
			release?.();
		}
		if (answer && answer.status < 500) return answer;
		if (fault === 'canceled') throw new NodeOperationError(ctx.getNode(), `The download from ${shown} was canceled (the execution was stopped)`, { itemIndex });
		const retry = tried < retries && (answer !== undefined || fault === 'timeout' || fault === 'dropped');
		if (answer) {
			if (!retry) return answer;
			answer.body.destroy();
		}
		if (!retry) {
			const what = fault === 'timeout' ? `did not answer within ${timeout / 1000} s` : fault === 'dropped' ? 'lost the connection' : 'could not be reached';
			throw new NodeOperationError(ctx.getNode(), `The file host ${what}: ${shown} (tried ${tried + 1} times)`, {
				itemIndex,
				description: `${reason.replace(/[?&][^\s"']*/g, '')} Nothing was changed (this was a download). Try again later, or raise Request Options > Timeout.`.trim(),
			});
		}
		await sleep(backoffMs(tried));
	}
}
