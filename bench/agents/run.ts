/**
 * `npm run bench:agents`: Lofty-τ, a benchmark of agents doing a real-estate team's work through the example MCP
 * server's tools (examples/lofty-mcp-server.json in a real n8n 2.41.1, reached with the official MCP SDK client),
 * scored by what Lofty (the sandbox) holds at the end. Method and task list: docs/ai-agents.md.
 *
 *   tier 1  the oracle plays each task's gold actions, k trials (--k, default 4): every task must score 1.00
 *   tier 2  the oracle with one injected mistake (mutants.ts): every mutant must score 0
 *   tier 3  a model through an OpenAI-compatible endpoint (LOFTY_TAU_MODEL_URL and LOFTY_TAU_MODEL_KEY), or with
 *           --fake the project's scripted fake (fakeModel.ts); its own table, never mixed with tiers 1 and 2
 *
 * Options: --k N (trials per task, at least 4 for pass^k), --tasks id,id | --groups g,g (a selection), --tiers 1,2,
 * --live (tiers 2 and 3 scored on each run's own end state, not a replay: for CI), --fake, --k3 N (tier 3's trials, default --k), --list (print the task list, run nothing), --out FILE (the results as JSON; default
 * .build/bench-agents/results.json). Exits 1 when an oracle trial scores below 1 or a mutant above 0.
 */
import './scriptsLink';

import * as fs from 'node:fs';
import * as path from 'node:path';

import { startFakeOpenAi } from '../../test/e2e/fakeOpenAi';
import { BenchEnv, type World } from './env';
import { fakeScript } from './fakeModel';
import { grade, why } from './grade';
import { type ModelConfig, modelFromEnv, modelRun } from './model';
import { mutantsOf } from './mutants';
import { type Run, type Step, Replayer, play } from './player';
import { type MutantRecord, type TaskRecord, costTable, failures, groupTable, mutantTable, trialOf } from './report';
import { byGroup } from './score';
import type { Snapshot } from './state';
import { type Task, loadTasks } from './tasks';
import { ENCODING, runTokens, toolCosts } from './tokens';

function option(name: string): string | undefined {
	const at = process.argv.indexOf(name);
	return at >= 0 ? (process.argv[at + 1] ?? '') : undefined;
}
const list = (v: string | undefined) => v?.split(',').map((s) => s.trim()).filter(Boolean);

const K = Math.max(1, Number(option('--k') ?? 4));
const K3 = Math.max(1, Number(option('--k3') ?? K));
const TIERS = list(option('--tiers')) ?? ['1', '2'];
const FAKE = process.argv.includes('--fake');
/** `--live`: tiers 2 and 3 are scored on each run's own end state (it started from a fresh start too) instead of a replay of its writes: half the calls, for CI. */
const LIVE = process.argv.includes('--live');
const OUT = path.resolve(option('--out') ?? path.join(__dirname, '..', '..', 'results.json'));

function selected(): Task[] {
	const ids = list(option('--tasks'));
	const groups = list(option('--groups'));
	return loadTasks().filter((t) => (!ids || ids.includes(t.id)) && (!groups || groups.includes(t.group)));
}

/** `--list`: the task list as docs/ai-agents.md shows it. */
function listTasks(tasks: Task[]): number {
	console.log('| group | task | what is asked | refusal |\n|---|---|---|---|');
	for (const t of tasks) console.log(`| ${t.group} | \`${t.id}\` | ${t.title} | ${t.refusal ? 'yes' : ''} |`);
	return 0;
}

