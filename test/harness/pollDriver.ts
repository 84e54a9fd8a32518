/**
 * Successive polls of the Lofty Polling Trigger on New Lead, on jest's clock (Date only, n8n's and the sandbox's):
 * each Lofty answer moves it by `answerMs`, each poll starts a minute after the last began; nothing sleeps. Keeps
 * what every poll emitted, how long it took (on that clock), how many requests it sent, and what it logged.
 */
import type { IDataObject } from 'n8n-workflow';

import { type Sandbox, SEED_IDS } from '../../sandbox';
import { type PollHost, poll } from './poll';

export const MIN = 60_000;
export const BUDGET_MS = 36_000;
const ALL_BUT_DATE = ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] as const;

/** Fakes Date only, from 2026-01-05 09:00 UTC. */
export function useDateOnlyClock(): void {
	beforeEach(() => jest.useFakeTimers({ doNotFake: [...ALL_BUT_DATE], now: Date.UTC(2026, 0, 5, 9) }));
	afterEach(() => jest.useRealTimers());
}

export const later = (ms: number): void => {
	jest.setSystemTime(Date.now() + ms);
};

/** `count` leads of the demo user created `stepMs` apart from `from` on (Lofty's clock); their IDs, oldest first. */
export function addLeads(sandbox: Sandbox, count: number, from: number, stepMs: number, name: string): string[] {
	const ids: string[] = [];
	for (let i = 0; i < count; i++) {
		const lead = sandbox.store.addLead({ firstName: `${name} ${i}`, ownerUserId: BigInt(SEED_IDS.demoUserId), teamId: BigInt(SEED_IDS.teamId), createTime: from + i * stepMs });
		ids.push(lead.leadId.toString());
	}
	return ids;
}

export interface PollRecord {
	emitted: string[];
	ms: number;
	requests: number;
}

export class PollDriver {
	stored: string | undefined;
	readonly polls: PollRecord[] = [];
	readonly warnings: string[] = [];
	/** What the polls handed to n8n as failed executions (their messages and descriptions). */
	readonly failures: Array<{ message: string; description: string }> = [];
	readonly host: PollHost;

	constructor(
		private readonly sandbox: () => Sandbox,
		answerMs: number,
		host: Partial<PollHost> = {},
		readonly params: Record<string, unknown> = { events: ['lead'], options: { lookBackMinutes: 15 } },
	) {
		this.host = {
			budgetMs: BUDGET_MS,
			afterAnswer: () => later(answerMs),
			onWarn: (m) => this.warnings.push(m),
			onFailedExecution: (e) => this.failures.push({ message: e.message, description: String((e as { description?: unknown }).description ?? '') }),
			...host,
		};
	}

	/** One poll; the clock then stands at the next minute's tick after it began that it did not overlap. */
	async poll(): Promise<IDataObject[]> {
		const start = Date.now();
		const sent = this.sandbox().requests.length;
		const run = await poll(this.sandbox(), this.params, this.stored, 'trigger', this.host);
		this.stored = run.stored;
		const items = run.items ?? [];
		this.polls.push({ emitted: items.map((i) => String(i.leadId)), ms: Date.now() - start, requests: this.sandbox().requests.length - sent });
		// n8n's in-process scheduler starts a poll at every tick; those during a poll get no turn (pollTurn.ts).
		jest.setSystemTime(start + MIN * Math.max(1, Math.ceil((Date.now() - start) / MIN)) + 1000);
		return items;
	}

	get emitted(): string[] {
		return this.polls.flatMap((p) => p.emitted);
	}

	/** The index of the first poll after which all of `ids` were emitted, or -1. */
	drainedAt(ids: string[]): number {
		const want = new Set(ids);
		for (let i = 0, got = 0; i < this.polls.length; i++) {
			got += this.polls[i].emitted.filter((id) => want.has(id)).length;
			if (got >= want.size) return i;
		}
		return -1;
	}

	/** Polls until `done` or `max` polls; `each` after each poll (awaited). */
	async pollUntil(done: () => boolean, max: number, each?: (index: number) => void | Promise<void>): Promise<void> {
		for (let i = 0; i < max && !done(); i++) {
			await this.poll();
			await each?.(i);
		}
	}

	/** Figures for the report (printed with LOFTY_FIGURES=1). */
	figures(label: string, leads: number): void {
		if (!process.env.LOFTY_FIGURES) return;
		const requests = this.polls.reduce((n, p) => n + p.requests, 0);
		const longest = Math.max(...this.polls.map((p) => p.ms));
		process.stdout.write(`[figures] ${label}: ${this.polls.length} polls, ${(requests / Math.max(leads, 1)).toFixed(3)} requests a lead, longest poll ${longest} ms of ${this.host.budgetMs ?? '-'} ms\n`);
	}
}
