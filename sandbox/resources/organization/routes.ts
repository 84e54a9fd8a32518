/**
 * Organization endpoints:
 *   GET  /v1.0/org                       organization info of the caller
 *   POST /v1.0/org/company               update the company record           {code, message[, data]}
 *   PUT  /v1.0/org/office                update an office (spec) / add one (OpenAPI "Add Office")  {code, message, data}
 *   POST /v1.0/org/office                create or update an office (spec) / update one (OpenAPI)  {code, message, data}
 *   GET  /v1.0/org/permission/profiles   permission profiles (bare array)
 *
 * Office writes: the OpenAPI calls PUT "Add Office" (id ignored) and POST "Update Office" (id
 * required, 404 when the office does not exist); api-spec.md says POST "create or update an office",
 * `id` deciding, and PUT an "office write". The officeCreate reading picks one (officeWrite).
 */
import { ApiError, Codes, invalidParam } from '../../core/errors';
import { toInt64 } from '../../core/json';
import { type OfficeDetails, PERM, hasPermission, inDepartment, orgState, permissionLevel } from './access';
import { readingsOf } from '../../core/readings';
import type { Ctx, Reply, Route } from '../../core/router';
import type { Store } from '../../core/store';
import type { Office, User } from '../../core/types';

type Obj = Record<string, unknown>;

export const ORG_CODES = { PERMISSION_DENIED: 20017, VENDOR_HAS_NO_PERMISSION: 'VENDOR_HAS_NO_PERMISSION' } as const;

const ok = (data?: unknown): Reply => ({ body: data === undefined ? { code: 0, message: 'success' } : { code: 0, message: 'success', data } });

const denied = (what: string): ApiError => new ApiError(400, ORG_CODES.PERMISSION_DENIED, `PERMISSION_DENIED: ${what}`);

function bodyObject(ctx: Ctx): Obj {
	const b = ctx.body;
	if (b === null || typeof b !== 'object' || Array.isArray(b)) throw invalidParam('request body must be a JSON object');
	return b as Obj;
}

function text(o: Obj, name: string): string | undefined {
	const v = o[name];
	if (v === undefined || v === null) return undefined;
	if (typeof v !== 'string') throw invalidParam(`'${name}' must be a string`);
	return v.trim();
}

/** Contact fields shared by company and office payloads, checked as the schema describes them. */
function contact(o: Obj): Partial<Record<'phone' | 'phoneCode' | 'phoneCountry' | 'email' | 'city' | 'state' | 'zipcode' | 'streetAddress', string>> {
	const out: Record<string, string> = {};
	for (const name of ['phone', 'phoneCode', 'phoneCountry', 'email', 'city', 'state', 'zipcode', 'streetAddress'] as const) {
		const v = text(o, name);
		if (v !== undefined) out[name] = v;
	}
	if (out.phone && !/^\d+$/.test(out.phone)) throw invalidParam(`'phone' must be digits only, got '${out.phone}'`);
	if (out.phoneCode && !/^\d{1,4}$/.test(out.phoneCode)) throw invalidParam(`'phoneCode' must be the calling code without '+', got '${out.phoneCode}'`);
	if (out.phoneCountry && !/^[A-Za-z]{2}$/.test(out.phoneCountry)) throw invalidParam(`'phoneCountry' must be an ISO 3166-1 alpha-2 code, got '${out.phoneCountry}'`);
	if (out.phoneCountry) out.phoneCountry = out.phoneCountry.toUpperCase();
	if (out.email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(out.email)) throw invalidParam(`'email' is not an e-mail address: '${out.email}'`);
	return out;
}

function officeView(store: Store, office: Office): Record<string, unknown> {
	const d = orgState(store).officeDetails.get(office.id.toString());
	return {
		id: office.id,
		parentId: office.parentId,
		name: office.name,
		phone: d?.phone ?? '',
		phoneCode: d?.phoneCode ?? '',
		phoneCountry: d?.phoneCountry ?? '',
		email: d?.email ?? '',
		city: office.city,
		state: office.state,
		zipcode: d?.zipcode ?? '',
		streetAddress: d?.streetAddress ?? '',
		allowManageSub: d?.allowManageSub ?? false,
	};
}

