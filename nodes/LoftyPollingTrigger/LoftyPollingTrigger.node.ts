import type { IDataObject, INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { AUTHENTICATION_PROPERTY, LOFTY_CREDENTIALS } from '../Lofty/transport/authentication';
import { LOFTY_POLLING_TRIGGER_BUILDER_HINT } from '../Lofty/model/builderHints';
import { isDeadlineReached, loftyRequest } from '../Lofty/transport/request';
import { LoftyClock } from './clock';
import { type SourceState, advance, windowOf } from './cursor';
import { newestLead, readLeads } from './leads';
import { type PollTurn, takePollTurn, triggerKey } from './pollTurn';
import { type PollSettings, type SourceName, readSource, timeOf, toItem } from './sources';

const MINUTE = 60_000;
const SOURCES: SourceName[] = ['lead', 'call', 'text', 'email'];

interface PollState {
	sources: Partial<Record<SourceName, SourceState>>;
	teamId?: string;
	/** Lofty's clock minus n8n's, as the last poll measured it */
	skewMs?: number;
}

/**
 * The Lofty Polling Trigger: n8n's poll, on the editor's usual Poll Times, for the events Lofty can list by time (new
 * leads, calls, texts, emails). A separate node from the Lofty Trigger, because n8n treats a node type with a poll
 * method as a poller in every workflow (it schedules it and shows Poll Times on it) and a node type with webhooks as
 * a webhook node: one node could not switch cleanly between the two.
 */
export class LoftyPollingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Lofty Polling Trigger',
		name: 'loftyPollingTrigger',
		icon: { light: 'file:../../icons/lofty.svg', dark: 'file:../../icons/lofty.dark.svg' },
		group: ['trigger'],
		version: 1,
		// Opened as is; from the codex link alone n8n would put its query after the #.
		documentationUrl: 'https://github.com/n8n-nodes-lofty/n8n-nodes-lofty#lofty-polling-trigger',
		subtitle: '={{"Polls: " + ($parameter["events"] || []).join(", ")}}',
		// The node search shows this under "Lofty Polling", next to the "Lofty" entry of the webhook trigger.
		description: 'Start workflows on new Lofty leads, calls, texts and emails by checking on a schedule: no public HTTPS address needed',
		defaults: { name: 'Lofty Polling Trigger' },
		builderHint: LOFTY_POLLING_TRIGGER_BUILDER_HINT,
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: LOFTY_CREDENTIALS,
		properties: [
			AUTHENTICATION_PROPERTY,
			{
				displayName:
					'This trigger asks Lofty for new records at the Poll Times above: it works without a public address (n8n on a laptop, a NAS, behind a firewall), events arrive up to one interval late, and only new leads, calls, texts and emails can be read this way. With n8n reachable over HTTPS, the Lofty Trigger gets every change (updates, deletions, tasks, transactions and more) the moment it happens.',
				name: 'modeNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Trigger On',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['lead'],
				options: [
					{ name: 'New Call', value: 'call', description: 'A call with a lead was made or logged' },
					{ name: 'New Email', value: 'email', description: 'An email with a lead was sent or logged' },
					{ name: 'New Lead', value: 'lead', description: 'A lead was added to Lofty' },
					{ name: 'New Text', value: 'text', description: 'A text with a lead was sent or logged' },
				],
				description: 'The new records that start this workflow, one item each',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Include Automatic Messages',
						name: 'includeAutomatic',
						type: 'boolean',
						default: false,
						description:
							"Whether calls, texts and emails Lofty makes automatically (drips, auto-replies) start the workflow too. Left out by default, as in the Lofty Trigger, whose webhooks fire only for manual and logged ones.",
					},
					{
						displayName: 'Look Back (Minutes)',
						name: 'lookBackMinutes',
						type: 'number',
						typeOptions: { minValue: 1, maxValue: 1440 },
						default: 15,
						description:
							'Each poll reads again this far back before the newest record it has seen, so that records Lofty shows a while after their time are not missed. Records already seen are never emitted twice.',
					},
					{
						displayName: 'Start From',
						name: 'startFrom',
						type: 'dateTime',
						default: '',
						description:
							'Emit the records since this date at the first poll. Leave empty to start from the moment the workflow is activated (no records from before).',
					},
					{
						displayName: 'Whole Team',
						name: 'teamView',
						type: 'boolean',
						default: false,
						description: 'Whether calls, texts and emails of the whole team are read, not only yours (needs the permission to see all team leads)',
					},
				],
			},
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const sources = chosenSources(this);
		const options = this.getNodeParameter('options', {}) as IDataObject;
		const lookBackMinutes = options.lookBackMinutes === undefined ? 15 : Number(options.lookBackMinutes);
		if (!Number.isFinite(lookBackMinutes) || lookBackMinutes < 1 || lookBackMinutes > 1440) {
			throw new NodeOperationError(this.getNode(), `Look Back (Minutes) must be from 1 to 1440, got ${String(options.lookBackMinutes)}`);
		}
		const startFrom = options.startFrom ? timeOf(options.startFrom) : undefined;
		if (options.startFrom && startFrom === undefined) {
			throw new NodeOperationError(this.getNode(), `Start From must be a date, got ${JSON.stringify(options.startFrom)}`);
		}
		const settings: PollSettings = { teamView: options.teamView === true, includeAutomatic: options.includeAutomatic === true };
		const lookBackMs = lookBackMinutes * MINUTE;

		// The editor's "Fetch Test Event": the newest record of each kind, nothing remembered.
		if (this.getMode() === 'manual') {
			const clock = new LoftyClock();
			const items: IDataObject[] = [];
			for (const source of sources) {
				const now = clock.now();
				const found = source === 'lead' ? await newestLead(this, clock) : (await readSource(this, source, () => now - 7 * 24 * 60 * MINUTE, now, { settings, clock, newestOnly: true })).found;
				for (const one of found) items.push(toItem(source, one, undefined));
			}
			return items.length ? [this.helpers.returnJsonArray(items)] : null;
		}

		const budget = pollBudget(this);
		const deadline = Date.now() + budget.ms;
		// n8n set no budget (before 2.38): nothing abandons the poll, and the turn holds the next ticks off.
		const findDeadline = budget.offered ? undefined : Date.now() + MAX_BUDGET_MS;
		const node = this.getNode();
		const trigger = triggerKey(this.getWorkflow().id, node.id, node.name);
		const turn = takePollTurn(trigger, findDeadline ?? deadline);
		if (!turn) {
			this.logger.debug('Lofty Polling Trigger: the last poll of this trigger is still running; this one reads nothing');
			return null;
		}
		try {
			return await pollOnce(this, { sources, settings, lookBackMs, startFrom, deadline, findDeadline, trigger, turn });
		} finally {
			turn.release();
		}
	}
}

