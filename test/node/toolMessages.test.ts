/**
 * What a model reads when the Lofty node fails as an AI agent's tool (model/toolMessages.ts): for every kind of
 * error the node raises, the real node against the sandbox, once as the tool variant n8n makes (`loftyTool`) and once
 * as the node a person runs in the editor. From n8n 2.25 only the error's message reaches the model, so the message
 * itself must say the cause and the next step; the editor keeps its message and description.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { IConnections, IDataObject, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, getParentNodes, mapConnectionsByDestination } from 'n8n-workflow';

import { SEED_IDS } from '../../sandbox';
import { type Credential, type Params, createContext } from '../harness/context';
import { apiKeyCredential, byId, node, useSandbox } from '../harness/sandbox';
import { observe } from '../secrets/observe';
import { MAX_TOOL_MESSAGE, runsAsTool, toolErrorKind } from '../../nodes/Lofty/model/toolMessages';
import { findOperation } from '../../nodes/Lofty/resources';
import { HUNG_MS, STEP_BUDGET_MS } from '../harness/budgets';

/** How a message names another tool when n8n does not say which tools the model has: by what it does. */
const toolOf = (resource: string, operation: string) => {
	const action = findOperation(resource, operation)!.op.action;
	return `a tool that can ${action.charAt(0).toLowerCase()}${action.slice(1)}`;
};
const LEAD_SEARCH = toolOf('lead', 'getAll');

const sandbox = useSandbox();

type Failure = Error & { description?: string; httpCode?: string; context?: IDataObject };

/** Runs the node as the editor does, or as the tool n8n generates (its type ends in Tool), with the tool's parameters. */
/** `saved`: the tool's parameters as stored in the workflow (with `$fromAI`), where `params` are their values in this run. */
async function attempt(params: Params, asTool: boolean, credential?: Credential, continueOnFail = false, saved: Params = params, typeVersion?: number): Promise<{ error?: Failure; items?: INodeExecutionData[] }> {
	const context = createContext(node, { params: { authentication: 'apiKey', ...params }, credential: credential ?? apiKeyCredential(sandbox()), continueOnFail, typeVersion });
	const plain = context.getNode();
	const tool = { ...plain, type: 'n8n-nodes-lofty.loftyTool', parameters: saved as IDataObject };
	(context as unknown as { getNode: () => unknown }).getNode = () => (asTool ? tool : plain);
	try {
		const [items] = (await node.execute!.call(context)) as INodeExecutionData[][];
		observe('Lofty output', items);
		return { items };
	} catch (error) {
		observe('Lofty error', error);
		return { error: error as Failure };
	}
}

async function both(params: Params, credential?: () => Credential, saved: Params = params): Promise<{ editor: Failure; tool: Failure }> {
	const editor = await attempt(params, false, credential?.());
	sandbox().reset();
	const tool = await attempt(params, true, credential?.(), false, saved);
	if (!editor.error || !tool.error) throw new Error(`expected both runs to fail: ${JSON.stringify({ editor: editor.error?.message, tool: tool.error?.message })}`);
	return { editor: editor.error, tool: tool.error };
}

const taskCreate = (extra: Params = {}): Params => ({
	resource: 'task',
	operation: 'create',
	leadId: { __rl: true, mode: 'id', value: "={{ $fromAI('leadId', 'ID of the lead', 'string') }}" },
	type: 'Call',
	content: 'Call back',
	endAt: '2030-06-01T10:00:00-07:00',
	assignedRole: 'Agent',
	...extra,
});

/**
 * The text an MCP client reads for a tool's error, made as n8n 2.41.1 makes it: the tool invocation wraps the error
 * (`new NodeOperationError(node, error)`, n8n-core get-input-connection-data.js), adds "\n\nDetails: <description>"
 * when the message does not contain the description, and the MCP Server Trigger answers `${name}: ${message}`
 * (McpTrigger/protocol/MessageFormatter.js formatError).
 */
function mcpText(error: Failure): string {
	const wrapped = new NodeOperationError({ name: 'Lofty', type: 'n8n-nodes-lofty.loftyTool' } as INode, error);
	if (wrapped.description && !wrapped.message.includes(wrapped.description)) wrapped.message = `${wrapped.message}\n\nDetails: ${wrapped.description}`;
	return `${wrapped.name}: ${wrapped.message}`;
}

/** What the model reads: the message (the AI Agent's `{error}` from n8n 2.25, the failed item's `error` with On Error). */
const seen = (error: Failure): string => error.message;

