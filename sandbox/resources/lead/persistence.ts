/**
 * Lead creation persists asynchronously (OpenAPI, POST /v1.0/leads): "The lead ID is returned immediately, but
 * subsequent GET /v1.0/leads/{leadId} and similar read endpoints may briefly return 404 right after create. Follow-up
 * writes (PUT, POST inquiry, POST property, POST transaction) are unaffected." For `readDelayMs` after its creation
 * (0 by default: readable at once), a new lead is missing from GET /v1.0/leads and GET /v1.0/leads/{leadId} answers
 * 404 LEAD_NOT_EXIST; writes find it. With `searchLagMs` (0 by default) the search lags the read: GET /v1.0/leads
 * finds a new lead only that much later than GET /v1.0/leads/{leadId} does.
 */
import { leadNotExist } from '../../core/errors';
import type { Store } from '../../core/store';
import type { Lead } from '../../core/types';

export class LeadPersistence {
	readDelayMs = 0;
	searchLagMs = 0;
	/** lead ID -> the instant reads find it */
	readableAt = new Map<string, number>();
	/** lead ID -> the instant the search finds it (when later than readableAt) */
	searchableAt = new Map<string, number>();
}

export const leadPersistence = (store: Store): LeadPersistence => store.ext('leadPersistence', () => new LeadPersistence());

/** Called on create: the lead is readable after the configured delay. */
export function persisting(store: Store, lead: Lead, now: number): void {
	const state = leadPersistence(store);
	if (state.readDelayMs > 0) state.readableAt.set(lead.leadId.toString(), now + state.readDelayMs);
	if (state.searchLagMs > 0) state.searchableAt.set(lead.leadId.toString(), now + state.readDelayMs + state.searchLagMs);
}

export function readable(store: Store, lead: Lead, now: number): boolean {
	const at = leadPersistence(store).readableAt.get(lead.leadId.toString());
	return at === undefined || now >= at;
}

/** Whether GET /v1.0/leads finds the lead at `now` (readable, and past the search's lag). */
export function searchable(store: Store, lead: Lead, now: number): boolean {
	const at = leadPersistence(store).searchableAt.get(lead.leadId.toString());
	return readable(store, lead, now) && (at === undefined || now >= at);
}

/** GET of one lead: 404 LEAD_NOT_EXIST while its creation is not yet readable. */
export function requireReadable(store: Store, lead: Lead, now: number): Lead {
	if (!readable(store, lead, now)) throw leadNotExist(lead.leadId.toString());
	return lead;
}
