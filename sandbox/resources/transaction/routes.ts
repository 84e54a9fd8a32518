/**
 * Transaction endpoints, written from api-spec.md (Resources > Transaction; POST and PUT
 * /v1.0/leads/{leadId}/transaction; GET /v2.0/transactions and pipelines; Errors) and the OpenAPI
 * (LeadTransaction, LeadTransactionPropertyAddress, IncomingTransaction, Contacts, TransactionV2*,
 * and the error codes in the response descriptions):
 *
 * - V1 per lead: create, get, update, list (bare array), property address get / update, custom fields.
 * - V2: search (pageNum 0-based, pageSize 1..100 default 20, transactionType default Purchase,
 *   case-insensitive, `All` for every type) and pipelines.
 * - Brokermint callbacks: PUT /v1.0/brokermint/transaction and PUT /v1.0/brokermint/lead, which answer
 *   HTTP 200 with a non-zero `code` when the record is not linked.
 *
 * Codes: numeric where the OpenAPI gives a number and the spec names only the code (errors.ts rule):
 * 200060 TRANSACTION_NOT_EXIST (404), 200062 TRANSACTION_NAME_BLANK / TRANSACTION_NAME_HTML (400),
 * 200125 TRANSACTION_STATUS_INVALID (400), 20012 INVALID_PARAMETER, 20042 LIMIT_NOT_VALID; lead access
 * uses the shared LEAD_NOT_EXIST (404) helper.
 */
import { SEED_IDS } from '../../core/seed';
import { emitTransaction } from '../webhook/delivery/emit';
import { ApiError, Codes, invalidParam } from '../../core/errors';
import { stringifyJson } from '../../core/json';
import { type Obj, asObject, int64Param, intParam, optBool, optInt64, optNumber, optString, pathId } from '../../core/params';
import type { Ctx, Route } from '../../core/router';
import type { SandboxModule } from '../../core/module';
import type { Store } from '../../core/store';
import type { Lead } from '../../core/types';
import { accessibleLead } from '../lead/access';

export const TX_CODES = {
	TRANSACTION_NOT_EXIST: 200060,
	TRANSACTION_NAME: 200062,
	TRANSACTION_STATUS_INVALID: 200125,
	LIMIT_NOT_VALID: 20042,
	LEAD_NOT_EXIST: 20006,
} as const;

export const TRANSACTION_TYPES = ['Purchase', 'Listing', 'Lease', 'Other'] as const;
const PAY_TYPES = ['TEAM', 'AGENT', 'VENDOR_PARTNER', 'LEAD', 'OTHER', 'BROKERAGE', 'UPLINE'];
const NUMBER_FIELDS = ['homePrice', 'commissionRate', 'gci', 'teamRevenue', 'agentRevenue'] as const;
const DATE_FIELDS = [
	'expectedCloseDate',
	'closeDate',
	'appointmentDate',
	'agreementSignedDate',
	'offerDate',
	'contractDate',
	'appraisalDate',
	'homeInspectionDate',
	'escrowDate',
	'expiration',
] as const;
const ADDRESS_FIELDS = ['unit', 'label', 'state', 'city', 'zipCode', 'streetAddress', 'county'] as const;

export interface PipelineStage {
	id: bigint;
	name: string;
	default: boolean;
}
export interface Pipeline {
	transactionType: string;
	stages: PipelineStage[];
}
export interface CustomFieldDef {
	id: bigint;
	name: string;
	type: string;
	params: string | null;
}
export type Address = Record<(typeof ADDRESS_FIELDS)[number], string | null>;
export interface Commission {
	id?: bigint;
	splitPayType?: string;
	splitPayTo?: bigint;
	splitPayToName?: string;
	payType?: string;
	payTo?: bigint;
	payToName?: string;
	value?: number;
	calculateType?: string;
	desc?: string;
}
export interface Commissions {
	preSplit: Commission[];
	split: Commission[];
	postSplit: Commission[];
}

export interface Transaction {
	transactionId: bigint;
	leadId: bigint;
	propertyId: bigint;
	transactionName: string;
	transactionType: string;
	transactionStatus: string;
	assignedAgent: bigint;
	/** home price, commission rate, GCI and its portions; the ten dates (epoch ms) */
	values: Record<string, number | null>;
	customFields: Array<{ id: bigint; value: string | null }>;
	commissions: Commissions;
	created: number;
	updated: number;
	deleted: boolean;
	address: Address | null;
	/** linked to Brokermint through the Lofty UI (the sync callback works only then) */
	brokermintLinked: boolean;
}

