/**
 * Agent endpoints:
 *   POST /v1.0/agent/profile/add            create an agent        {data, errorCode, errorMsg}
 *   POST /v1.0/agent/{agentId}/tag/add      tag an agent           {data, errorCode, errorMsg}
 *   POST /v2.0/agents/{agentId}/deactivate  release the seat       HTTP 200 always; {code, message} on failure
 *   POST /v2.0/agents/{agentId}/reactivate  re-occupy a seat       HTTP 200 always; {code, message} on failure
 */
import { type License, MAX_AGENT_TAGS_PER_CALL, MAX_LICENSES, agentState } from './state';
import { toInt64 } from '../../core/json';
import { inDepartment, orgState, permissionLevel } from '../organization/access';
import { readingsOf } from '../../core/readings';
import type { Ctx, Reply, Route } from '../../core/router';
import type { Store } from '../../core/store';
import type { User } from '../../core/types';
import { emitAgent } from '../webhook/delivery/emit';

/** Agent lifecycle result codes (spec, Errors: Agent lifecycle, HTTP 200 with `code` in body). */
export const AGENT_CODES = {
	INVALID_PARAMETER: 20012,
	ALREADY_DEACTIVATED: 990105,
	OWNER: 990106,
	SELF: 990107,
	ALREADY_ACTIVE: 990112,
	NOT_ONBOARDED: 990113,
	SEAT_INSUFFICIENT: 310111,
	NOT_AUTHORIZED: 1900012,
	/** USER_NOT_EXIST, numeric as the OpenAPI gives it (20003). */
	USER_NOT_EXIST: 20003,
} as const;

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `{data, errorCode, errorMsg}` of the Agent User endpoints. */
const resultReply = (status: number, data: unknown, errorCode: number, errorMsg: string | null): Reply => ({
	status,
	body: { data, errorCode, errorMsg },
});

/** Lifecycle failures: HTTP 200 with `{code, message}` (OpenAPI: the status stays 200). */
const lifecycleFail = (code: number, message: string): Reply => ({ status: 200, body: { code, message } });

class Fail extends Error {
	constructor(readonly reply: Reply) {
		super('fail');
	}
}

function str(o: Obj, name: string, what: string): string | undefined {
	const v = o[name];
	if (v === undefined || v === null) return undefined;
	if (typeof v !== 'string') throw new Fail(resultReply(200, 0, AGENT_CODES.INVALID_PARAMETER, `${what}.${name} must be a string`));
	return v.trim();
}

function readLicenses(body: Obj, workInfo: Obj): License[] | undefined {
	// The spec names `licenses` on agent records without saying where the create body carries it:
	// read it inside workInfo (next to the deprecated licenseId) or at the top level.
	const raw = workInfo.licenses ?? body.licenses;
	if (raw === undefined || raw === null) return undefined;
	const bad = (why: string) => new Fail(resultReply(200, 0, AGENT_CODES.INVALID_PARAMETER, `licenses ${why}`));
	if (!Array.isArray(raw)) throw bad('must be an array of {label, value}');
	if (raw.length > MAX_LICENSES) throw bad(`takes at most ${MAX_LICENSES} entries, got ${raw.length}`);
	return raw.map((entry) => {
		if (!isObj(entry) || typeof entry.label !== 'string' || typeof entry.value !== 'string' || !entry.value.trim()) {
			throw bad('entries must be {label, value} with a non-empty value');
		}
		return { label: entry.label.trim(), value: entry.value.trim() };
	});
}

const ROLES: Array<{ name: User['roleName']; role: number }> = [
	{ name: 'Owner', role: 1 },
	{ name: 'Admin', role: 2 },
	{ name: 'Assistant', role: 3 },
	{ name: 'Lender', role: 4 },
	{ name: 'Agent', role: 0 },
];

