/**
 * The account of the restart e2e (triggerRestart.e2e.ts), per event it checks (a created lead, a text to it): every
 * delivery attempt that carried it (time from the start, status, outcome) and every execution whose trigger output
 * holds it (id, status). A run that completed is an execution with status `success`: what a user sees as "ran".
 * An execution n8n began but did not finish (crashed, cancelled by the shutdown) is listed, not counted.
 */
import type { DeliveryLogEntry } from '../../sandbox/resources/webhook/delivery/types';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** The event lists the ledger checks: created leads (2) and texts (8), by the lead they are about. */
const LISTS: Record<string, number> = { 'lead.created': 2, 'text.created': 8 };

export interface EventAccount {
	event: string;
	leadId: string;
	/** completed runs (executions with status success) */
	runs: number;
	deliveries: string[];
	executions: string[];
}

function leadIdsOf(body: string | undefined): Set<string> {
	return new Set([...(body ?? '').matchAll(/"leadId":"?(\d+)"?/g)].map((m) => m[1]));
}

export function itemsOfExecution(ex: Json, trigger: string): Json[] {
	return (ex.data?.resultData?.runData?.[trigger]?.[0]?.data?.main?.[0] ?? []).map((i: Json) => i.json);
}

/** The account of every created lead and text of `leads`. */
export function accountEvents(leads: string[], log: DeliveryLogEntry[], executions: Json[], trigger: string, t0: number): EventAccount[] {
	const logged = log.map((entry) => ({ entry, ids: leadIdsOf(entry.body) }));
	const ran = executions.map((ex) => ({ ex, items: itemsOfExecution(ex, trigger) }));
	const accounts: EventAccount[] = [];
	for (const leadId of leads) {
		for (const [event, listId] of Object.entries(LISTS)) {
			const deliveries = logged
				.filter(({ entry, ids }) => entry.kind === 'events' && entry.listId === listId && ids.has(leadId))
				.map(({ entry }) => `+${((entry.time - t0) / 1000).toFixed(1)}s #${entry.attempt} ${entry.status} ${entry.outcome}`);
			const holding = ran.filter(({ items }) => items.some((i: Json) => i.event === event && i.leadId === leadId));
			accounts.push({
				event,
				leadId,
				runs: holding.filter(({ ex }) => ex.status === 'success').length,
				deliveries,
				executions: holding.map(({ ex, items }) => `${ex.id} ${ex.status}${items.some((i: Json) => i.caughtUp === true && i.leadId === leadId) ? ' (caught up)' : ''}`),
			});
		}
	}
	return accounts;
}

/** One line per event lost or run more than once: what each delivery of it got and where it ran. */
export function describeAccounts(accounts: EventAccount[]): string[] {
	return accounts
		.filter((a) => a.runs !== 1)
		.map((a) => `${a.event} ${a.leadId}: ran ${a.runs}x; deliveries [${a.deliveries.join('; ')}]; executions [${a.executions.join('; ')}]`);
}
