/**
 * The account of the restart e2e (triggerRestart.e2e.ts), per event it checks (a created lead, a text to it, a stage
 * change of it; stage changes cannot be caught up, so one never run is not listed as lost): every
 * delivery attempt that carried it (time from the start, status, outcome) and every execution whose trigger output
 * holds it (id, status). An event reached n8n when an execution holds it: as the trigger step's output (the step ran), or
 * only as the trigger's input (n8n created the execution and never ran it: it was stopped first). It ran when the
 * trigger step passed it on; an execution n8n began and did not finish (crashed: killed at the stop) is n8n's, and is
 * listed as such: what a user sees in the executions list, to retry there.
 */
import type { DeliveryLogEntry } from '../../sandbox/resources/webhook/delivery/types';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** The event lists the ledger checks, by the lead they are about: created leads (2) and texts (8); stage changes (12), which cannot be caught up. */
const LISTS: Record<string, number> = { 'lead.created': 2, 'text.created': 8, 'pipeline.updated': 12 };
const CAUGHT_UP = new Set(['lead.created', 'text.created']);

export interface EventAccount {
	event: string;
	leadId: string;
	/** executions whose trigger step passed it on (whatever their status) */
	runs: number;
	/** executions that hold it and did not complete (crashed, cancelled) */
	unfinished: number;
	/** executions that hold it at all (run, or created with it and never run) */
	held: number;
	deliveries: string[];
	executions: string[];
	/** a delivery of it was answered (or went unanswered) while n8n was stopping */
	atStop: boolean;
}

/** From the SIGTERM until the process had exited (epoch ms). */
export interface StopWindow {
	from: number;
	to: number;
}

function leadIdsOf(body: string | undefined): Set<string> {
	return new Set([...(body ?? '').matchAll(/"leadId":"?(\d+)"?/g)].map((m) => m[1]));
}

/** The trigger step's output: what it passed on (none when the step never ran). */
export function itemsOfExecution(ex: Json, trigger: string): Json[] {
	return (ex.data?.resultData?.runData?.[trigger]?.[0]?.data?.main?.[0] ?? []).map((i: Json) => i.json);
}

/** What n8n created the execution with, as the trigger step's input (still there when the step never ran). */
function inputOfExecution(ex: Json, trigger: string): Json[] {
	const stack: Json[] = ex.data?.executionData?.nodeExecutionStack ?? [];
	return (stack.find((entry) => entry?.node?.name === trigger)?.data?.main?.[0] ?? []).map((i: Json) => i.json);
}

/** The account of every created lead, text and stage change of `leads`. */
export function accountEvents(leads: string[], log: DeliveryLogEntry[], executions: Json[], trigger: string, t0: number, stop: StopWindow): EventAccount[] {
	const logged = log.map((entry) => ({ entry, ids: leadIdsOf(entry.body) }));
	const ran = executions.map((ex) => ({ ex, items: itemsOfExecution(ex, trigger), input: inputOfExecution(ex, trigger) }));
	const at = (time: unknown) => (typeof time === 'string' ? `+${((Date.parse(time) - t0) / 1000).toFixed(1)}s` : '?');
	const accounts: EventAccount[] = [];
	for (const leadId of leads) {
		for (const [event, listId] of Object.entries(LISTS)) {
			const attempts = logged.filter(({ entry, ids }) => entry.kind === 'events' && entry.listId === listId && ids.has(leadId)).map(({ entry }) => entry);
			const deliveries = attempts.map((entry) => `+${((entry.time - t0) / 1000).toFixed(1)}s #${entry.attempt} ${entry.status} ${entry.outcome}`);
			const has = (items: Json[]) => items.some((i: Json) => i.event === event && i.leadId === leadId);
			const passed = ran.filter(({ items }) => has(items));
			const holding = ran.filter(({ items, input }) => has(items) || has(input));
			accounts.push({
				event,
				leadId,
				runs: passed.length,
				unfinished: holding.filter(({ ex }) => ex.status !== 'success').length,
				held: holding.length,
				deliveries,
				atStop: attempts.some((entry) => entry.time >= stop.from && entry.time <= stop.to),
				executions: holding.map(({ ex, items }) => `${ex.id} ${ex.status} ${at(ex.startedAt)}-${at(ex.stoppedAt)}${items.some((i: Json) => i.caughtUp === true && i.leadId === leadId) ? ' (caught up)' : ''}`),
			});
		}
	}
	return accounts;
}

/** One line per event lost or run more than once: what each delivery of it got and where it ran. */
export function describeAccounts(accounts: EventAccount[]): string[] {
	return accounts
		.filter((a) => a.runs > 1 || (CAUGHT_UP.has(a.event) && (a.held === 0 || a.unfinished > 0)))
		.map((a) => `${a.event} ${a.leadId}: ran ${a.runs}x (${a.unfinished} not completed); deliveries [${a.deliveries.join('; ')}]${a.atStop ? ' (at the stop)' : ''}; executions [${a.executions.join('; ')}]`);
}

/**
 * What the contract allows: every event that can be caught up reaches an execution, and no event runs twice, also one whose
 * delivery n8n was handling when it was told to stop. LOFTY_E2E_RESTART_LENIENT=1 lets such an event run twice (to
 * look at the rest of a run while that is being mended; never in CI).
 */
export function outsideContract(accounts: EventAccount[], strict = process.env.LOFTY_E2E_RESTART_LENIENT !== '1'): string[] {
	const twiceAllowed = (a: EventAccount) => !strict && a.runs === 2 && a.atStop;
	return describeAccounts(accounts.filter((a) => (a.held === 0 && CAUGHT_UP.has(a.event)) || (a.runs > 1 && !twiceAllowed(a))));
}
