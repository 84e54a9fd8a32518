import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';

import { recordOf } from './catchUp';
import { DEDUPE_WINDOW_MS, MAX_EVENT_KEYS, MEMORY_MS, MAX_SCOPES, eventKey } from './dedupe';
import { contentKeyOf } from './parse';

/**
 * An event runs once: the Lofty Trigger's execute(), which n8n runs as the first step of every execution the trigger
 * starts (before it passes the webhook's items on; recovered executions included), drops the events this trigger
 * already ran and remembers the ones it passes.
 *
 * It catches what the delivery's mark (dedupe.ts) cannot: an execution n8n created as it stopped (answered 500, its
 * static data not saved) is run by n8n's recovery at the next start while Lofty's retry or the catch-up brings the
 * same event again.
 *
 * The run key of an item: its record key where a catch-up can bring it (`<listId>|created|<id>`, the same for a
 * delivered and a caught-up item), else the content key of a delivered timed event. Items without one always pass.
 *
 * Where the marks live: this process remembers them per webhook for MEMORY_MS, and writes them into the static data
 * of every delivery and catch-up it commits (carryRuns), which n8n saves. execute() does not change its own
 * execution's copy: n8n would save that copy whole when the execution ends, over what requests saved meanwhile.
 * In other executions than the trigger's own (mode `webhook`), a test (manual) or a retry, everything passes and nothing
 * is remembered.
 */

type Entries = Map<string, number>;

const memory = new Map<string, Entries>();

function scopeOf(node: INode): string {
	return node.webhookId ?? node.id ?? node.name;
}

function ranIn(scope: string, now: number): Entries {
	let found = memory.get(scope);
	if (found) memory.delete(scope);
	else found = new Map();
	memory.set(scope, found);
	if (memory.size > MAX_SCOPES) memory.delete(memory.keys().next().value as string);
	for (const [key, at] of found) {
		if (now - at < MEMORY_MS) break;
		found.delete(key);
	}
	return found;
}

/** Forgets what this process remembers (a test's stand-in for a new n8n process). */
export function forgetRuns(): void {
	memory.clear();
}

/** The run key of an item the trigger emitted (see above), hashed as dedupe.ts stores keys. */
export function runKeyOf(json: IDataObject): string | undefined {
	if (typeof json.listId !== 'number') return undefined;
	const record = recordOf(json.listId, json);
	if (record) return eventKey(`ran|${record}`);
	if (json.caughtUp === true || typeof json.eventKey !== 'string') return undefined;
	const content = contentKeyOf(json.listId, json.eventKey, json.raw);
	return content.timed ? eventKey(`ran|${content.dedupeKey}`) : undefined;
}

function storedRuns(staticData: IDataObject): Entries {
	const map: Entries = new Map();
	const stored = staticData.ran;
	if (stored && typeof stored === 'object' && !Array.isArray(stored)) {
		for (const [key, at] of Object.entries(stored as IDataObject)) if (typeof at === 'number') map.set(key, at);
	}
	return map;
}

/** The trigger's execute(): in a production execution, the items not run before, each remembered as run. */
export function runOnce(ctx: IExecuteFunctions): INodeExecutionData[][] {
	const items = ctx.getInputData();
	// the trigger's own executions (recovered ones keep their mode); a test, or a retry from the executions list, passes all
	if (ctx.getMode() !== 'webhook') return [items];
	const now = Date.now();
	const ran = ranIn(scopeOf(ctx.getNode()), now);
	const stored = storedRuns(ctx.getWorkflowStaticData('node'));
	const passed: INodeExecutionData[] = [];
	for (const [index, item] of items.entries()) {
		const key = runKeyOf(item.json);
		if (key !== undefined && (ran.has(key) || stored.has(key))) continue;
		if (key !== undefined) ran.set(key, now);
		passed.push({ ...item, pairedItem: item.pairedItem ?? { item: index } });
	}
	const dropped = items.length - passed.length;
	if (dropped > 0) ctx.logger.info(`Lofty Trigger: ${dropped} event(s) already run were dropped`);
	return [passed];
}

/** Writes what this process ran into a request's copy of the static data (called where its delivery commits). */
export function carryRuns(node: INode, staticData: IDataObject, now: number): void {
	const ran = ranIn(scopeOf(node), now);
	if (ran.size === 0 && staticData.ran === undefined) return;
	const merged = [...new Map([...storedRuns(staticData), ...ran])].sort((a, b) => a[1] - b[1]);
	const kept = merged.filter(([, at]) => now - at < DEDUPE_WINDOW_MS && at <= now + DEDUPE_WINDOW_MS).slice(-MAX_EVENT_KEYS);
	staticData.ran = Object.fromEntries(kept);
}
