import type { IExecuteFunctions, IHookFunctions, INodeExecutionData, INodeType, INodeTypeDescription, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { AUTHENTICATION_PROPERTY, LOFTY_CREDENTIALS } from '../Lofty/transport/authentication';
import { LOFTY_TRIGGER_BUILDER_HINT } from '../Lofty/model/builderHints';
import { EVENT_LISTS } from './events';
import { FILTER_OPTIONS, triggerMethods } from './filterOptions';
import { firstInProcess, requestCatchUp } from './catchUpRequest';
import { noteStopped, oweOnActivation } from './catchUpState';
import { eventScope, track } from './dedupe';
import { noteLiveUrl } from './ownWebhook';
import { receive } from './receive';
import { runOnce } from './runOnce';
import { DEFAULT_TIMING, MAX_BATCH, type TriggerTiming, chosenLists, settingsOf, webhookUrlOf } from './settings';
import { createSubscriptions, deleteSubscriptions, subscriptionsExist } from './subscriptions';
import { acceptedSecrets } from './subscriptionState';

/**
 * The Lofty Trigger: webhook subscriptions (subscriptions.ts), receiving deliveries (receive.ts: parse,
 * dedupe, answer), the first step of its executions (runOnce.ts). Only the editor description lives here.
 */
export class LoftyTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Lofty Trigger',
		name: 'loftyTrigger',
		icon: { light: 'file:../../icons/lofty.svg', dark: 'file:../../icons/lofty.dark.svg' },
		group: ['trigger'],
		version: 1,
		// The chosen events by name ("Call, Pipeline Change"), not their count.
		subtitle: eventsSubtitle(),
		// n8n opens an http(s) documentationUrl as it is; from the codex link alone it builds "...#lofty-trigger?utm_...",
		// which loses the anchor.
		documentationUrl: 'https://github.com/n8n-nodes-lofty/n8n-nodes-lofty#lofty-trigger',
		// n8n shows this on the search entry it shares with the Lofty node, so the wording fits both.
		description: 'Work with and react to leads, tasks, transactions and more in the Lofty real-estate CRM',
		defaults: { name: 'Lofty Trigger' },
		builderHint: LOFTY_TRIGGER_BUILDER_HINT,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: LOFTY_CREDENTIALS,
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
		triggerPanel: TRIGGER_PANEL,
		properties: [
			AUTHENTICATION_PROPERTY,
			{
				// One notice, not three: what the trigger needs, the alternative without it, and where the full records come from.
				displayName:
					'Lofty sends events only to a public HTTPS address: set n8n\'s WEBHOOK_URL to it. No such address? Use the Lofty Polling Trigger. Events carry IDs: for the full records add the Lofty node with Webhook > Get Event Record.',
				name: 'setupNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Trigger On',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: [],
				options: EVENT_LISTS,
				description:
					"The Lofty events that start this workflow. Each chosen event type is one webhook subscription in Lofty. Lofty does not send automatic calls, emails and texts (drips, auto-replies; only manual and logged ones fire), nor events of leads outside the credential's reach. An agent's credential gets the leads assigned to that agent; a Company Owner's or Admin's gets the whole team's, except hidden leads, which only their assigned agent is told about (Options > Delivery Scope).",
				// Said where the events are picked, as a hint under the field (at most 120 characters): the panel keeps one notice (the setup).
				hint: "Lofty does not send automatic calls, emails and texts, nor events of leads the credential can't see (see the tooltip)",
			},
			{
				// Kept for workflows that turned it on (shown only to them, so they can turn it off); Webhook > Get Event
				// Record replaced it, so a new trigger does not offer it.
				displayName: 'Fetch Full Record',
				name: 'fetchFullRecord',
				type: 'boolean',
				default: false,
				displayOptions: { show: { fetchFullRecord: [true] } },
				description:
					'Whether to add the full record to each item as "record", read before the workflow starts (at most 5 seconds per delivery; items not read in time get "recordError"). Turned off, it is no longer shown: use Webhook > Get Event Record instead.',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Batch Size',
						name: 'batchSize',
						type: 'number',
						typeOptions: { minValue: 1, maxValue: MAX_BATCH },
						default: 100,
						description:
							'Most events Lofty puts in one delivery (1 to 5000). Every event still becomes its own item; a larger batch only means fewer, bigger deliveries. Lofty also describes this number as the most notifications per 30 minutes: keep it at 100 or more unless you need small deliveries.',
					},
					{
						displayName: 'Delivery Scope',
						name: 'permissionMode',
						type: 'options',
						options: [
							{
								name: 'Assigned and Owned Leads',
								value: 1,
								description:
									"Also events about leads the user owns or manages through their team or office, even when assigned to someone else. Hidden leads still only reach the people who manage them.",
							},
							{
								name: 'Assigned Leads (Default)',
								value: 0,
								description:
									"Events about leads assigned to the credential's user. A Company Owner's or Admin's credential gets all the team's leads. Hidden leads only reach their assigned agent.",
							},
						],
						default: 0,
						description: "Which leads' events Lofty sends to this workflow. For the whole team, use a Company Owner's or Admin's credential.",
					},
					{
						displayName: 'Only Actions',
						name: 'actions',
						type: 'multiOptions',
						options: [
							{ name: 'Created', value: 'created' },
							{ name: 'Deleted', value: 'deleted' },
							{ name: 'Finished', value: 'finished', description: 'Tasks and appointments marked done' },
							{ name: 'Updated', value: 'updated' },
						],
						default: [],
						description:
							'Start the workflow only for these kinds of change. Leave empty for all. Listing alerts have no action and always pass.',
					},
					...FILTER_OPTIONS,
				],
			},
		],
	};

	methods = triggerMethods;

	webhookMethods = lifecycle(DEFAULT_TIMING);

	webhook = receiver(DEFAULT_TIMING);

	/**
	 * The first step of every execution the trigger starts: an event already run is dropped (runOnce.ts). Should that
	 * fail, with On Error set to continue each event goes on with the error added, paired with its item: none is lost.
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		try {
			return await runOnce(this);
		} catch (error) {
			if (!this.continueOnFail()) throw new NodeOperationError(this.getNode(), error as Error);
			return [this.getInputData().map((item, index) => ({ json: { ...item.json, error: (error as Error).message }, pairedItem: { item: index } }))];
		}
	}

	/** n8n builds it without arguments; tests pass shorter time limits here (the methods run with n8n's context as `this`). */
	constructor(timingOverrides: Partial<TriggerTiming> = {}) {
		const timing: TriggerTiming = { ...DEFAULT_TIMING, ...timingOverrides };
		this.webhookMethods = lifecycle(timing);
		this.webhook = receiver(timing);
	}
}

