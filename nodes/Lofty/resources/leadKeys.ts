/**
 * What makes two leads the same person for Lead > Create or Update: an email (case-insensitive) or a phone number
 * in one normalised form, the same in the node's memory and in the search sent to Lofty.
 *
 * Phone rule (E.164-like; the country code is kept, so +44 7700 900123 and +1 770-090-0123 are different people):
 * 1. An extension at the end is dropped: `x123`, `ext. 5`, `ext 5`, `extension 5`, `#5`.
 * 2. Written with `+` or the international prefix `00`: the digits are the country code and the number.
 * 3. Otherwise, by its digits: 10 digits are a North American number (+1, Lofty is a US service); 11 digits
 *    starting with 1 are that with its country code; 12 to 15 digits not starting with 0 carry their country code
 *    without the `+`.
 * 4. Anything else (a national number with a trunk 0 such as 07700 900123, a short local number) has no known
 *    country: it matches only the same digits written without a country code.
 */
import type { IDataObject } from 'n8n-workflow';

/** A phone in its normalised form: `+<country code><number>`, or its bare digits when no country is known. */
export function normalPhone(phone: string): string {
	const withoutExtension = phone.replace(/\s*(?:(?:ext(?:ension)?\.?|x|#)\s*\d{1,6})\s*$/i, '');
	const digits = withoutExtension.replace(/\D/g, '');
	const trimmed = withoutExtension.trim();
	if (trimmed.startsWith('+')) return `+${digits}`;
	if (/^00[1-9]/.test(digits) && digits.length >= 10) return `+${digits.slice(2)}`;
	if (digits.length === 10) return `+1${digits}`;
	if (digits.length === 11 && digits.startsWith('1')) return `+${digits}`;
	if (digits.length >= 12 && digits.length <= 15 && !digits.startsWith('0')) return `+${digits}`;
	return digits;
}

/**
 * The phone as sent in Lofty's lead search (`phone`, "Precise search for lead by phone number. Example:
 * 3479033333", digits only), in the order tried: a North American number as its 10 digits (the example's form),
 * then with its 1 (for a search that compares all digits, docs/api-readings.md row 15); another with its country
 * code; one without a known country as its digits. The answers are kept only when one of the lead's phones has the
 * same normalised form, so a search that compares fewer digits does no harm.
 */
export function phoneSearchValues(phone: string): string[] {
	const normal = normalPhone(phone);
	if (normal.startsWith('+1') && normal.length === 12) return [normal.slice(2), normal.slice(1)];
	return [normal.replace(/^\+/, '')];
}

export const emailKey = (email: string): string => `email:${email.trim().toLowerCase()}`;
export const phoneKey = (phone: string): string => `phone:${normalPhone(phone)}`;

/** The match keys of a person: every email and phone given for it. */
export function personKeys(emails: string[], phones: string[]): string[] {
	return [...new Set([...emails.map(emailKey), ...phones.map(phoneKey)])];
}

/** A lead this process wrote recently: its ID and what it knows of it. */
export interface KnownLead {
	leadId: string;
	emails: string[];
	phones: string[];
	/** The lead as last read from Lofty, or as far as this process wrote it while Lofty could not read it yet. */
	fields: IDataObject;
	/** Whether Lofty may not let it be read yet (created a moment ago). */
	recent: boolean;
}

/**
 * Leads created or given new keys by this n8n process, by account and match key, shared by all its executions: a
 * second execution for the same new person (a form sent twice) then finds the lead Lofty cannot read yet.
 * Short-lived (a lead is readable by search long before the entry expires) and bounded; across n8n processes
 * (queue-mode workers) nothing is shared.
 */
export const RECENT_LEADS_TTL_MS = 5 * 60_000;
export const RECENT_LEADS_MAX = 10_000;

const recent = new Map<string, { lead: KnownLead; until: number }>();

const entryKey = (account: string, key: string) => `${account}\n${key}`;

export function recall(account: string, key: string, now = Date.now()): KnownLead | undefined {
	const k = entryKey(account, key);
	const entry = recent.get(k);
	if (!entry) return undefined;
	if (entry.until <= now) {
		recent.delete(k);
		return undefined;
	}
	return entry.lead;
}

/** Remembers the lead under the keys (each entry lives for the TTL from now); the oldest go beyond the cap. */
export function remember(account: string, keys: string[], lead: KnownLead, now = Date.now()): void {
	for (const key of keys) {
		const k = entryKey(account, key);
		recent.delete(k);
		recent.set(k, { lead, until: now + RECENT_LEADS_TTL_MS });
	}
	// Oldest first (every entry lives equally long): drop the expired, and the oldest beyond the cap.
	for (const [k, entry] of recent) {
		if (entry.until > now && recent.size <= RECENT_LEADS_MAX) break;
		recent.delete(k);
	}
}

/** Forgets the keys (the lead is gone from Lofty). */
export function forget(account: string, keys: string[]): void {
	for (const key of keys) recent.delete(entryKey(account, key));
}

/** How many keys are remembered (tests of the bound). */
export const recentLeadCount = (): number => recent.size;

/** Forgets everything (tests: a reset sandbox reuses lead IDs). */
export function forgetRecentLeads(): void {
	recent.clear();
}
