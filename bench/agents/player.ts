/**
 * Plays a list of actions (the gold, or a mutant of it) through the real tools on a task's fresh starting state,
 * and replays a run's writes on another fresh one: the state τ²-bench scores by (the agent's actions replayed on a
 * fresh copy of the domain), kept per distinct list of writes, since the sandbox hands out the same IDs to the
 * same calls in the same order (the live state is checked against it in every run).
 */
import type { Json, ToolAnswer, World } from './env';
import { applySetup } from './setup';
import { type Snapshot, snapshot, stateHash } from './state';
import type { Action, Task } from './tasks';

/** One call of a run, as the client sent and received it. */
export interface Step {
	/** the MCP tool name (`api` for Lofty's tool server) */
	tool: string;
	args: Json;
	isError: boolean;
	text: string;
	ms: number;
}

export interface Run {
	steps: Step[];
	/** why the run ended abnormally (it then scores 0), if it did */
	abnormal?: string;
	ms: number;
	start: Snapshot;
	end: Snapshot;
	/** the model's tokens (tier 3), in and out */
	tokens?: { prompt: number; completion: number };
	final?: string;
}

/** The MCP name of a tool named as its node ("Search Leads" -> "Search_Leads"), as n8n lists it. */
export function mcpName(env: World, tool: string): string {
	const flat = (s: string) => s.replace(/[^a-z]/gi, '').toLowerCase();
	return env.tools.find((t) => flat(t.name) === flat(tool))?.name ?? tool;
}

/** Tools that change nothing (never replayed). */
export const isRead = (tool: string): boolean => /^(get|search)/i.test(tool.replace(/[^a-z]/gi, ''));

const starts = new Map<string, Snapshot>();

/** The task's starting state in the sandbox; its lead IDs by key. */
export function prepare(env: World, task: Task): { ids: Map<string, string>; start: Snapshot } {
	const ids = applySetup(env.sandbox, task.setup);
	if (!starts.has(task.id)) starts.set(task.id, snapshot(env.sandbox));
	return { ids, start: starts.get(task.id)! };
}

function pick(text: string, spec: string | { field: string; where: Record<string, string> }): string | undefined {
	let items: Json[];
	try {
		const parsed = JSON.parse(text) as unknown;
		items = (Array.isArray(parsed) ? parsed : [parsed]) as Json[];
	} catch {
		return undefined;
	}
	const field = typeof spec === 'string' ? spec : spec.field;
	const where = typeof spec === 'string' ? {} : spec.where;
	const item = items.find((i) => Object.entries(where).every(([k, v]) => String(i[k] ?? '').toLowerCase().includes(v.toLowerCase())));
	const value = item?.[field];
	return value === undefined || value === null ? undefined : String(value);
}

/** The ID of the lead with this email or phone in the sandbox now (a task's lead, or one the run created or changed). */
function leadIdOf(env: World, ref: string): string | undefined {
	const digits = (s: string) => s.replace(/\D/g, '').replace(/^1(\d{10})$/, '$1');
	for (const lead of env.sandbox.store.leads.values()) {
		if (lead.deletedAt !== null) continue;
		if (lead.emails.some((e) => e.toLowerCase() === ref.toLowerCase()) || lead.phones.some((p) => digits(p) === digits(ref))) return lead.leadId.toString();
	}
	return undefined;
}

function fill(args: Record<string, string>, vars: Map<string, string>, ids: (key: string) => string | undefined): { args: Json; missing?: string } {
	let missing: string | undefined;
	const out: Json = {};
	for (const [k, v] of Object.entries(args)) {
		out[k] = v.replace(/\{\{([^}]+)\}\}/g, (_m, name: string) => {
			const value = name.startsWith('lead:') ? ids(name.slice(5)) : vars.get(name);
			if (value === undefined) missing ??= name;
			return value ?? '';
		});
	}
	return { args: out, missing };
}

async function send(env: World, tool: string, args: Json): Promise<ToolAnswer> {
	return tool === 'api' ? env.invokeApi(args) : env.call(tool, args);
}

/** Plays actions on the task's fresh start. `strict` (the oracle): a call whose failure the gold did not expect, or a value it cannot bind, ends the run abnormally. */
export async function play(env: World, task: Task, actions: Action[], strict: boolean): Promise<Run> {
	const t0 = Date.now();
	const { start } = prepare(env, task);
	const vars = new Map<string, string>();
	const steps: Step[] = [];
	let abnormal: string | undefined;
	for (const [i, action] of actions.entries()) {
		const { args, missing } = fill(action.args, vars, (key) => leadIdOf(env, key));
		if (missing !== undefined && strict) {
			abnormal = `step ${i + 1} (${action.tool}): no value for {{${missing}}}`;
			break;
		}
		const tool = action.tool === 'api' ? 'api' : mcpName(env, action.tool);
		const answer = await send(env, tool, args);
		steps.push({ tool, args, ...answer });
		if (strict && answer.isError !== (action.error ?? false)) {
			abnormal = `step ${i + 1} (${action.tool}) ${answer.isError ? 'failed' : 'succeeded'}, the gold expects otherwise: ${answer.text.slice(0, 300)}`;
			break;
		}
		for (const [name, spec] of Object.entries(action.bind ?? {})) {
			const value = pick(answer.text, spec);
			if (value !== undefined) vars.set(name, value);
			else if (strict) abnormal ??= `step ${i + 1} (${action.tool}): nothing to bind as ${name} in ${answer.text.slice(0, 200)}`;
		}
		if (abnormal) break;
	}
	return { steps, abnormal, ms: Date.now() - t0, start, end: snapshot(env.sandbox) };
}

/** Replays the writes of a run on a fresh start, in order, with the arguments the run sent; cached by the list of writes. */
export class Replayer {
	private cache = new Map<string, Snapshot>();
	replays = 0;

	async replay(env: World, task: Task, steps: Step[]): Promise<Snapshot> {
		const writes = steps.filter((s) => !isRead(s.tool)).map((s) => ({ tool: s.tool, args: s.args }));
		const key = `${task.id}\n${JSON.stringify(writes)}`;
		const known = this.cache.get(key);
		if (known) return known;
		prepare(env, task);
		for (const w of writes) await send(env, w.tool, w.args);
		this.replays++;
		const state = snapshot(env.sandbox);
		this.cache.set(key, state);
		return state;
	}

	/** Seeds the cache with a run's live state (the gold's: its replay is itself, on the same fresh start). */
	remember(task: Task, steps: Step[], state: Snapshot): void {
		const writes = steps.filter((s) => !isRead(s.tool)).map((s) => ({ tool: s.tool, args: s.args }));
		this.cache.set(`${task.id}\n${JSON.stringify(writes)}`, state);
	}
}

export { stateHash };
