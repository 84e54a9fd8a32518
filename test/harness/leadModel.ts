/**
 * The model of the fault-injecting differential test, written from docs/create-or-update.md and issue 45: what Lofty
 * must hold after a case (test/harness/leadCase.ts) ran (test/harness/leadRunner.ts), and what each item may say.
 * Each check returns the facts that break it (empty when it holds):
 *
 * - `unattributed`: every lead write Lofty applied carries exactly one item's mark, and no item's write was applied
 *   twice (a write is never sent again).
 * - `replay`: the leads at the end are those that applying each item's promised change (Only Fill Empty Fields or
 *   Update All, emails and phones added, tags added) in the order Lofty applied the writes gives, from the leads before
 *   and what happened between the executions.
 * - `order`: within one execution, an item's write to a lead lands after the writes of the earlier items to that lead
 *   (item order), except a write that landed after its client gave up ("may have been applied"), and a Create or
 *   Update that found the lead by searching after a later item had named it (that item holds the lead's turn first;
 *   the Create or Update must then have read the lead again after that item's write, `overtaken`).
 * - `untrue`: truth both ways: a write that was applied belongs to an item that does not say "not applied"; an item
 *   that says it was applied had its write land, and its `action` (created or updated) and `leadId` are those of
 *   that write.
 * - `secondLead`: Create or Update created a lead while a lead it matches (its email, else its phone, as Match By
 *   says) was already there: from before, from another Create or Update, or from Lead > Create, in the same execution
 *   or another (docs/create-or-update.md, "Lead > Create counts too").
 * - `failurePoint`: Continue On Fail off (docs/performance.md): a run that fails names an item; the error names the
 *   lowest item that failed: no earlier item of that execution had a write that certainly failed (no answer, a 5xx,
 *   an answer after it gave up), and every earlier item succeeded, so its write landed; at Parallel Requests 1 no
 *   later item sent a write that landed.
 */
import type { IDataObject } from 'n8n-workflow';

import type { AppliedWrite, RequestLogEntry } from '../../sandbox';
import { type LeadCase, type LeadItem, MARK, personAltEmail, personEmail, personPhoneNormal } from './leadCase';
import type { LeadState, Ran } from './leadRunner';

export interface Write {
	e: number;
	i: number;
	method: 'POST' | 'PUT';
	leadId: string;
	late: boolean;
	delivered: boolean;
	/** its place among the applied writes */
	at: number;
}

const marksIn = (text: string) => [...text.matchAll(MARK)].map((m) => [Number(m[1]), Number(m[2])] as const);
const leadWrite = (method: string, path: string) => (method === 'POST' && path === '/v1.0/leads') || (method === 'PUT' && /^\/v1\.0\/leads\/\d+$/.test(path));

