/**
 * One poll of a trigger (a workflow's polling node) at a time in this process. n8n's in-process poll scheduler
 * (every n8n line; the only one before 2.36) starts a poll at each Poll Times tick without waiting for the last
 * one, and hands every poll of an activation the same static-data object: two polls at once would read the same
 * place and emit the same records. A poll that starts while another of the same trigger runs gets no turn: it
 * returns nothing and changes nothing; the one running goes on from where it is.
 *
 * A turn held past its poll's deadline plus STALE_AFTER_MS (a poll that never came back) is taken over by the
 * next poll; the poll that lost it keeps nothing of what it read (`held` is false) and emits nothing.
 */

/** How long after its deadline a turn still counts as held. */
export const STALE_AFTER_MS = 120_000;

interface Holder {
	token: symbol;
	/** The holder's deadline plus STALE_AFTER_MS (epoch ms, n8n's clock). */
	until: number;
}

const holders = new Map<string, Holder>();

export interface PollTurn {
	/** Whether this poll still holds the turn (false once a later poll took over a stale one). */
	readonly held: boolean;
	release(): void;
}

/** The trigger's turn for a poll that reads until `deadline`, or undefined while another poll of it runs. */
export function takePollTurn(trigger: string, deadline: number): PollTurn | undefined {
	const current = holders.get(trigger);
	if (current && Date.now() < current.until) return undefined;
	const token = Symbol(trigger);
	holders.set(trigger, { token, until: deadline + STALE_AFTER_MS });
	return {
		get held() {
			return holders.get(trigger)?.token === token;
		},
		release() {
			if (holders.get(trigger)?.token === token) holders.delete(trigger);
		},
	};
}

/** A trigger's key: its workflow and node. */
export function triggerKey(workflowId: string | undefined, nodeId: string | undefined, nodeName: string): string {
	return JSON.stringify([workflowId ?? '', nodeId || nodeName]);
}
