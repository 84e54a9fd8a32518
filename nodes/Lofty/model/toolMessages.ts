import { DateTime } from 'luxon';
import type { IDataObject, INode } from 'n8n-workflow';

import { isTimeWithoutOffset } from './dates';
import type { PeerTool } from './toolPeers';
import type { OperationDef, ParamDef, ResourceDef } from './types';

/**
 * What a model reads when the node fails as an AI agent's tool. From n8n 2.25 a failing tool hands the agent only the
 * error's message (`{error: <message>}`), never its description; with On Error set to continue (every version) the
 * model reads the failed item's fields. So when the node runs as a tool, the message itself says the cause and the
 * next step: the field, its rule and an example value; which operation finds a record that was not found; that a
 * refused permission or credential will not pass by calling again; how long a rate limit lasts; that a write without
 * an answer (or with a 5xx) may have been applied and must be checked before calling again, for a create by the
 * resource's search (a lead by the email, phone or name given), since no ID is known. Another tool is named as the model
 * sees it (its tool name, model/toolPeers.ts), else by what it does. Each message starts with its kind in a few words
 * ("Invalid input: ..."), which is all the AI Agent of n8n 2.41 hands the model (`{"error": <message>}`); the thrown
 * error leaves out the description, which n8n would add after "Details:" though the message already says it
 * (Lofty.node.ts). In the editor a person keeps the message and description the node gives everywhere else: this
 * module changes only a tool's error.
 */

/** The kinds of failure a tool reports, each with its own next step. */
export type ToolErrorKind =
	| 'validation'
	| 'notFound'
	| 'permission'
	| 'credential'
	| 'rateLimit'
	| 'writeUncertain'
	| 'refused'
	| 'lofty'
	| 'unreachable'
	| 'other';

/** How each kind's message starts: what happened, in a few words. */
const TOOL_ERROR_HEADS: Record<ToolErrorKind, string> = {
	validation: 'Invalid input',
	notFound: 'Not found',
	permission: 'Not allowed',
	credential: 'Credential rejected',
	rateLimit: 'Rate limit',
	writeUncertain: 'Outcome unknown',
	refused: 'Refused',
	lofty: 'Lofty error',
	unreachable: 'Lofty unreachable',
	other: 'Failed',
};

/** The fields of a node error this module reads (NodeApiError and NodeOperationError both have them). */
export interface NodeErrorLike {
	message: string;
	description?: string | null;
	httpCode?: string | null;
	context?: IDataObject;
	errorResponse?: IDataObject;
}

/** Whether the node runs as an AI agent's tool: n8n gives the tool variant its own type, `<package>.loftyTool`. */
export function runsAsTool(node: Pick<INode, 'type'>): boolean {
	const name = String(node.type ?? '').split('.').pop() ?? '';
	return name.endsWith('Tool');
}

/** The message of `invalid()` (model/params.ts): `Invalid value for "<field>": <rule>`. */
const INVALID = /^Invalid value for "([^"]+)": ([\s\S]*)$/;

const NOT_FOUND_CODES = new Set(['LEAD_NOT_EXIST', 'LEAD_NOT_FOUND', 'TASK_NOT_EXIST', 'TRANSACTION_NOT_EXIST', 'USER_NOT_EXIST', 'RESOURCE_NOT_EXIST', 'WEBHOOK_DELETE_NOT_EXIST', 'INVALID_UPDATE_OPERATION_LEADID']);
const PERMISSION_CODES = new Set(['200100', 'VENDOR_HAS_NO_PERMISSION', 'PERMISSION_DENIED', 'NO_ACCESS_WEBSITE', 'ACCESS_ALL_TEAM_LEADS', '20017', '1900012', 'WEBHOOK_DELETE_NO_AUTHORITY']);
const CREDENTIAL_CODES = new Set(['BAD_CREDENTIALS', '200058']);

