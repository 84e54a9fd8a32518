import { timingSafeEqual } from 'crypto';
import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { parseJson } from '../Lofty/transport/json';
import { remember, seenDelivery, seenEvent, sharedDedupeState } from './dedupe';
import { fetchFullRecords } from './enrich';
import { ACTIONS, EVENT_LISTS } from './events';
import { parsePayload } from './parse';
import type { TriggerSettings } from './subscriptions';
import { createSubscriptions, deleteSubscriptions, subscriptionsExist } from './subscriptions';

const MAX_BATCH = 5000;

function settingsOf(ctx: IHookFunctions): TriggerSettings {
	const raw = ctx.getNodeParameter('events', []) as Array<number | string>;
	const listIds = [...new Set(raw.map(Number).filter((n) => Number.isInteger(n) && n >= 1 && n <= 12))].sort((a, b) => a - b);
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

function webhookUrlOf(ctx: IHookFunctions): string {
	const url = ctx.getNodeWebhookUrl('default');
	if (!url) throw new NodeOperationError(ctx.getNode(), 'n8n did not give this node a webhook URL');
	return url;
}

function tokenMatches(given: unknown, secret: string): boolean {
	if (typeof given !== 'string') return false;
	const a = Buffer.from(given);
	const b = Buffer.from(secret);
	return a.length === b.length && timingSafeEqual(a, b);
}

/** The body, parsed without rounding 64-bit ids when n8n kept the raw bytes. */
function readBody(ctx: IWebhookFunctions): unknown {
	const raw = (ctx.getRequestObject() as unknown as { rawBody?: unknown }).rawBody;
	if (Buffer.isBuffer(raw) || typeof raw === 'string') {
		const text = raw.toString();
		return text.trim() === '' ? undefined : parseJson(text, { idsAsStrings: true });
	}
	return ctx.getBodyData();
}

function headerValue(ctx: IWebhookFunctions, name: string): string | undefined {
	const value = ctx.getHeaderData()[name.toLowerCase()];
	const first = Array.isArray(value) ? value[0] : value;
	return typeof first === 'string' && first.trim() !== '' ? first.trim() : undefined;
}

export class LoftyTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Lofty Trigger',
		name: 'loftyTrigger',
		icon: { light: 'file:../../icons/lofty.svg', dark: 'file:../../icons/lofty.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{"Events: " + ($parameter["events"] || []).length}}',
		// n8n shows this on the search entry it shares with the Lofty node, so the wording fits both.
		description: 'Work with and react to leads, tasks, transactions and more in the Lofty real-estate CRM',
		defaults: { name: 'Lofty Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'loftyApi', required: true, displayOptions: { show: { authentication: ['apiKey'] } } },
			{ name: 'loftyOAuth2Api', required: true, displayOptions: { show: { authentication: ['oAuth2'] } } },
		],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
		properties: [
			{
				displayName: 'Authentication',
				name: 'authentication',
				type: 'options',
				options: [
					{ name: 'API Key', value: 'apiKey' },
					{ name: 'OAuth2', value: 'oAuth2' },
				],
				default: 'apiKey',
			},
			{
				displayName:
					'Lofty only sends events to HTTPS addresses: this n8n must be reachable from the internet over HTTPS, with the WEBHOOK_URL environment variable set to that https:// address.',
				name: 'httpsNotice',
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
				description: 'The Lofty events that start this workflow. Each chosen event type is one webhook subscription in Lofty.',
			},
			{
				displayName: 'Fetch Full Record',
				name: 'fetchFullRecord',
				type: 'boolean',
				default: false,
				description:
					'Whether to add the full record (lead, transaction, note, task, appointment, agent, call, email or text) to each item as "record". Lofty\'s events only carry IDs; this costs one request per record. A failed lookup sets "recordError" on that item and the others still run.',
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
							'Most events Lofty puts in one delivery (1 to 5000). Every event still becomes its own item; a larger batch only means fewer, bigger deliveries.',
					},
					{
						displayName: 'Delivery Scope',
						name: 'permissionMode',
						type: 'options',
						options: [
							{
								name: 'Assigned Leads (Default)',
								value: 0,
								description:
									'Events about leads assigned to the user of the credential. Company owners and admins get all leads. Hidden leads only reach their assigned agent.',
							},
							{
								name: 'Assigned and Owned Leads',
								value: 1,
								description:
									"Also events about leads the user owns or manages through their team or office, even when assigned to someone else. Hidden leads still only reach the people who manage them.",
							},
						],
						default: 0,
						description: 'Which leads\' events Lofty sends to this workflow',
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
				],
			},
		],
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await subscriptionsExist(this, webhookUrlOf(this), settingsOf(this));
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await createSubscriptions(this, webhookUrlOf(this), settingsOf(this));
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await deleteSubscriptions(this, webhookUrlOf(this));
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const res = this.getResponseObject();
		const staticData = this.getWorkflowStaticData('node');
		const secret = typeof staticData.secret === 'string' ? staticData.secret : undefined;
		if (!secret || !tokenMatches((this.getQueryData() as IDataObject).token, secret)) {
			res.status(401).json({ message: 'Unauthorized: this address only accepts deliveries of its own Lofty subscriptions' });
			return { noWebhookResponse: true };
		}

		let body: unknown;
		try {
			body = readBody(this);
		} catch {
			res.status(400).json({ message: 'The body is not valid JSON' });
			return { noWebhookResponse: true };
		}
		const deliveryId = headerValue(this, 'service-webhook-id');
		const parsed = parsePayload(body, deliveryId);
		if (parsed.kind === 'invalid') {
			res.status(400).json({ message: parsed.reason });
			return { noWebhookResponse: true };
		}
		// A ping must get a 2xx, or Lofty never re-enables a disabled subscription; it starts nothing.
		if (parsed.kind === 'ping') return { webhookResponse: { received: true } };

		// Answer at once; the lookups of "Fetch Full Record" happen after Lofty has its 2xx.
		res.status(200).json({ received: parsed.events.length });

		const now = Date.now();
		// kept in this process too: concurrent deliveries each save their own copy of the static data
		const state = sharedDedupeState(`${this.getNodeWebhookUrl('default') ?? `${this.getWorkflow().id}/${this.getNode().name}`}|${secret}`, staticData);
		if (seenDelivery(state, deliveryId, now)) return { noWebhookResponse: true };
		const keys = new Set<string>();
		const fresh = parsed.events.filter((event) => {
			if (keys.has(event.dedupeKey) || seenEvent(state, event.dedupeKey, now)) return false;
			keys.add(event.dedupeKey);
			return true;
		});
		remember(state, deliveryId, [...keys], now);

		const options = this.getNodeParameter('options', {}) as IDataObject;
		const only = ((options.actions as string[] | undefined) ?? []).filter((a) => (ACTIONS as readonly string[]).includes(a));
		const wanted = fresh.filter((event) => only.length === 0 || !(ACTIONS as readonly string[]).includes(event.action) || only.includes(event.action));
		if (wanted.length === 0) return { noWebhookResponse: true };

		const items = wanted.map((event) => event.json);
		if (this.getNodeParameter('fetchFullRecord', false) as boolean) await fetchFullRecords(this, items);
		return { noWebhookResponse: true, workflowData: [items.map((json) => ({ json }))] };
	}
}
