/**
 * What a step and a flow of the end-to-end plan (plan.ts) are, and the helpers the plan's flows share: dates ahead,
 * resource locators, expressions reaching an earlier node's output, checks of ids.
 */
export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface Step {
	/** Node name in the workflow (unique within it); later steps reach its output with `ref()`. */
	name: string;
	resource: string;
	operation: string;
	params?: Record<string, unknown>;
	/** Run with the Lofty OAuth2 API credential (token from the sandbox's authorize + token exchange). */
	oauth?: boolean;
	/** Expected number of items: exact, or [min, max]; default at least 1. */
	count?: number | [number, number];
	/** Assertions on the items' JSON (jest `expect`). */
	check?: (items: Json[]) => void;
}

export interface Flow {
	/** Workflow name suffix and the resource it is about. */
	title: string;
	steps: Step[];
}

export const DAY = 86_400_000;
/** A date (yyyy-MM-dd) some days ahead, so that times on it are in the future. */
export const dayAhead = (days: number): string => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
export const iso = (ms: number): string => new Date(ms).toISOString();

/** A resource locator set "By ID". */
export const byId = (value: string): Json => ({ __rl: true, mode: 'id', value });
/** An expression reading a field of an earlier node's first output item. */
export const ref = (node: string, field: string): string => `={{ $('${node}').first().json.${field} }}`;

const numericId = /^\d+$/;
export const isId = (v: unknown): void => {
	expect(typeof v).toBe('string');
	expect(v).toMatch(numericId);
};
export const allHave = (items: Json[], field: string): void => {
	for (const it of items) isId(it[field]);
};
