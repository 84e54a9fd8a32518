import { type INode, NodeOperationError } from 'n8n-workflow';

import type { Pass } from './cursor';

/**
 * What the Lofty Polling Trigger says when it cannot read down to a lead backlog's older leads (backlogReader.ts:
 * Lofty pages its lead list by scroll only, and every scroll expired before the rate limit allowed the request that
 * would have read past the place). The poll that learns it hands this error to n8n as a failed execution of the
 * workflow (its error workflow runs, if it has one) and writes it to n8n's log; the place stays where it is.
 */
export interface UnreachableFigures {
	pass: Pass;
	/** How many leads Lofty listed when the pass that set the cursor began (LeadPlace.listed). */
	listedBefore?: number;
	/** The most pages the reader read in a row, and the leads a page. */
	mostInRow: number;
	pageSize: number;
	/** Whether the scrolls expired while the reader waited for the rate limit (else before requests that did not wait). */
	rateLimited: boolean;
	/** When the trigger tries again. */
	retryMs: number;
}

const iso = (time: number | undefined) => (time === undefined ? 'unknown' : new Date(time).toISOString());

/** About how many of the pass's leads were not emitted: those Lofty listed when it began, less the older ones and the emitted. */
export function unreadOf(pass: Pass, listedBefore: number | undefined): number | undefined {
	if (pass.listed === undefined || listedBefore === undefined) return undefined;
	const unread = pass.listed - listedBefore - (pass.taken ?? 0);
	return unread > 0 ? unread : undefined;
}

export function unreachableError(node: INode, figures: UnreachableFigures): NodeOperationError {
	const { pass, mostInRow, pageSize, rateLimited } = figures;
	const unread = unreadOf(pass, figures.listedBefore);
	const minutes = Math.max(1, Math.round(figures.retryMs / 60_000));
	const message = `${unread === undefined ? 'Some' : `About ${unread}`} new leads were not emitted yet: the trigger cannot read down to them in Lofty's lead list`;
	return new NodeOperationError(node, message, {
		description:
			`They were created after ${iso(pass.floor)} and up to ${iso(pass.at ?? pass.top)} (Lofty's clock), below the ${mostInRow * pageSize} newest leads. ` +
			`Lofty pages its lead list by scroll only, and each scroll expired before ${rateLimited ? 'the rate limit allowed the next request' : 'the next request, without a wait for the rate limit'}: the trigger read at most ${mostInRow} ${mostInRow === 1 ? 'page' : 'pages'} of ${pageSize} in a row. ` +
			`It keeps its place (none of these leads is skipped), new leads still arrive, and it tries again in ${minutes === 1 ? 'a minute' : `${minutes} minutes`}. ` +
			(rateLimited
				? 'To let it read them: raise the requests a minute Lofty allows this app (ask Lofty), or the Rate Limit of the credential if it is set lower, or pause the other workflows that use this Lofty account while it reads.'
				: "To let it read them: ask Lofty to keep a lead list's scroll longer; a slow network or proxy between n8n and Lofty shortens what is left of it."),
	});
}
