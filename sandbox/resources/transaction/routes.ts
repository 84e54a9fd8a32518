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
import { ApiError, Codes, invalidParam } from '../../core/errors';
import { stringifyJson } from '../../core/json';
import { asObject, optInt64, optString, pathId } from '../../core/params';
import type { Ctx, Route } from '../../core/router';
import type { Lead } from '../../core/types';
import { accessibleLead } from '../lead/access';
import { emitTransaction } from '../webhook/delivery/emit';
import { applyValues, checkName, resolveType } from './body';
import { ADDRESS_FIELDS, type Address, type Transaction, statusInvalid, transactionState, txNotExist } from './state';
import { transactionView } from './views';

function findTransaction(ctx: Ctx, lead: Lead, raw: string | bigint): Transaction {
	const id = typeof raw === 'bigint' ? raw : pathId(raw, 'transactionId');
	const tx = transactionState(ctx.store).get(id);
	if (!tx || tx.deleted || tx.leadId !== lead.leadId) throw txNotExist(id);
	return tx;
}

/** V1, per lead: create, get, update, list, property address, custom fields. */
export const transactionV1Routes: Route[] = [
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
];
