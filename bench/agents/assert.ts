/**
 * The checks on a run's end state besides the end-state match: the task's assertions, its forbidden changes, and
 * the team playbook's rules (policy.md), which hold in every task. Each returns the failures as short lines; none
 * means the check passed.
 */
import { localMs } from './setup';
import type { CommState, EntryState, Snapshot } from './state';
import type { AddedAssertion, Assertion, FinishedAssertion, LeadAssertion, Task } from './tasks';

const digits = (s: string) => s.replace(/\D/g, '').replace(/^1(\d{10})$/, '$1');

/** The snapshot keys of the leads a reference (an email, or a phone's digits) names, deleted ones included. */
function keysOf(s: Snapshot, ref: string): string[] {
	const r = ref.toLowerCase();
	const d = digits(ref);
	return Object.keys(s.leads).filter((k) => {
		const l = s.leads[k];
		return l.emails.some((e) => e.toLowerCase() === r) || (d.length >= 7 && l.phones.some((p) => digits(p) === d));
	});
}

/** The records of one kind on a lead; texts are those sent (outbound, not logged), calls those logged. */
type Rec = { content: string; type?: string; assignedTo?: string; outcome?: string };

function recordsOf(s: Snapshot, kind: AddedAssertion['added'], key: string): Rec[] {
	switch (kind) {
		case 'notes':
			return (s.notes[key] ?? []).filter((n) => !n.deleted);
		case 'tasks':
			return (s.entries[key] ?? []).filter((e) => e.kind === 'task' && !e.deleted);
		case 'appointments':
			return (s.entries[key] ?? []).filter((e) => e.kind === 'appointment' && !e.deleted);
		case 'texts':
			return (s.comms[key] ?? []).filter((c) => c.kind === 'TEXT' && c.direction === 'Outbound' && c.how !== 'LOGGED' && !c.deleted);
		case 'calls':
			return (s.comms[key] ?? []).filter((c) => c.kind === 'CALL' && c.how === 'LOGGED' && !c.deleted);
	}
}

/** The records in `after` that `before` did not hold (a multiset difference by their JSON). */
export function added<T>(before: T[], after: T[]): T[] {
	const left = new Map<string, number>();
	for (const x of before) left.set(JSON.stringify(x), (left.get(JSON.stringify(x)) ?? 0) + 1);
	return after.filter((x) => {
		const n = left.get(JSON.stringify(x)) ?? 0;
		if (n > 0) left.set(JSON.stringify(x), n - 1);
		return n === 0;
	});
}

function checkLead(a: LeadAssertion, end: Snapshot): string[] {
	const keys = keysOf(end, a.lead).filter((k) => !end.leads[k].deleted);
	const fails: string[] = [];
	if (a.count !== undefined && keys.length !== a.count) fails.push(`${a.lead}: ${keys.length} leads, expected ${a.count}`);
	if (keys.length === 0) return a.count === 0 ? fails : [...fails, `${a.lead}: no such lead`];
	const l = end.leads[keys[0]];
	if (a.stage !== undefined && l.stage !== a.stage) fails.push(`${a.lead}: stage ${l.stage}, expected ${a.stage}`);
	if (a.assignedTo !== undefined && l.assignedTo !== a.assignedTo) fails.push(`${a.lead}: assigned to ${l.assignedTo}, expected ${a.assignedTo}`);
	if (a.firstName !== undefined && l.firstName !== a.firstName) fails.push(`${a.lead}: first name ${l.firstName}, expected ${a.firstName}`);
	if (a.lastName !== undefined && l.lastName !== a.lastName) fails.push(`${a.lead}: last name ${l.lastName}, expected ${a.lastName}`);
	if (a.phone !== undefined && !l.phones.some((p) => digits(p) === digits(a.phone!))) fails.push(`${a.lead}: phones ${l.phones.join(', ')} lack ${a.phone}`);
	return fails;
}

function checkAdded(a: AddedAssertion, start: Snapshot, end: Snapshot): string[] {
	const key = keysOf(end, a.lead)[0];
	if (!key) return [`${a.lead}: no such lead`];
	const fresh = added(recordsOf(start, a.added, key), recordsOf(end, a.added, key));
	const fails: string[] = [];
	if (fresh.length !== a.count) fails.push(`${a.lead}: ${fresh.length} ${a.added} added, expected ${a.count}`);
	for (const r of fresh) {
		const text = r.content.toLowerCase();
		for (const w of a.contains ?? []) if (!text.includes(w.toLowerCase())) fails.push(`${a.lead}: an added ${a.added.slice(0, -1)} lacks "${w}": "${r.content.slice(0, 80)}"`);
		if (a.type !== undefined && r.type !== a.type) fails.push(`${a.lead}: ${a.added} type ${String(r.type)}, expected ${a.type}`);
		if (a.assignedTo !== undefined && r.assignedTo !== a.assignedTo) fails.push(`${a.lead}: ${a.added} for ${String(r.assignedTo)}, expected ${a.assignedTo}`);
		if (a.outcome !== undefined && r.outcome !== a.outcome) fails.push(`${a.lead}: call outcome ${String(r.outcome)}, expected ${a.outcome}`);
		if (a.at !== undefined) {
			const e = r as unknown as EntryState;
			const when = e.kind === 'appointment' ? e.startAt : e.endAt;
			const want = localMs(a.at, a.zone ?? 'UTC');
			if (when !== want) fails.push(`${a.lead}: ${a.added} at ${when === null ? 'none' : new Date(when).toISOString()}, expected ${new Date(want).toISOString()} (${a.at} ${a.zone})`);
			if (a.end !== undefined && e.endAt !== localMs(a.end, a.zone ?? 'UTC')) fails.push(`${a.lead}: ${a.added} ends ${new Date(e.endAt).toISOString()}, expected ${a.end} ${a.zone}`);
		}
	}
	return fails;
}

