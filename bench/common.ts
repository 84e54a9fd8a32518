/** Helpers shared by the benchmark rows (run.ts) and the real-n8n comparison (n8nBulk.ts). */
import { SEED_IDS, type Sandbox } from '../sandbox';

/** A row of the main table: name, ratio or figure, details. */
export type Row = [string, string, string];

export const fmt = (n: number, digits = 2) => n.toFixed(digits);

/** Adds `count` leads; returns their IDs as strings (Lofty IDs exceed 2^53). */
export function addLeads(sandbox: Sandbox, count: number, prefix: string): string[] {
	const ids: string[] = [];
	for (let i = 0; i < count; i++) {
		const lead = sandbox.store.addLead({
			firstName: `${prefix}${i}`,
			lastName: 'Bench',
			ownerUserId: SEED_IDS.demoUserId,
			emails: [`${prefix.toLowerCase()}${i}@example.com`],
			phones: ['+15125550000'],
			source: 'Bench',
			city: 'Austin',
			state: 'TX',
		});
		ids.push(lead.leadId.toString());
	}
	return ids;
}

/**
 * The shortest time `n` requests can take under a fixed window of `limit` per `windowMs`, given how long the same
 * job takes without a limit: the window lets `limit` requests through, so the last window opens after
 * ceil(n / limit) - 1 full windows, and its requests still take their own share of the unthrottled time.
 */
export function windowBound(n: number, limit: number, windowMs: number, unthrottledMs: number): number {
	const fullWindows = Math.ceil(n / limit) - 1;
	const lastShare = (n - fullWindows * limit) / n;
	return Math.max(unthrottledMs, fullWindows * windowMs + unthrottledMs * lastShare);
}
