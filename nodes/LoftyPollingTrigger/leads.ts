import type { IDataObject, IPollFunctions, NodeOperationError } from 'n8n-workflow';

import type { LoftyClock } from './clock';
import { collect, notePoll, noteUnreachable, startReader, waitsToRetry } from './backlogReader';
import { type Found, type LeadPlace, type Pass, keepSeen, placeOf } from './cursor';
import { LeadPages } from './leadPages';
import { PassRun, type ReadScope, idOf, take } from './passRun';
import { readerContext } from './readerContext';
import { timeOf } from './sources';
import { unreachableError } from './unreachable';

/**
 * New Lead: Lofty lists leads newest first (GET /v1.0/leads sorted by CreateTime), so the trigger reads them in
 * passes from the top of the list down (cursor.ts holds where it stands):
 *
 * 1. A pass (passRun.ts) reads every lead newer than the cursor (new ground), then re-checks at most RECHECK_LEADS
 *    leads below it within Look Back (leads Lofty showed late). A lead not seen before is emitted and remembered.
 *    When the pass reaches the bottom, the cursor becomes the newest time it read.
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
 *    sets one, or that is not enough, a poll cut before it got to the place, or after it had to read down to it
 *    from the top, hands the pass to a reader in this process that reads on past the poll (backlogReader.ts): the
 *    next polls emit what it read and move the place down, until the pass ends. Nothing is skipped; a restart
 *    loses only what the reader held, and the next poll starts from the saved place again.
 * 5. Where every scroll expires before the rate limit lets the read get past the place, no reader can get there:
 *    the poll that learns it says so (`unreachable`: how many leads, why, what to change), keeps the place, and
 *    for a while reads only the top of the list, for the leads that came in since the pass began; then it tries
 *    again (backlogReader.ts).
 *
 * So a poll either emits or moves its place forward (or hands it to a reader), and what a poll that emits nothing
 * would have saved is cheap to do again (n8n 2.41's durable scheduler keeps nothing of such a poll): the end of a
 * pass, a re-check of at most RECHECK_LEADS, a place a few pages away, or a reader's start.
 */

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
	/** The trigger (pollTurn.ts triggerKey): its backlog reader, if any (backlogReader.ts). */
	trigger: string;
	/** Called with a warning for n8n's log. */
	warn: (message: string) => void;
}

export interface LeadRead {
	fresh: Array<Found<IDataObject>>;
	/** The place after this poll; undefined when a first poll read nothing (it is a first poll again). */
	next?: LeadPlace;
	/** The leads of the pass no read can get down to, as the user is told (unreachable.ts). */
	unreachable?: NodeOperationError;
}

export async function readLeads(ctx: IPollFunctions, stored: unknown, options: LeadReadOptions): Promise<LeadRead> {
	const { clock, deadline, lookBackMs, startFrom, trigger } = options;
	const gapMs = notePoll(trigger);
	const state = placeOf(stored);
	// First poll: without a start date it only takes note of what is there (a baseline); with one it emits since then.
	const baseline = !state && startFrom === undefined;
	const scope: ReadScope = {
		clock,
		seen: new Map<string, number>(Object.entries(state?.seen ?? {})),
		readNow: new Set<string>(),
		fresh: [],
		baseline,
		cursor: state?.cursor,
		startFrom,
		lookBackMs,
		served: state?.served,
		findDeadline: options.findDeadline,
	};
	let pass = state?.pass;
	let listed = state?.listed;
	let unreachable: NodeOperationError | undefined;

	const finish = (p: Pass) => {
		scope.cursor = Math.max(p.floor ?? scope.cursor ?? 0, p.top ?? scope.cursor ?? 0);
		listed = p.listed;
		pass = undefined;
	};

	if (pass) {
		const readerCtx = await readerContext(ctx);
		const handed = collect(trigger, pass, readerCtx);
		if (handed) {
			// The backlog reader read on since the last poll: its leads are this poll's, its place the pass's.
			for (const f of handed.fresh) take(scope, f.id, f.time, f.record);
			pass = handed.pass;
			scope.served = handed.served ?? scope.served;
			if (handed.error) options.warn(`Lofty Polling Trigger: reading the lead backlog on stopped (${handed.error}); the next poll reads on from where it stopped`);
			if (handed.stuck) unreachable = unreachableError(ctx.getNode(), { pass, listedBefore: listed, ...handed.stuck, retryMs: noteUnreachable(trigger, pass) });
			if (handed.done) finish(pass);
		} else if (waitsToRetry(trigger, pass)) {
			// No reader could get past the place: only the leads that came in since the pass began (above its top).
			const top = new PassRun(scope, { ...pass }, new LeadPages(ctx, clock, deadline, { offset: 0, served: scope.served }), false, false);
			await top.run(() => top.metPass);
		} else {
			const r = new PassRun(scope, pass, new LeadPages(ctx, clock, deadline, { offset: pass.offset, scrollId: pass.scrollId, served: scope.served }), !pass.scrollId, false);
			if (r.finding) r.pages.restart(pass.offset - 5);
			const outcome = await r.run(() => r.hopeless);
			if (outcome === 'done') finish(pass);
			// No later poll gets deeper than this one from the top: the pass is read on beyond the poll.
			else if (r.fromTop) startReader(trigger, r, gapMs, readerCtx);
		}
	}
	if (!pass) {
		const top: Pass = { offset: 0 };
		const r = new PassRun(scope, top, new LeadPages(ctx, clock, deadline, { offset: 0, served: scope.served }), false, true);
		const outcome = await r.run(() => r.hopeless);
		if (top.top === undefined) {
			// Nothing answered in time: on a first poll nothing is remembered, later the place stays.
			if (!state) return { fresh: scope.fresh };
		} else if (outcome === 'done' || baseline) finish(top);
		else pass = top;
	}
	const place = scope.cursor ?? clock.now();
	const next: LeadPlace = { cursor: place, seen: keepSeen(scope.seen, place, pass?.at) };
	if (pass) next.pass = pass;
	if (scope.served !== undefined) next.served = scope.served;
	if (listed !== undefined) next.listed = listed;
	return { fresh: scope.fresh, next, unreachable };
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
