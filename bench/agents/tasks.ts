/**
 * The tasks of Lofty-τ, read from bench/agents/tasks/*.json (one file per group). A task is what a person asks the
 * team's assistant, the Lofty it starts from, the gold actions (tool calls that do it right), assertions on the end
 * state by natural keys (a lead's email or phone, never a generated ID) and the changes that must not happen.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { Setup } from './setup';

/** One tool call. `{{name}}` in an argument is a value bound by an earlier action; `{{lead:<key>}}` a task lead's ID. */
export interface Action {
	/** a tool of the MCP server by its node name ("Search Leads"), or `api` for a raw call on Lofty's tool server */
	tool: string;
	args: Record<string, string>;
	/** values to keep from the answer: name -> field of the first item, or {field, where} to pick an item */
	bind?: Record<string, string | { field: string; where: Record<string, string> }>;
	/** the gold expects this call to fail (a timeout the task injects, a refused value) */
	error?: boolean;
	/** it fails because the node refuses a value: nothing is applied, whatever its IDs and however often it is sent */
	refused?: boolean;
}

export interface LeadAssertion {
	lead: string;
	/** leads (not deleted) with this email or phone */
	count?: number;
	stage?: string;
	assignedTo?: string;
	firstName?: string;
	lastName?: string;
	/** digits of a phone the lead must have */
	phone?: string;
}
export interface AddedAssertion {
	/** what was added on the lead: notes, tasks, appointments, texts (sent) or calls (logged) */
	added: 'notes' | 'tasks' | 'appointments' | 'texts' | 'calls';
	lead: string;
	count: number;
	/** words every added record's text holds (any case) */
	contains?: string[];
	type?: string;
	/** a task's due time or an appointment's start, local wall time in `zone` */
	at?: string;
	end?: string;
	zone?: string;
	assignedTo?: string;
	outcome?: string;
}
export interface FinishedAssertion {
	finished: string;
	/** words of the task's description */
	task: string;
}
export type Assertion = LeadAssertion | AddedAssertion | FinishedAssertion;

/** `nothing`: the end state equals the start; `untouched`: nothing of that lead changed; `noNewLead`. */
export type Forbid = { nothing: true } | { untouched: string } | { noNewLead: true };

export interface Task {
	id: string;
	group: string;
	title: string;
	instruction: string;
	setup: Setup;
	gold: Action[];
	assert: Assertion[];
	forbid?: Forbid[];
	/** the lead a mutant's wrong ID or delete aims at (default: the first lead of the setup) */
	primary?: string;
	/** this task's own mutants: the mistake an agent makes here (e.g. doing what a refusal task asks) */
	mutants?: Array<{ name: string; actions: Action[] }>;
	/** a refusal task: the right answer changes nothing */
	refusal?: boolean;
}

export const GROUPS = ['intake', 'routing', 'schedule', 'stage', 'notes', 'texts', 'transactions', 'refusal'] as const;

/** bench/agents in the repository, from here or from the compiled copy under .build/. */
function agentsDir(): string {
	for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
		const candidate = path.join(dir, 'bench', 'agents');
		if (fs.existsSync(path.join(candidate, 'policy.md'))) return candidate;
	}
	throw new Error(`bench/agents not found above ${__dirname}`);
}

export const AGENTS_DIR = agentsDir();
export const TASK_DIR = path.join(AGENTS_DIR, 'tasks');

export function loadTasks(dir = TASK_DIR): Task[] {
	const tasks: Task[] = [];
	for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
		const data = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as { group: string; tasks: Array<Omit<Task, 'group'>> };
		for (const t of data.tasks) tasks.push({ ...t, group: data.group, refusal: t.refusal ?? data.group === 'refusal' });
	}
	const seen = new Set<string>();
	for (const t of tasks) {
		if (seen.has(t.id)) throw new Error(`task ${t.id} twice`);
		seen.add(t.id);
		if (!(GROUPS as readonly string[]).includes(t.group)) throw new Error(`task ${t.id}: unknown group ${t.group}`);
		if (!t.instruction || !Array.isArray(t.gold) || !Array.isArray(t.assert)) throw new Error(`task ${t.id}: instruction, gold and assert are required`);
		if (t.refusal && !t.forbid?.some((f) => 'nothing' in f)) throw new Error(`task ${t.id}: a refusal task forbids any change ({"nothing": true})`);
	}
	return tasks;
}

/** The first lead's key of a task (its primary lead unless it names one). */
export function primaryLead(task: Task): string | undefined {
	const first = task.setup.leads?.[0];
	return task.primary ?? (first ? (first.email ?? first.phone?.replace(/\D/g, '')) : undefined);
}