/** The caller may manage this office (or create below it): MANAGE_ORGANIZATION, or the department variant within its reach. */
function requireOrgPermission(store: Store, user: User, officeId: bigint | null): void {
	const level = permissionLevel(store, user, 'MANAGE_ORGANIZATION');
	if (level === 'company') return;
	if (level === 'department' && officeId !== null && inDepartment(store, user, officeId)) return;
	throw denied('managing the organization needs MANAGE_ORGANIZATION (or MANAGE_ORGANIZATION_DEPARTMENT for your own offices)');
}

function parentOf(store: Store, user: User, raw: unknown): bigint {
	if (raw === undefined || raw === null) return 0n;
	const id = toInt64(raw);
	if (id === null || id === undefined) throw invalidParam(`'parentId' must be an integer, got '${String(raw)}'`);
	if (id === 0n) return 0n;
	const parent = store.offices.get(id.toString());
	if (!parent || parent.teamId !== user.teamId) throw invalidParam(`'parentId' ${id} is not an office of the team`);
	return id;
}

function createOffice(ctx: Ctx, o: Obj): Reply {
	const { store, user } = ctx;
	const name = text(o, 'name');
	if (!name) throw invalidParam("'name' is required to create an office");
	const parentId = parentOf(store, user, o.parentId);
	requireOrgPermission(store, user, parentId === 0n ? null : parentId);
	const c = contact(o);
	const state = orgState(store);
	const id = state.nextOfficeId++;
	const office = store.addOffice({ id, teamId: user.teamId, parentId, name, city: c.city ?? '', state: c.state ?? '' });
	const details: OfficeDetails = {
		phone: c.phone ?? '',
		phoneCode: c.phoneCode ?? '',
		phoneCountry: c.phoneCountry ?? '',
		email: c.email ?? '',
		zipcode: c.zipcode ?? '',
		streetAddress: c.streetAddress ?? '',
		allowManageSub: o.allowManageSub === true,
	};
	state.officeDetails.set(id.toString(), details);
	return ok(officeView(store, office));
}

function updateOffice(ctx: Ctx, o: Obj, id: bigint): Reply {
	const { store, user } = ctx;
	const office = store.offices.get(id.toString());
	if (!office || office.teamId !== user.teamId) throw new ApiError(404, Codes.RESOURCE_NOT_EXIST, `Office ${id} does not exist`);
	requireOrgPermission(store, user, office.id);
	const name = text(o, 'name');
	if (name !== undefined && !name) throw invalidParam("'name' must not be blank");
	let parentId = office.parentId;
	if (o.parentId !== undefined) {
		parentId = parentOf(store, user, o.parentId);
		if (parentId !== 0n && store.officeTree(office.id, true).has(parentId)) {
			throw invalidParam(`'parentId' ${parentId} is the office itself or one of its sub-offices`);
		}
		if (parentId !== office.parentId) requireOrgPermission(store, user, parentId === 0n ? null : parentId);
	}
	const c = contact(o);
	const state = orgState(store);
	const d = state.officeDetails.get(office.id.toString()) ?? { phone: '', phoneCode: '', phoneCountry: '', email: '', zipcode: '', streetAddress: '', allowManageSub: false };
	if (name) office.name = name;
	office.parentId = parentId;
	if (c.city !== undefined) office.city = c.city;
	if (c.state !== undefined) office.state = c.state;
	for (const k of ['phone', 'phoneCode', 'phoneCountry', 'email', 'zipcode', 'streetAddress'] as const) if (c[k] !== undefined) d[k] = c[k]!;
	if (typeof o.allowManageSub === 'boolean') d.allowManageSub = o.allowManageSub;
	state.officeDetails.set(office.id.toString(), d);
	return ok(officeView(store, office));
}

/**
 * Which office write creates follows the officeCreate reading. The spec's: POST creates without `id` and
 * updates with it; PUT ("office write") updates and needs the id. The OpenAPI's: PUT "Add Office" creates
 * (id ignored), POST "Update Office" needs the id (404 "Office does not exist" without it).
 */