/** The record a not-found code names, and the resource whose search finds it. */
const RECORD_OF_CODE: Record<string, { record: string; resource: string }> = {
	LEAD_NOT_EXIST: { record: 'lead', resource: 'lead' },
	LEAD_NOT_FOUND: { record: 'lead', resource: 'lead' },
	INVALID_UPDATE_OPERATION_LEADID: { record: 'lead', resource: 'lead' },
	TASK_NOT_EXIST: { record: 'task or appointment', resource: 'calendar' },
	TRANSACTION_NOT_EXIST: { record: 'transaction', resource: 'transaction' },
	USER_NOT_EXIST: { record: 'team member', resource: 'member' },
	WEBHOOK_DELETE_NOT_EXIST: { record: 'webhook subscription', resource: 'webhook' },
};

/** Decides the kind of a node error. */
export function toolErrorKind(error: NodeErrorLike): ToolErrorKind {
	if (error.context?.writeUncertain) return 'writeUncertain';
	if (INVALID.test(error.message)) return 'validation';
	const code = codeOf(error);
	const http = Number(error.httpCode);
	if (http === 401 || (code !== undefined && CREDENTIAL_CODES.has(code)) || /^Connect the credential/.test(error.message)) return 'credential';
	if (code !== undefined && NOT_FOUND_CODES.has(code)) return 'notFound';
	if (code !== undefined && PERMISSION_CODES.has(code)) return 'permission';
	if (http === 429) return 'rateLimit';
	if (http === 404) return 'notFound';
	if (http === 403) return 'permission';
	if (/^Could not reach Lofty|token request|was canceled/.test(error.message)) return 'unreachable';
	if (Number.isFinite(http) && http >= 500) return 'lofty';
	if (Number.isFinite(http) && http > 0) return 'refused';
	return 'other';
}

function codeOf(error: NodeErrorLike): string | undefined {
	const code = error.errorResponse?.code;
	return code === undefined || code === null ? undefined : String(code);
}

/** Where the tool runs: its operation and resource (to name the operation that finds a record) and its node. */
export interface ToolSetting {
	node?: Pick<INode, 'parameters'>;
	op?: OperationDef;
	resource?: ResourceDef;
	resources?: ResourceDef[];
	/** the Lofty tools beside this one (model/toolPeers.ts), when n8n tells */
	peers?: PeerTool[];
}

/** The message a model reads for a node error, with the cause and the next step, after its head. */
export function toolMessage(error: NodeErrorLike, setting: ToolSetting = {}): string {
	const kind = toolErrorKind(error);
	return cut(`${TOOL_ERROR_HEADS[kind]}: ${toolBody(kind, error, setting)}`);
}