export class TransactionState {
	transactions = new Map<string, Transaction>();
	pipelines: Pipeline[] = [];
	customFields: CustomFieldDef[] = [];
	/** Brokermint contact id (externalId) -> linked Lofty lead */
	brokermintContacts = new Map<string, bigint>();
	/** Brokermint-only contact attributes (contactType, bmPrivate) by lead */
	brokermintInfo = new Map<string, Obj>();
	nextTransactionId = 9007199255900001n;
	nextPropertyId = 81000001n;
	nextStageId = 9007199254990001n;

	get(id: bigint): Transaction | undefined {
		return this.transactions.get(id.toString());
	}

	add(tx: Transaction): Transaction {
		this.transactions.set(tx.transactionId.toString(), tx);
		return tx;
	}

	pipelineOf(type: string): Pipeline | undefined {
		return this.pipelines.find((p) => p.transactionType === type);
	}

	stageOf(type: string, name: string): PipelineStage | undefined {
		const wanted = name.trim().toLowerCase();
		return this.pipelineOf(type)?.stages.find((s) => s.name.toLowerCase() === wanted);
	}

	firstStage(type: string): string {
		const pipeline = this.pipelineOf(type);
		return (pipeline?.stages.find((s) => s.default) ?? pipeline?.stages[0])?.name ?? '';
	}
}

/** The module's state in a store (tests use it to arrange data). */
export const transactionState = (store: Store): TransactionState => store.ext('transaction', () => new TransactionState());

// ---------- errors ----------

const txNotExist = (id: bigint | string): ApiError =>
	new ApiError(404, TX_CODES.TRANSACTION_NOT_EXIST, `TRANSACTION_NOT_EXIST: transaction ${String(id)} does not exist or does not belong to this lead`);
const nameBlank = (): ApiError => new ApiError(400, TX_CODES.TRANSACTION_NAME, 'TRANSACTION_NAME_BLANK: transactionName must not be blank');
const nameHtml = (): ApiError => new ApiError(400, TX_CODES.TRANSACTION_NAME, "TRANSACTION_NAME_HTML: transactionName must not contain '<' or '>'");
const statusInvalid = (status: string, type: string): ApiError =>
	new ApiError(400, TX_CODES.TRANSACTION_STATUS_INVALID, `TRANSACTION_STATUS_INVALID: '${status}' is not a stage of the ${type} pipeline`);

// ---------- views ----------

function leadName(lead: Lead | undefined): string {
	return lead ? [lead.firstName, lead.lastName].filter(Boolean).join(' ') : '';
}

function valueFields(tx: Transaction): Record<string, number | null> {
	const out: Record<string, number | null> = {};
	for (const f of [...NUMBER_FIELDS, ...DATE_FIELDS]) out[f] = tx.values[f] ?? null;
	return out;
}

/** LeadTransaction as the V1 endpoints answer it. */
export function transactionView(tx: Transaction, store: Store): Record<string, unknown> {
	const v = valueFields(tx);
	return {
		created: tx.created,
		updated: tx.updated,
		transactionId: tx.transactionId,
		transactionName: tx.transactionName,
		leadName: leadName(store.getLead(tx.leadId)),
		assignedAgent: tx.assignedAgent,
		transactionType: tx.transactionType,
		homePrice: v.homePrice,
		transactionStatus: tx.transactionStatus,
		expectedCloseDate: v.expectedCloseDate,
		closeDate: v.closeDate,
		commissionRate: v.commissionRate,
		gci: v.gci,
		teamRevenue: v.teamRevenue,
		agentRevenue: v.agentRevenue,
		appointmentDate: v.appointmentDate,
		agreementSignedDate: v.agreementSignedDate,
		offerDate: v.offerDate,
		contractDate: v.contractDate,
		appraisalDate: v.appraisalDate,
		homeInspectionDate: v.homeInspectionDate,
		escrowDate: v.escrowDate,
		expiration: v.expiration,
		customFields: tx.customFields.map((c) => ({ id: c.id, value: c.value })),
		commissions: tx.commissions,
	};
}

