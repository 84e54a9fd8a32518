/**
 * Lead creation persists asynchronously (OpenAPI, POST /v1.0/leads): "The lead ID is returned immediately, but
 * subsequent GET /v1.0/leads/{leadId} and similar read endpoints may briefly return 404 right after create. Follow-up
 * writes (PUT, POST inquiry, POST property, POST transaction) are unaffected." For `readDelayMs` after its creation
 * (0 by default: readable at once), a new lead is missing from GET /v1.0/leads and GET /v1.0/leads/{leadId} answers
 * 404 LEAD_NOT_EXIST; writes find it.
 */
import { leadNotExist } from '../../core/errors';
import type { Store } from '../../core/store';
import type { Lead } from '../../core/types';

export class LeadPersistence {
	readDelayMs = 0;
	/** lead ID -> the instant reads find it */
	readableAt = new Map<string, number>();
}

export const leadPersistence = (store: Store): LeadPersistence => store.ext('leadPersistence', () => new LeadPersistence());

/** Called on create: the lead is readable after the configured delay. */
export function persisting(store: Store, lead: Lead, now: number): void {
	const state = leadPersistence(store);
	if (state.readDelayMs > 0) state.readableAt.set(lead.leadId.toString(), now + state.readDelayMs);
}

export function readable(store: Store, lead: Lead, now: number): boolean {
	const at = leadPersistence(store).readableAt.get(lead.leadId.toString());
	return at === undefined || now >= at;
}

/** GET of one lead: 404 LEAD_NOT_EXIST while its creation is not yet readable. */
export function requireReadable(store: Store, lead: Lead, now: number): Lead {
	if (!readable(store, lead, now)) throw leadNotExist(lead.leadId.toString());
	return lead;
}
