/**
 * A run's reward as τ²-bench computes it: 0 when the run ended abnormally; otherwise the product of the end-state
 * match (the run's writes replayed on a fresh start vs the gold's state), the task's assertions, and "no forbidden
 * change" (the task's own and the playbook's). Each factor is 0 or 1, so the reward is too.
 */
import { checkAssertions, checkForbidden, checkPlaybook } from './assert';
import type { Run } from './player';
import { type Snapshot, diff, stateHash } from './state';
import type { Task } from './tasks';

export interface Grade {
	reward: 0 | 1;
	abnormal?: string;
	/** the replayed state equals the gold's */
	match: boolean;
	assertions: string[];
	forbidden: string[];
	/** where the replayed state differs from the gold's */
	diff: string[];
	/** the live end state equals the replayed one (false: the sandbox or the tools did not repeat themselves) */
	repeatable: boolean;
}

export function grade(task: Task, run: Run, gold: Snapshot, replayed: Snapshot): Grade {
	const match = stateHash(replayed) === stateHash(gold);
	const assertions = checkAssertions(task, run.start, replayed);
	const forbidden = [...checkForbidden(task, run.start, replayed), ...checkPlaybook(run.start, replayed)];
	const ok = !run.abnormal && match && assertions.length === 0 && forbidden.length === 0;
	return {
		reward: ok ? 1 : 0,
		abnormal: run.abnormal,
		match,
		assertions,
		forbidden,
		diff: match ? [] : diff(gold, replayed),
		repeatable: stateHash(run.end) === stateHash(replayed),
	};
}

/** Why a run scored 0, in one line. */
export function why(g: Grade): string {
	if (g.abnormal) return `abnormal end: ${g.abnormal}`;
	return [...(g.match ? [] : [`state differs: ${g.diff[0] ?? ''}`]), ...g.assertions, ...g.forbidden].slice(0, 3).join(' | ');
}