/** TransactionV2Item of the V2 search. */
function transactionV2View(tx: Transaction, store: Store): Record<string, unknown> {
	const agent = store.getUser(tx.assignedAgent);
	const v1 = transactionView(tx, store);
	delete v1.commissions;
	return {
		...v1,
		leadId: tx.leadId,
		propertyId: tx.propertyId,
		agentName: agent ? `${agent.firstName} ${agent.lastName}`.trim() : '',
	};
}

// ---------- request body readers ----------

function readEpochMs(o: Obj, name: string): number | null | undefined {
	const v = o[name];
	if (v === undefined) return undefined;
	if (v === null) return null;
	if (typeof v === 'number' && Number.isInteger(v)) return v;
	if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return Number(v.trim());
	throw invalidParam(`'${name}' must be epoch milliseconds (an integer such as 1508580010000), got '${typeof v === 'string' ? v : JSON.stringify(String(v))}'`);
}

function readCommissionList(raw: unknown, where: string): Commission[] {
	if (raw === undefined || raw === null) return [];
	if (!Array.isArray(raw)) throw invalidParam(`'${where}' must be an array`);
	return raw.map((entry, i) => {
		const o = asObject(entry, `'${where}[${i}]'`);
		const at = `${where}[${i}]`;
		const c: Commission = {};
		for (const name of ['payType', 'splitPayType'] as const) {
			const v = optString(o, name);
			if (v !== undefined && !PAY_TYPES.includes(v)) throw invalidParam(`'${at}.${name}' must be one of ${PAY_TYPES.join(', ')}, got '${v}'`);
			if (v !== undefined) c[name] = v;
		}
		const calc = optString(o, 'calculateType');
		if (calc !== undefined && calc !== 'PERCENT' && calc !== 'AMOUNT') throw invalidParam(`'${at}.calculateType' must be PERCENT or AMOUNT, got '${calc}'`);
		if (calc !== undefined) c.calculateType = calc;
		for (const name of ['id', 'payTo', 'splitPayTo'] as const) {
			const v = optInt64(o, name);
			if (v !== undefined) c[name] = v;
		}
		for (const name of ['payToName', 'splitPayToName', 'desc'] as const) {
			const v = optString(o, name);
			if (v !== undefined) c[name] = v;
		}
		const value = optNumber(o, 'value');
		if (value !== undefined) c.value = value;
		return c;
	});
}

function readCommissions(raw: unknown): Commissions {
	const o = asObject(raw, "'commissions'");
	return {
		preSplit: readCommissionList(o.preSplit, 'commissions.preSplit'),
		split: readCommissionList(o.split, 'commissions.split'),
		postSplit: readCommissionList(o.postSplit, 'commissions.postSplit'),
	};
}

function readCustomFields(raw: unknown, state: TransactionState): Array<{ id: bigint; value: string | null }> {
	if (raw === null) return [];
	if (!Array.isArray(raw)) throw invalidParam("'customFields' must be an array of {id, value}");
	return raw.map((entry, i) => {
		const o = asObject(entry, `'customFields[${i}]'`);
		const id = optInt64(o, 'id');
		if (id === undefined) throw invalidParam(`'customFields[${i}].id' is required`);
		if (!state.customFields.some((f) => f.id === id)) throw invalidParam(`custom field ${id} does not exist (see GET /v1.0/transaction/customfields)`);
		const v = o.value;
		const value = v === undefined || v === null ? null : typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean' ? String(v) : undefined;
		if (value === undefined) throw invalidParam(`'customFields[${i}].value' must be a string`);
		return { id, value };
	});
}

/** The name rules: not blank, no `<` or `>`. */
function checkName(o: Obj, required: boolean): string | undefined {
	const raw = o.transactionName;
	if (raw === undefined || raw === null) {
		if (required) throw nameBlank();
		return undefined;
	}
	if (typeof raw !== 'string') throw invalidParam("'transactionName' must be a string");
	if (raw.trim() === '') throw nameBlank();
	if (/[<>]/.test(raw)) throw nameHtml();
	return raw.trim();
}