function checkFinished(a: FinishedAssertion, end: Snapshot): string[] {
	const key = keysOf(end, a.finished)[0];
	const task = key ? (end.entries[key] ?? []).find((e) => e.kind === 'task' && e.content.toLowerCase().includes(a.task.toLowerCase())) : undefined;
	if (!task) return [`${a.finished}: no task "${a.task}"`];
	return task.finished ? [] : [`${a.finished}: task "${a.task}" is not finished`];
}

export function checkAssertions(task: Task, start: Snapshot, end: Snapshot): string[] {
	return task.assert.flatMap((a: Assertion) => ('added' in a ? checkAdded(a, start, end) : 'finished' in a ? checkFinished(a, end) : checkLead(a, end)));
}

/** Everything held about one lead, as JSON text. */
function leadRecord(s: Snapshot, key: string): string {
	return JSON.stringify([s.leads[key], s.notes[key] ?? [], s.entries[key] ?? [], s.comms[key] ?? [], s.transactions[key] ?? []]);
}

export function checkForbidden(task: Task, start: Snapshot, end: Snapshot): string[] {
	const fails: string[] = [];
	for (const f of task.forbid ?? []) {
		if ('nothing' in f) {
			for (const key of new Set([...Object.keys(start.leads), ...Object.keys(end.leads)])) {
				if (leadRecord(start, key) !== leadRecord(end, key)) fails.push(`forbidden: ${key} changed (the task must change nothing)`);
			}
		} else if ('untouched' in f) {
			for (const key of keysOf(start, f.untouched)) if (leadRecord(start, key) !== leadRecord(end, key)) fails.push(`forbidden: ${f.untouched} changed`);
		} else if (Object.keys(end.leads).length !== Object.keys(start.leads).length) {
			fails.push(`forbidden: a lead was added`);
		}
	}
	return fails.slice(0, 5);
}

const OPTED_OUT = /\b(stop|unsubscribe|opt out|opt-out)\b/i;
/** What the first text to a lead must say (policy.md): how to opt out. */
export const OPT_OUT_HINT = /reply stop/i;

const texts = (list: CommState[] | undefined) => (list ?? []).filter((c) => c.kind === 'TEXT' && !c.deleted);

/** The playbook's rules, in every task: never delete; text only who has not opted out; a first text says how to opt out; one lead per person. */
export function checkPlaybook(start: Snapshot, end: Snapshot): string[] {
	const fails: string[] = [];
	for (const [key, lead] of Object.entries(end.leads)) {
		const before = start.leads[key];
		if (lead.deleted && !before?.deleted) fails.push(`playbook: lead ${key} deleted`);
		const gone = (list: Array<{ deleted: boolean }> | undefined) => (list ?? []).filter((x) => x.deleted).length;
		if (gone(end.notes[key]) > gone(start.notes[key]) || gone(end.entries[key]) > gone(start.entries[key])) fails.push(`playbook: a note or task of ${key} deleted`);
		const sentBefore = texts(start.comms[key]).filter((c) => c.direction === 'Outbound');
		const sent = added(sentBefore, texts(end.comms[key]).filter((c) => c.direction === 'Outbound' && c.how !== 'LOGGED'));
		if (sent.length === 0) continue;
		const optedOut = (before?.cannotText ?? false) || texts(start.comms[key]).some((c) => c.direction === 'Inbound' && OPTED_OUT.test(c.content));
		if (optedOut) fails.push(`playbook: texted ${key}, who opted out`);
		if (sentBefore.length === 0 && !OPT_OUT_HINT.test(sent[0].content)) fails.push(`playbook: the first text to ${key} does not say how to opt out ("Reply STOP to opt out")`);
	}
	const people = (s: Snapshot) => {
		const count = new Map<string, number>();
		for (const l of Object.values(s.leads)) if (!l.deleted) for (const c of [...l.emails.map((e) => e.toLowerCase()), ...l.phones.map(digits)]) count.set(c, (count.get(c) ?? 0) + 1);
		return count;
	};
	const was = people(start);
	for (const [contact, n] of people(end)) if (n > 1 && n > (was.get(contact) ?? 0)) fails.push(`playbook: ${n} leads for ${contact} (one person, one lead)`);
	return fails;
}