async function main(): Promise<number> {
	const t0 = Date.now();
	const tasks = selected();
	if (process.argv.includes('--list')) return listTasks(tasks);
	const env = new BenchEnv();
	const replayer = new Replayer();
	const golds = new Map<string, Snapshot>();
	const oracleSteps: Step[] = [];
	const out: Record<string, unknown> = { k: K, tasks: tasks.length, n8n: env.n8n.version };
	let failed = false;
	await env.start();
	try {
		/** Grades a run: its writes replayed on a fresh start, against the gold's state. */
		const judge = async (world: World, task: Task, run: Run, live = false) => {
			const replayed = live ? run.end : await replayer.replay(world, task, run.steps);
			return grade(task, run, golds.get(task.id)!, replayed);
		};

		// Tier 1: the oracle. Its first trial's state is the gold state (the gold actions played on a fresh start).
		const oracle = await env.each(tasks, async (world, task) => {
			const record: TaskRecord = { id: task.id, group: task.group, trials: [] };
			for (let trial = 0; trial < (TIERS.includes('1') ? K : 1); trial++) {
				const run = await play(world, task, task.gold, true);
				if (trial === 0) {
					golds.set(task.id, run.end);
					replayer.remember(task, run.steps, run.end);
				}
				const g = await judge(world, task, run);
				oracleSteps.push(...run.steps);
				record.trials.push(trialOf(g, run.steps.length, runTokens(run.steps), run.ms, why(g)));
			}
			return record;
		});
		const t1 = Date.now();
		const costs = toolCosts(env.tools, oracleSteps);
		if (TIERS.includes('1')) {
			const rows = byGroup(oracle.map((r) => ({ group: r.group, rewards: r.trials.map((t) => t.reward) })), K);
			console.log(`\n${groupTable(`Tier 1: the oracle (gold actions through the real tools), ${K} trials a task`, rows, oracle)}\n`);
			const bad = failures('Tier 1', oracle);
			if (bad) {
				console.log(bad);
				failed = true;
			}
			const unrepeatable = oracle.filter((t) => t.trials.some((tr) => !tr.repeatable)).map((t) => t.id);
			if (unrepeatable.length) console.log(`live state differs from the replay in: ${unrepeatable.join(', ')}`);
			out.tier1 = { groups: rows, tasks: oracle, seconds: (t1 - t0) / 1000 };
			console.log(`\n${costTable(costs.rows, costs.definitions, ENCODING)}\n`);
			out.tools = costs;
		}

		if (TIERS.includes('2')) {
			const mutants: MutantRecord[] = await env.each(
				tasks.flatMap((task) => mutantsOf(task)),
				async (world, m) => {
					const run = await play(world, m.task, m.actions, false);
					const g = await judge(world, m.task, run, LIVE);
					const caught = { state: !g.match, assertions: g.assertions.length > 0, forbidden: g.forbidden.length > 0, abnormal: Boolean(g.abnormal) };
					return { task: m.task.id, group: m.task.group, mutant: m.name, reward: g.reward, why: why(g), calls: run.steps.length, caught };
				},
			);
			console.log(`\n${mutantTable(mutants)}\n`);
			if (mutants.some((m) => m.reward !== 0)) failed = true;
			out.tier2 = { mutants, seconds: (Date.now() - t1) / 1000 };
		}

		const model: ModelConfig | undefined = FAKE ? undefined : modelFromEnv();
		if (TIERS.includes('3') || FAKE || model) {
			const fake = FAKE ? await startFakeOpenAi(fakeScript) : undefined;
			const config = model ?? { url: fake?.url ?? '', key: 'fake-key', model: 'fake-model', label: 'scripted fake (test/e2e/fakeOpenAi.ts)' };
			if (!config.url) throw new Error('tier 3 needs LOFTY_TAU_MODEL_URL and LOFTY_TAU_MODEL_KEY, or --fake');
			const t3 = Date.now();
			let records: TaskRecord[] = [];
			try {
				records = await env.each(tasks, async (world, task) => {
					const record: TaskRecord = { id: task.id, group: task.group, trials: [] };
					for (let trial = 0; trial < K3; trial++) {
						const run = await modelRun(world, task, config);
						const g = await judge(world, task, run, LIVE);
						const used = (run.tokens?.prompt ?? 0) + (run.tokens?.completion ?? 0);
						record.trials.push(trialOf(g, run.steps.length, used, run.ms, why(g)));
					}
					return record;
				});
			} finally {
				await fake?.stop();
			}
			const rows = byGroup(records.map((r) => ({ group: r.group, rewards: r.trials.map((t) => t.reward) })), K3);
			console.log(`\n${groupTable(`Tier 3: ${config.label}, ${K3} trials a task (tokens: the endpoint's own count)`, rows, records)}\n`);
			console.log(failures('Tier 3', records).split('\n').slice(0, 12).join('\n'));
			out.tier3 = { model: config.label, groups: rows, tasks: records, seconds: (Date.now() - t3) / 1000 };
		}
	} finally {
		await env.stop();
	}
	out.seconds = (Date.now() - t0) / 1000;
	out.startSeconds = env.startSeconds;
	out.replays = replayer.replays;
	out.live = LIVE;
	fs.mkdirSync(path.dirname(OUT), { recursive: true });
	fs.writeFileSync(OUT, `${JSON.stringify(out, null, 1)}\n`);
	console.log(`Lofty-τ: ${tasks.length} tasks in ${(out.seconds as number).toFixed(0)} s (n8n start ${env.startSeconds.toFixed(0)} s, ${replayer.replays} replays${LIVE ? '; tiers 2 and 3 scored on live end states' : ''}); results in ${path.relative(process.cwd(), OUT)}`);
	console.log(failed ? 'Lofty-τ FAILED: an oracle trial below 1, or a mutant above 0' : 'Lofty-τ passed: the oracle scores 1.00 on every task, every mutant 0');
	return failed ? 1 : 0;
}

main().then(
	(code) => process.exit(code),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