/** Applies the plain value fields, custom fields and commissions present in the body. */
function applyValues(tx: Transaction, o: Obj, state: TransactionState): void {
	for (const f of NUMBER_FIELDS) {
		if (o[f] === null) tx.values[f] = null;
		else {
			const v = optNumber(o, f);
			if (v !== undefined) tx.values[f] = v;
		}
	}
	for (const f of DATE_FIELDS) {
		const v = readEpochMs(o, f);
		if (v !== undefined) tx.values[f] = v;
	}
	// Custom fields: full coverage, the list given replaces every value.
	if (o.customFields !== undefined) tx.customFields = readCustomFields(o.customFields, state);
	if (o.commissions !== undefined && o.commissions !== null) tx.commissions = readCommissions(o.commissions);
}

/** A type the team has a pipeline for, or the first pipeline's (silent fallback on write). */
function resolveType(state: TransactionState, raw: unknown): string {
	return typeof raw === 'string' && state.pipelineOf(raw) ? raw : state.pipelines[0].transactionType;
}

function findTransaction(ctx: Ctx, lead: Lead, raw: string | bigint): Transaction {
	const id = typeof raw === 'bigint' ? raw : pathId(raw, 'transactionId');
	const tx = transactionState(ctx.store).get(id);
	if (!tx || tx.deleted || tx.leadId !== lead.leadId) throw txNotExist(id);
	return tx;
}

function parseIsoDate(o: Obj, name: string): number | undefined {
	const v = optString(o, name);
	if (v === undefined || v.trim() === '') return undefined;
	const ms = Date.parse(v);
	if (Number.isNaN(ms)) throw invalidParam(`'${name}' must be an ISO 8601 date-time such as 2026-01-31T09:00:00Z, got '${v}'`);
	return ms;
}

// ---------- routes ----------

