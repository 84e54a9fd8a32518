import type { IDataObject } from 'n8n-workflow';

import type { LoftyClock } from './clock';
import type { Found, Pass } from './cursor';
import type { LeadPages } from './leadPages';
import { timeOf } from './sources';

/** The most leads below the cursor a pass reads again (within Look Back) for leads Lofty showed late. */
export const RECHECK_LEADS = 100;
/** Finding the place from the top is given up after this many pages, when the budget ends before it got there. */
export const FIND_PAGES = 3;
/**
 * A read gives up after this many scrolls refused in a row without its place moving between them, each after a wait
 * for the rate limit (the pace of the credential's requests, the reader's share of a window, a 429's hold: most of
 * the time since the page before, LeadPages.heldForRate): the first may be a scroll that expired while the reader
 * waited for its share; the others each read down from the top with the whole window and expired before the place.
 */
export const FRUITLESS_READS = 3;
/** ... or after this many refused without a wait for the rate limit (every scroll expires before the next request). */
export const BROKEN_READS = 10;

/** What one read of the lead list (a poll, or a backlog reader) knows and gathers. */
export interface ReadScope {
	clock: LoftyClock;
	/** IDs emitted (or handed on to be emitted) with their times. */
	seen: Map<string, number>;
	/** IDs met in this read: a lead met twice, as the list shifts, is handled once. */
	readNow: Set<string>;
	/** Leads not seen before, in the order read. */
	fresh: Array<Found<IDataObject>>;
	/** Only remember, emit nothing (a first poll without a start date). */
	baseline: boolean;
	cursor?: number;
	startFrom?: number;
	lookBackMs: number;
	served?: number;
	/** Where n8n set no budget: how long a pass whose place lies far from the top may read on (leads.ts). */
	findDeadline?: number;
}

export const idOf = (lead: IDataObject): string | undefined => (lead.leadId === undefined || lead.leadId === null || lead.leadId === '' ? undefined : String(lead.leadId));

/** A lead's create time (Lofty's clock); a lead without one counts as created now. */
export const leadTime = (scope: ReadScope, lead: IDataObject): number => timeOf(lead.createTime) ?? scope.clock.now();

/** Emits `lead` unless it was seen; whether it was new. */
export function take(scope: ReadScope, id: string, time: number, lead: IDataObject): boolean {
	if (scope.seen.has(id)) return false;
	scope.seen.set(id, time);
	if (!scope.baseline) scope.fresh.push({ id, time, record: lead });
	return true;
}

/** What tells a pass's place: leads above `at` (and the re-checked ones) are emitted. */
export const placeKey = (pass: Pass): string => JSON.stringify([pass.top, pass.floor, pass.at ?? null, pass.rechecked ?? 0]);

/** One pass read on from where it stands, page by page (leads.ts says how passes go). */
export class PassRun {
	/** Reading towards the saved place by offset: not yet proven that no lead between was skipped. */
	finding: boolean;
	/** Whether a lead below the place was met (or the pass ended); pages read before that. */
	reached: boolean;
	findPages = 0;
	/** Pages of this read whose leads were all read already (above the place): the read went down from the top. */
	abovePages = 0;
	/**
	 * Scrolls Lofty refused in a row without the place moving between them, after a wait for the rate limit
	 * (`fruitless`) or without one (`broken`): each time the read went down towards the place again and its scroll
	 * expired before it got past it.
	 */
	fruitless = 0;
	broken = 0;
	/** Pages answered since the last refusal (or the start), and the most of them in a row. */
	inRow = 0;
	mostInRow = 0;
	/** A lead at or below the pass's top was met (the leads that came in after the pass began lie above it). */
	metPass = false;
	private refusedAt: string;

	constructor(
		readonly scope: ReadScope,
		readonly pass: Pass,
		readonly pages: LeadPages,
		finding: boolean,
		reached: boolean,
	) {
		this.finding = finding;
		this.reached = reached;
		this.refusedAt = placeKey(pass);
	}

