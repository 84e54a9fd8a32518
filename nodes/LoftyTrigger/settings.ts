import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

export const MAX_BATCH = 5000;

/**
 * The trigger's time limits. n8n builds the node with the defaults; a test builds it with its own
 * (`new LoftyTrigger({ listTimeoutMs: 300 })`) instead of changing module state.
 */
export interface TriggerTiming {
	/**
	 * The list request during (de)activation: failing within about 20 s lets n8n report the failure or retry the
	 * activation later, instead of holding its start-up.
	 */
	listTimeoutMs: number;
	listRetries: number;
	/** Fetch Full Record: every lookup of one delivery, with its waits (pacer, 429s), ends within this. */
	fetchBudgetMs: number;
	/** A catch-up (catchUp.ts): its reads, with their waits (pacer, 429s), end within this; the rest is read later. */
	catchUpBudgetMs: number;
}

export const DEFAULT_TIMING: Readonly<TriggerTiming> = Object.freeze({ listTimeoutMs: 10_000, listRetries: 1, fetchBudgetMs: 5000, catchUpBudgetMs: 20_000 });

/** What a subscription is made with: its event lists, batch size and delivery scope. */
export interface TriggerSettings {
	listIds: number[];
	limit: number;
	permissionMode: 0 | 1;
}

type Ctx = IHookFunctions | IWebhookFunctions;

/** The chosen event lists (1 to 12), sorted and without repeats. */
export function chosenLists(ctx: Ctx): number[] {
	const raw = ctx.getNodeParameter('events', []) as Array<number | string>;
	return [...new Set(raw.map(Number).filter((n) => Number.isInteger(n) && n >= 1 && n <= 12))].sort((a, b) => a - b);
}

export function settingsOf(ctx: IHookFunctions): TriggerSettings {
	const listIds = chosenLists(ctx);
	if (listIds.length === 0) {
		throw new NodeOperationError(ctx.getNode(), 'Choose at least one event under "Trigger On"', {
			description: 'The trigger subscribes to the chosen Lofty events; with none chosen there is nothing to listen for.',
		});
	}
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const limit = options.batchSize === undefined ? 100 : Math.round(Number(options.batchSize));
	if (!Number.isFinite(limit) || limit < 1 || limit > MAX_BATCH) {
		throw new NodeOperationError(ctx.getNode(), `Batch Size must be between 1 and ${MAX_BATCH}, got ${String(options.batchSize)}`);
	}
	const permissionMode = Number(options.permissionMode ?? 0) === 1 ? 1 : 0;
	return { listIds, limit, permissionMode };
}

export function webhookUrlOf(ctx: Ctx): string {
	const url = ctx.getNodeWebhookUrl('default');
	if (!url) throw new NodeOperationError(ctx.getNode(), 'n8n did not give this node a webhook URL');
	return url;
}