const routes: Route[] = [
	{
		method: 'POST',
		pattern: '/v1.0/leads/{leadId}/transaction',
		body: 'json',
		handler: (ctx) => {
			const lead = accessibleLead(ctx);
			const state = transactionState(ctx.store);
			const o = asObject(ctx.body);
			const name = checkName(o, true)!;
			// Type: exact (case-sensitive) or the first pipeline; status: a stage of the type, or its first stage.
			const type = resolveType(state, o.transactionType);
			const askedStatus = optString(o, 'transactionStatus');
			const stage = askedStatus !== undefined ? state.stageOf(type, askedStatus) : undefined;
			// transactionId, created, updated, leadName and assignedAgent of the body are ignored.
			const tx: Transaction = {
				transactionId: state.nextTransactionId++,
				leadId: lead.leadId,
				propertyId: state.nextPropertyId++,
				transactionName: name,
				transactionType: type,
				transactionStatus: stage?.name ?? state.firstStage(type),
				assignedAgent: lead.assignedUserId ?? ctx.user.userId,
				values: {},
				customFields: [],
				commissions: { preSplit: [], split: [], postSplit: [] },
				created: ctx.now,
				updated: ctx.now,
				deleted: false,
				address: null,
				brokermintLinked: false,
			};
			applyValues(tx, o, state);
			state.add(tx);
			emitTransaction(ctx.store, 'created', tx, lead.teamId, ctx.now);
			return { body: transactionView(tx, ctx.store) };
		},
	},
	{
		method: 'GET',
		pattern: '/v1.0/leads/{leadId}/transaction/{transactionId}',
		handler: (ctx) => {
			const lead = accessibleLead(ctx);
			return { body: transactionView(findTransaction(ctx, lead, ctx.params.transactionId), ctx.store) };
		},
	},
	{
		method: 'PUT',
		pattern: '/v1.0/leads/{leadId}/transaction/{transactionId}',
		body: 'json',
		handler: (ctx) => {
			const lead = accessibleLead(ctx);
			const tx = findTransaction(ctx, lead, ctx.params.transactionId);
			const state = transactionState(ctx.store);
			const o = asObject(ctx.body);
			const name = checkName(o, false);
			const type = o.transactionType !== undefined && o.transactionType !== null ? resolveType(state, o.transactionType) : tx.transactionType;
			const askedStatus = optString(o, 'transactionStatus');
			let status = tx.transactionStatus;
			if (askedStatus !== undefined) {
				const stage = state.stageOf(type, askedStatus);
				if (!stage) throw statusInvalid(askedStatus, type);
				status = stage.name;
			} else if (!state.stageOf(type, status)) {
				status = state.firstStage(type);
			}
			// Validate everything before changing anything.
			const draft: Transaction = { ...tx, values: { ...tx.values } };
			applyValues(draft, o, state);
			const before = transactionView(tx, ctx.store) as Record<string, unknown>;
			Object.assign(tx, draft, {
				transactionName: name ?? tx.transactionName,
				transactionType: type,
				transactionStatus: status,
				updated: ctx.now,
			});
			const after = transactionView(tx, ctx.store) as Record<string, unknown>;
			const changed: Record<string, unknown> = {};
			for (const [field, value] of Object.entries(after)) {
				if (field !== 'updated' && stringifyJson(value) !== stringifyJson(before[field])) changed[field] = value;
			}
			emitTransaction(ctx.store, 'updated', tx, lead.teamId, ctx.now, changed);
			return { body: transactionView(tx, ctx.store) };
		},
	},
	{
		method: 'GET',
		pattern: '/v1.0/leads/{leadId}/transactions',
		handler: (ctx) => {
			const lead = accessibleLead(ctx);
			const list = [...transactionState(ctx.store).transactions.values()]
				.filter((tx) => tx.leadId === lead.leadId && !tx.deleted)
				.sort((a, b) => b.created - a.created || (a.transactionId < b.transactionId ? 1 : -1));
			return { body: list.map((tx) => transactionView(tx, ctx.store)) };
		},
	},
	{
		method: 'GET',
		pattern: '/v1.0/leads/{leadId}/transaction/{transactionId}/property/address',
		handler: (ctx) => {
			const lead = accessibleLead(ctx);
			const tx = findTransaction(ctx, lead, ctx.params.transactionId);
			if (!tx.address) throw new ApiError(404, Codes.RESOURCE_NOT_EXIST, `RESOURCE_NOT_EXIST: transaction ${tx.transactionId} has no property address`);
			return { body: { transactionId: tx.transactionId, ...tx.address } };
		},
	},
	{
		method: 'POST',
		pattern: '/v1.0/leads/{leadId}/transaction/property/address',
		body: 'json',
		handler: (ctx) => {
			const lead = accessibleLead(ctx);
			const o = asObject(ctx.body);
			const id = optInt64(o, 'transactionId');
			if (id === undefined) throw invalidParam("'transactionId' is required in the request body");
			const tx = findTransaction(ctx, lead, id);
			// Full replacement: omitted fields become null.
			const address = {} as Address;
			for (const f of ADDRESS_FIELDS) address[f] = optString(o, f) ?? null;
			tx.address = address;
			tx.updated = ctx.now;
			return { body: { code: 0, message: 'success' } };
		},
	},
	{
		method: 'GET',
		pattern: '/v1.0/transaction/customfields',
		handler: (ctx) => ({
			body: transactionState(ctx.store).customFields.map((f) => ({ id: f.id, name: f.name, type: f.type, params: f.params })),
		}),
	},
	{
		method: 'GET',
		pattern: '/v2.0/transactions',
		handler: (ctx) => {
			const { query, store, user } = ctx;
			const pageSize = intParam(query, 'pageSize', {
				def: 20,
				min: 1,
				max: 100,
				outOfRange: (raw) => new ApiError(400, TX_CODES.LIMIT_NOT_VALID, `LIMIT_NOT_VALID: pageSize must be between 1 and 100, got '${raw}'`),
			});
			const pageNum = intParam(query, 'pageNum', { def: 0, min: 0 });
			const rawType = query.get('transactionType')?.trim() || 'Purchase';
			const type = [...TRANSACTION_TYPES, 'All'].find((t) => t.toLowerCase() === rawType.toLowerCase());
			if (!type) throw invalidParam(`unknown transactionType '${rawType}'; use Purchase, Listing, Lease, Other or All`);
			const leadId = int64Param(query, 'leadId', false);
			const key = (query.get('queryKey') ?? '').trim().slice(0, 15).toLowerCase();
			const all = [...transactionState(store).transactions.values()]
				.filter((tx) => {
					if (tx.deleted) return false;
					const lead = store.getLead(tx.leadId);
					if (!lead || lead.deletedAt !== null || !store.canAccess(user.userId, lead)) return false;
					if (type !== 'All' && tx.transactionType !== type) return false;
					if (leadId !== undefined && tx.leadId !== leadId) return false;
					if (key) {
						const haystack = [tx.transactionName, tx.address?.streetAddress ?? '', leadName(lead)].map((s) => s.toLowerCase());
						if (!haystack.some((s) => s.includes(key))) return false;
					}
					return true;
				})
				.sort((a, b) => b.created - a.created || (a.transactionId < b.transactionId ? 1 : -1));
			const page = all.slice(pageNum * pageSize, pageNum * pageSize + pageSize);
			return { body: { pageNum, pageSize, totalCount: all.length, pageData: page.map((tx) => transactionV2View(tx, store)) } };
		},
	},
	{
		method: 'GET',
		pattern: '/v2.0/transactions/pipelines',
		handler: (ctx) => ({
			body: {
				pipelines: transactionState(ctx.store).pipelines.map((p) => ({
					transactionType: p.transactionType,
					stages: p.stages.map((s) => ({ id: s.id, name: s.name, default: s.default })),
				})),
			},
		}),
	},
	{
		method: 'PUT',
		pattern: '/v1.0/brokermint/transaction',
		body: 'json',
		handler: (ctx) => {
			const state = transactionState(ctx.store);
			const o = asObject(ctx.body);
			const id = optInt64(o, 'id');
			if (id === undefined) throw invalidParam("'id' (the Lofty transaction ID) is required");
			const tx = state.get(id);
			const lead = tx ? ctx.store.getLead(tx.leadId) : undefined;
			if (!tx || tx.deleted || !tx.brokermintLinked || !lead || lead.teamId !== ctx.user.teamId) {
				// The OpenAPI: HTTP 200 with code 200060 when the link is missing or the transaction was deleted.
				return { body: { code: TX_CODES.TRANSACTION_NOT_EXIST, message: `TRANSACTION_NOT_EXIST: no Brokermint-linked transaction ${id}` } };
			}
			const agentId = optInt64(o, 'agentId');
			const price = optNumber(o, 'price');
			const expiration = parseIsoDate(o, 'expirationDate');
			const closedAt = parseIsoDate(o, 'closedAt');
			const closing = parseIsoDate(o, 'closingDate');
			const address = ([['address', 'streetAddress'], ['city', 'city'], ['state', 'state'], ['zip', 'zipCode']] as const)
				.map(([from, to]) => [to, optString(o, from)] as const)
				.filter(([, v]) => v !== undefined);
			const type = optString(o, 'transactionType');
			const status = optString(o, 'status');
			// agentName, representing and acceptanceDate are ignored by the handler.
			if (agentId !== undefined) tx.assignedAgent = agentId;
			if (price !== undefined) tx.values.homePrice = price;
			if (expiration !== undefined) tx.values.expiration = expiration;
			if (closedAt !== undefined) tx.values.closeDate = closedAt;
			if (closing !== undefined) tx.values.expectedCloseDate = closing;
			if (address.length) {
				tx.address ??= Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, null])) as Address;
				for (const [field, value] of address) tx.address[field] = value!;
			}
			if (type !== undefined && (TRANSACTION_TYPES as readonly string[]).includes(type) && state.pipelineOf(type)) {
				tx.transactionType = type;
				if (!state.stageOf(type, tx.transactionStatus)) tx.transactionStatus = state.firstStage(type);
			}
			if (status === 'Closed' || status === 'Cancelled') {
				const stage = state.stageOf(tx.transactionType, status);
				if (stage) tx.transactionStatus = stage.name;
			}
			tx.updated = ctx.now;
			return { body: { code: 0, message: 'success' } };
		},
	},
	{
		method: 'PUT',
		pattern: '/v1.0/brokermint/lead',
		body: 'json',
		handler: (ctx) => {
			const state = transactionState(ctx.store);
			const o = asObject(ctx.body);
			const fields: Record<string, string | undefined> = {};
			for (const f of ['email', 'firstName', 'lastName', 'contactType', 'externalId', 'address', 'city', 'state', 'zip', 'phone', 'leadSource']) {
				fields[f] = optString(o, f);
			}
			const bmPrivate = optBool(o, 'bmPrivate');
			// The linked lead: by Brokermint contact id, else by e-mail among linked leads.
			let leadId = fields.externalId !== undefined ? state.brokermintContacts.get(fields.externalId.trim()) : undefined;
			if (leadId === undefined && fields.externalId === undefined && fields.email) {
				const email = fields.email.trim().toLowerCase();
				leadId = [...state.brokermintContacts.values()].find((id) =>
					ctx.store.getLead(id)?.emails.some((e) => e.toLowerCase() === email),
				);
			}
			const lead = leadId !== undefined ? ctx.store.getLead(leadId) : undefined;
			if (!lead || lead.deletedAt !== null || lead.teamId !== ctx.user.teamId) {
				return { body: { code: TX_CODES.LEAD_NOT_EXIST, message: 'LEAD_NOT_EXIST: no Lofty lead is linked to this Brokermint contact' } };
			}
			if (fields.firstName !== undefined) lead.firstName = fields.firstName.slice(0, 30);
			if (fields.lastName !== undefined) lead.lastName = fields.lastName.slice(0, 30);
			if (fields.email) lead.emails = [fields.email, ...lead.emails.filter((e) => e.toLowerCase() !== fields.email!.toLowerCase())];
			if (fields.phone) lead.phones = [fields.phone, ...lead.phones.filter((p) => p !== fields.phone)];
			if (fields.address !== undefined) lead.streetAddress = fields.address;
			if (fields.city !== undefined) lead.city = fields.city;
			if (fields.state !== undefined) lead.state = fields.state;
			if (fields.zip !== undefined) lead.zipCode = fields.zip;
			if (fields.leadSource !== undefined) lead.source = fields.leadSource;
			const info = state.brokermintInfo.get(lead.leadId.toString()) ?? {};
			if (fields.contactType !== undefined) info.contactType = fields.contactType;
			if (bmPrivate !== undefined) info.bmPrivate = bmPrivate;
			state.brokermintInfo.set(lead.leadId.toString(), info);
			lead.lastUpdateTime = ctx.now;
			return { body: { code: 0, message: 'success' } };
		},
	},
];

