import { parseJson } from './json';

/** An answer as n8n's HTTP helper handed it over. */
export interface RawResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
	/** n8n threw it (a status n8n handles itself, such as 401 after its OAuth2 refresh) rather than returning it */
	thrown?: boolean;
}

export function header(headers: Record<string, unknown>, name: string): string | undefined {
	const value = headers[name] ?? headers[name.toLowerCase()];
	if (Array.isArray(value)) return String(value[0]);
	return value === undefined || value === null ? undefined : String(value);
}

export function decodeBody(data: unknown, headers: Record<string, unknown>): unknown {
	let text: string;
	if (Buffer.isBuffer(data)) text = data.toString('utf8');
	else if (data instanceof ArrayBuffer) text = Buffer.from(data).toString('utf8');
	else if (typeof data === 'string') text = data;
	else return data;
	if (text.trim() === '') return undefined;
	const contentType = header(headers, 'content-type') ?? '';
	if (/xml|html/i.test(contentType) && !/json/i.test(contentType)) return text;
	try {
		return parseJson(text, { idsAsStrings: true });
	} catch {
		return text;
	}
}

/**
 * The answer inside an error n8n threw: for a status n8n handles itself (401, for its OAuth2 refresh), the request's
 * own answer; when it came from another address (the token endpoint, during n8n's OAuth2 refresh), `other` says so.
 */
export function answerInsideError(error: unknown, url: string): (RawResponse & { other?: boolean }) | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
		const { response, config } = current as { response?: { status?: number; headers?: Record<string, unknown>; data?: unknown; config?: { url?: unknown } }; config?: { url?: unknown } };
		if (response && typeof response.status === 'number') {
			const headers = response.headers ?? {};
			const from = response.config?.url ?? config?.url;
			const other = typeof from === 'string' && pathOf(from) !== pathOf(url);
			return { statusCode: response.status, headers, body: decodeBody(response.data, headers), other };
		}
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

function pathOf(url: string): string {
	try {
		return new URL(url).pathname;
	} catch {
		return url.split('?')[0];
	}
}