	/** Reads on: 'done' at the pass's bottom, 'cut' when the pages' deadline (or `stop`, asked after each page) ends it. */
	async run(stop?: () => boolean): Promise<'done' | 'cut'> {
		const { scope, pages } = this;
		for (;;) {
			if (stop?.()) return 'cut';
			const page = await pages.next();
			if (page === 'refused') {
				const place = placeKey(this.pass);
				if (place !== this.refusedAt) this.fruitless = this.broken = 0;
				// The refused request had waited for the rate limit most of the time since the page before.
				if (pages.heldForRate) this.fruitless++;
				else this.broken++;
				this.refusedAt = place;
				this.inRow = 0;
				// The saved scroll is gone: the place is found again by offset (a few leads before it, to prove the join).
				pages.restart(this.pass.offset - 5);
				this.finding = true;
				continue;
			}
			if (page === 'cut') return 'cut';
			this.mostInRow = Math.max(this.mostInRow, ++this.inRow);
			scope.served = pages.served ?? scope.served;
			if (!this.reached && ++this.findPages >= FIND_PAGES) {
				// Far from the top: this pass is read to its end in this poll (no later poll could reach it either).
				if (scope.findDeadline !== undefined) pages.deadline = Math.max(pages.deadline ?? 0, scope.findDeadline);
			}
			if (this.pass.top === undefined) this.begin(page);
			if (this.finding) {
				const { pass } = this;
				const head = page[0];
				const joins = pages.offset - page.length <= 0 || (head !== undefined && (leadTime(scope, head) > pass.at! || scope.seen.has(idOf(head) ?? '')));
				if (!joins) {
					// Leads above the place were deleted: the page lies below it. Step back a page.
					pages.restart(pages.offset - page.length - 2 * Math.max(page.length, scope.served ?? 25));
					continue;
				}
				this.finding = false;
			}
			const reachedBefore = this.reached;
			if (this.readPage(page) === 'done') return 'done';
			if (!reachedBefore && !this.reached && page.length > 0) this.abovePages++;
			this.pass.offset = pages.offset;
			this.pass.scrollId = pages.scrollId;
			if (pages.ended) return 'done';
		}
	}

	/** No read down from the top gets past the place (leads.ts, backlogReader.ts): FRUITLESS_READS or BROKEN_READS. */
	get hopeless(): boolean {
		return this.fruitless >= FRUITLESS_READS || this.broken >= BROKEN_READS;
	}

	/**
	 * This read had to go down to its place from the top (Lofty ignored the offset, as where it pages by scroll
	 * only): a poll cut now got no further than the place, or paid pages of leads read already to get there, which
	 * the next poll would pay again and more.
	 */
	get fromTop(): boolean {
		return this.abovePages >= FIND_PAGES - 1 || (!this.reached && this.abovePages > 0);
	}

	/** A new pass: the top of the list tells where it ends (Lofty's clock is known from this answer on). */
	private begin(page: IDataObject[]): void {
		const { scope, pass } = this;
		const now = scope.clock.now();
		const first = page.length ? leadTime(scope, page[0]) : undefined;
		const floor = Math.min(scope.cursor ?? scope.startFrom ?? now, now);
		pass.top = Math.max(floor, Math.min(first ?? floor, now));
		pass.floor = floor;
		pass.listed = this.pages.total;
		pass.recheckFrom = scope.cursor === undefined ? (scope.baseline ? now - scope.lookBackMs : floor) : floor - scope.lookBackMs;
	}

	private readPage(page: IDataObject[]): 'done' | undefined {
		const { scope, pass } = this;
		for (const lead of page) {
			const id = idOf(lead);
			if (id === undefined || scope.readNow.has(id)) continue;
			scope.readNow.add(id);
			const time = leadTime(scope, lead);
			// Newer than the pass: came in after it began (met on the way down from the top).
			if (time > pass.top!) {
				take(scope, id, time, lead);
				continue;
			}
			this.metPass = true;
			// At or above the place: read already.
			if (pass.at !== undefined && (time > pass.at || (time === pass.at && scope.seen.has(id)))) continue;
			this.reached = true;
			if (time <= pass.floor!) {
				if (time < pass.recheckFrom! || (pass.rechecked ?? 0) >= RECHECK_LEADS) return 'done';
				pass.rechecked = (pass.rechecked ?? 0) + 1;
				take(scope, id, time, lead);
			} else if (take(scope, id, time, lead)) pass.taken = (pass.taken ?? 0) + 1;
			pass.at = time;
		}
		return undefined;
	}
}