// ---------- seed ----------

/** Notable seeded records (exact digits; several above 2^53). */
export const TX_SEED = {
	/** Purchase, Under Contract, on SEED_IDS.bigLeadId; has a property address; linked to Brokermint */
	purchaseId: '9007199255800001',
	/** Listing on SEED_IDS.bigLeadId; no property address; not linked to Brokermint */
	listingId: '9007199255800003',
	/** Lease on SEED_IDS.bigLeadId, small ID */
	leaseId: '10001',
	/** deleted transaction of SEED_IDS.bigLeadId */
	deletedId: '9007199255800007',
	/** on the other agent's lead SEED_IDS.notSharedLeadId */
	notSharedId: '9007199255800009',
	/** on SEED_IDS.sharedLeadId (shared with the demo user) */
	sharedId: '9007199255800011',
	/** on the trashed lead SEED_IDS.trashedLeadId */
	trashedLeadTxId: '9007199255800013',
	/** bulk transactions on demo leads */
	bulkCount: 225,
	/** Brokermint contact linked to SEED_IDS.bigLeadId2 */
	brokermintContactId: 'BM-C-1001',
	/** custom field above 2^53 */
	bigCustomFieldId: '9007199254741234',
} as const;

const T0 = Date.UTC(2024, 0, 1);
const DAY = 86_400_000;
const STREETS = ['Barton Springs Rd', 'Lamar Blvd', 'Congress Ave', 'Cesar Chavez St', 'Riverside Dr', 'Guadalupe St', 'Burnet Rd', 'Mopac Expy'];

