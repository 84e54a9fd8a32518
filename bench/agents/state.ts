/**
 * What Lofty holds, by natural keys: every lead (by its first email, else phone, else ID) with the fields the tools
 * can change, and per lead its notes, tasks, appointments, texts and logged calls, and transactions. Generated IDs
 * and creation times are left out, so two runs that did the same things in another order hold the same state.
 *
 * `comparable` drops free text (a note's or text's words, a task's description): the end-state match compares what
 * was done to which record and when; what the words must say is for a task's assertions (assert.ts), since a model
 * never writes the gold's words.
 */
import { createHash } from 'node:crypto';

import type { Sandbox } from '../../sandbox';
import { commState } from '../../sandbox/resources/communication';
import { noteState } from '../../sandbox/resources/note';
import { taskState } from '../../sandbox/resources/task';
import { transactionState } from '../../sandbox/resources/transaction';
import { leadKey } from './setup';

export interface LeadState {
	firstName: string;
	lastName: string;
	emails: string[];
	phones: string[];
	stage: string;
	assignedTo: string;
	tags: string[];
	cannotText: boolean;
	deleted: boolean;
}
export interface NoteState {
	content: string;
	pinned: boolean;
	deleted: boolean;
}
export interface EntryState {
	kind: 'task' | 'appointment';
	type: string;
	content: string;
	/** epoch ms */
	startAt: number | null;
	endAt: number;
	assignedTo: string;
	finished: boolean;
	deleted: boolean;
}
export interface CommState {
	kind: 'CALL' | 'TEXT' | 'EMAIL';
	how: string;
	direction: string;
	outcome: string;
	content: string;
	deleted: boolean;
}
export interface TxState {
	name: string;
	type: string;
	status: string;
	deleted: boolean;
}

export interface Snapshot {
	leads: Record<string, LeadState>;
	notes: Record<string, NoteState[]>;
	entries: Record<string, EntryState[]>;
	comms: Record<string, CommState[]>;
	transactions: Record<string, TxState[]>;
}

/** Sorts in place by each element's JSON text (one canonical order for records without IDs). */
function sortBy<T>(list: T[]): T[] {
	const keyed = list.map((x) => [JSON.stringify(x), x] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
	keyed.forEach(([, x], i) => (list[i] = x));
	return list;
}

function push<T>(map: Record<string, T[]>, key: string, value: T): void {
	(map[key] ??= []).push(value);
}

export function snapshot(sandbox: Sandbox): Snapshot {
	const { store } = sandbox;
	const keyOf = new Map<string, string>();
	const email = (userId: bigint | null) => (userId === null ? '' : (store.getUser(userId)?.email ?? String(userId)));
	const out: Snapshot = { leads: {}, notes: {}, entries: {}, comms: {}, transactions: {} };
	for (const lead of store.leads.values()) {
		let key = leadKey(lead);
		if (out.leads[key]) key = `${key}#id:${lead.leadId}`; // two leads of one person: both kept, told apart by ID
		keyOf.set(lead.leadId.toString(), key);
		out.leads[key] = {
			firstName: lead.firstName,
			lastName: lead.lastName,
			emails: [...lead.emails],
			phones: [...lead.phones],
			stage: lead.stage,
			assignedTo: email(lead.assignedUserId),
			tags: lead.tags.map((t) => t.tagName).sort(),
			cannotText: lead.cannotText,
			deleted: lead.deletedAt !== null,
		};
	}
	const lead = (id: bigint) => keyOf.get(id.toString()) ?? `id:${id}`;
	for (const n of noteState(store).notes.values()) push(out.notes, lead(n.leadId), { content: n.content, pinned: n.isPin, deleted: n.deleted });
	for (const t of taskState(store).entries.values()) {
		push(out.entries, lead(t.leadId), { kind: t.kind, type: t.type, content: t.content, startAt: t.startAt, endAt: t.endAt, assignedTo: email(t.assignedUserId), finished: t.finishFlag, deleted: t.deleteFlag });
	}
	for (const c of commState(store).entries.values()) {
		push(out.comms, lead(c.leadId), { kind: c.kind, how: c.communicationType, direction: c.direction, outcome: c.callingOutcome ?? c.textOutcome ?? '', content: c.content ?? '', deleted: c.deleted });
	}
	for (const tx of transactionState(store).transactions.values()) push(out.transactions, lead(tx.leadId), { name: tx.transactionName, type: tx.transactionType, status: tx.transactionStatus, deleted: tx.deleted });
	for (const map of [out.notes, out.entries, out.comms, out.transactions] as Array<Record<string, unknown[]>>) for (const list of Object.values(map)) sortBy(list);
	return out;
}

/** The snapshot without free text (what the end-state match compares). */
export function comparable(s: Snapshot): Snapshot {
	const strip = <T extends { content: string }>(map: Record<string, T[]>): Record<string, T[]> =>
		Object.fromEntries(Object.entries(map).map(([k, list]) => [k, sortBy(list.map((x) => ({ ...x, content: '' })))]));
	return { leads: s.leads, notes: strip(s.notes), entries: strip(s.entries), comms: strip(s.comms), transactions: s.transactions };
}

function canonical(value: unknown): string {
	return JSON.stringify(value, (_k, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v));
}

export function stateHash(s: Snapshot): string {
	return createHash('sha256').update(canonical(comparable(s))).digest('hex').slice(0, 16);
}

/** Where two snapshots differ (comparable parts), as short lines: what a failed match shows. */
export function diff(expected: Snapshot, actual: Snapshot, max = 6): string[] {
	const a = comparable(expected);
	const b = comparable(actual);
	const lines: string[] = [];
	for (const part of ['leads', 'notes', 'entries', 'comms', 'transactions'] as const) {
		const x = a[part] as Record<string, unknown>;
		const y = b[part] as Record<string, unknown>;
		for (const key of new Set([...Object.keys(x), ...Object.keys(y)])) {
			const ex = canonical(x[key] ?? null);
			const ac = canonical(y[key] ?? null);
			if (ex === ac) continue;
			if (part === 'leads' && x[key] && y[key]) {
				const a = x[key] as Record<string, unknown>;
				const b = y[key] as Record<string, unknown>;
				const fields = Object.keys(a).filter((f) => canonical(a[f]) !== canonical(b[f]));
				lines.push(`lead ${key}: ${fields.map((f) => `${f} ${canonical(b[f])}, expected ${canonical(a[f])}`).join('; ')}`);
			} else if (!y[key] || !x[key]) {
				lines.push(`${part} of ${key}: ${y[key] ? 'not expected' : 'missing'}`);
			} else {
				const n = (v: unknown) => (Array.isArray(v) ? v.length : 1);
				lines.push(`${part} of ${key}: ${n(y[key])} records, expected ${n(x[key])}${n(y[key]) === n(x[key]) ? ' (they differ)' : ''}`);
			}
			if (lines.length >= max) return lines;
		}
	}
	return lines;
}