function toolBody(kind: ToolErrorKind, error: NodeErrorLike, setting: ToolSetting): string {
	const said = lofty(error);
	switch (kind) {
		case 'validation': {
			const [, field, given] = INVALID.exec(error.message) as RegExpExecArray;
			const rule = ruleForModel(given);
			const argument = fromAiName(setting, field);
			const named = argument ? `"${field}" (the tool's input "${argument}")` : `"${field}"`;
			const example = exampleFor(rule, field, setting);
			const sent = /Lofty refused/.test(error.description ?? '') ? 'Lofty refused it, so nothing was changed' : 'Nothing was sent to Lofty';
			return `${named} ${rule}. ${sent}. Call the tool again with a corrected value${example ? `, for example ${example}` : ''}.`;
		}
		case 'notFound': {
			const target = notFoundTarget(error, setting);
			return `Lofty has no ${target.record} with that ID that this credential can see (${said}). Do not guess IDs: find its ID first with ${target.search ?? 'a Lofty search or list operation'}, then call this tool again with it.`;
		}
		case 'permission': {
			const scope = codeOf(error) === '200100';
			const why = scope
				? "the Lofty OAuth app of this credential is not granted this endpoint's scope"
				: 'the Lofty user of this credential lacks the permission or role this needs (for leads: only the owner or a shared agent)';
			return `${why} (${said}). Calling again will not help; nothing was changed. Tell the user what was refused${scope ? ' (add the scope to the app in Lofty\'s developer portal and reconnect the credential)' : ''}, or use a record this user can reach.`;
		}
		case 'credential':
			return `Lofty did not accept the credential of this tool (${said}). Calling again will not help and nothing was changed: tell the user to fix the Lofty credential in n8n.`;
		case 'rateLimit':
			return `Lofty's rate limit is reached (${said}); the node already waited for it and gave up. Nothing was changed. Do not call Lofty tools again right away: wait about a minute, or tell the user to run fewer requests at once.`;
		case 'writeUncertain': {
			const uncertain = /may or may not have been applied/.test(error.message) ? error.message : `${error.message}: the change may or may not have been applied`;
			const by = error.context?.searchBy as IDataObject | undefined;
			if (by) {
				// A lead create without an answer: there is no ID to get, only the person to search for.
				const search = searchFor(setting, 'lead');
				return `${uncertain}. The lead may have been created, and its ID is not known: do not call this tool again to create it. First search for it (${searchWords(by)})${search ? ` with ${search}` : ''}; use the lead found, and create it only if there is none.`;
			}
			// A create has no ID to get yet: what finds it is the resource's search.
			const check = setting.op?.value === 'create' ? (searchFor(setting, setting.resource?.value) ?? checkOperation(setting)) : checkOperation(setting);
			return `${uncertain}. Calling this tool again may make a duplicate: first check whether the change is there${check ? ` (with ${check})` : ''}, and call again only if it is not.`;
		}
		case 'lofty': {
			const write = setting.op && !isRead(setting.op);
			return `an internal error in Lofty (${said}).${write ? ' The change may or may not have been applied: check before calling again.' : ' Nothing was changed.'} Try once more in a minute; if it fails again, tell the user.`;
		}
		case 'refused': {
			const hint = error.description ? ` ${firstSentences(error.description)}` : '';
			return `Lofty did not accept the request (${said}), so nothing was changed.${hint} Correct what the message names and call the tool again.`;
		}
		case 'unreachable':
			return `${error.message}. This is a setup problem of n8n or the credential, not of the input: calling again will not help. Tell the user.${error.description ? ` (${firstSentences(error.description)})` : ''}`;
		default:
			return `${error.message}.${error.description ? ` ${firstSentences(error.description)}` : ''}`.replace(/\.\./g, '.');
	}
}

/** `HTTP 404 LEAD_NOT_EXIST: the lead does not exist`: what Lofty said, from the node's message. */
function lofty(error: NodeErrorLike): string {
	const match = /^Lofty error \(([^)]*)\): ([\s\S]*)$/.exec(error.message);
	if (match) return `${match[1]}: ${shorten(match[2], 160)}`;
	const code = codeOf(error);
	const http = error.httpCode ? `HTTP ${error.httpCode}` : '';
	return [http, code].filter(Boolean).join(' ') || shorten(error.message, 160);
}