const PIPELINES: Array<[string, string[]]> = [
	['Purchase', ['Pre-contract', 'Under Contract', 'Pending', 'Closed', 'Cancelled']],
	['Listing', ['Pre-listing', 'Active Listing', 'Under Contract', 'Sold', 'Withdrawn']],
	['Lease', ['Application', 'Lease Signed', 'Move-in Complete', 'Cancelled']],
	['Other', ['Open', 'In Progress', 'Closed']],
];

function seed(store: Store): void {
	const state = transactionState(store);
	state.pipelines = PIPELINES.map(([transactionType, names]) => ({
		transactionType,
		stages: names.map((name, i) => ({ id: state.nextStageId++, name, default: i === 0 })),
	}));
	state.customFields = [
		{ id: 1001n, name: 'Closing Agent', type: 'Single-Select', params: '[{"label":"Option A","value":"1"},{"label":"Option B","value":"2"}]' },
		{ id: 1002n, name: 'Lender Name', type: 'TEXT', params: null },
		{ id: 1003n, name: 'Referral Fee', type: 'PERCENTAGE', params: null },
		{ id: 1004n, name: 'Showing Days', type: 'Multi-Select', params: '[{"label":"Saturday","value":"sat"},{"label":"Sunday","value":"sun"}]' },
		{ id: BigInt(TX_SEED.bigCustomFieldId), name: 'Option Period End', type: 'DATE', params: null },
	];

	const demo = BigInt(SEED_IDS.demoUserId);
	const make = (id: bigint, leadId: bigint, k: number, type: string, status: string, name: string, extra: Partial<Transaction> = {}): Transaction => {
		const lead = store.getLead(leadId)!;
		const price = 250_000 + ((k * 7919) % 900) * 1000;
		const rate = [2.5, 3, 3][k % 3];
		const created = T0 + k * 2 * DAY + (k % 7) * 3_600_000;
		return state.add({
			transactionId: id,
			leadId,
			propertyId: state.nextPropertyId++,
			transactionName: name,
			transactionType: type,
			transactionStatus: status,
			assignedAgent: lead.assignedUserId ?? lead.ownerUserId,
			values: {
				homePrice: price,
				commissionRate: rate,
				gci: (price * rate) / 100,
				teamRevenue: (price * rate) / 400,
				agentRevenue: (price * rate * 3) / 400,
				expectedCloseDate: created + 45 * DAY,
				contractDate: k % 2 ? created + 10 * DAY : null,
			},
			customFields: [],
			commissions: { preSplit: [], split: [], postSplit: [] },
			created,
			updated: created + DAY,
			deleted: false,
			address: null,
			brokermintLinked: false,
			...extra,
		});
	};

	const big = BigInt(SEED_IDS.bigLeadId);
	make(BigInt(TX_SEED.purchaseId), big, 900, 'Purchase', 'Under Contract', '1200 Barton Springs Rd', {
		address: { unit: '4B', label: 'Primary Residence', state: 'TX', city: 'Austin', zipCode: '78704', streetAddress: '1200 Barton Springs Rd', county: 'Travis' },
		brokermintLinked: true,
		customFields: [{ id: 1001n, value: '1' }],
		commissions: { preSplit: [], split: [{ payType: 'AGENT', payTo: demo, calculateType: 'PERCENT', value: 70 }], postSplit: [] },
	});
	make(BigInt(TX_SEED.listingId), big, 901, 'Listing', 'Active Listing', '77 Lamar Blvd');
	make(BigInt(TX_SEED.leaseId), big, 902, 'Lease', 'Application', '5 Congress Ave #12');
	make(BigInt(TX_SEED.deletedId), big, 903, 'Purchase', 'Cancelled', '9 Old Deal Ln', { deleted: true });
	make(BigInt(TX_SEED.notSharedId), BigInt(SEED_IDS.notSharedLeadId), 904, 'Purchase', 'Pending', '404 Private Way', { brokermintLinked: true });
	make(BigInt(TX_SEED.sharedId), BigInt(SEED_IDS.sharedLeadId), 905, 'Purchase', 'Pre-contract', '12 Shared Ct');
	make(BigInt(TX_SEED.trashedLeadTxId), BigInt(SEED_IDS.trashedLeadId), 906, 'Other', 'Open', '1 Trash Alley');

	const special = new Set<string>([SEED_IDS.bigLeadId, SEED_IDS.trashedLeadId]);
	const leads = [...store.leads.values()]
		.filter((l) => l.ownerUserId === demo && l.deletedAt === null && !special.has(l.leadId.toString()))
		.sort((a, b) => (a.leadId < b.leadId ? -1 : 1));
	for (let k = 0; k < TX_SEED.bulkCount; k++) {
		const type = PIPELINES[[0, 0, 1, 2, 3][k % 5]][0];
		const stages = state.pipelineOf(type)!.stages;
		const id = k % 3 === 0 ? 5_200_000_000n + BigInt(k) : 9_007_199_255_000_000n + BigInt(k) * 11n;
		make(id, leads[k % leads.length].leadId, k, type, stages[k % stages.length].name, `${100 + k * 7} ${STREETS[k % STREETS.length]}`);
	}

	state.brokermintContacts.set(TX_SEED.brokermintContactId, BigInt(SEED_IDS.bigLeadId2));
	state.brokermintContacts.set('BM-C-1002', BigInt(SEED_IDS.sharedLeadId));
}

/** Transaction endpoints. */
export const transactionModule: SandboxModule = { name: 'transaction', routes, seed };
