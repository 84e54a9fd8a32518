/**
 * What makes two leads the same person for Lead > Create or Update: an email (case-insensitive) or a phone number
 * in one normalised form (model/contacts.ts), the same in the node's memory and in the search sent to Lofty; and
 * what keeps a lead found only by its phone from being taken for another person (`differences`).
 */
import type { IDataObject } from 'n8n-workflow';

import { normalPhone } from '../../model/contacts';

export { normalPhone } from '../../model/contacts';

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

/** Names compared loosely: case, accents and spacing do not count. */
const loose = (value: unknown): string =>
	typeof value === 'string' ? value.normalize('NFKD').replace(/\p{M}/gu, '').trim().replace(/\s+/g, ' ').toLowerCase() : '';

/** A lead's (or a person's) names. */
export interface Names {
	firstName?: unknown;
	lastName?: unknown;
}

/** The person an item describes, as far as telling two people apart goes. */
export interface PersonDetails extends Names {
	emails: string[];
}

/**
 * What tells the item's person apart from a lead that only shares a phone with it (spouses, an office line, a typo):
 * another first name, another last name (when both have one), or other emails (when both have emails and none is
 * shared). Empty when nothing does. Each entry names the lead's field and its value there.
 */
export function differences(person: PersonDetails, lead: Names, leadEmails: string[]): Array<{ field: string; lead: string }> {
	const found: Array<{ field: string; lead: string }> = [];
	for (const field of ['firstName', 'lastName'] as const) {
		const given = loose(person[field]);
		const theirs = loose(lead[field]);
		if (given && theirs && given !== theirs) found.push({ field, lead: String(lead[field]) });
	}
	const emails = new Set(leadEmails.map((e) => e.trim().toLowerCase()));
	if (person.emails.length && emails.size && !person.emails.some((e) => emails.has(e.trim().toLowerCase()))) {
		found.push({ field: 'emails', lead: leadEmails.join(', ') });
	}
	return found;
}

/** With Match By "Email, Then Phone": when a lead found only by the phone is taken for the item's person. */
export type PhoneOnly = 'newLead' | 'nameAgrees' | 'update';

/** A lead found by the phone alone that is not the item's person, why, and what the output says of it. */
export interface NotMerged {
	leadId: string;
	matchedBy: 'phone';
	differs: string[];
	why: string;
}

const FIELD_WORDS: Record<string, string> = { firstName: 'another first name', lastName: 'another last name', emails: 'other emails' };

/**
 * What sets a lead found by the phone alone apart from the item's person under Options > If Only the Phone Matches:
 * with "Create a New Lead When Anything Differs" (the default) any difference, with "Update It When the Name Agrees"
 * another name; nothing with "Always Update It". `lead` holds its names, `leadEmails` its emails.
 */
export function setApartBy(values: IDataObject, emails: string[], lead: Names, leadEmails: string[]): Array<{ field: string; lead: string }> {
	const policy = (values.phoneOnly as PhoneOnly | undefined) ?? 'newLead';
	if (policy === 'update') return [];
	return differences({ firstName: values.firstName, lastName: values.lastName, emails }, lead, leadEmails).filter((d) => policy === 'newLead' || d.field !== 'emails');
}

/** The leads found by the phone alone that the item's rules keep apart from its person (setApartBy), and why. */
export function otherPeople(values: IDataObject, emails: string[], matches: KnownLead[]): NotMerged[] {
	const out: NotMerged[] = [];
	for (const m of matches) {
		const theirs = Array.isArray(m.fields.emails) ? (m.fields.emails as unknown[]).filter((e): e is string => typeof e === 'string') : m.emails;
		const found = setApartBy(values, emails, m.fields, theirs);
		if (!found.length) continue;
		const why = `Lead ${m.leadId} has this phone but ${found.map((d) => `${FIELD_WORDS[d.field]} (${d.lead})`).join(' and ')}, so it was taken for another person (Options > If Only the Phone Matches)`;
		out.push({ leadId: m.leadId, matchedBy: 'phone', differs: found.map((d) => d.field), why });
	}
	return out;
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
	/**
	 * Whether it is known to be the person's only lead: Create or Update searched before it made or updated it. A lead
	 * Lead > Create made may have others (Create does not look).
	 */
	alone?: boolean;
}

export const RECENT_LEADS_TTL_MS = 5 * 60_000;
export const RECENT_LEADS_MAX = 10_000;

/**
 * What this process remembers by Lofty account and match key: each entry for RECENT_LEADS_TTL_MS from when it was
 * set, at most RECENT_LEADS_MAX entries (the oldest go first).
 */
export class PersonMemory<T> {
	private readonly entries = new Map<string, { value: T; until: number }>();

	get(account: string, key: string, now = Date.now()): T | undefined {
		const k = `${account}\n${key}`;
		const entry = this.entries.get(k);
		if (!entry) return undefined;
		if (entry.until <= now) {
			this.entries.delete(k);
			return undefined;
		}
		return entry.value;
	}

	set(account: string, keys: string[], value: T, now = Date.now()): void {
		for (const key of keys) {
			const k = `${account}\n${key}`;
			this.entries.delete(k);
			this.entries.set(k, { value, until: now + RECENT_LEADS_TTL_MS });
		}
		// Oldest first (every entry lives equally long): drop the expired, and the oldest beyond the cap.
		for (const [k, entry] of this.entries) {
			if (entry.until > now && this.entries.size <= RECENT_LEADS_MAX) break;
			this.entries.delete(k);
		}
	}

	delete(account: string, keys: string[]): void {
		for (const key of keys) this.entries.delete(`${account}\n${key}`);
	}

	get size(): number {
		return this.entries.size;
	}

	clear(): void {
		this.entries.clear();
	}
}

/**
 * Leads created or given new keys by this n8n process, by account and match key, shared by all its executions: a
 * second execution for the same new person (a form sent twice) then finds the lead Lofty cannot read yet.
 * Short-lived (a lead is readable by search long before the entry expires) and bounded; across n8n processes
 * (queue-mode workers) nothing is shared.
 */
const recent = new PersonMemory<KnownLead>();

export function recall(account: string, key: string, now = Date.now()): KnownLead | undefined {
	return recent.get(account, key, now);
}

/** Remembers the lead under the keys (each entry lives for the TTL from now); the oldest go beyond the cap. */
export function remember(account: string, keys: string[], lead: KnownLead, now = Date.now()): void {
	recent.set(account, keys, lead, now);
}

/** Forgets the keys (the lead is gone from Lofty). */
export function forget(account: string, keys: string[]): void {
	recent.delete(account, keys);
}

/** How many keys are remembered (tests of the bound). */
export const recentLeadCount = (): number => recent.size;

/** Forgets everything (tests: a reset sandbox reuses lead IDs). */
export function forgetRecentLeads(): void {
	recent.clear();
}
