/**
 * What a model reads when the Lofty node fails as an AI agent's tool (model/toolMessages.ts): for every kind of
 * error the node raises, the real node against the sandbox, once as the tool variant n8n makes (`loftyTool`) and once
 * as the node a person runs in the editor. From n8n 2.25 only the error's message reaches the model, so the message
 * itself must say the cause and the next step; the editor keeps its message and description.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { SEED_IDS } from '../../sandbox';
import { type Credential, type Params, createContext } from '../harness/context';
import { apiKeyCredential, byId, node, useSandbox } from '../harness/sandbox';
import { observe } from '../secrets/observe';
import { MAX_TOOL_MESSAGE, runsAsTool, toolErrorKind } from '../../nodes/Lofty/model/toolMessages';
import { findOperation } from '../../nodes/Lofty/resources';
import { HUNG_MS, STEP_BUDGET_MS } from '../harness/budgets';

/** What n8n calls a Lofty tool by default: the operation's action and " in Lofty". */
const toolOf = (resource: string, operation: string) => `${findOperation(resource, operation)!.op.action} in Lofty`;
const LEAD_SEARCH = toolOf('lead', 'getAll');

const sandbox = useSandbox();

type Failure = Error & { description?: string; httpCode?: string; context?: IDataObject };

/** Runs the node as the editor does, or as the tool n8n generates (its type ends in Tool), with the tool's parameters. */
/** `saved`: the tool's parameters as stored in the workflow (with `$fromAI`), where `params` are their values in this run. */
async function attempt(params: Params, asTool: boolean, credential?: Credential, continueOnFail = false, saved: Params = params): Promise<{ error?: Failure; items?: INodeExecutionData[] }> {
	const context = createContext(node, { params: { authentication: 'apiKey', ...params }, credential: credential ?? apiKeyCredential(sandbox()), continueOnFail });
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

/** Every tool message is short, says what happened and what to do; none is the editor's message unchanged. */
function expectActionable(tool: Failure, editor: Failure): void {
	expect(tool.message.length).toBeLessThanOrEqual(MAX_TOOL_MESSAGE);
	expect(tool.message).not.toBe(editor.message);
	// The editor keeps its description; the tool's error keeps it too (n8n shows it in the tool's log).
	expect(tool.description ?? null).toBe(editor.description ?? null);
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
		expect(tool.message).toBe(
			'Invalid input: "Lead" (the tool\'s input "leadId") must be a Lofty ID (digits only), got "Ada Lovelace". Nothing was sent to Lofty. ' +
				`Call the tool again with a corrected value, for example "651095960136641" (digits only; find real IDs with "${LEAD_SEARCH}").`,
		);
		expect(tool.message).not.toMatch(/By URL|From List/);
		expectActionable(tool, editor);
	});

	it('validation (a date without offset): refused as a tool with an example; the editor reads it in the workflow zone', async () => {
		const params = taskCreate({ leadId: byId(SEED_IDS.bigLeadId), endAt: '2030-06-01T10:00:00' });
		const editor = await attempt(params, false);
		expect(editor.error).toBeUndefined();
		const { error } = await attempt({ ...params, endAt: '2030-06-01T10:00:00' }, true);
		expect(error!.message).toMatch(/^Invalid input: "Due At" has no UTC offset \("2030-06-01T10:00:00"\)/);
		// The zone the editor reads it in (the lead's agent, the Lofty user, works in Los Angeles) and its offset that day.
		expect(error!.message).toContain("e.g. 2030-06-01T10:00:00-07:00 for 10:00 in America/Los_Angeles, where the lead's agent works (UTC-07:00 on 2030-06-01)");
		expect(error!.message).toMatch(/Nothing was sent to Lofty/);
		// With the tool's Time Zone set, the time is in that zone: accepted.
		const zoned = await attempt({ ...params, additionalFields: { timeZoneCode: 'America/Los_Angeles' } }, true);
		expect(zoned.error).toBeUndefined();
		expect(zoned.items?.[0].json.taskId).toMatch(/^\d+$/);
	});

	it("a time without offset as a tool names the Lofty user's zone and its offset on that date, not a fixed one (issue 39)", async () => {
		const owner = sandbox().store.getUser(BigInt(SEED_IDS.demoUserId))!;
		owner.timeZoneId = 'America/New_York';
		const winter = (await attempt(taskCreate({ leadId: byId(SEED_IDS.bigLeadId), endAt: '2030-01-15T09:00:00' }), true)).error!;
		expect(winter.message).toContain("e.g. 2030-01-15T09:00:00-05:00 for 09:00 in America/New_York, where the lead's agent works (UTC-05:00 on 2030-01-15)");
		const summer = (await attempt(taskCreate({ leadId: byId(SEED_IDS.bigLeadId), endAt: '2030-06-01 09:00' }), true)).error!;
		expect(summer.message).toContain("e.g. 2030-06-01T09:00:00-04:00 for 09:00 in America/New_York, where the lead's agent works (UTC-04:00 on 2030-06-01)");
		expect(summer.message).not.toMatch(/-07:00/);
		expect(sandbox().requests.filter((r) => r.method !== 'GET')).toHaveLength(0);
	});

	it('not found: says which operation finds the record, and not to guess IDs', async () => {
		const { editor, tool } = await both({ resource: 'lead', operation: 'get', leadId: byId('123456789') });
		expect(editor.message).toMatch(/^Lofty error \(HTTP 404 LEAD_NOT_EXIST\)/);
		expect(toolErrorKind(editor)).toBe('notFound');
		expect(tool.message).toMatch(/^Not found: Lofty has no lead with that ID that this credential can see \(HTTP 404 LEAD_NOT_EXIST/);
		expect(tool.message).toContain(`Do not guess IDs: find its ID first with "${LEAD_SEARCH}", then call this tool again with it.`);
		expect(LEAD_SEARCH).toBe('Search leads by email, phone, name or other filters in Lofty');
		expectActionable(tool, editor);
	});

	it('permission: says calling again will not help and to tell the user', async () => {
		const { editor, tool } = await both(taskCreate({ leadId: byId(SEED_IDS.notSharedLeadId) }));
		expect(toolErrorKind(editor)).toBe('permission');
		expect(tool.message).toMatch(/^Not allowed: the Lofty user of this credential lacks the permission/);
		expect(tool.message).toMatch(/Calling again will not help; nothing was changed\. Tell the user/);
		expectActionable(tool, editor);
	});

	it('scope (OAuth app not granted the endpoint): names the scope and the fix', async () => {
		const credential = () => ({ type: 'loftyOAuth2Api', data: { baseUrl: sandbox().url, oauthTokenData: { access_token: sandbox().issueToken({ scopes: ['GET /v1.0/me'] }) } } }) as Credential;
		const { editor, tool } = await both({ authentication: 'oAuth2', resource: 'lead', operation: 'get', leadId: byId(SEED_IDS.bigLeadId) }, credential);
		expect(editor.message).toMatch(/HTTP 403 200100/);
		expect(toolErrorKind(editor)).toBe('permission');
		expect(tool.message).toMatch(/not granted this endpoint's scope .*HTTP 403 200100/);
		expect(tool.message).toMatch(/add the scope to the app in Lofty's developer portal and reconnect the credential/);
	});

	it('credential rejected: not the input, tell the user', async () => {
		const credential = () => ({ type: 'loftyApi', data: { apiKey: 'wrong-key', baseUrl: sandbox().url } }) as Credential;
		const { editor, tool } = await both({ resource: 'lead', operation: 'get', leadId: byId(SEED_IDS.bigLeadId) }, credential);
		expect(toolErrorKind(editor)).toBe('credential');
		expect(tool.message).toMatch(/^Lofty rejected the credential of this tool \(HTTP 401/);
		expect(tool.message).toMatch(/Calling again will not help and nothing was changed: tell the user to fix the Lofty credential in n8n/);
		expectActionable(tool, editor);
	});

	it('rate limit: wait about a minute, do not loop', async () => {
		sandbox().setRateLimit({ perWindow: 0, windowMs: 300 });
		const editor = await attempt({ resource: 'lead', operation: 'get', leadId: byId(SEED_IDS.bigLeadId) }, false);
		sandbox().reset();
		sandbox().setRateLimit({ perWindow: 0, windowMs: 300 });
		const tool = await attempt({ resource: 'lead', operation: 'get', leadId: byId(SEED_IDS.bigLeadId) }, true);
		expect(toolErrorKind(editor.error!)).toBe('rateLimit');
		expect(tool.error!.message).toMatch(/^Lofty's rate limit is reached \(HTTP 429/);
		expect(tool.error!.message).toMatch(/Do not call Lofty tools again right away: wait about a minute/);
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
		expect(tool.error!.message).toMatch(/^Lofty did not answer POST \/v2\.0\/tasks within 4 s: the change may or may not have been applied\. Calling this tool again may make a duplicate/);
		expect(tool.error!.message).toContain(`Calling this tool again may make a duplicate: first check whether the change is there (with "${toolOf('task', 'getAll')}")`);
		expectActionable(tool.error!, editor.error!);
		// With On Error set to continue, the failed item carries the same message (what older n8n hands the model).
		sandbox().reset();
		sandbox().faults.inject({ kind: 'slow', delayMs: HUNG_MS, match: { method: 'POST', path: '/v2.0/tasks' } });
		const continued = await attempt(params, true, undefined, true);
		expect(continued.items?.[0].json).toMatchObject({ error: tool.error!.message, writeUncertain: true });
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
		expect(tool.error!.message).toMatch(/^Lofty error \(HTTP 500 20005\): .*: the change may or may not have been applied\. Calling this tool again may make a duplicate/);
		expectActionable(tool.error!, editor.error!);
	});

	it.each([
		['Create', { operation: 'create', firstName: 'Nadia', additionalFields: { emails: ['nadia@example.com'] } }, 'by email "nadia@example.com"'],
		['Create or Update', { operation: 'upsert', firstName: 'Nadia', phone: '(415) 555-0144' }, 'by phone "+14155550144"'],
		['Create (name only)', { operation: 'create', firstName: 'Nadia', additionalFields: { lastName: 'Noor' } }, 'by name "Nadia Noor"'],
	])('a lead %s without an answer: names the lead search and what to search by, never a Get by ID', async (_, params, by) => {
		sandbox().faults.inject({ kind: 'drop', match: { method: 'POST', path: '/v1.0/leads' } });
		const tool = await attempt({ resource: 'lead', ...params }, true);
		expect(toolErrorKind(tool.error!)).toBe('writeUncertain');
		expect(tool.error!.message).toContain(`First search for it with "${LEAD_SEARCH}" ${by}; use the lead found, and create it only if there is none.`);
		expect(tool.error!.message).not.toMatch(/by ID/);
		expect(tool.error!.message.length).toBeLessThanOrEqual(MAX_TOOL_MESSAGE);
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
		expect(tool.error!.message).toMatch(/^Lofty refused the request \(HTTP 400 20012: INVALID_PARAMETER: content is too long\), so nothing was changed\./);
		expect(tool.error!.message).toMatch(/Correct what the message names and call the tool again\.$/);
		expectActionable(tool.error!, editor.error!);
	});

	it('Lofty unreachable: a setup problem, calling again will not help', async () => {
		const credential = () => ({ type: 'loftyApi', data: { apiKey: 'k', baseUrl: 'http://127.0.0.1:9' } }) as Credential;
		const { editor, tool } = await both({ resource: 'lead', operation: 'get', leadId: byId(SEED_IDS.bigLeadId) }, credential);
		expect(toolErrorKind(editor)).toBe('unreachable');
		expect(tool.message).toMatch(/^Could not reach Lofty at http:\/\/127\.0\.0\.1:9\/v1\.0\/leads\/\d+\. This is a setup problem of n8n or the credential, not of the input: calling again will not help\. Tell the user\./);
		expectActionable(tool, editor);
	});

	it('any other error: its message and description together (a model never sees the description otherwise)', async () => {
		const { editor, tool } = await both({ resource: 'lead', operation: 'noSuchOperation' });
		expect(toolErrorKind(editor)).toBe('other');
		expect(tool.message).toBe(`${editor.message}.`);
	});
});
