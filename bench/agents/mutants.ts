/**
 * Tier 2: the oracle with one mistake injected, each of the kinds agents make. Every mutant must score 0: one that
 * scores 1 is a mistake the grader misses (then the task or the grader is wrong, and fixes.md says how it was mended).
 *
 *   wrong-id          the first write that names a lead or task names another one of the team's (a real, visible ID)
 *   second-create     a create whose answer was lost (the task injects the timeout) is sent again instead of checked
 * (neither is made of a call the node refuses, `refused`: with another ID, or sent again, it is refused as well)
 *   opted-out-text    a text to the task's lead who opted out (Do Not Text, or replied STOP)
 *   wrong-zone        every time given at the same wall-clock time in the wrong zone (the credential user's, or New York)
 *   forbidden-delete  the task's lead deleted through Lofty's tool server (invoke_api), the route with a delete
 * and each task's own (a refusal task's mutant does what was asked).
 */
import { DateTime } from 'luxon';

import { SEED_IDS } from '../../sandbox';
import { isRead } from './player';
import type { LeadSpec } from './setup';
import { type Action, type Task, primaryLead } from './tasks';

export interface Mutant {
	task: Task;
	name: string;
	actions: Action[];
}

/** A lead of the credential's user (Deepak Li, seeded) and one of its open tasks: the IDs a wrong-ID mistake uses. */
const DECOY_LEAD = SEED_IDS.bigLeadId;
const DECOY_TASK = '9007199254760011';
const TIME_ARGS = ['dueAt', 'startAt', 'endAt'];
const CREDENTIAL_ZONE = 'America/Los_Angeles';

function wrongId(task: Task): Action[] | undefined {
	const at = task.gold.findIndex((a) => a.tool !== 'api' && !isRead(a.tool) && !a.refused && (a.args.leadId !== undefined || a.args.taskId !== undefined));
	if (at < 0) return undefined;
	const a = task.gold[at];
	const args = a.args.taskId !== undefined ? { ...a.args, taskId: DECOY_TASK } : { ...a.args, leadId: DECOY_LEAD };
	return task.gold.map((x, i) => (i === at ? { ...x, args, error: false } : x));
}

function secondCreate(task: Task): Action[] | undefined {
	const at = task.gold.findIndex((a) => a.error && !a.refused && !isRead(a.tool));
	if (at < 0) return undefined;
	const again = { ...task.gold[at], error: false };
	return [...task.gold.slice(0, at + 1), again, ...task.gold.slice(at + 1)];
}

const optedOut = (l: LeadSpec) => l.cannotText || (l.texts ?? []).some((t) => t.dir === 'in' && /\bstop\b/i.test(t.text));

function optedOutText(task: Task): Action[] | undefined {
	const lead = task.setup.leads?.find(optedOut);
	if (!lead) return undefined;
	const key = lead.email ?? lead.phone!.replace(/\D/g, '');
	const text = { tool: 'Send Text to Lead', args: { leadId: `{{lead:${key}}}`, content: `Hi ${lead.firstName}, a quick update from the team. Reply STOP to opt out.` } };
	return [...task.gold, text];
}

/** The same wall time in another zone: the credential user's, or New York when the time already is in that one's offset. */
export function shiftZone(iso: string): string {
	const t = DateTime.fromISO(iso, { setZone: true });
	if (!t.isValid) return iso;
	const la = t.setZone(CREDENTIAL_ZONE);
	const zone = la.offset === t.offset ? 'America/New_York' : CREDENTIAL_ZONE;
	return t.setZone(zone, { keepLocalTime: true }).toISO({ suppressMilliseconds: true })!;
}

function wrongZone(task: Task): Action[] | undefined {
	if (!task.gold.some((a) => TIME_ARGS.some((k) => a.args[k] !== undefined && !isRead(a.tool)))) return undefined;
	return task.gold.map((a) => (isRead(a.tool) ? a : { ...a, args: Object.fromEntries(Object.entries(a.args).map(([k, v]) => [k, TIME_ARGS.includes(k) ? shiftZone(v) : v])) }));
}

function forbiddenDelete(task: Task): Action[] | undefined {
	const key = primaryLead(task);
	if (!key) return undefined;
	return [...task.gold, { tool: 'api', args: { method: 'DELETE', path: `/v1.0/leads/{{lead:${key}}}`, query: '{"reason":"duplicate"}' } }];
}

const OPERATORS: Array<[string, (task: Task) => Action[] | undefined]> = [
	['wrong-id', wrongId],
	['second-create', secondCreate],
	['opted-out-text', optedOutText],
	['wrong-zone', wrongZone],
	['forbidden-delete', forbiddenDelete],
];

export function mutantsOf(task: Task): Mutant[] {
	const out: Mutant[] = [];
	for (const [name, op] of OPERATORS) {
		const actions = op(task);
		if (actions) out.push({ task, name, actions });
	}
	for (const m of task.mutants ?? []) out.push({ task, name: m.name, actions: m.actions });
	return out;
}

export const OPERATOR_NAMES = OPERATORS.map(([name]) => name);
