import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { AUTHENTICATION_PROPERTY_UNTIL_CHOSEN, LOFTY_CREDENTIALS } from './transport/authentication';
import { LOFTY_BUILDER_HINT } from './model/builderHints';
import { describeResources, subtitleExpression } from './model/describe';
import { binaryOf } from './model/download';
import { DEFAULT_PARALLEL_REQUESTS, MAX_PARALLEL_REQUESTS, executeOperation, parallelRequests } from './model/execute';
import { NEWEST_VERSION, NODE_VERSIONS } from './model/versions';
import { forEachInParallel, limitInFlight } from './transport/inFlight';
import { failRun, stopReason, wasStopped } from './transport/itemGate';
import { listSearch, loadOptions, resourceMapping } from './methods';
import { findOperation, RESOURCES } from './resources';
import { givenValue } from './model/collections';
import { InvalidValue, invalid } from './model/params';
import { type NodeErrorLike, notDateRule, offsetRule, offsetlessDate, runsAsTool, toolMessage } from './model/toolMessages';
import { peerTools } from './model/toolPeers';
import { agentReading } from './model/assigneeZone';
import type { OperationDef, ParamDef } from './model/types';

/**
 * A tool's error: the message a model can act on (model/toolMessages.ts), which starts with its kind ("Invalid input:
 * ..."); named "Lofty", not after n8n's error class (n8n's MCP Server Trigger answers `<name>: <message>`); and no
 * description (n8n would add it after "Details:", repeating what the message says). What else the node's error
 * carried (whether a write may have been applied) stays.
 */
function forTool(ctx: IExecuteFunctions, caught: unknown, itemIndex: number, found: ReturnType<typeof findOperation>): NodeOperationError {
	const error =
		caught instanceof NodeApiError || caught instanceof NodeOperationError ? caught : new NodeOperationError(ctx.getNode(), caught as Error, { itemIndex });
	const message = toolMessage(error as NodeErrorLike, { node: ctx.getNode(), op: found?.op, resource: found?.resource, resources: RESOURCES, peers: peerTools(ctx, RESOURCES) });
	const tool = new NodeOperationError(ctx.getNode(), 'Lofty', { itemIndex });
	// Set after construction: n8n's constructor would swap a message naming a connection error for its own words.
	tool.message = message;
	// n8n defines `name` as a writable own property (ExecutionBaseError).
	Object.defineProperty(tool, 'name', { value: 'Lofty', writable: true, enumerable: true, configurable: true });
	tool.description = undefined;
	tool.context = { ...error.context, itemIndex };
	return tool;
}

/**
 * As a tool, a date and time without a UTC offset is refused before anything is sent (model/toolMessages.ts), naming
 * the zone the editor would read it in (the Lofty user's, or the assignee's: model/assigneeZone.ts) and its offset on
 * that date. Only a refused item waits for the zone, so other items take their turns as they start.
 */
async function refuseOffsetlessDate(ctx: IExecuteFunctions, op: OperationDef, itemIndex: number, refused: { field: string; text: string; notDate?: true }): Promise<never> {
	if (refused.notDate) throw invalid(ctx, itemIndex, new InvalidValue(refused.field, notDateRule(refused.text)));
	let zone: string | undefined;
	let whose: string | undefined;
	try {
		const reading = await agentReading(ctx, op, itemIndex);
		zone = reading.zone;
		const assignee = reading.about?.assignee as { role?: string } | undefined;
		whose = reading.from === 'assignee' && assignee?.role ? assignee.role : undefined;
	} catch {
		// Lofty did not give the user's zone: the rule asks for UTC.
	}
	throw invalid(ctx, itemIndex, new InvalidValue(refused.field, offsetRule(refused.text, zone, whose)));
}

/**
 * The fields of a failed item when "Continue On Fail" is on: what went wrong, in words and codes. As a tool, the words
 * are the tool's message (`tool`), and no description.
 */
function errorItem(error: Error & { description?: string | null; httpCode?: string | null; context?: IDataObject }, tool?: NodeOperationError): IDataObject {
	const json: IDataObject = { error: tool ? tool.message : error.message };
	if (error.description && !tool) json.description = error.description;
	if (error.httpCode) json.httpCode = error.httpCode;
	const code = (error as { errorResponse?: IDataObject }).errorResponse?.code;
	if (code !== undefined) json.code = code;
	// A write that timed out or lost its connection: it may or may not have been applied.
	if (error.context?.writeUncertain) json.writeUncertain = true;
	return json;
}