/** Every tool message is short, says what happened and what to do, once; none is the editor's message unchanged. */
function expectActionable(tool: Failure, editor: Failure): void {
	expect(seen(tool).length).toBeLessThanOrEqual(MAX_TOOL_MESSAGE);
	expect(seen(tool)).not.toBe(editor.message);
	// An MCP client reads "Lofty: " and the message: not n8n's class name, no "Details:" repeating what it says.
	expect(mcpText(tool)).toBe(`Lofty: ${seen(tool)}`);
	expect(tool.description ?? null).toBeNull();
}

describe('the tool variant is recognised by its node type', () => {
	it('loftyTool is a tool, lofty is not', () => {
		expect(runsAsTool({ type: 'n8n-nodes-lofty.loftyTool' })).toBe(true);
		expect(runsAsTool({ type: 'n8n-nodes-lofty.lofty' })).toBe(false);
		expect(runsAsTool({ type: 'CUSTOM.loftyTool' })).toBe(true);
	});
});

describe('the message a tool returns, for every kind of error', () => {
	it('validation (an ID): names the field, the input the model gave, the rule, an example and the search to use', async () => {
		// The model gave a name where the lead's ID belongs.
		const { editor, tool } = await both(taskCreate({ leadId: byId('Ada Lovelace') }), undefined, taskCreate());
		expect(editor.message).toMatch(/^Invalid value for "Lead": must be a Lofty ID/);
		expect(toolErrorKind(editor)).toBe('validation');
		expect(seen(tool)).toBe(
			'Invalid input: "Lead" (the tool\'s input "leadId") must be a Lofty ID (digits only), got "Ada Lovelace". Nothing was sent to Lofty. ' +
				`Call the tool again with a corrected value, for example "651095960136641" (digits only; find real IDs with ${LEAD_SEARCH}).`,
		);
		expect(seen(tool)).not.toMatch(/By URL|From List/);
		expectActionable(tool, editor);
	});

	it('validation (a date without offset): refused as a tool with an example; the editor reads it in the workflow zone', async () => {
		const params = taskCreate({ leadId: byId(SEED_IDS.bigLeadId), endAt: '2030-06-01T10:00:00' });
		const editor = await attempt(params, false);
		expect(editor.error).toBeUndefined();
		const { error } = await attempt({ ...params, endAt: '2030-06-01T10:00:00' }, true);
		expect(seen(error!)).toMatch(/^Invalid input: "Due At" has no UTC offset \("2030-06-01T10:00:00"\)/);
		// The zone the editor reads it in (the lead's agent, the Lofty user, works in Los Angeles) and its offset that day.
		expect(seen(error!)).toContain("e.g. 2030-06-01T10:00:00-07:00 for 10:00 in America/Los_Angeles, where the lead's agent works (UTC-07:00 on 2030-06-01)");
		expect(seen(error!)).toMatch(/Nothing was sent to Lofty/);
		// With the tool's Time Zone set, the time is in that zone: accepted.
		const zoned = await attempt({ ...params, additionalFields: { timeZoneCode: 'America/Los_Angeles' } }, true);
		expect(zoned.error).toBeUndefined();
		expect(zoned.items?.[0].json.taskId).toMatch(/^\d+$/);
	});

	it("a time without offset as a tool names the Lofty user's zone and its offset on that date, not a fixed one (issue 39)", async () => {
		const owner = sandbox().store.getUser(BigInt(SEED_IDS.demoUserId))!;
		owner.timeZoneId = 'America/New_York';
		const winter = (await attempt(taskCreate({ leadId: byId(SEED_IDS.bigLeadId), endAt: '2030-01-15T09:00:00' }), true)).error!;
		expect(seen(winter)).toContain("e.g. 2030-01-15T09:00:00-05:00 for 09:00 in America/New_York, where the lead's agent works (UTC-05:00 on 2030-01-15)");
		const summer = (await attempt(taskCreate({ leadId: byId(SEED_IDS.bigLeadId), endAt: '2030-06-01 09:00' }), true)).error!;
		expect(seen(summer)).toContain("e.g. 2030-06-01T09:00:00-04:00 for 09:00 in America/New_York, where the lead's agent works (UTC-04:00 on 2030-06-01)");
		expect(seen(summer)).not.toMatch(/-07:00/);
		expect(sandbox().requests.filter((r) => r.method !== 'GET')).toHaveLength(0);
	});

	it('not found: says which operation finds the record, and not to guess IDs', async () => {
		const { editor, tool } = await both({ resource: 'lead', operation: 'get', leadId: byId('123456789') });
		expect(editor.message).toMatch(/^Lofty error \(HTTP 404 LEAD_NOT_EXIST\)/);
		expect(toolErrorKind(editor)).toBe('notFound');
		expect(seen(tool)).toMatch(/^Not found: Lofty has no lead with that ID that this credential can see \(HTTP 404 LEAD_NOT_EXIST/);
		expect(seen(tool)).toContain(`Do not guess IDs: find its ID first with ${LEAD_SEARCH}, then call this tool again with it.`);
		expect(LEAD_SEARCH).toBe('a tool that can search leads by email, phone, name or other filters');
		expectActionable(tool, editor);
	});

	it('permission: says calling again will not help and to tell the user', async () => {
		const { editor, tool } = await both(taskCreate({ leadId: byId(SEED_IDS.notSharedLeadId) }));
		expect(toolErrorKind(editor)).toBe('permission');
		expect(seen(tool)).toMatch(/^Not allowed: the Lofty user of this credential lacks the permission/);
		expect(seen(tool)).toMatch(/Calling again will not help; nothing was changed\. Tell the user/);
		expectActionable(tool, editor);
	});

	it('scope (OAuth app not granted the endpoint): names the scope and the fix', async () => {
		const credential = () => ({ type: 'loftyOAuth2Api', data: { baseUrl: sandbox().url, oauthTokenData: { access_token: sandbox().issueToken({ scopes: ['GET /v1.0/me'] }) } } }) as Credential;
		const { editor, tool } = await both({ authentication: 'oAuth2', resource: 'lead', operation: 'get', leadId: byId(SEED_IDS.bigLeadId) }, credential);
		expect(editor.message).toMatch(/HTTP 403 200100/);
		expect(toolErrorKind(editor)).toBe('permission');
		expect(seen(tool)).toMatch(/not granted this endpoint's scope .*HTTP 403 200100/);
		expect(seen(tool)).toMatch(/add the scope to the app in Lofty's developer portal and reconnect the credential/);
	});

	it('credential rejected: not the input, tell the user', async () => {
		const credential = () => ({ type: 'loftyApi', data: { apiKey: 'wrong-key', baseUrl: sandbox().url } }) as Credential;
		const { editor, tool } = await both({ resource: 'lead', operation: 'get', leadId: byId(SEED_IDS.bigLeadId) }, credential);
		expect(toolErrorKind(editor)).toBe('credential');
		expect(seen(tool)).toMatch(/^Credential rejected: Lofty did not accept the credential of this tool \(HTTP 401/);
		expect(seen(tool)).toMatch(/Calling again will not help and nothing was changed: tell the user to fix the Lofty credential in n8n/);
		expectActionable(tool, editor);
	});

	it('rate limit: wait about a minute, do not loop', async () => {
		sandbox().setRateLimit({ perWindow: 0, windowMs: 300 });
		const editor = await attempt({ resource: 'lead', operation: 'get', leadId: byId(SEED_IDS.bigLeadId) }, false);
		sandbox().reset();
		sandbox().setRateLimit({ perWindow: 0, windowMs: 300 });
		const tool = await attempt({ resource: 'lead', operation: 'get', leadId: byId(SEED_IDS.bigLeadId) }, true);
		expect(toolErrorKind(editor.error!)).toBe('rateLimit');
		expect(seen(tool.error!)).toMatch(/^Rate limit: Lofty's rate limit is reached \(HTTP 429/);
		expect(seen(tool.error!)).toMatch(/Do not call Lofty tools again right away: wait about a minute/);
		expectActionable(tool.error!, editor.error!);
	});

	it('a write without an answer: may have been applied, check before calling again', async () => {
		const params = taskCreate({ leadId: byId(SEED_IDS.bigLeadId), requestOptions: { timeout: STEP_BUDGET_MS } });
		sandbox().faults.inject({ kind: 'slow', delayMs: HUNG_MS, match: { method: 'POST', path: '/v2.0/tasks' } });
		const editor = await attempt(params, false);
		sandbox().reset();
		sandbox().faults.inject({ kind: 'slow', delayMs: HUNG_MS, match: { method: 'POST', path: '/v2.0/tasks' } });
		const tool = await attempt(params, true);
		expect(toolErrorKind(editor.error!)).toBe('writeUncertain');
		expect(seen(tool.error!)).toMatch(/^Outcome unknown: Lofty did not answer POST \/v2\.0\/tasks within 4 s: the change may or may not have been applied\. Calling this tool again may make a duplicate/);
		expect(seen(tool.error!)).toContain(`Calling this tool again may make a duplicate: first check whether the change is there (with ${toolOf('task', 'getAll')})`);
		expectActionable(tool.error!, editor.error!);
		// With On Error set to continue, the failed item carries the same message (what older n8n hands the model).
		sandbox().reset();
		sandbox().faults.inject({ kind: 'slow', delayMs: HUNG_MS, match: { method: 'POST', path: '/v2.0/tasks' } });
		const continued = await attempt(params, true, undefined, true);
		expect(continued.items?.[0].json).toMatchObject({ error: seen(tool.error!), writeUncertain: true });
	});

	it("Lofty's internal error on a write: may or may not have been applied, check before calling again", async () => {
		const params = taskCreate({ leadId: byId(SEED_IDS.bigLeadId) });
		sandbox().faults.inject({ kind: '500', match: { method: 'POST', path: '/v2.0/tasks' } });
		const editor = await attempt(params, false);
		sandbox().reset();
		sandbox().faults.inject({ kind: '500', match: { method: 'POST', path: '/v2.0/tasks' } });
		const tool = await attempt(params, true);
		expect(toolErrorKind(editor.error!)).toBe('writeUncertain');
		expect(editor.error!.description).toMatch(/may or may not have been applied\. It was not sent again/);
		expect(seen(tool.error!)).toMatch(/^Outcome unknown: Lofty error \(HTTP 500 20005\): .*: the change may or may not have been applied\. Calling this tool again may make a duplicate/);
		expectActionable(tool.error!, editor.error!);
	});

	it.each([
		['Create', { operation: 'create', firstName: 'Nadia', additionalFields: { emails: ['nadia@example.com'] } }, 'email "nadia@example.com"'],
		['Create or Update', { operation: 'upsert', firstName: 'Nadia', phone: '(415) 555-0144' }, 'phone "+14155550144"'],
		['Create (name only)', { operation: 'create', firstName: 'Nadia', additionalFields: { lastName: 'Noor' } }, 'name "Nadia Noor"'],
	])('a lead %s without an answer: names the lead search and what to search by, never a Get by ID', async (_, params, by) => {
		sandbox().faults.inject({ kind: 'drop', match: { method: 'POST', path: '/v1.0/leads' } });
		const tool = await attempt({ resource: 'lead', ...params }, true);
		expect(toolErrorKind(tool.error!)).toBe('writeUncertain');
		expect(seen(tool.error!)).toContain(`First search for it (${by}) with ${LEAD_SEARCH}; use the lead found, and create it only if there is none.`);
		expect(seen(tool.error!)).not.toMatch(/by ID/);
		expect(seen(tool.error!).length).toBeLessThanOrEqual(MAX_TOOL_MESSAGE);
	});

	it('another refusal by Lofty: what Lofty said, the hint, and to correct and call again', async () => {
		const params = taskCreate({ leadId: byId(SEED_IDS.bigLeadId) });
		const fault = { kind: '500' as const, status: 400, code: 20012, message: 'INVALID_PARAMETER: content is too long', match: { method: 'POST', path: '/v2.0/tasks' } };
		sandbox().faults.inject(fault);
		const editor = await attempt(params, false);
		sandbox().reset();
		sandbox().faults.inject(fault);
		const tool = await attempt(params, true);
		expect(toolErrorKind(editor.error!)).toBe('refused');
		expect(seen(tool.error!)).toMatch(/^Refused: Lofty did not accept the request \(HTTP 400 20012: INVALID_PARAMETER: content is too long\), so nothing was changed\./);
		expect(seen(tool.error!)).toMatch(/Correct what the message names and call the tool again\.$/);
		expectActionable(tool.error!, editor.error!);
	});

	it('Lofty unreachable: a setup problem, calling again will not help', async () => {
		const credential = () => ({ type: 'loftyApi', data: { apiKey: 'k', baseUrl: 'http://127.0.0.1:9' } }) as Credential;
		const { editor, tool } = await both({ resource: 'lead', operation: 'get', leadId: byId(SEED_IDS.bigLeadId) }, credential);
		expect(toolErrorKind(editor)).toBe('unreachable');
		expect(seen(tool)).toMatch(/^Lofty unreachable: Could not reach Lofty at http:\/\/127\.0\.0\.1:9\/v1\.0\/leads\/\d+\. This is a setup problem of n8n or the credential, not of the input: calling again will not help\. Tell the user\./);
		expectActionable(tool, editor);
	});

	it('any other error: its message and description together (a model never sees the description otherwise)', async () => {
		const { editor, tool } = await both({ resource: 'lead', operation: 'noSuchOperation' });
		expect(toolErrorKind(editor)).toBe('other');
		expect(seen(tool)).toBe(`Failed: ${editor.message}.`);
	});
});

describe('what a model reads of a tool (issue 46)', () => {
	it('an MCP client reads "Lofty: " and the message, not n8n\'s class name, and nothing twice (no "Details:" after it)', async () => {
		const { tool } = await both(taskCreate({ leadId: byId('Ada Lovelace') }), undefined, taskCreate());
		expect(mcpText(tool)).toMatch(/^Lofty: Invalid input: "Lead" \(the tool's input "leadId"\) must be a Lofty ID/);
		expect(mcpText(tool)).not.toMatch(/NodeOperationError|NodeApiError|Details:/);
		expect(mcpText(tool).match(/Nothing was sent to Lofty/g)).toHaveLength(1);
	});

	it.each([['tomorrow 9am'], ['next Tuesday at 10'], ['9am']])('"%s" is refused as not a date, not as a time without offset, before anything is sent', async (when) => {
		const params = taskCreate({ leadId: byId(SEED_IDS.bigLeadId), endAt: when });
		const { error } = await attempt(params, true);
		expect(seen(error!)).toMatch(new RegExp(`^Invalid input: "Due At" is not a date and time \\("${when}"\\): as a tool, work out the date yourself`));
		expect(seen(error!)).not.toMatch(/no UTC offset/);
		// With the tool's Time Zone set too.
		const zoned = await attempt({ ...params, additionalFields: { timeZoneCode: 'America/Chicago' } }, true);
		expect(seen(zoned.error!)).toMatch(/^Invalid input: "Due At" is not a date and time/);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('a record not found names the search tool as the MCP client lists it ("Search_Leads"), from the workflow\'s tools', async () => {
		const workflow = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'examples', 'lofty-mcp-server.json'), 'utf8')) as { nodes: INode[]; connections: IConnections };
		const byDestination = mapConnectionsByDestination(workflow.connections);
		const server = workflow.nodes.find((n) => n.type.endsWith('mcpTrigger'))!;
		const getLead = workflow.nodes.find((n) => n.name === 'Get Lead')!;
		const context = createContext(node, { params: { authentication: 'apiKey', resource: 'lead', operation: 'get', leadId: byId('123456789'), output: 'raw' }, credential: apiKeyCredential(sandbox()) });
		// What n8n-core gives a tool's context: the execute data of the node it serves, and its parents by connection type.
		Object.assign(context, {
			getNode: () => getLead,
			getExecuteData: () => ({ node: server, data: { main: [[{ json: {} }]] }, source: null }),
			getParentNodes: (name: string, options?: { connectionType?: string; depth?: number; includeNodeParameters?: boolean }) =>
				getParentNodes(byDestination, name, options?.connectionType as 'ai_tool', options?.depth).map((n) => {
					const found = workflow.nodes.find((w) => w.name === n)!;
					return { name: found.name, type: found.type, typeVersion: found.typeVersion, disabled: found.disabled ?? false, ...(options?.includeNodeParameters ? { parameters: found.parameters } : {}) };
				}),
		});
		const error = await (node.execute!.call(context) as Promise<unknown>).then(() => undefined, (e: Failure) => e);
		expect(seen(error!)).toMatch(/^Not found: Lofty has no lead with that ID/);
		expect(seen(error!)).toContain('Do not guess IDs: find its ID first with the tool "Search_Leads", then call this tool again with it.');
	});

	it('tags reach a model by name (Simplified and Selected Fields); the editor and Raw keep Lofty\'s tag records', async () => {
		const lead = sandbox().store.getLead(SEED_IDS.bigLeadId)!;
		lead.tags = [sandbox().store.makeTag('VIP', BigInt(SEED_IDS.demoUserId)), sandbox().store.makeTag('Buyer', BigInt(SEED_IDS.demoUserId))];
		const get = (extra: Params) => ({ resource: 'lead', operation: 'get', leadId: byId(SEED_IDS.bigLeadId), ...extra });
		const run = async (extra: Params, asTool: boolean) => await attempt(get(extra), asTool, undefined, false, get(extra), 1.4);
		const simplified = await run({}, true);
		expect(simplified.items![0].json.tags).toEqual(['VIP', 'Buyer']);
		const selected = await run({ output: 'selected', outputFields: 'firstName,tags' }, true);
		expect(selected.items![0].json).toMatchObject({ firstName: expect.any(String), tags: ['VIP', 'Buyer'] });
		const editor = await run({}, false);
		expect(editor.items![0].json.tags).toEqual([expect.objectContaining({ tagName: 'VIP', tagId: expect.any(String) }), expect.objectContaining({ tagName: 'Buyer' })]);
		const raw = await run({ output: 'raw' }, true);
		expect(raw.items![0].json.tags).toEqual(editor.items![0].json.tags);
	});
});