interface PollPlan {
	sources: SourceName[];
	settings: PollSettings;
	lookBackMs: number;
	startFrom?: number;
	deadline: number;
	findDeadline?: number;
	trigger: string;
	turn: PollTurn;
}

/** One poll that holds the trigger's turn: reads every source, then remembers and emits (if it still holds it). */
async function pollOnce(ctx: IPollFunctions, plan: PollPlan): Promise<INodeExecutionData[][] | null> {
	const { sources, settings, lookBackMs, startFrom, deadline, findDeadline, trigger } = plan;
	const staticData = ctx.getWorkflowStaticData('node');
	// A copy: n8n before 2.36 hands every poll the same object, which only the end of a poll that holds its turn changes.
	const state: PollState = staticData.pollState ? (JSON.parse(JSON.stringify(staticData.pollState)) as PollState) : { sources: {} };
	const clock = new LoftyClock(state.skewMs);
	// The first answer tells Lofty's clock: /v1.0/me (asked once for the team) before calls, texts and emails, whose
	// window end is sent; leads are read from the newest, so their first page tells it before anything is decided.
	if (state.teamId === undefined && sources.some((s) => s !== 'lead')) {
		const teamId = await teamIdOf(ctx, clock, deadline);
		// The budget ended before Lofty answered: nothing read, nothing changed.
		if (teamId === OUT_OF_TIME) return null;
		state.teamId = teamId;
	}
	const next: PollState = { sources: { ...state.sources }, teamId: state.teamId };
	const fresh: Array<{ source: SourceName; item: IDataObject; time: number; id: string }> = [];
	// Everything is read before anything is remembered: a failed request leaves the state as it was. The budget
	// ending a read is no failure: what was read is emitted and the next poll goes on from there.
	for (const source of sources) {
		if (source === 'lead') {
			const read = await readLeads(ctx, state.sources.lead, { clock, deadline, findDeadline, lookBackMs, startFrom, trigger, warn: (m) => ctx.logger.warn(m) });
			if (read.unreachable) sayUnreachable(ctx, read.unreachable);
			if (read.next) next.sources.lead = read.next as unknown as SourceState;
			for (const f of read.fresh) fresh.push({ source, item: toItem(source, f, state.teamId), time: f.time, id: f.id });
			continue;
		}
		const current = state.sources[source];
		const { baseline } = windowOf(current, clock.now(), lookBackMs, startFrom);
		const from = () => windowOf(current, clock.now(), lookBackMs, startFrom).from;
		const read = await readSource(ctx, source, from, clock.now(), { settings, clock, deadline });
		// Nothing read on a first poll: it is a first poll again next time.
		if (!current && !read.complete && read.found.length === 0) continue;
		const result = advance(current, read.found, { baseline, now: clock.now(), lookBackMs, startFrom, readUpTo: read.readUpTo });
		next.sources[source] = result.next;
		for (const f of result.fresh) fresh.push({ source, item: toItem(source, f, state.teamId), time: f.time, id: f.id });
	}
	next.skewMs = clock.skewMs;
	// A later poll took over this one's turn (it counted as stuck): that poll reads from the same place.
	if (!plan.turn.held) return null;
	staticData.pollState = next as unknown as IDataObject;
	if (fresh.length === 0) return null;
	fresh.sort((a, b) => a.time - b.time || (a.id < b.id ? -1 : 1));
	return [ctx.helpers.returnJsonArray(fresh.map((f) => f.item))];
}

