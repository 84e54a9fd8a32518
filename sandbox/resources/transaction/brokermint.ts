/**
 * Brokermint callbacks: PUT /v1.0/brokermint/transaction and PUT /v1.0/brokermint/lead (the node lists the latter
 * under Lead), which answer HTTP 200 with a non-zero `code` when the record is not linked.
 */
import { invalidParam } from '../../core/errors';
import { asObject, optBool, optInt64, optNumber, optString } from '../../core/params';
import type { Route } from '../../core/router';
import { parseIsoDate } from './body';
import { ADDRESS_FIELDS, type Address, TRANSACTION_TYPES, TX_CODES, transactionState } from './state';

export const brokermintRoutes: Route[] = [
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