/** The canvas subtitle: the names of the chosen events in the order chosen, e.g. "Call, Pipeline Change". */
export function eventsSubtitle(): string {
	const names = Object.fromEntries(EVENT_LISTS.map((e) => [String(e.value), e.name]));
	return `={{ ($parameter["events"] || []).map((e) => (${JSON.stringify(names)})[String(e)] || e).join(", ") }}`;
}

/**
 * What the trigger's panel says before a test (n8n's words otherwise: "Pull in events from Lofty"). While it listens,
 * n8n shows its own fixed text ("Go to Lofty and create an event"), which a node cannot change.
 */
export const TRIGGER_PANEL = {
	header: 'Test with a real Lofty event',
	executionsHelp: {
		inactive:
			'<b>While building:</b> click <b>Execute step</b>. n8n subscribes in Lofty and waits for the first event of the chosen types: make one in Lofty (change a lead\'s stage, call or text a lead, add a lead; in the try-out: on the sandbox page <i>Make events</i>, printed by <code>npm start</code>). It runs the workflow once, then the test subscription is removed.<br /><br /><b>In use:</b> <a data-key="activate">publish the workflow</a>. Then every event of the chosen types starts an execution, which you find in the <a data-key="executions">executions list</a>.',
		active:
			'<b>The workflow is published:</b> every Lofty event of the chosen types starts an execution, listed in the <a data-key="executions">executions list</a>. Make one in Lofty to see it (in the try-out: on the sandbox page <i>Make events</i>, printed by <code>npm start</code>).',
	},
	activationHint: {
		inactive: 'When the workflow is ready, <a data-key="activate">publish it</a>: Lofty then sends every event of the chosen types to it.',
		active: 'Published: Lofty sends every event of the chosen types to this workflow.',
	},
};

/** n8n's checkExists, create and delete of the trigger's subscriptions, with the given time limits. */
function lifecycle(timing: TriggerTiming) {
	return {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				trackHook(this);
				const exists = await subscriptionsExist(this, webhookUrlOf(this), settingsOf(this), timing);
				if (exists) startCatchUp(this);
				return exists;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				trackHook(this);
				const created = await createSubscriptions(this, webhookUrlOf(this), settingsOf(this), timing);
				startCatchUp(this);
				return created;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				trackHook(this);
				noteStopped(this.getWorkflowStaticData('node'), Date.now());
				return await deleteSubscriptions(this, webhookUrlOf(this), timing);
			},
		},
	};
}

/** n8n saves a hook's copy of the static data whole when it succeeds: it gets the marks confirmed meanwhile (dedupe.ts). */
function trackHook(ctx: IHookFunctions): void {
	const staticData = ctx.getWorkflowStaticData('node');
	const test = ctx.getMode() === 'manual' || ctx.getActivationMode() === 'manual';
	track(eventScope(ctx.getNode(), acceptedSecrets(staticData)[0], test), staticData, undefined);
	// executions ask the production webhook which of their events already ran (runOnce.ts)
	if (!test) noteLiveUrl(staticData, webhookUrlOf(ctx));
}

/**
 * An activation (n8n start, publish, re-publish; not a test): what the trigger owes since it last listened
 * (catchUpState.ts) is read back by a request to its own webhook, once n8n serves it (catchUpRequest.ts says why).
 */
function startCatchUp(ctx: IHookFunctions): void {
	if (ctx.getMode() === 'manual' || ctx.getActivationMode() === 'manual') return;
	const staticData = ctx.getWorkflowStaticData('node');
	const webhookUrl = webhookUrlOf(ctx);
	firstInProcess(webhookUrl);
	const owed = oweOnActivation(staticData, chosenLists(ctx), Date.now());
	if (Object.keys(owed).length > 0 && typeof staticData.secret === 'string') requestCatchUp(ctx, webhookUrl, staticData.secret, owed);
}

function receiver(timing: TriggerTiming) {
	return async function (this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receive(this, timing);
	};
}
