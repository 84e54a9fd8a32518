/** The tables `npm run bench:agents` prints (Markdown, as docs/ai-agents.md shows them) and the results file's shape. */
import type { Grade } from './grade';
import { type GroupRow, mean } from './score';
import type { ToolCost } from './tokens';

export interface TrialRecord {
	reward: number;
	calls: number;
	tokens: number;
	ms: number;
	why?: string;
	repeatable: boolean;
}

export interface TaskRecord {
	id: string;
	group: string;
	trials: TrialRecord[];
}

export interface MutantRecord {
	task: string;
	group: string;
	mutant: string;
	reward: number;
	why: string;
	calls: number;
	/** which factors scored it 0: the end-state match, the assertions, the forbidden changes (task or playbook) */
	caught: { state: boolean; assertions: boolean; forbidden: boolean; abnormal: boolean };
}

export const trialOf = (g: Grade, calls: number, tokens: number, ms: number, why: string): TrialRecord => ({
	reward: g.reward,
	calls,
	tokens,
	ms,
	...(g.reward === 1 ? {} : { why }),
	repeatable: g.repeatable,
});

const f2 = (x: number) => x.toFixed(2);
const ci = (c: [number, number]) => `[${f2(c[0])}, ${f2(c[1])}]`;

export function groupTable(title: string, rows: GroupRow[], tasks: TaskRecord[]): string {
	const k = rows[0]?.k ?? 1;
	const lines = [`### ${title}`, '', `| group | tasks | pass^1 (95 % CI) | pass^${k} (95 % CI) | tool calls / task | tokens / task | seconds / task |`, '|---|---|---|---|---|---|---|'];
	for (const r of rows) {
		const mine = tasks.filter((t) => r.group === 'all' || t.group === r.group).flatMap((t) => t.trials);
		lines.push(
			`| ${r.group} | ${r.tasks} | ${f2(r.passAt1)} ${ci(r.ci1)} | ${f2(r.passAtK)} ${ci(r.ciK)} | ${mean(mine.map((t) => t.calls)).toFixed(1)} | ${Math.round(mean(mine.map((t) => t.tokens)))} | ${(mean(mine.map((t) => t.ms)) / 1000).toFixed(2)} |`,
		);
	}
	return lines.join('\n');
}

export function mutantTable(mutants: MutantRecord[]): string {
	const kinds = [...new Set(mutants.map((m) => m.mutant.replace(/^task:.*/, 'task-specific')))];
	const lines = [
		'### Tier 2: mutants of the oracle (each must score 0)',
		'',
		'| mistake | mutants | scored 0 | caught by the end-state match | by the assertions | by a forbidden change or the playbook |',
		'|---|---|---|---|---|---|',
	];
	for (const kind of [...kinds, 'all']) {
		const mine = mutants.filter((m) => kind === 'all' || m.mutant.replace(/^task:.*/, 'task-specific') === kind);
		const n = (f: keyof MutantRecord['caught']) => mine.filter((m) => m.caught[f]).length;
		lines.push(`| ${kind} | ${mine.length} | ${mine.filter((m) => m.reward === 0).length} | ${n('state')} | ${n('assertions')} | ${n('forbidden')} |`);
	}
	const missed = mutants.filter((m) => m.reward !== 0);
	if (missed.length) lines.push('', `MISSED (scored 1): ${missed.map((m) => `${m.task}/${m.mutant}`).join(', ')}`);
	return lines.join('\n');
}

export function costTable(rows: ToolCost[], definitions: number, encoding: string): string {
	const lines = [
		`### What the tools cost an agent (tokens, ${encoding})`,
		'',
		`All ${rows.length} definitions together: **${definitions}** tokens, sent with every model turn.`,
		'',
		'| tool | definition | calls measured | output mean | output max |',
		'|---|---|---|---|---|',
	];
	for (const r of [...rows].sort((a, b) => b.meanOutput - a.meanOutput)) lines.push(`| ${r.tool} | ${r.definition} | ${r.calls} | ${r.meanOutput} | ${r.maxOutput} |`);
	return lines.join('\n');
}

export function failures(title: string, tasks: TaskRecord[]): string {
	const bad = tasks.flatMap((t) => t.trials.map((tr, i) => ({ t, tr, i })).filter(({ tr }) => tr.reward !== 1));
	if (bad.length === 0) return '';
	const first = bad.filter((b, at) => bad.findIndex((x) => x.t === b.t) === at);
	return [`${title}: tasks with a trial that scored 0 (the first such trial)`, ...first.map(({ t, tr, i }) => `- ${t.id} trial ${i + 1}: ${(tr.why ?? '').slice(0, 240)}`)].join('\n');
}