export class Lofty implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Lofty',
		name: 'lofty',
		icon: { light: 'file:../../icons/lofty.svg', dark: 'file:../../icons/lofty.dark.svg' },
		group: ['transform'],
		// What each version brought: model/versions.ts.
		version: NODE_VERSIONS,
		defaultVersion: NEWEST_VERSION,
		// Opened as is; from the codex link alone n8n would put its query after the #.
		documentationUrl: 'https://github.com/n8n-nodes-lofty/n8n-nodes-lofty#readme',
		subtitle: subtitleExpression(RESOURCES),
		description: 'Work with and react to leads, tasks, transactions and more in the Lofty real-estate CRM',
		defaults: { name: 'Lofty' },
		usableAsTool: true,
		builderHint: LOFTY_BUILDER_HINT,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: LOFTY_CREDENTIALS,
		properties: [
			AUTHENTICATION_PROPERTY_UNTIL_CHOSEN,
			...describeResources(RESOURCES),
			{
				displayName: 'Request Options',
				name: 'requestOptions',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				description: "How long to wait for Lofty, how often to retry reads and how many requests to keep in flight. The pace (requests per minute) follows Lofty's rate-limit headers and the credential's Rate Limit setting.",
				options: [
					{
						displayName: 'Parallel Requests',
						name: 'parallelRequests',
						type: 'number',
						typeOptions: { minValue: 1, maxValue: MAX_PARALLEL_REQUESTS },
						default: DEFAULT_PARALLEL_REQUESTS,
						description:
							"How many requests (items, or pages of a Return All) are on their way to Lofty at once, always within the credential's rate limit. Output keeps the item order. Items that write to the same record run one after another in item order, each with all its requests (reading current values, the write, reading the result). Without Continue On Fail, a failing item stops the later items that have not sent anything yet; set to 1 to send one item at a time.",
					},
					{
						displayName: 'Read Retries',
						name: 'readRetries',
						type: 'number',
						typeOptions: { minValue: 0, maxValue: 10 },
						default: 3,
						description:
							'How often a read (get, list, search) is tried again after a server error (5xx), a timeout or a lost connection, with growing pauses. Writes are never sent twice.',
					},
					{
						displayName: 'Timeout',
						name: 'timeout',
						type: 'number',
						typeOptions: { minValue: 1 },
						default: 30000,
						description:
							'Time in ms to wait for Lofty to answer. A write (create, update, delete) that gets no answer in time fails as "may or may not have been applied" and is not sent again.',
					},
				],
			},
		],
	};

	methods = { listSearch, loadOptions, resourceMapping };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const results: INodeExecutionData[][] = new Array(items.length);
		const parallel = parallelRequests(this);
		limitInFlight(this, parallel);
		// Items start in order, up to `parallel` at once; the output keeps the item order. Without Continue On Fail,
		// the first failure stops new items from starting, the ones that have sent a request finish, later ones still
		// waiting (for a turn, a slot, the pace) send nothing, and the failure of the lowest item index is the node's
		// error. Once the execution is cancelled, no item starts and no request is sent (transport/itemGate.ts).
		const asTool = runsAsTool(this.getNode());
		await forEachInParallel(items.length, parallel, async (itemIndex) => {
			if (stopReason(this, itemIndex)) return false;
			let found: ReturnType<typeof findOperation>;
			try {
				const resource = this.getNodeParameter('resource', itemIndex) as string;
				const operation = this.getNodeParameter('operation', itemIndex) as string;
				found = findOperation(resource, operation);
				if (!found) {
					throw new NodeOperationError(this.getNode(), `Unknown operation "${operation}" for resource "${resource}"`, { itemIndex });
				}
				const offsetless = asTool ? offsetlessDate(found.op, (p: ParamDef) => givenValue(this, found!.op, p, itemIndex)) : undefined;
				if (offsetless) await refuseOffsetlessDate(this, found.op, itemIndex, offsetless);
				const records = await executeOperation(this, found.op, itemIndex, found.resource.errorHints);
				results[itemIndex] = records.map((json) => {
					const binary = binaryOf.get(json);
					return binary ? { json, binary, pairedItem: { item: itemIndex } } : { json, pairedItem: { item: itemIndex } };
				});
				return true;
			} catch (caught) {
				// Kept from starting: no output, and not the run's failure.
				if (wasStopped(this, itemIndex)) return false;
				// As an AI agent's tool, the message itself carries the cause and the next step (model/toolMessages.ts).
				const tool = asTool ? forTool(this, caught, itemIndex, found) : undefined;
				const error = tool ?? caught;
				if (this.continueOnFail()) {
					results[itemIndex] = [{ json: errorItem(caught as Error, tool), pairedItem: { item: itemIndex } }];
					return true;
				}
				failRun(this, itemIndex);
				// The item's error names the item, whichever part of the work made it (n8n hands a node error given to
				// NodeApiError or NodeOperationError back as it is, so its item index is set here).
				if (error instanceof NodeApiError || error instanceof NodeOperationError) error.context.itemIndex ??= itemIndex;
				if (error instanceof NodeApiError) throw new NodeApiError(this.getNode(), error as unknown as JsonObject, { itemIndex });
				throw new NodeOperationError(this.getNode(), error as Error, { itemIndex });
			}
		});
		const output = results.flat();
		return [output];
	}
}