/** The name the model gives a field: the `$fromAI` key in the node's parameter for that field, when there is one. */
function fromAiName(setting: ToolSetting, label: string): string | undefined {
	const param = setting.op?.params.find((p) => p.label === label);
	if (!param || !setting.node?.parameters) return undefined;
	const found = findParameter(setting.node.parameters as IDataObject, param.name);
	const text = typeof found === 'string' ? found : JSON.stringify(found ?? '');
	return /\$fromAI\(\s*(?:\\?["'`])([^"'`\\]+)/.exec(text)?.[1];
}

function findParameter(parameters: IDataObject, name: string, depth = 0): unknown {
	if (depth > 3) return undefined;
	if (name in parameters) return parameters[name];
	for (const value of Object.values(parameters)) {
		if (value && typeof value === 'object' && !Array.isArray(value)) {
			const inner = findParameter(value as IDataObject, name, depth + 1);
			if (inner !== undefined) return inner;
		}
	}
	return undefined;
}

/**
 * A rule as a model reads it: an ID rule says "digits only" and what was given; clauses about the editor (By URL,
 * From List, Workflow Settings, Request Options) are left out, since a model cannot act on them.
 */
function ruleForModel(rule: string): string {
	const id = /^must be a Lofty ID \(a whole number from 1 to \d+\), got (.*?)(?:;|$)/.exec(rule);
	if (id) return `must be a Lofty ID (digits only), got ${JSON.stringify(id[1])}`;
	return rule
		.split(/;\s*/)
		.filter((clause, index) => index === 0 || !/By URL|From List|Workflow Settings|Request Options|date picker/.test(clause))
		.join('; ');
}

/** A value that follows a rule, unless the rule already shows one. */
function exampleFor(rule: string, field: string, setting: ToolSetting): string | undefined {
	if (/e\.g\.|such as|for example/.test(rule)) return undefined;
	const param = setting.op?.params.find((p) => p.label === field);
	if (/UTC offset|date and time|ISO 8601/i.test(rule) || param?.type === 'dateTime') return '"2026-06-01T16:00:00Z" (ISO 8601 with the UTC offset of the place, or Z for UTC)';
	const oneOf = /must be one of ([^,]+)/.exec(rule);
	if (oneOf) return `"${oneOf[1].trim()}"`;
	if (/Lofty ID/.test(rule) || param?.type === 'id' || param?.type === 'locator') {
		const search = searchFor(setting, param?.name === 'leadId' ? 'lead' : setting.resource?.value);
		return `"651095960136641" (digits only${search ? `; find real IDs with ${search}` : ''})`;
	}
	if (/e-?mail/i.test(rule) || /e-?mail/i.test(field)) return '"jane@example.com"';
	if (/phone/i.test(field)) return '"4155551234"';
	const range = /from (-?\d+) to (-?\d+)/.exec(rule) ?? /at least (-?\d+)/.exec(rule);
	if (range) return range[1];
	if (/true or false/.test(rule)) return 'true';
	if (/JSON array/.test(rule)) return '[{"name": "value"}]';
	if (/JSON/.test(rule)) return '{"name": "value"}';
	return undefined;
}

/** The record that was not found, and the operation that searches for it. */
function notFoundTarget(error: NodeErrorLike, setting: ToolSetting): { record: string; search?: string } {
	const code = codeOf(error);
	const byCode = code === undefined ? undefined : RECORD_OF_CODE[code];
	const resource = byCode?.resource ?? setting.resource?.value;
	const record = byCode?.record ?? setting.resource?.name.toLowerCase() ?? 'record';
	return { record, search: searchFor(setting, resource) };
}

/**
 * The tool that lists or searches a resource's records, as the model knows it: `the tool "Search_Leads"` when a tool
 * beside this one does it, else what such a tool does (`a tool that can search leads by email, ...`).
 */
function searchFor(setting: ToolSetting, resource: string | undefined): string | undefined {
	if (!resource) return undefined;
	const def = (setting.resources ?? []).find((r) => r.value === resource) ?? (setting.resource?.value === resource ? setting.resource : undefined);
	const ops = def?.operations ?? [];
	const op = ops.find((o) => o.value === 'getAll') ?? ops.find((o) => /^(Search|Get many)/.test(o.action));
	return op && toolFor(setting, resource, [op]);
}

/** `the tool "<name>"` of a peer doing one of `ops` (the first op found first), else what the first op does. */
function toolFor(setting: ToolSetting, resource: string, ops: OperationDef[]): string {
	for (const op of ops) {
		const peer = setting.peers?.find((p) => p.resource === resource && p.operation === op.value);
		if (peer) return `the tool "${peer.name}"`;
	}
	return `a tool that can ${ops[0].action.charAt(0).toLowerCase()}${ops[0].action.slice(1)}`;
}

/** What to search a lead by: `email "jane@example.com" or phone "+14155550101"`, else its name. */
function searchWords(by: IDataObject): string {
	const list = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
	const parts = [...list(by.emails).map((e) => `email "${e}"`), ...list(by.phones).map((p) => `phone "${p}"`)];
	if (!parts.length && typeof by.name === 'string' && by.name) parts.push(`name "${by.name}"`);
	return parts.length ? parts.join(' or ') : 'its email, phone or name';
}

/** The tool that reads what a write changed: the resource's Get, else its search. */
function checkOperation(setting: ToolSetting): string | undefined {
	const ops = setting.resource?.operations ?? [];
	const reads = [ops.find((o) => o.value === 'get'), ops.find((o) => o.value === 'getAll')].filter((o): o is OperationDef => o !== undefined);
	return setting.resource && reads.length ? toolFor(setting, setting.resource.value, reads) : undefined;
}

function isRead(op: OperationDef): boolean {
	return op.method === 'GET' || Boolean(op.pagination);
}

function firstSentences(text: string, max = 260): string {
	return shorten(text, max);
}

function shorten(text: string, max: number): string {
	return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

/** A tool message stays short: models read it whole, and n8n shows it in the agent's log. */
export const MAX_TOOL_MESSAGE = 700;

function cut(text: string): string {
	return shorten(text.replace(/\s+/g, ' ').trim(), MAX_TOOL_MESSAGE);
}

/**
 * A model does not know the workflow's time zone, so a tool's date and time without a UTC offset would be read in a
 * zone the model never chose. As a tool, such a date is refused before anything is sent, unless the operation's
 * Time Zone is set (a person in the editor keeps the date picker's reading). `read` gives the value as the node
 * received it, by parameter. The rule is worded by `offsetRule` once the zone the editor would read it in is known.
 */
export function offsetlessDate(op: OperationDef, read: (param: ParamDef) => unknown): { field: string; text: string; notDate?: true } | undefined {
	// A Time Zone set on the tool says where such a time is: nothing is left to guess.
	const zone = op.params.find((p) => p.name === 'timeZoneCode');
	const zoned = zone && typeof read(zone) === 'string' && String(read(zone)).trim() !== '';
	for (const param of op.params) {
		if (param.type !== 'dateTime' || param.format === 'date') continue;
		const value = read(param);
		if (!isTimeWithoutOffset(value)) continue;
		const text = String(value).trim();
		// Words such as "tomorrow 9am" are no date at all: the model has to work the date out, whatever the zone.
		if (!DateTime.fromISO(text.replace(/^(\d{4}-\d{2}-\d{2}) (?=\d)/, '$1T')).isValid) return { field: param.label, text, notDate: true };
		if (!zoned) return { field: param.label, text };
	}
	return undefined;
}

/** The rule a tool reads for a date given in words ("tomorrow 9am"). */
export function notDateRule(text: string): string {
	return `is not a date and time ("${shorten(text, 40)}"): as a tool, work out the date yourself and give it in ISO 8601 with the UTC offset of the place it is meant for, e.g. 2026-06-01T09:00:00-05:00, or in UTC with Z`;
}

/**
 * The rule a tool reads for a time without offset: the zone the editor would read it in (`whose`: the Lofty user,
 * or the assignee) and that zone's UTC offset on that date, with the time written with it; without a zone, UTC.
 */
export function offsetRule(text: string, zone?: string, whose = 'the Lofty user'): string {
	const shown = shorten(text, 40);
	const local = zone ? DateTime.fromISO(text.replace(/^(\d{4}-\d{2}-\d{2}) (?=\d)/, '$1T'), { zone }) : undefined;
	if (!zone || !local?.isValid) {
		return `has no UTC offset ("${shown}"): as a tool, give the time with the UTC offset of the place it is meant for, or in UTC with Z, e.g. 2026-06-01T16:00:00Z`;
	}
	const offset = local.toFormat('ZZ');
	return `has no UTC offset ("${shown}"): as a tool, give the time with its offset, e.g. ${local.toISO({ suppressMilliseconds: true })} for ${local.toFormat('HH:mm')} in ${zone}, where ${whose} works (UTC${offset} on ${local.toISODate()}), or in UTC with Z`;
}