function createAgent(ctx: Ctx): Reply {
	const { store, user } = ctx;
	const body = ctx.body;
	if (!isObj(body)) return resultReply(200, 0, AGENT_CODES.INVALID_PARAMETER, 'request body must be a JSON object');
	try {
		const accountType = toInt64(body.accountType);
		if (accountType === undefined || accountType === null) {
			return resultReply(200, 0, AGENT_CODES.INVALID_PARAMETER, 'accountType is required and must be an integer');
		}
		if (!isObj(body.accountInfo)) return resultReply(200, 0, AGENT_CODES.INVALID_PARAMETER, 'accountInfo is required');
		const info = body.accountInfo;
		const workInfo = isObj(body.workInfo) ? body.workInfo : {};
		const firstName = str(info, 'firstName', 'accountInfo');
		const lastName = str(info, 'lastName', 'accountInfo');
		const email = str(info, 'emailAddress', 'accountInfo');
		const phone = str(info, 'phoneNumber', 'accountInfo');
		for (const [name, value] of [['firstName', firstName], ['lastName', lastName], ['emailAddress', email], ['phoneNumber', phone]] as const) {
			if (!value) return resultReply(200, 0, AGENT_CODES.INVALID_PARAMETER, `accountInfo.${name} is required`);
		}
		if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email!)) {
			return resultReply(200, 0, AGENT_CODES.INVALID_PARAMETER, `accountInfo.emailAddress is not an e-mail address: '${email}'`);
		}
		// The OpenAPI's AgentProfile knows only workInfo.licenseId (the agentLicenses reading `openapi`): licenses unread.
		const licenses = readingsOf(store).get('agentLicenses') === 'openapi' ? undefined : readLicenses(body, workInfo);
		const licenseId = str(workInfo, 'licenseId', 'workInfo');
		let groupId = user.groupId;
		if (info.groupId !== undefined && info.groupId !== null) {
			const g = toInt64(info.groupId);
			const office = g ? store.offices.get(g.toString()) : undefined;
			if (!office || office.teamId !== user.teamId) return resultReply(200, 0, AGENT_CODES.INVALID_PARAMETER, `accountInfo.groupId is not an office of the team: ${String(info.groupId)}`);
			groupId = office.id;
		}
		const tagIds = Array.isArray(info.tagIds) ? info.tagIds : [];
		if (tagIds.some((t) => toInt64(t) === null)) return resultReply(200, 0, AGENT_CODES.INVALID_PARAMETER, 'accountInfo.tagIds must be integers');
		const existing = store.findUserByEmail(email!);
		if (existing && existing.teamId === user.teamId) {
			// "Zero when creation fails or an existing agent is returned without a new ID" (OpenAPI).
			return resultReply(200, 0, 0, `An agent with the e-mail ${email} already exists in the team`);
		}
		// Unknown role names are ignored: the agent is created without a role binding (plain Agent).
		const roleName = str(info, 'roleName', 'accountInfo');
		const role = ROLES.find((r) => roleName && r.name.toLowerCase() === roleName.toLowerCase() && r.name !== 'Owner') ?? ROLES[4];
		const state = agentState(store);
		const userId = state.nextUserId++;
		store.addUser({
			memberId: state.nextMemberId++,
			userId,
			teamId: user.teamId,
			invitorUserId: user.userId,
			role: role.role,
			roleName: role.name,
			email: email!,
			firstName: firstName!,
			lastName: lastName!,
			phoneNumber: `+${str(info, 'phoneCode', 'accountInfo') || '1'}${phone}`,
			status: 0,
			virtualNumber: '',
			isAdmin: role.name === 'Admin',
			timeZoneId: user.timeZoneId,
			groupId,
			accountStatus: 'ACTIVE',
			licenseId: licenseId ?? licenses?.[0]?.value ?? '',
		});
		state.notOnboarded.add(userId.toString());
		if (licenses) state.licenses.set(userId.toString(), licenses);
		emitAgent(store, user.teamId, userId, ctx.now);
		return resultReply(200, userId, 0, null);
	} catch (e) {
		if (e instanceof Fail) return e.reply;
		throw e;
	}
}

/** `{agentId}` of the path: a positive int64, or null. */
function agentIdOf(ctx: Ctx): bigint | null {
	const id = toInt64(ctx.params.agentId);
	return id === undefined || id === null || id < 1n ? null : id;
}

function addTags(ctx: Ctx): Reply {
	const { store, user } = ctx;
	const id = agentIdOf(ctx);
	if (id === null) return resultReply(400, false, AGENT_CODES.INVALID_PARAMETER, `agentId must be a positive integer, got '${ctx.params.agentId}'`);
	const body = isObj(ctx.body) ? ctx.body : {};
	const raw = body.tagNames;
	if (raw !== undefined && raw !== null && (!Array.isArray(raw) || raw.some((t) => typeof t !== 'string'))) {
		return resultReply(400, false, AGENT_CODES.INVALID_PARAMETER, 'tagNames must be an array of strings');
	}
	const names = [...new Set(((raw as string[] | undefined) ?? []).map((t) => t.trim()).filter(Boolean))];
	if (names.length === 0) return resultReply(400, false, AGENT_CODES.INVALID_PARAMETER, 'tagNames must not be empty');
	if ((raw as string[]).length > MAX_AGENT_TAGS_PER_CALL) {
		return resultReply(400, false, AGENT_CODES.INVALID_PARAMETER, `tagNames takes at most ${MAX_AGENT_TAGS_PER_CALL} entries, got ${(raw as string[]).length}`);
	}
	const target = store.getUser(id);
	if (!target || target.teamId !== user.teamId) return resultReply(404, false, AGENT_CODES.USER_NOT_EXIST, `Agent ${id} does not exist in the team`);
	const autoCreate = body.autoCreate === true || body.autoCreate === 'true';
	const state = agentState(store);
	const known = new Map([...state.teamTags].map((t) => [t.toLowerCase(), t]));
	const unknown = names.filter((t) => !known.has(t.toLowerCase()));
	if (unknown.length && !autoCreate) {
		return resultReply(200, false, AGENT_CODES.INVALID_PARAMETER, `Tags not defined on the team: ${unknown.join(', ')} (set autoCreate to create them)`);
	}
	for (const t of unknown) {
		state.teamTags.add(t);
		known.set(t.toLowerCase(), t);
	}
	const current = state.agentTags.get(id.toString()) ?? [];
	for (const t of names) {
		const canonical = known.get(t.toLowerCase())!;
		if (!current.includes(canonical)) current.push(canonical);
	}
	state.agentTags.set(id.toString(), current);
	emitAgent(store, user.teamId, id, ctx.now);
	return resultReply(200, true, 0, null);
}

