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
	const lines = ['### Tier 2: mutants of the oracle (each must score 0)', '', '| mistake | mutants | scored 0 | caught by |', '|---|---|---|---|'];
	for (const kind of kinds) {
		const mine = mutants.filter((m) => m.mutant.replace(/^task:.*/, 'task-specific') === kind);
		const by = new Map<string, number>();
		for (const m of mine) {
			const cause = m.why.startsWith('abnormal') ? 'abnormal end' : m.why.split(':')[0].split(' ')[0];
			by.set(cause, (by.get(cause) ?? 0) + 1);
		}
		const causes = [...by.entries()].map(([c, n]) => `${c} ${n}`).join(', ');
		lines.push(`| ${kind} | ${mine.length} | ${mine.filter((m) => m.reward === 0).length} | ${causes} |`);
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
	return [`${title}: trials that scored 0`, ...bad.slice(0, 60).map(({ t, tr, i }) => `- ${t.id} trial ${i + 1}: ${tr.why ?? ''}`)].join('\n');
}