/**
 * Leads the trigger cannot read down to (unreachable.ts): n8n's log, and a failed execution of the workflow, which n8n
 * lists with the others and hands to the workflow's error workflow. The poll goes on: it emits what it read.
 */
function sayUnreachable(ctx: IPollFunctions, error: NodeOperationError): void {
	ctx.logger.warn(`Lofty Polling Trigger: ${error.message}. ${error.description ?? ''}`);
	if (typeof ctx.__emitError === 'function') ctx.__emitError(error);
}

/**
 * How long one poll may read. n8n's database-backed poll scheduler (2.36+) abandons a poll after about 45 s and,
 * from 2.38, tells the node its share (about 36 s) through getPollBudgetMs(); older n8n offers nothing: there a
 * poll reads that same share, well within the shortest Poll Times interval (a minute).
 */
export const DEFAULT_POLL_BUDGET_MS = 36_000;

/** The most a poll reads: n8n 2.41's in-process scheduler offers 5 minutes. */
const MAX_BUDGET_MS = 5 * MINUTE;

function pollBudget(ctx: IPollFunctions): { ms: number; offered: boolean } {
	const offered = (ctx as { getPollBudgetMs?: () => unknown }).getPollBudgetMs?.();
	return typeof offered === 'number' && Number.isFinite(offered) && offered > 0
		? { ms: Math.min(offered, MAX_BUDGET_MS), offered: true }
		: { ms: DEFAULT_POLL_BUDGET_MS, offered: false };
}

function chosenSources(ctx: IPollFunctions): SourceName[] {
	const raw = ctx.getNodeParameter('events', []) as string[];
	const chosen = SOURCES.filter((s) => raw.includes(s));
	if (chosen.length === 0) {
		throw new NodeOperationError(ctx.getNode(), 'Choose at least one event under "Trigger On"', {
			description: 'The trigger polls Lofty for the chosen kinds of new records; with none chosen there is nothing to look for.',
		});
	}
	return chosen;
}

const OUT_OF_TIME = Symbol('out of time');

/** The team of the credential's user, for the communication items (their listing does not name it). */
async function teamIdOf(ctx: IPollFunctions, clock: LoftyClock, deadline: number): Promise<string | undefined | typeof OUT_OF_TIME> {
	const me = (await loftyRequest(ctx, { method: 'GET', path: '/v1.0/me', onAnswer: clock.observe, deadline }).catch(async (error: unknown) =>
		isDeadlineReached(error) ? OUT_OF_TIME : await Promise.reject(error),
	)) as IDataObject | undefined | typeof OUT_OF_TIME;
	if (me === OUT_OF_TIME) return OUT_OF_TIME;
	const teamId = me?.teamId;
	return teamId === undefined || teamId === null ? undefined : String(teamId);
}