/** The lead writes Lofty applied, in the order it applied them, each with its item; `problems` when one has no single mark. */
export function attribute(applied: readonly AppliedWrite[]): { writes: Write[]; problems: string[] } {
	const writes: Write[] = [];
	const problems: string[] = [];
	applied.forEach((w, at) => {
		if (!leadWrite(w.method, w.path)) return;
		const marks = marksIn(w.body);
		if (marks.length !== 1) {
			problems.push(`${w.method} ${w.path} carries ${marks.length} marks: ${w.body.slice(0, 200)}`);
			return;
		}
		const [e, i] = marks[0];
		const leadId = w.method === 'PUT' ? w.path.split('/').pop()! : String(/"leadId"\s*:\s*"?(\d+)/.exec(w.answer)?.[1]);
		writes.push({ e, i, method: w.method as 'POST' | 'PUT', leadId, late: w.late, delivered: w.delivered, at });
	});
	const seen = new Set<string>();
	for (const w of writes) {
		const key = `${w.e}/${w.i}`;
		if (seen.has(key)) problems.push(`item ${key} had two writes applied`);
		seen.add(key);
	}
	return { writes, problems };
}


const union = (a: string[], b: string[]) => [...new Set([...a, ...b])].sort();
const tagsOf = (e: number, i: number, item: LeadItem) => [`mark e${e}i${i}`, ...(item.tag ? [item.tag.toLowerCase()] : [])];
const emailsOf = (item: LeadItem) => [...(item.email ? [personEmail(item.person)] : []), ...(item.altEmail ? [personAltEmail(item.person)] : [])];
const phonesOf = (item: LeadItem) => (item.phone ? [personPhoneNormal(item.person)] : []);

/** Whether Create or Update's item matches the lead (Match By: its email, else its phone). */
function matches(item: LeadItem, lead: LeadState, by: 'email' | 'phone'): boolean {
	if (by === 'email') return item.email && lead.emails.includes(personEmail(item.person));
	return item.phone && lead.phones.includes(personPhoneNormal(item.person));
}

/** Whether Lofty answered a read of the lead (by its ID, or the person's search) between two log entries. */
function readBetween(log: readonly RequestLogEntry[], from: number, to: number, leadId: string, it: LeadItem): boolean {
	if (from < 0 || to < 0) return false;
	const searched = (q: Record<string, string | string[]>) => q.email === personEmail(it.person) || String(q.phone ?? '').endsWith(personPhoneNormal(it.person).slice(-10));
	return log.slice(from + 1, to).some((r) => r.method === 'GET' && r.status === 200 && (r.path === `/v1.0/leads/${leadId}` || (r.path === '/v1.0/leads' && searched(r.query))));
}

export interface Verdict {
	unattributed: string[];
	replay: string[];
	order: string[];
	untrue: string[];
	secondLead: string[];
	failurePoint: string[];
	/** not failures: a Create or Update overtaken on the lead it found by a later item of its execution */
	overtaken: string[];
}

export function judge(c: LeadCase, ran: Ran, applied: readonly AppliedWrite[], log: readonly RequestLogEntry[]): Verdict {
	const { writes, problems } = attribute(applied);
	const item = (w: { e: number; i: number }) => c.executions[w.e]?.items[w.i];
	const verdict: Verdict = { unattributed: problems, replay: [], order: [], untrue: [], secondLead: [], failurePoint: [], overtaken: [] };

	// Replay, in the order Lofty applied the writes, with what happened between the executions at its place.
	const leads = new Map<string, LeadState>(ran.initial.map((l) => [l.leadId, { ...l }]));
	const events = [...ran.events];
	const doEvents = (upTo: number) => {
		while (events.length && events[0].at <= upTo) {
			const ev = events.shift()!;
			const gone = leads.get(ev.leadId);
			leads.delete(ev.leadId);
			if (ev.into && gone) leads.set(ev.into, { ...gone, leadId: ev.into });
		}
	};
	for (const w of writes) {
		doEvents(w.at);
		const it = item(w);
		if (!it) {
			verdict.unattributed.push(`a write of item ${w.e}/${w.i}, which the case does not have`);
			continue;
		}
		const tags = tagsOf(w.e, w.i, it);
		if (w.method === 'POST') {
			if (it.kind === 'update') verdict.replay.push(`Lead > Update item ${w.e}/${w.i} created lead ${w.leadId}`);
			if (it.kind === 'upsert') {
				// One lead per person: nothing the item matches may be there already.
				const by = it.matchBy === 'phone' ? ['phone' as const] : it.matchBy === 'email' ? ['email' as const] : ['email' as const, 'phone' as const];
				const there = by.map((b) => [...leads.values()].filter((l) => matches(it, l, b))).find((found) => found.length);
				if (there) verdict.secondLead.push(`item ${w.e}/${w.i} created lead ${w.leadId} though lead ${there.map((l) => l.leadId).join(', ')} matched it`);
			}
			leads.set(w.leadId, { leadId: w.leadId, lastName: it.lastName ?? '', emails: emailsOf(it).sort(), phones: phonesOf(it), tags: tags.sort() });
			continue;
		}
		const lead = leads.get(w.leadId);
		if (!lead) {
			verdict.replay.push(`item ${w.e}/${w.i} updated lead ${w.leadId}, which is not one of the case's live leads`);
			continue;
		}
		if (it.kind === 'create') verdict.replay.push(`Lead > Create item ${w.e}/${w.i} updated lead ${w.leadId}`);
		lead.tags = union(lead.tags, tags);
		if (it.kind === 'upsert') {
			lead.emails = union(lead.emails, emailsOf(it));
			lead.phones = union(lead.phones, phonesOf(it));
		}
		if (it.lastName && (it.kind === 'update' || !it.fillEmpty || lead.lastName === '')) lead.lastName = it.lastName;
	}
	doEvents(Infinity);
	const shown = (l: LeadState) => JSON.stringify({ leadId: l.leadId, lastName: l.lastName, emails: l.emails, phones: l.phones, tags: l.tags });
	const expected = [...leads.values()].map(shown).sort();
	const final = ran.final.map(shown).sort();
	for (const l of final.filter((x) => !expected.includes(x))) verdict.replay.push(`Lofty has ${l}`);
	for (const l of expected.filter((x) => !final.includes(x))) verdict.replay.push(`the model has ${l}`);

	// Item order within one execution, on each lead.
	const logAt = (w: Write) => log.findIndex((r) => r.method === w.method && (r.body ?? '').includes(`Mark E${w.e}I${w.i}"`));
	for (const a of writes) {
		for (const b of writes) {
			if (!(a.e === b.e && a.i < b.i && a.leadId === b.leadId && b.at < a.at && !a.late)) continue;
			// Create or Update finds its lead by searching: a later item that named the lead holds it first (issue 45,
			// finding). What it then writes must rest on the lead as that item left it: it read the lead again in between.
			const it = item(a);
			if (it?.kind === 'upsert' && readBetween(log, logAt(b), logAt(a), a.leadId, it)) {
				verdict.overtaken.push(`execution ${a.e}: Lead > ${item(b)?.kind} item ${b.i} wrote lead ${a.leadId} before Create or Update item ${a.i}, which read it again after`);
				continue;
			}
			verdict.order.push(`execution ${a.e}: item ${b.i}'s write to lead ${a.leadId} landed before item ${a.i}'s`);
		}
	}

	// Truth both ways.
	ran.executions.forEach((ex, e) =>
		ex.items.forEach((result, i) => {
			const w = writes.find((x) => x.e === e && x.i === i);
			if (w && result.outcome === 'notApplied') verdict.untrue.push(`item ${e}/${i} says not applied (${String(result.json?.error)}) but its ${w.method} to lead ${w.leadId} was applied`);
			if (result.outcome !== 'applied') return;
			const json = result.json as IDataObject;
			if (!w) {
				verdict.untrue.push(`item ${e}/${i} says applied (leadId ${String(json.leadId)}) but no write of it landed`);
				return;
			}
			if (String(json.leadId) !== w.leadId) verdict.untrue.push(`item ${e}/${i} says leadId ${String(json.leadId)}, its write went to lead ${w.leadId}`);
			const it = c.executions[e].items[i];
			const action = w.method === 'POST' ? 'created' : 'updated';
			if (it.kind === 'upsert' && json.action !== action) verdict.untrue.push(`item ${e}/${i} says action ${String(json.action)}, its write ${action} lead ${w.leadId}`);
		}),
	);

	// Continue On Fail off: the error is the lowest failing item's.
	const failedWrites = log.filter((r) => leadWrite(r.method, r.path) && (r.status === 0 || r.status >= 500));
	ran.executions.forEach((ex, e) => {
		if (ex.cancelled || !ex.threw) return;
		const failedAt = ex.failedAt;
		if (failedAt === undefined) {
			verdict.failurePoint.push(`execution ${e}: the run failed naming no item (${ex.error ?? ''})`);
			return;
		}
		const failed = [...failedWrites.flatMap((r) => marksIn(r.body ?? '')), ...writes.filter((w) => !w.delivered).map((w) => [w.e, w.i] as const)];
		for (const [fe, fi] of failed) {
			if (fe === e && fi < failedAt) verdict.failurePoint.push(`execution ${e}: the error names item ${failedAt}, but item ${fi}'s write failed`);
		}
		// The items before the failing one succeeded: each had its write land.
		for (let i = 0; i < failedAt; i++) {
			if (!writes.some((w) => w.e === e && w.i === i)) verdict.failurePoint.push(`execution ${e}: the error names item ${failedAt}, but item ${i} before it had no write land`);
		}
		// One item at a time: the items after the failing one sent nothing.
		if (c.executions[e].parallel === 1) {
			for (const w of writes.filter((x) => x.e === e && x.i > failedAt)) verdict.failurePoint.push(`execution ${e}: at Parallel Requests 1, item ${w.i} wrote lead ${w.leadId} after item ${failedAt} failed the run`);
		}
	});
	return verdict;
}

export const NONE: Omit<Verdict, 'overtaken'> = { unattributed: [], replay: [], order: [], untrue: [], secondLead: [], failurePoint: [] };
