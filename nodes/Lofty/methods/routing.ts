import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { loftyRequest } from '../transport/request';
import type { MethodSet } from './types';

const ASSISTANT_LEAD = '4';

/** A parameter of the node being edited, or the fallback when it is not set (or not shown). */
function current(ctx: ILoadOptionsFunctions, name: string, fallback: string): string {
	try {
		const value = ctx.getCurrentNodeParameter(name);
		return value === undefined || value === null || value === '' ? fallback : String(value);
	} catch {
		return fallback;
	}
}

async function list(ctx: ILoadOptionsFunctions, path: string, roleId?: string): Promise<IDataObject[]> {
	const response = await loftyRequest(ctx, { method: 'GET', path, qs: roleId ? { roleId } : undefined });
	return Array.isArray(response) ? (response as IDataObject[]) : [];
}

const byName = (a: INodePropertyOptions, b: INodePropertyOptions) => a.name.localeCompare(b.name);

/** Assign roles of the team (the roles of business type 4, assistant leads). */
export async function getRoutingRoles(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const roles = await list(this, '/v1.0/routing/role/list');
	return roles.map((r) => ({ name: String(r.name ?? r.id), value: String(r.id) })).sort(byName);
}

/**
 * Runs `fetch` for the chosen business type; for assistant leads without a chosen role, for every
 * role (Lofty needs a role there).
 */
async function perRole(ctx: ILoadOptionsFunctions, fetch: (type: string, roleId?: string) => Promise<IDataObject[]>): Promise<IDataObject[]> {
	const type = current(ctx, 'type', '1');
	if (type !== ASSISTANT_LEAD) return await fetch(type);
	const chosen = current(ctx, 'options.roleId', current(ctx, 'updateFields.roleId', current(ctx, 'additionalFields.roleId', '')));
	const roles = chosen ? [chosen] : (await list(ctx, '/v1.0/routing/role/list')).map((r) => String(r.id));
	const all: IDataObject[] = [];
	for (const roleId of roles) all.push(...(await fetch(type, roleId)));
	return all;
}

/** Members routing may assign for the business type chosen in the node (by user ID). */
export async function getRoutingMembers(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const members = await perRole(this, async (type, roleId) => await list(this, `/v1.0/routing/member/list/${type}`, roleId));
	const seen = new Map<string, string>();
	for (const m of members) seen.set(String(m.id), String(m.name ?? m.id));
	return [...seen.entries()].map(([value, name]) => ({ name, value })).sort(byName);
}

/** Routing rules of the business type chosen in the node. */
export async function getRoutingRules(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const rules = await perRole(this, async (type, roleId) => await list(this, `/v1.0/routing/rule/list/${type}`, roleId));
	return rules.map((r) => ({ name: String(r.name ?? r.id), value: String(r.id) })).sort(byName);
}

/** List searches (resource locators) and dropdowns of the Routing resource. */
export const routingMethods: MethodSet = { listSearch: {}, loadOptions: { getRoutingRoles, getRoutingMembers, getRoutingRules } };
