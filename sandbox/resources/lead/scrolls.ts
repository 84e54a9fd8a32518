/**
 * How long a scroll ID of GET /v1.0/leads stays valid. The spec does not say; scroll cursors of search back ends
 * live briefly (each use renews them). With `ttlMs` set (unset by default: scrolls never expire), a scroll ID used
 * more than `ttlMs` after the answer that handed it out is refused with 400 (20012, "scrollId has expired"), and
 * `expireAll(now)` refuses every scroll ID handed out until then (a test's "the scroll expired between two polls").
 *
 *   leadScrolls(sandbox.store).ttlMs = 30_000;
 *   leadScrolls(sandbox.store).expireAll(Date.now());
 */
import { invalidParam } from '../../core/errors';
import type { Store } from '../../core/store';

export class LeadScrolls {
	ttlMs: number | undefined = undefined;
	/** Scroll IDs handed out at or before this instant are refused. */
	expiredBefore = -Infinity;
	/** Scroll IDs refused so far. */
	refused = 0;

	expireAll(now: number): void {
		this.expiredBefore = now;
	}
}

export const leadScrolls = (store: Store): LeadScrolls => store.ext('leadScrolls', () => new LeadScrolls());

/** Throws the refusal when a scroll ID handed out at `issuedAt` is no longer valid at `now`. */
export function checkScroll(store: Store, raw: string, issuedAt: number | undefined, now: number): void {
	const state = leadScrolls(store);
	if (issuedAt === undefined) return;
	const expired = issuedAt <= state.expiredBefore || (state.ttlMs !== undefined && now - issuedAt > state.ttlMs);
	if (!expired) return;
	state.refused++;
	throw invalidParam(`'scrollId' has expired (no search context found for it): '${raw.slice(0, 16)}...'; start the search again without scrollId`);
}
