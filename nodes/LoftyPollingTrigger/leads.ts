import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import type { LoftyClock } from './clock';
import { type Found, type LeadPlace, type Pass, keepSeen, placeOf } from './cursor';
import { LeadPages } from './leadPages';
import { timeOf } from './sources';

/**
 * New Lead: Lofty lists leads newest first (GET /v1.0/leads sorted by CreateTime), so the trigger reads them in
 * passes from the top of the list down (cursor.ts holds where it stands):
 *
 * 1. A pass reads every lead newer than the cursor (new ground), then re-checks at most RECHECK_LEADS leads below it
 *    within Look Back (leads Lofty showed late). A lead not seen before is emitted and remembered. When the pass
 *    reaches the bottom, the cursor becomes the newest time it read.
 * 2. A pass the poll's budget cuts is saved with its place (the last lead's time, the leads above it, the scroll).
 *    The next poll goes on from there first, so every poll that reads emits the leads it reads; then, in the same
 *    poll if time is left, a new pass starts from the top with the leads that came in meanwhile.
 * 3. The place is found again by the saved scroll; a scroll Lofty refuses is dropped and the place is found by
 *    offset, proven by a page that starts at or above it (a lead newer than the place, or one read there): leads
 *    deleted above it move it up (the read steps back), leads added on top move it down (the read goes on through
 *    leads already read). Where Lofty ignores offsets, that is a read from the top down to the place.
 * 4. Finding the place costs no more than a few pages, except from the top where Lofty pages by scroll only. Each
 *    poll reads only the top of the list then, and the leads read stay above the rest: a later poll gets no deeper.
 *    So where n8n sets no budget (`findDeadline`: its scheduler abandons no poll, and a tick during a poll gets no
 *    turn), a pass whose place is that far reads on to its end in the same poll (at most 5 minutes). Where n8n
 *    sets one, or that is not enough, the rest of the pass is given up with a warning naming the create times not
 *    read, and the trigger goes on with new leads.
 *
 * So a poll either emits or moves its place forward, and what a poll that emits nothing would have saved is
 * cheap to do again (n8n 2.41's durable scheduler keeps nothing of such a poll): the end of a pass, a re-check of at
 * most RECHECK_LEADS, or a place a few pages away.
 */

/** The most leads below the cursor a pass reads again (within Look Back) for leads Lofty showed late. */
export const RECHECK_LEADS = 100;
/** Finding the place from the top is given up after this many pages, when the budget ends before it got there. */
export const FIND_PAGES = 3;

export interface LeadReadOptions {
	clock: LoftyClock;
	/** The poll's time budget ends here (n8n's clock, epoch ms). */
	deadline?: number;
	/**
	 * Where n8n set no budget of its own: how long a saved pass whose place must be read down to from the top (its
	 * scroll refused, Lofty paging by scroll only) may read on, to its end. Unset: the pass keeps `deadline`.
	 */
	findDeadline?: number;
	lookBackMs: number;
	startFrom?: number;
	/** Called with a warning for n8n's log. */
	warn: (message: string) => void;
}

export interface LeadRead {
	fresh: Array<Found<IDataObject>>;
	/** The place after this poll; undefined when a first poll read nothing (it is a first poll again). */
	next?: LeadPlace;
}

const idOf = (lead: IDataObject): string | undefined => (lead.leadId === undefined || lead.leadId === null || lead.leadId === '' ? undefined : String(lead.leadId));
const iso = (ms: number) => new Date(ms).toISOString();

/** Where one pass of this poll is: the pass, whether its page is proven to join the place, how it is paged. */
interface Run {
	pass: Pass;
	pages: LeadPages;
	/** Reading towards the saved place by offset: not yet proven that no lead between was skipped. */
	finding: boolean;
	/** Whether a lead below the place was met (or the pass ended); pages read before that. */
	reached: boolean;
	findPages: number;
}

