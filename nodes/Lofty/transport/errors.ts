import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { REJECTED_ACCESS_TOKEN, REJECTED_API_KEY } from '../../../credentials/common';
import { LOFTY_ERROR_CODES } from './errorCodes';

/** One failed Lofty answer, whatever shape its body had. */
export interface LoftyFailure {
	httpCode: number;
	code?: string | number;
	message: string;
}

const SUCCESS_CODES = new Set(['0', '200', 'SUCCESS', 'OK']);

function isSuccessCode(code: unknown): boolean {
	return code === undefined || code === null || SUCCESS_CODES.has(String(code).toUpperCase());
}

/** `{message: "BaseApplicationException:errorCode=20005,..."}` hides the code inside the text. */
function codeInsideMessage(message: string): string | undefined {
	return /errorCode=(\w+)/.exec(message)?.[1];
}

/**
 * Reads code and message from any of the body shapes Lofty uses: a bare JSON string (which may be only the
 * code: "PARAM_EMAIL_MUST_FILL"), `{code, message}`, `{message}`, `{errorCode, errorMsg}`, the envelope
 * `{status: {code, msg}, data}` (AI call summary, opportunity alerts) or an OAuth `{error, error_description}`.
 */
function describeBody(body: unknown, httpCode: number): { code?: string | number; message?: string } {
	if (typeof body === 'string') {
		const message = body.trim();
		// Some endpoints (system logs) send `{code, message}` as the text of a JSON string.
		if (message.startsWith('{')) {
			try {
				const inner = JSON.parse(message) as unknown;
				if (inner && typeof inner === 'object') return describeBody(inner, httpCode);
			} catch {
				// not JSON after all: keep the text as the message
			}
		}
		// An error body that is one of the spec's codes is that code, explained like `{code, message}`.
		if (httpCode >= 300 && Object.prototype.hasOwnProperty.call(LOFTY_ERROR_CODES, message)) return { code: message, message: LOFTY_ERROR_CODES[message] };
		return { code: codeInsideMessage(message), message: message || undefined };
	}
	if (body === null || typeof body !== 'object' || Array.isArray(body)) return {};
	const record = body as Record<string, unknown>;
	const envelope = statusEnvelope(record);
	if (envelope) return envelope;
	const rawCode = record.code ?? record.errorCode ?? record.error;
	const rawMessage = record.message ?? record.errorMsg ?? record.error_description ?? record.msg;
	const message = typeof rawMessage === 'string' ? rawMessage : undefined;
	let code = typeof rawCode === 'string' || typeof rawCode === 'number' ? rawCode : undefined;
	if (code === undefined && message) code = codeInsideMessage(message);
	return { code, message };
}

/** `{status: {code, msg}, data}`: the code sits in `status` (0 is success); a `status` that is data has no numeric code and msg. */
function statusEnvelope(record: Record<string, unknown>): { code: string | number; message?: string } | undefined {
	if (record.code !== undefined || record.errorCode !== undefined) return undefined;
	const status = record.status;
	if (status === null || typeof status !== 'object' || Array.isArray(status)) return undefined;
	const { code, msg, message } = status as Record<string, unknown>;
	const text = typeof msg === 'string' ? msg : typeof message === 'string' ? message : undefined;
	if (!(typeof code === 'number' || (typeof code === 'string' && /^-?\d+$/.test(code))) || text === undefined) return undefined;
	return { code, message: text };
}

/**
 * Decides whether an answer failed. Besides HTTP errors, Lofty answers some failures with HTTP 200 and a
 * non-zero `code` or `errorCode` in the body (agent lifecycle, envelopes) or in `status.code`.
 */
export function findFailure(httpCode: number, body: unknown): LoftyFailure | undefined {
	const { code, message } = describeBody(body, httpCode);
	if (httpCode >= 200 && httpCode < 300) {
		if (isSuccessCode(code)) return undefined;
		// A 2xx body whose `code` is not numeric-like is ordinary data, not an error envelope.
		if (typeof code === 'string' && !/^-?\d+$/.test(code) && message === undefined) return undefined;
	}
	return { httpCode, code, message: message ?? `HTTP ${httpCode}` };
}

/** Code 200058: the user in the token does not exist, which is what an API key sent as an OAuth token gives. */
const BEARER_HINT =
	'Check the credential. A Lofty API key (Lofty: Settings > Integrations > API) belongs in the "Lofty API" credential, which sends it as "token <key>"; an OAuth access token is sent as "Bearer". Sending an API key as Bearer gives code 200058. If the key was regenerated or the OAuth app lost access, update or reconnect the credential.';

