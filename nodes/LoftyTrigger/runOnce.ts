import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { caughtKey, recordOf, runKey } from './catchUp';
import { alreadyRan, eventScope, knowsMark, noteRan } from './dedupe';
import { liveUrlOf, postToOwnWebhook } from './ownWebhook';
import { contentKeyOf } from './parse';
import { acceptedSecrets } from './subscriptionState';

/**
 * The Lofty Trigger's execute(), which n8n runs as the first step of every execution the trigger starts (before it
 * passes the webhook's items on; recovered executions included): it drops the events an execution of this trigger
 * already passed, and notes the ones it passes. The marks and the decision are dedupe.ts's (`alreadyRan`, `noteRan`):
 * a run mark is written into every copy of the static data this process's requests hold (n8n saves them), and a
 * delivery or catch-up of an event that ran starts nothing.
 *
 * It catches what a delivery's own mark cannot: an execution n8n created as it stopped (answered 500, its static
 * data not saved) is run by n8n's recovery at the next start while Lofty's retry or the catch-up brings the same
 * event again.
 *
 * The run key of an item: `ran|<record key>` where a catch-up can bring it (`<listId>|created|<id>`, the same for a
 * delivered and a caught-up item), else `ran|<content key>` of a delivered timed event. Items without one always pass.
 *
 * execute() does not change its own execution's copy: n8n would save that copy whole when the execution ends, over
 * what requests saved meanwhile. In other executions than the trigger's own (mode `webhook`), a test (manual) or a
 * retry from the executions list, everything passes and nothing is noted.
 */

/** An item's run key (see above), and the mark its own delivery or catch-up left for it (dedupe.ts): its content key, or its catch-up key. */
export function eventKeysOf(json: IDataObject): { run?: string; own?: string } {
	if (typeof json.listId !== 'number') return {};
	const record = recordOf(json.listId, json);
	if (json.caughtUp === true) return record ? { run: runKey(record), own: caughtKey(record) } : {};
	const content = typeof json.eventKey === 'string' ? contentKeyOf(json.listId, json.eventKey, json.raw) : undefined;
	if (!content?.timed) return record ? { run: runKey(record) } : {};
	return { run: runKey(record ?? content.dedupeKey), own: content.dedupeKey };
}

export const RUNS_BODY_KEY = 'loftyTriggerRuns';
export const askLimits = {
	/** How long an execution asks its webhook (answered 404 while n8n registers it after a start) before it decides alone. */
	withinMs: 30_000,
};

export function isRunsRequest(body: unknown): body is Record<typeof RUNS_BODY_KEY, { keys: string[] }> {
	if (body === null || typeof body !== 'object' || Array.isArray(body) || Object.keys(body).length !== 1) return false;
	const keys = (body as IDataObject)[RUNS_BODY_KEY] as IDataObject | undefined;
	return Array.isArray(keys?.keys) && keys.keys.every((key) => typeof key === 'string');
}

/**
 * Asks the trigger's webhook which of these run keys no execution passed (dedupe.ts claimRuns; marked there and saved
 * by n8n before it answers): undefined when it could not be asked within askLimits.withinMs.
 */
async function askWebhook(ctx: IExecuteFunctions, staticData: IDataObject, keys: string[]): Promise<Set<string> | undefined> {
	const url = liveUrlOf(staticData);
	const secret = acceptedSecrets(staticData)[0];
	if (!url || !secret) return undefined;
	const until = Date.now() + askLimits.withinMs;
	for (let wait = 500; ; wait = Math.min(wait * 2, 5000)) {
		const answer = await postToOwnWebhook(ctx, url, secret, { [RUNS_BODY_KEY]: { keys } }, askLimits.withinMs);
		const fresh = (answer.body as IDataObject | undefined)?.fresh;
		if (answer.status >= 200 && answer.status < 300 && Array.isArray(fresh)) return new Set(fresh.map(String));
		if (Date.now() + wait > until) break;
		await sleep(wait);
	}
	ctx.logger.warn(`Lofty Trigger: could not ask its webhook at ${url} which events already ran; decided with this process's memory`);
	return undefined;
}

/**
 * The trigger's execute(): in a production execution, the items not run before, each noted as run. Items whose own
 * mark neither its copy of the static data nor this process knows (an execution n8n recovered at its start, whose
 * delivery's answer was lost; one on a queue-mode worker) are decided by the webhook (askWebhook) and pass only once
 * it saved them as run; the rest by what this process knows. An execution without the workflow's static data has
 * no secret and no address to ask: it decides at once with what this process knows of the webhook (dedupe.ts,
 * withoutSecret).
 */
export async function runOnce(ctx: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = ctx.getInputData();
	// the trigger's own executions (recovered ones keep their mode); a test, or a retry from the executions list, passes all
	if (ctx.getMode() !== 'webhook') return [items];
	const staticData = ctx.getWorkflowStaticData('node');
	const scope = eventScope(ctx.getNode(), acceptedSecrets(staticData)[0], false);
	const eventKeys = items.map((item) => eventKeysOf(item.json));
	const keys = eventKeys.map((k) => k.run);
	const unmarked = eventKeys.flatMap(({ run, own }) =>
		run !== undefined && (own === undefined || !knowsMark(scope, staticData, own)) && !alreadyRan(scope, staticData, run) ? [run] : [],
	);
	const decided = unmarked.length > 0 ? await askWebhook(ctx, staticData, [...new Set(unmarked)]) : undefined;
	const passed: INodeExecutionData[] = [];
	const ran = new Set<string>();
	for (const [index, item] of items.entries()) {
		const key = keys[index];
		if (key !== undefined) {
			// the webhook's answer (it marked the fresh ones, so this process's memory has them too), else this process's
			const already = decided && unmarked.includes(key) ? !decided.has(key) : alreadyRan(scope, staticData, key);
			if (ran.has(key) || already) continue;
			ran.add(key);
		}
		passed.push({ ...item, pairedItem: item.pairedItem ?? { item: index } });
	}
	noteRan(scope, [...ran]);
	const dropped = items.length - passed.length;
	if (dropped > 0) ctx.logger.info(`Lofty Trigger: ${dropped} event(s) already run were dropped`);
	return [passed];
}