/** Checks shared by deactivate and reactivate: agent ID, caller permission, target in the team. */
function lifecycleTarget(ctx: Ctx): { target: User } | { fail: Reply } {
	const { store, user } = ctx;
	const id = agentIdOf(ctx);
	if (id === null) return { fail: lifecycleFail(AGENT_CODES.INVALID_PARAMETER, `INVALID_PARAMETER: agentId must be a positive integer, got '${ctx.params.agentId}'`) };
	const level = permissionLevel(store, user, 'MANAGE_TEAM_AGENT');
	if (!level) return { fail: lifecycleFail(AGENT_CODES.NOT_AUTHORIZED, 'Not authorized: MANAGE_TEAM_AGENT or MANAGE_TEAM_AGENT_DEPARTMENT is required') };
	const target = store.getUser(id);
	if (!target || target.teamId !== user.teamId) return { fail: lifecycleFail(AGENT_CODES.INVALID_PARAMETER, `INVALID_PARAMETER: agent ${id} is not a member of the team`) };
	if (level === 'department' && !inDepartment(store, user, target.groupId)) {
		return { fail: lifecycleFail(AGENT_CODES.NOT_AUTHORIZED, 'Not authorized: the agent is outside the offices MANAGE_TEAM_AGENT_DEPARTMENT covers') };
	}
	return { target };
}

function deactivate(ctx: Ctx): Reply {
	const checked = lifecycleTarget(ctx);
	if ('fail' in checked) return checked.fail;
	const { target } = checked;
	const { store, user, auth } = ctx;
	if (target.userId === user.userId) return lifecycleFail(AGENT_CODES.SELF, 'You cannot deactivate your own account');
	if (target.roleName === 'Owner' || orgState(store).isOfficeOwner(target.userId)) {
		return lifecycleFail(AGENT_CODES.OWNER, 'The agent is a team owner or an office owner and cannot be deactivated');
	}
	if (target.accountStatus === 'INACTIVE') return lifecycleFail(AGENT_CODES.ALREADY_DEACTIVATED, 'The agent is already deactivated');
	if (agentState(store).notOnboarded.has(target.userId.toString())) {
		return lifecycleFail(AGENT_CODES.NOT_ONBOARDED, 'The agent has not completed onboarding (no password set)');
	}
	target.accountStatus = 'INACTIVE';
	// Deactivation revokes the agent's sessions and access tokens; leads and data stay untouched.
	for (const [token, record] of auth.accessTokens) if (record.userId === target.userId) auth.accessTokens.delete(token);
	emitAgent(store, user.teamId, target.userId, ctx.now);
	return { status: 200, body: { success: true } };
}

function reactivate(ctx: Ctx): Reply {
	const checked = lifecycleTarget(ctx);
	if ('fail' in checked) return checked.fail;
	const { target } = checked;
	const { store, user } = ctx;
	if (target.accountStatus === 'ACTIVE') return lifecycleFail(AGENT_CODES.ALREADY_ACTIVE, 'The agent is already active');
	const state = agentState(store);
	if (state.notOnboarded.has(target.userId.toString())) {
		return lifecycleFail(AGENT_CODES.NOT_ONBOARDED, 'The agent has not completed onboarding (no password set)');
	}
	if (state.seatsUsed(store, user.teamId) >= state.seatLimit) {
		return lifecycleFail(AGENT_CODES.SEAT_INSUFFICIENT, 'SEAT_INSUFFICIENT: no free license seat; purchase seats in Lofty first');
	}
	target.accountStatus = 'ACTIVE';
	emitAgent(store, user.teamId, target.userId, ctx.now);
	return { status: 200, body: { success: true } };
}

export const agentRoutes: Route[] = [
	{ method: 'POST', pattern: '/v1.0/agent/profile/add', body: 'json', handler: createAgent },
	{ method: 'POST', pattern: '/v1.0/agent/{agentId}/tag/add', body: 'json', handler: addTags },
	{ method: 'POST', pattern: '/v2.0/agents/{agentId}/deactivate', handler: deactivate },
	{ method: 'POST', pattern: '/v2.0/agents/{agentId}/reactivate', handler: reactivate },
];

/** Builds the agent state from the seeded team (seats, licenses) before any request changes it. */
export function seedAgents(store: Store): void {
	agentState(store);
}