export async function readLeads(ctx: IPollFunctions, stored: unknown, options: LeadReadOptions): Promise<LeadRead> {
	const { clock, deadline, lookBackMs, startFrom } = options;
	const state = placeOf(stored);
	const seen = new Map<string, number>(Object.entries(state?.seen ?? {}));
	const fresh: Array<Found<IDataObject>> = [];
	const readNow = new Set<string>();
	// First poll: without a start date it only takes note of what is there (a baseline); with one it emits since then.
	const baseline = !state && startFrom === undefined;
	let cursor = state?.cursor;
	let pass = state?.pass;
	let served = state?.served;
	const timeOfLead = (lead: IDataObject) => timeOf(lead.createTime) ?? clock.now();

	const take = (id: string, time: number, lead: IDataObject) => {
		if (seen.has(id)) return;
		seen.set(id, time);
		if (!baseline) fresh.push({ id, time, record: lead });
	};

	/** Reads one pass on from where it stands; 'done' at its bottom, 'cut' when the budget ended it. */
	const run = async (r: Run): Promise<'done' | 'cut'> => {
		for (;;) {
			const page = await r.pages.next();
			if (page === 'refused') {
				// The saved scroll is gone: the place is found again by offset (a few leads before it, to prove the join).
				r.pages.restart(r.pass.offset - 5);
				r.finding = true;
				continue;
			}
			if (page === 'cut') return 'cut';
			served = r.pages.served ?? served;
			if (!r.reached && ++r.findPages >= FIND_PAGES && options.findDeadline !== undefined) {
				// Far from the top: this pass is read to its end in this poll (no later poll could reach it either).
				r.pages.deadline = Math.max(r.pages.deadline ?? 0, options.findDeadline);
			}
			if (r.pass.top === undefined) {
				// A new pass: the top of the list tells where it ends (Lofty's clock is known from this answer on).
				const now = clock.now();
				const first = page.length ? timeOfLead(page[0]) : undefined;
				const floor = Math.min(cursor ?? startFrom ?? now, now);
				r.pass.top = Math.max(floor, Math.min(first ?? floor, now));
				r.pass.floor = floor;
				r.pass.recheckFrom = cursor === undefined ? (baseline ? now - lookBackMs : floor) : floor - lookBackMs;
			}
			const { pass } = r;
			if (r.finding) {
				const head = page[0];
				const joins = r.pages.offset - page.length <= 0 || (head !== undefined && (timeOfLead(head) > pass.at! || seen.has(idOf(head) ?? '')));
				if (!joins) {
					// Leads above the place were deleted: the page lies below it. Step back a page.
					r.pages.restart(r.pages.offset - page.length - 2 * Math.max(page.length, served ?? 25));
					continue;
				}
				r.finding = false;
			}
			for (const lead of page) {
				const id = idOf(lead);
				if (id === undefined || readNow.has(id)) continue;
				readNow.add(id);
				const time = timeOfLead(lead);
				// Newer than the pass: came in after it began (met on the way down from the top).
				if (time > pass.top!) {
					take(id, time, lead);
					continue;
				}
				// At or above the place: read already.
				if (pass.at !== undefined && (time > pass.at || (time === pass.at && seen.has(id)))) continue;
				r.reached = true;
				if (time <= pass.floor!) {
					if (time < pass.recheckFrom! || (pass.rechecked ?? 0) >= RECHECK_LEADS) return 'done';
					pass.rechecked = (pass.rechecked ?? 0) + 1;
				}
				take(id, time, lead);
				pass.at = time;
			}
			pass.offset = r.pages.offset;
			pass.scrollId = r.pages.scrollId;
			if (r.pages.ended) return 'done';
		}
	};

	const finish = (p: Pass) => {
		cursor = Math.max(p.floor ?? cursor ?? 0, p.top ?? cursor ?? 0);
		pass = undefined;
	};

	if (pass) {
		const r: Run = { pass, pages: new LeadPages(ctx, clock, deadline, { offset: pass.offset, scrollId: pass.scrollId, served }), finding: !pass.scrollId, reached: false, findPages: 0 };
		if (r.finding) r.pages.restart(pass.offset - 5);
		const outcome = await run(r);
		if (outcome === 'done') finish(pass);
		else if (!r.reached && r.findPages >= FIND_PAGES) {
			options.warn(
				`Lofty Polling Trigger: the leads created from ${iso(pass.floor!)} to ${iso(pass.at ?? pass.top!)} that a backlog still had to read could not be reached: Lofty refused the saved scroll and pages its leads only by scroll, and reading down to them from the top takes longer than a poll may read. They were skipped; new leads are read as usual.`,
			);
			finish(pass);
		}
	}
	if (!pass) {
		const top: Pass = { offset: 0 };
		const r: Run = { pass: top, pages: new LeadPages(ctx, clock, deadline, { offset: 0, served }), finding: false, reached: true, findPages: 0 };
		const outcome = await run(r);
		if (top.top === undefined) {
			// Nothing answered in time: on a first poll nothing is remembered, later the place stays.
			if (!state) return { fresh };
		} else if (outcome === 'done' || baseline) finish(top);
		else pass = top;
	}
	const place = cursor ?? clock.now();
	const next: LeadPlace = { cursor: place, seen: keepSeen(seen, place, pass?.at) };
	if (pass) next.pass = pass;
	if (served !== undefined) next.served = served;
	return { fresh, next };
}

/** The editor's test fetch: the newest lead (within the last week), nothing remembered. */
export async function newestLead(ctx: IPollFunctions, clock: LoftyClock): Promise<Array<Found<IDataObject>>> {
	const page = await new LeadPages(ctx, clock, undefined).next(1);
	if (!Array.isArray(page)) return [];
	const lead = page[0];
	const id = lead ? idOf(lead) : undefined;
	const time = lead ? (timeOf(lead.createTime) ?? clock.now()) : undefined;
	return id === undefined || time === undefined || time < clock.now() - 7 * 86_400_000 ? [] : [{ id, time, record: lead }];
}
