import { NodeApiError } from 'n8n-workflow';

/**
 * What became of a write, the one rule every caller reads:
 *
 * - `applied`: Lofty answered 2xx.
 * - `refused`: Lofty answered 4xx (other than 408): it read the request and refused it, nothing was applied. Only
 *   such a refusal may lead to the same write in another reading of the contract (model/readings.ts), and only when
 *   it names that reading's fields.
 * - `uncertain`: no answer (a timeout, a cut connection), a 408, or a 5xx: Lofty may have applied it. It is never
 *   sent again; what it may have created is remembered by its caller (a lead's person keys,
 *   resources/lead/uncertainCreates.ts).
 * - `notSent`: it failed before reaching Lofty (a checked value, an unreachable host, a refused token).
 *
 * A 429 is refused before processing; the transport waits it out and sends again, and one past its retries is
 * `refused`.
 */
export type WriteOutcome = 'applied' | 'refused' | 'uncertain' | 'notSent';

/** The status of a failed answer, when Lofty answered. */
function httpCodeOf(error: unknown): number | undefined {
	if (!(error instanceof NodeApiError)) return undefined;
	const code = Number(error.httpCode ?? (error.errorResponse as { httpCode?: unknown } | undefined)?.httpCode);
	return Number.isFinite(code) && code > 0 ? code : undefined;
}

/** Whether an HTTP status says the write was read and refused, so nothing was applied. */
export const refusedBeforeApplying = (httpCode: number): boolean => httpCode >= 400 && httpCode < 500 && httpCode !== 408;

/** Whether an HTTP status of a write's answer leaves open whether it was applied. */
export const uncertainStatus = (httpCode: number): boolean => httpCode >= 500 || httpCode === 408;

/** What a failed write's error says of it. */
export function writeOutcomeOf(error: unknown): Exclude<WriteOutcome, 'applied'> {
	if (isUncertain(error)) return 'uncertain';
	const code = httpCodeOf(error);
	if (code === undefined) return 'notSent';
	if (uncertainStatus(code)) return 'uncertain';
	return refusedBeforeApplying(code) ? 'refused' : 'notSent';
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

/** The description of a write answered by a server error: it may have been applied and was not sent again. */
export const UNCERTAIN_5XX =
	'Lofty failed while handling this change, so it may or may not have been applied. It was not sent again, so that it cannot be applied twice: check in Lofty whether the change was made before running this item again.';
