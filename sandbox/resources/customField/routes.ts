/**
 * Lead custom fields of a team (CustomAttribute in the OpenAPI):
 * - GET  /v1.0/teamFeatures/listCustomField: bare array of the team's definitions;
 * - POST /v1.0/teamFeatures/custom-field: adds one; answers the JSON string "success".
 *
 * Rules from the OpenAPI: attributeName is trimmed and required (400 ATTRIBUTE_NAME_EMPTY);
 * attributeType is required (400 ATTRIBUTE_TYPE_EMPTY) and one of text, number, date,
 * anniversary_date, single_select, multi_select, percentage, currency; `params` holds the
 * options of a select as the JSON text `{"option":[...]}`; `value` is unnecessary here.
 *
 * Where the spec is silent: an unsupported type, a `params` text that is not `{"option":[strings]}`,
 * and a name the team already has (case-insensitive) give 400 INVALID_PARAMETER (20012).
 * Definitions also carry an `id` (the OpenAPI description speaks of "the returned IDs").
 */
import { ApiError, invalidParam } from '../../core/errors';
import { parseJson } from '../../core/json';
import { asObject } from '../../core/params';
import type { Route } from '../../core/router';
import { SEED_IDS } from '../../core/seed';
import type { Store } from '../../core/store';

export const CUSTOM_FIELD_TYPES = ['text', 'number', 'date', 'anniversary_date', 'single_select', 'multi_select', 'percentage', 'currency'] as const;
export const SELECT_TYPES = ['single_select', 'multi_select'];

export interface CustomFieldDef {
	id: bigint;
	teamId: bigint;
	attributeName: string;
	attributeType: string;
	/** `{"option":[...]}` as text for select types, otherwise null */
	params: string | null;
	createTime: number;
}

export class CustomFieldState {
	fields: CustomFieldDef[] = [];
	nextId = 9007199254770001n;
}

export const customFieldState = (store: Store): CustomFieldState => store.ext('customField', () => new CustomFieldState());

export function seedCustomField(store: Store): void {
	const state = customFieldState(store);
	const teamId = BigInt(SEED_IDS.teamId);
	const t = Date.UTC(2024, 1, 1);
	const add = (id: bigint, attributeName: string, attributeType: string, options?: string[]) =>
		state.fields.push({ id, teamId, attributeName, attributeType, params: options ? JSON.stringify({ option: options }) : null, createTime: t });
	add(9007199254740997n, 'Preferred School District', 'text');
	add(7100002n, 'Budget Ceiling', 'currency');
	add(7100003n, 'Move-In Date', 'date');
	add(7100004n, 'Home Anniversary', 'anniversary_date');
	add(7100005n, 'Financing', 'single_select', ['Cash', 'Conventional', 'FHA', 'VA']);
	add(7100006n, 'Must-Haves', 'multi_select', ['Pool', 'Garage', 'Yard', 'Home Office']);
	add(7100007n, 'Down Payment', 'percentage');
	add(7100008n, 'Household Size', 'number');
	state.fields.push({ id: 7100099n, teamId: 99001n, attributeName: 'Other Team Field', attributeType: 'text', params: null, createTime: t });
}

const blank = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

function checkParams(raw: unknown): string | null {
	if (raw === undefined || raw === null || raw === '') return null;
	if (typeof raw !== 'string') throw invalidParam("'params' must be a string such as {\"option\":[\"item1\",\"item2\"]}");
	let parsed: unknown;
	try {
		parsed = parseJson(raw);
	} catch {
		throw invalidParam("'params' must be the JSON text {\"option\":[\"item1\",\"item2\"]}");
	}
	const option = (parsed as { option?: unknown } | null)?.option;
	if (!Array.isArray(option) || option.some((o) => typeof o !== 'string')) {
		throw invalidParam("'params' must be the JSON text {\"option\":[\"item1\",\"item2\"]}");
	}
	return raw;
}

export const customFieldRoutes: Route[] = [
	{
		method: 'GET',
		pattern: '/v1.0/teamFeatures/listCustomField',
		handler: ({ store, user }) => ({
			body: customFieldState(store)
				.fields.filter((f) => f.teamId === user.teamId)
				.map((f) => ({ id: f.id, attributeName: f.attributeName, attributeType: f.attributeType, value: null, params: f.params })),
		}),
	},
	{
		method: 'POST',
		pattern: '/v1.0/teamFeatures/custom-field',
		body: 'json',
		handler: ({ body, store, user, now }) => {
			const o = asObject(body);
			if (blank(o.attributeName)) throw new ApiError(400, 'ATTRIBUTE_NAME_EMPTY', 'attributeName must not be empty');
			if (typeof o.attributeName !== 'string') throw invalidParam("'attributeName' must be a string");
			if (blank(o.attributeType)) throw new ApiError(400, 'ATTRIBUTE_TYPE_EMPTY', 'attributeType must not be empty');
			const name = o.attributeName.trim();
			const type = String(o.attributeType).trim();
			if (!(CUSTOM_FIELD_TYPES as readonly string[]).includes(type)) {
				throw invalidParam(`'attributeType' must be one of ${CUSTOM_FIELD_TYPES.join(', ')}, got '${type}'`);
			}
			const params = checkParams(o.params);
			const state = customFieldState(store);
			if (state.fields.some((f) => f.teamId === user.teamId && f.attributeName.toLowerCase() === name.toLowerCase())) {
				throw invalidParam(`the team already has a custom field named '${name}'`);
			}
			state.fields.push({ id: state.nextId++, teamId: user.teamId, attributeName: name, attributeType: type, params, createTime: now });
			return { body: 'success' };
		},
	},
];
