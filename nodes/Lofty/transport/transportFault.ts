import { NOT_CONNECTED } from './tokenFailure';

/**
 * What went wrong when no answer came: the first two may have reached Lofty. `tokenBusy`: the credential's token request
 * was answered 429 or 5xx (tokenEndpointStatus), so the request itself was not sent.
 */
export type TransportFault = 'timeout' | 'dropped' | 'canceled' | 'unreachable' | 'token' | 'tokenBusy' | 'notConnected';

/** n8n's OAuth2 helper failed to get or renew the access token: @n8n/client-oauth2's AuthError, or n8n's wrap of it. */
const TOKEN_FAILURE = /Failed to acquire OAuth2 access token|needs to be reconnected/i;

const TIMEOUT_CODES = new Set(['ECONNABORTED', 'ETIMEDOUT', 'ESOCKETTIMEDOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
const DROPPED_CODES = new Set(['ECONNRESET', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE', 'UND_ERR_SOCKET', 'ERR_BAD_RESPONSE', 'HPE_INVALID_CONSTANT']);

/**
 * The HTTP status the token endpoint answered, when n8n's OAuth2 helper failed on it: @n8n/client-oauth2's ResponseError
 * (code ESTATUS), thrown as it is by n8n's refresh and as the cause of n8n's "Failed to acquire OAuth2 access token".
 */
export function tokenEndpointStatus(error: unknown): number | undefined {
	const seen = new Set<unknown>();
	for (let current = error; current && typeof current === 'object' && !seen.has(current); current = (current as { cause?: unknown }).cause) {
		seen.add(current);
		const { code, status } = current as { code?: unknown; status?: unknown };
		if (code === 'ESTATUS' && typeof status === 'number') return status;
	}
	return undefined;
}

/** Classifies a failed send by the codes and messages along its cause chain (n8n wraps axios errors). */
export function transportFault(error: unknown): TransportFault {
	const tokenStatus = tokenEndpointStatus(error);
	if (tokenStatus !== undefined && (tokenStatus === 429 || tokenStatus >= 500)) return 'tokenBusy';
	const seen = new Set<unknown>();
	const queue: unknown[] = [error];
	const texts: string[] = [];
	while (queue.length) {
		const current = queue.shift();
		if (!current || typeof current !== 'object' || seen.has(current)) continue;
		seen.add(current);
		const record = current as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown; errorResponse?: unknown; error?: unknown; reason?: unknown };
		const code = typeof record.code === 'string' ? record.code : '';
		if (code === 'ERR_CANCELED' || record.name === 'AbortError' || record.name === 'CanceledError') return 'canceled';
		if (TIMEOUT_CODES.has(code)) return 'timeout';
		if (DROPPED_CODES.has(code)) return 'dropped';
		if (typeof record.message === 'string' && NOT_CONNECTED.test(record.message)) return 'notConnected';
		if (code === 'EAUTH' || (typeof record.message === 'string' && TOKEN_FAILURE.test(record.message))) return 'token';
		if (typeof record.message === 'string') texts.push(record.message);
		queue.push(record.cause, record.errorResponse, record.error, record.reason);
	}
	const text = texts.join(' ');
	if (/timeout|timed out/i.test(text)) return 'timeout';
	if (/socket hang up|ECONNRESET|connection was closed|aborted|premature/i.test(text)) return 'dropped';
	return 'unreachable';
}