const HINTS_BY_CODE: Record<string, string> = {
	'200058': BEARER_HINT,
	'200100':
		"The OAuth app is not granted this endpoint. In Lofty's developer portal, add this API to the app's scopes and reconnect the credential (adding scopes to a production app invalidates existing tokens).",
	VENDOR_HAS_NO_PERMISSION:
		"The application has no access to this API. Grant the endpoint to the app in Lofty's developer portal.",
	PERMISSION_DENIED:
		"The Lofty user behind this credential lacks permission here: a lead's data is open only to its owner or a shared agent, and some actions need a role such as team admin. Use a credential of a user with that access.",
	LEAD_NOT_EXIST:
		'The lead does not exist, is in the trash, or the user behind this credential cannot see it. Check the lead ID.',
	LIMIT_NOT_VALID: 'The page size must be between 1 and 100.',
	'20012': 'A parameter was rejected. The message names the value; fix it and try again.',
	INVALID_PARAMETER: 'A parameter was rejected. The message names the value; fix it and try again.',
	MISSING_PARAMETER: 'A required parameter is missing.',
	'20001': 'The request lacked Content-Type: application/json.',
};

function hintFor(failure: LoftyFailure, hints: Record<string, string> = {}): string | undefined {
	const code = failure.code === undefined ? undefined : String(failure.code);
	const byCode = code === undefined ? undefined : (hints[code] ?? HINTS_BY_CODE[code]);
	if (byCode) return byCode;
	switch (failure.httpCode) {
		case 403:
			return 'The user behind this credential may not do this: for leads, only the owner or a shared agent may; for OAuth apps the endpoint must be granted in the developer portal.';
		case 404:
			return 'The record does not exist or the user behind this credential has no access to it.';
		case 429:
			return 'Lofty limits each application to 100 requests per minute in Development and 500 in Production (announced in X-RateLimit-* headers). The node waited for the reset and retried, but the limit was still exceeded: spread the work out (for example with a Wait node or smaller batches) or move the app to Production.';
		default:
			return failure.httpCode >= 500
				? 'Lofty had an internal error. Try again later; if it persists, contact Lofty support with the message above.'
				: undefined;
	}
}

/** Formats a failure so the message always names the HTTP status and Lofty's code. */
/** Lofty echoes rejected values in its messages; a message longer than this is cut. */
export const MAX_MESSAGE_LENGTH = 500;

export function failureMessage(failure: LoftyFailure): string {
	const code = failure.code === undefined ? '' : ` ${failure.code}`;
	const status = failure.httpCode ? `HTTP ${failure.httpCode}` : 'HTTP ?';
	const text = failure.message.length > MAX_MESSAGE_LENGTH ? `${failure.message.slice(0, MAX_MESSAGE_LENGTH)}... (${failure.message.length} characters)` : failure.message;
	return `Lofty error (${status}${code}): ${text}`;
}

/**
 * A rejected credential (HTTP 401, or BAD_CREDENTIALS) is told as the credential test tells it, with what to do for
 * the credential in use; the token-or-Bearer explanation belongs to code 200058 only (an API key sent as Bearer).
 */
function rejectedCredential(failure: LoftyFailure, credentialType?: string): { message: string; description: string } | undefined {
	if (!(failure.httpCode === 401 || String(failure.code) === 'BAD_CREDENTIALS')) return undefined;
	const oauth = credentialType === 'loftyOAuth2Api';
	const said = `${failureMessage(failure).replace(/^Lofty error /, 'Lofty answered ')}.`;
	return {
		message: oauth ? REJECTED_ACCESS_TOKEN : REJECTED_API_KEY,
		description: oauth
			? `${said} n8n could not refresh the token, so the connection has to be made again. Nothing was changed in Lofty.`
			: `${said} The key is kept in this node's "Lofty API" credential; a key regenerated in Lofty replaces the old one. Nothing was changed in Lofty.`,
	};
}

/** `credentialType`: the node's credential (loftyApi or loftyOAuth2Api), so a rejected one gets the matching advice. */
export function toNodeApiError(node: INode, failure: LoftyFailure, itemIndex: number, hints?: Record<string, string>, credentialType?: string): NodeApiError {
	const response: JsonObject = { httpCode: failure.httpCode, message: failure.message };
	if (failure.code !== undefined) response.code = failure.code;
	const rejected = rejectedCredential(failure, credentialType);
	return new NodeApiError(node, response, {
		message: rejected?.message ?? failureMessage(failure),
		description: rejected?.description ?? hintFor(failure, hints),
		httpCode: String(failure.httpCode),
		itemIndex,
	});
}
