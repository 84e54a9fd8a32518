import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { findOperation } from '../Lofty/resources';
import { backgroundQuota } from '../Lofty/transport/backgroundShare';
import { type Pagination, pageItems, totalOf, valueAt } from '../Lofty/transport/pagination';
import { headerNumber } from '../Lofty/transport/rateHeaders';
import { isDeadlineReached, loftyRequest } from '../Lofty/transport/request';
import type { LoftyClock } from './clock';

/**
 * GET /v1.0/leads newest first, one page at a time, as Lead > Get Many pages it: `offset` and the last `scrollId`
 * together (right whichever of the two Lofty follows: docs/api-readings.md, 2). It knows where the next page starts
 * (leads before it, and the scroll), stops at the poll's deadline, and tells a saved scroll Lofty refused.
 */

const { path, pagination } = ((): { path: string; pagination: Pagination } => {
	const op = findOperation('lead', 'getAll')?.op;
	if (!op?.pagination) throw new Error('the Lofty node has no list lead > getAll');
	return { path: op.path, pagination: op.pagination };
})();

/** The largest page Lead > Get Many asks for. */
export const LEAD_PAGE = pagination.maxPageSize;

const CUT = Symbol('cut');
/** Lofty refused a saved scroll ID (it expired, or the search behind it is gone). */
const REFUSED = Symbol('refused');

export interface PagePlace {
	/** Leads of the list before the next page. */
	offset: number;
	scrollId?: string;
	/** The most leads Lofty served in one page (25 where it serves no more), once known. */
	served?: number;
}

export class LeadPages implements PagePlace {
	offset: number;
	scrollId?: string;
	served?: number;
	/** Pages answered in this poll. */
	pages = 0;
	/** The list has no more leads. */
	ended = false;
	/** How many leads the list holds, as the last answer said (Lofty's `_metadata.total`). */
	total?: number;
	/** The window the last answer announced: its requests left (X-RateLimit-Remaining) and limit. */
	private window: { remaining?: number; limit?: number } = {};
	/** `room` when the last page was asked for: at 0 or below, it waited for the next window first. */
	roomBefore?: number;
	/** Read by a backlog reader: its requests keep to their share of the rate limit (transport/backgroundShare.ts). */
	background = false;

	constructor(
		/** The newest poll's context (a backlog reader reads on with the poll that took from it last). */
		public ctx: IPollFunctions,
		private readonly clock: LoftyClock,
		/** The poll's deadline for these pages (a re-find from the top may be given a later one). */
		public deadline: number | undefined,
		start: PagePlace = { offset: 0 },
	) {
		this.offset = start.offset;
		this.scrollId = start.scrollId;
		this.served = start.served;
	}

	/** Goes back to `offset` without a scroll (the next page is found by offset alone). */
	restart(offset: number): void {
		this.offset = Math.max(0, offset);
		this.scrollId = undefined;
		this.ended = false;
	}

	/**
	 * The next page; 'cut' once the poll's time is up (nothing after the deadline is started); 'refused' when Lofty
	 * refused the scroll ID the page was asked with (a 4xx other than 401, 403 and 429, or a 5xx).
	 */
	async next(size = LEAD_PAGE): Promise<IDataObject[] | 'cut' | 'refused'> {
		if (this.ended) return [];
		if (this.deadline !== undefined && Date.now() >= this.deadline) return 'cut';
		this.roomBefore = this.room;
		const qs: IDataObject = { sort: 'CreateTime', desc: true, limit: size, offset: this.offset };
		const withScroll = Boolean(this.scrollId);
		if (withScroll) qs.scrollId = this.scrollId;
		const onAnswer = (headers: Record<string, unknown>) => {
			this.clock.observe(headers);
			this.noteRoom(headers);
		};
		const response = await loftyRequest(this.ctx, { method: 'GET', path, qs: qs as never, deadline: this.deadline, background: this.background, onAnswer }).catch(async (error: unknown) => {
			if (isDeadlineReached(error)) return CUT;
			const status = Number((error as { httpCode?: unknown }).httpCode);
			const refusal = status >= 500 || (status >= 400 && ![401, 403, 429].includes(status));
			return withScroll && refusal ? REFUSED : await Promise.reject(error);
		});
		if (response === CUT) return 'cut';
		if (response === REFUSED) return 'refused';
		this.pages++;
		const leads = pageItems(pagination, response);
		const total = totalOf(pagination, response);
		if (total !== undefined) this.total = total;
		const scrollId = valueAt(response, '_metadata.scrollId');
		if (typeof scrollId === 'string' && scrollId) this.scrollId = scrollId;
		// A page shorter than asked ends the list, unless Lofty serves fewer a page than asked: it is then shorter than
		// the pages it served before (or, on the first, the total says more follow).
		if (this.served === undefined && leads.length < size && total !== undefined && total > this.offset + leads.length) this.served = leads.length;
		this.ended = leads.length === 0 || leads.length < Math.min(size, this.served ?? size);
		if (!this.ended) this.served = Math.max(this.served ?? 0, leads.length);
		this.offset += leads.length;
		return leads;
	}

	private noteRoom(headers: Record<string, unknown>): void {
		this.window = { remaining: headerNumber(headers, 'X-RateLimit-Remaining'), limit: headerNumber(headers, 'X-RateLimit-Limit') };
	}

	/**
	 * Requests these pages may still send in the rate-limit window the last answer announced (its share of it, when
	 * read in the background); undefined before an answer announced one. At 0 or below, the next page waits for the
	 * next window.
	 */
	get room(): number | undefined {
		const { remaining, limit } = this.window;
		if (remaining === undefined) return undefined;
		return remaining - (this.background && limit !== undefined ? limit - backgroundQuota(limit) : 0);
	}
}
