/**
 * A scripted lead list for the pass tests (test/unit/passRun.test.ts, backlogReader.test.ts): LeadPages'
 * interface (nodes/LoftyPollingTrigger/leadPages.ts) over an array of leads, newest first, served by offset in pages
 * of `size`, with refusals and cuts where the test puts them. No transport and no clock.
 */
import type { IDataObject } from 'n8n-workflow';

import type { LoftyClock } from '../../nodes/LoftyPollingTrigger/clock';
import type { LeadPages } from '../../nodes/LoftyPollingTrigger/leadPages';
import type { ReadScope } from '../../nodes/LoftyPollingTrigger/passRun';

/** What the next request gets instead of a page: Lofty refused its scroll (waited for the rate limit or not), the poll's time ran out, or it failed. */
export type Step = 'refused' | 'refusedHeld' | 'cut' | 'fail' | 'page';

export class FakePages {
	offset: number;
	scrollId?: string;
	served?: number;
	pages = 0;
	ended = false;
	total?: number;
	heldForRate = false;
	background = false;
	deadline: number | undefined;
	ctx: unknown = { name: 'poll' };
	/** Offsets `restart` was called with (as asked, before the clamp to 0). */
	readonly restarts: number[] = [];
	/** The offset of every page asked for. */
	readonly asked: number[] = [];
	/** Steps before the pages: each request takes the first. */
	readonly script: Step[] = [];
	/** Called before each answer (a test changes the list or the scope there). */
	onRequest?: (n: number) => void | Promise<void>;

	constructor(
		public list: IDataObject[],
		start: { offset: number; scrollId?: string; served?: number } = { offset: 0 },
		readonly size = 3,
		/** Whether it tells how many leads Lofty serves a page (LeadPages learns it from full pages). */
		readonly tellsServed = true,
	) {
		this.offset = start.offset;
		this.scrollId = start.scrollId;
		this.served = start.served;
	}

	restart(offset: number): void {
		this.restarts.push(offset);
		this.offset = Math.max(0, offset);
		this.scrollId = undefined;
		this.ended = false;
	}

	async next(): Promise<IDataObject[] | 'cut' | 'refused'> {
		if (this.ended) return [];
		await this.onRequest?.(this.asked.length);
		this.asked.push(this.offset);
		const step = this.script.shift() ?? 'page';
		if (step === 'cut') return 'cut';
		if (step === 'fail') throw new Error('Lofty is down');
		this.heldForRate = step === 'refusedHeld';
		if (step !== 'page') return 'refused';
		const page = this.list.slice(this.offset, this.offset + this.size);
		this.pages++;
		this.total = this.list.length;
		this.offset += page.length;
		this.scrollId = `scroll@${this.offset}`;
		this.ended = page.length < this.size;
		if (this.tellsServed && !this.ended) this.served = Math.max(this.served ?? 0, page.length);
		return page;
	}

	get asPages(): LeadPages {
		return this as unknown as LeadPages;
	}
}

/** Lofty's clock, fixed at `now`. */
export const fixedClock = (now: number): LoftyClock => ({ now: () => now, observe: () => undefined, known: true, skewMs: 0 }) as unknown as LoftyClock;

/** A lead with an ID and a create time (epoch ms). */
export const lead = (leadId: string, createTime: number): IDataObject => ({ leadId, createTime });

/** A read's scope: nothing seen, not a baseline, unless given. */
export function scopeOf(now: number, over: Partial<ReadScope> = {}): ReadScope {
	return { clock: fixedClock(now), seen: new Map(), readNow: new Set(), fresh: [], baseline: false, lookBackMs: 1000, ...over };
}
