import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { findOperation } from '../Lofty/resources';
import { type Pagination, pageItems, totalOf, valueAt } from '../Lofty/transport/pagination';
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
	/** When the last page was answered (this process's clock): its scroll was handed out then. */
	private answeredAt?: number;
	/**
	 * The last page asked for waited for the rate limit (the credential's pace, a backlog reader's share, a 429's
	 * hold) for at least half the time since the page before it was answered: a scroll refused then expired
	 * mostly in that wait.
	 */
	heldForRate = false;
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
		const since = this.answeredAt;
		let held = 0;
		this.heldForRate = false;
		const qs: IDataObject = { sort: 'CreateTime', desc: true, limit: size, offset: this.offset };
		const withScroll = Boolean(this.scrollId);
		if (withScroll) qs.scrollId = this.scrollId;
		const onSend = (heldMs: number) => {
			held += heldMs;
			this.heldForRate = since !== undefined && held > 0 && 2 * held >= Date.now() - since;
		};
		const response = await loftyRequest(this.ctx, { method: 'GET', path, qs: qs as never, deadline: this.deadline, background: this.background, onAnswer: this.clock.observe, onSend }).catch(async (error: unknown) => {
			if (isDeadlineReached(error)) return CUT;
			const status = Number((error as { httpCode?: unknown }).httpCode);
			const refusal = status >= 500 || (status >= 400 && ![401, 403, 429].includes(status));
			return withScroll && refusal ? REFUSED : await Promise.reject(error);
		});
		if (response === CUT) return 'cut';
		if (response === REFUSED) return 'refused';
		this.pages++;
		this.answeredAt = Date.now();
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
}