function officeWrite(ctx: Ctx, method: 'PUT' | 'POST'): Reply {
	const o = bodyObject(ctx);
	const openapi = readingsOf(ctx.store).get('officeCreate') === 'openapi';
	if (openapi && method === 'PUT') return createOffice(ctx, o);
	if (o.id === undefined || o.id === null) {
		if (!openapi && method === 'POST') return createOffice(ctx, o);
		if (openapi) throw new ApiError(404, Codes.RESOURCE_NOT_EXIST, 'Office does not exist: the office id is required to update an office');
		throw invalidParam("'id' is required: PUT /v1.0/org/office changes an existing office");
	}
	const id = toInt64(o.id);
	if (id === null || id === undefined || id < 1n) throw invalidParam(`'id' must be a positive integer, got '${String(o.id)}'`);
	return updateOffice(ctx, o, id);
}

function getOrg(ctx: Ctx): Reply {
	const { store, user } = ctx;
	const state = orgState(store);
	const office = store.offices.get(user.groupId.toString());
	const profile = state.profileOf(user);
	const level = permissionLevel(store, user, 'MANAGE_ORGANIZATION');
	let visible: Office[] = [];
	if (level === 'company') visible = [...store.offices.values()].filter((o) => o.teamId === user.teamId);
	else if (level === 'department') {
		const tree = store.officeTree(user.groupId, true);
		visible = [...store.offices.values()].filter((o) => o.id !== user.groupId && tree.has(o.id));
	}
	return {
		body: {
			// The OpenAPI types orgType as an integer but names its values MULTI_TEAM and SIGNAL_INSTANCE;
			// the sandbox team is a single instance (enterpriseInfo present, multiTeamInfo absent).
			orgType: 'SIGNAL_INSTANCE',
			enterpriseInfo: {
				groupId: user.groupId,
				groupName: office?.name ?? '',
				profileId: profile.id,
				profileName: profile.name,
				visibleOrgInfoList: visible
					.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
					.map((o) => ({ groupId: o.id, groupName: o.name, parentId: o.parentId })),
			},
		},
	};
}

function updateCompany(ctx: Ctx): Reply {
	const { store, user } = ctx;
	const o = bodyObject(ctx);
	if (permissionLevel(store, user, 'MANAGE_ORGANIZATION') !== 'company') {
		throw denied('updating the company needs MANAGE_ORGANIZATION');
	}
	const name = text(o, 'name');
	if (name !== undefined && !name) throw invalidParam("'name' must not be blank");
	const header = text(o, 'header');
	const c = contact(o);
	const company = orgState(store).company;
	Object.assign(company, c);
	if (name) company.name = name;
	if (header !== undefined) company.header = header;
	// A pure acknowledgement: the envelope without data.
	return ok();
}

function profiles(ctx: Ctx): Reply {
	const { store, user } = ctx;
	if (!hasPermission(store, user, PERM.MANAGE_TEAM_AGENT) && !hasPermission(store, user, PERM.MANAGE_PERMISSION_PROFILE)) {
		throw new ApiError(400, ORG_CODES.VENDOR_HAS_NO_PERMISSION, 'VENDOR_HAS_NO_PERMISSION: reading permission profiles needs MANAGE_TEAM_AGENT or MANAGE_PERMISSION_PROFILE');
	}
	return { body: orgState(store).profiles.map((p) => ({ id: p.id, name: p.name })) };
}

export const organizationRoutes: Route[] = [
	{ method: 'GET', pattern: '/v1.0/org', handler: getOrg },
	{ method: 'POST', pattern: '/v1.0/org/company', body: 'json', handler: updateCompany },
	{ method: 'PUT', pattern: '/v1.0/org/office', body: 'json', handler: (ctx) => officeWrite(ctx, 'PUT') },
	{ method: 'POST', pattern: '/v1.0/org/office', body: 'json', handler: (ctx) => officeWrite(ctx, 'POST') },
	{ method: 'GET', pattern: '/v1.0/org/permission/profiles', handler: profiles },
];

/** Builds the organization state from the seeded team (profiles, offices) before any request changes it. */
export function seedOrganization(store: Store): void {
	orgState(store);
}
