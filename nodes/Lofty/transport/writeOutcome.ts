import { NodeApiError } from 'n8n-workflow';

/**
 * What became of a write, the one rule every caller reads:
 *
 * - `applied`: Lofty answered 2xx without an error code.
 * - `refused`: Lofty answered 4xx (other than 408), or 2xx with a business error code (api-spec.md's validation,
 *   permission, not-found and agent-lifecycle codes; the OpenAPI: "non-zero values indicate a business failure", such
 *   as 200060 TRANSACTION_NOT_EXIST): it read the request and refused it, nothing was applied. Only such a refusal
 *   may lead to the same write in another reading of the contract (model/readings.ts), and only when it names that
 *   reading's fields.
 * - `uncertain`: no answer (a timeout, a cut connection), a 408, a 5xx, or a 2xx with Lofty's internal-error code
 *   (20005): Lofty may have applied it. It is never sent again; what it may have created is remembered by its caller
 *   (a lead's person keys, resources/lead/uncertainCreates.ts).
 * - `notSent`: it failed before reaching Lofty (a checked value, an unreachable host, a refused token).
 *
 * A 429 is refused before processing; the transport waits it out and sends again, and one past its retries is
 * `refused`.
 */
export type WriteOutcome = 'applied' | 'refused' | 'uncertain' | 'notSent';

/** Lofty's internal-error code (api-spec.md, Errors > Other: "500 (20005)"): the failure came while handling the request. */
export const INTERNAL_ERROR_CODE = '20005';

/** An answered failure: its status and Lofty's code, as the transport reads them (errors.ts LoftyFailure). */
export interface Answered {
	httpCode: number;
	code?: string | number;
}

/** Whether an HTTP status says the write was read and refused, so nothing was applied. */
export const refusedBeforeApplying = (httpCode: number): boolean => httpCode >= 400 && httpCode < 500 && httpCode !== 408;

/** Whether an HTTP status of a write's answer leaves open whether it was applied. */
export const uncertainStatus = (httpCode: number): boolean => httpCode >= 500 || httpCode === 408;

/**
 * What an error code in a 2xx answer says of the write: Lofty's internal error (20005, the code of its 500s) leaves
 * it `uncertain`; every other code is a business failure Lofty checked before doing anything, `refused`.
 */
export function outcomeOfCode(code: string | number | undefined): 'refused' | 'uncertain' {
	return code !== undefined && String(code) === INTERNAL_ERROR_CODE ? 'uncertain' : 'refused';
}

/** What an answer that failed says of the write it answered (2xx: by its code; else by its status). */
export function answeredOutcome(failure: Answered): Exclude<WriteOutcome, 'applied'> {
	if (failure.httpCode >= 200 && failure.httpCode < 300) return outcomeOfCode(failure.code);
	if (uncertainStatus(failure.httpCode)) return 'uncertain';
	return refusedBeforeApplying(failure.httpCode) ? 'refused' : 'notSent';
}

/** The status and code of a failed answer, when Lofty answered. */
function answerOf(error: unknown): Answered | undefined {
	if (!(error instanceof NodeApiError)) return undefined;
	const response = error.errorResponse as { httpCode?: unknown; code?: unknown } | undefined;
	const httpCode = Number(error.httpCode ?? response?.httpCode);
	if (!(Number.isFinite(httpCode) && httpCode > 0)) return undefined;
	const code = response?.code;
	return { httpCode, code: typeof code === 'string' || typeof code === 'number' ? code : undefined };
}

/** What a failed write's error says of it. */
export function writeOutcomeOf(error: unknown): Exclude<WriteOutcome, 'applied'> {
	if (isUncertain(error)) return 'uncertain';
	const answer = answerOf(error);
	return answer === undefined ? 'notSent' : answeredOutcome(answer);
}

interface WithContext {
	context?: Record<string, unknown>;
	description?: string | null;
}

/** Whether the error is marked as a write that may have been applied. */
export const isUncertain = (error: unknown): boolean => (error as WithContext | null)?.context?.writeUncertain === true;

/**
 * Says on the error that the write may have been applied and was not sent again (the item's `writeUncertain`);
 * `description` goes before the error's own, or `replace`s it.
 */
export function markUncertain<E extends object>(error: E, description?: string, how: 'before' | 'replace' = 'before'): E {
	const e = error as E & WithContext;
	if (!e.context) e.context = {};
	e.context.writeUncertain = true;
	if (description) e.description = e.description && how === 'before' ? `${description} ${e.description}` : description;
	return error;
}

const NOT_SENT_AGAIN = 'It was not sent again, so that it cannot be applied twice: check in Lofty whether the change was made before running this item again.';

/** The description of a write answered by a server error: it may have been applied and was not sent again. */
export const UNCERTAIN_5XX = `Lofty failed while handling this change, so it may or may not have been applied. ${NOT_SENT_AGAIN}`;

/** The description of a write whose answer leaves open whether it was applied; undefined when the answer does not. */
export function uncertainDescription(failure: Answered): string | undefined {
	if (answeredOutcome(failure) !== 'uncertain') return undefined;
	if (failure.httpCode >= 300) return UNCERTAIN_5XX;
	return `Lofty answered HTTP ${failure.httpCode} with its internal-error code (${INTERNAL_ERROR_CODE}), so this change may or may not have been applied. ${NOT_SENT_AGAIN}`;
}
