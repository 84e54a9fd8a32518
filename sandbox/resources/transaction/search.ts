/** V2: the transaction search (pageNum 0-based, pageSize 1..100) and the pipelines. */
import { ApiError, invalidParam } from '../../core/errors';
import { int64Param, intParam } from '../../core/params';
import type { Route } from '../../core/router';
import { TRANSACTION_TYPES, TX_CODES, transactionState } from './state';
import { leadName, transactionV2View } from './views';

export const transactionV2Routes: Route[] = [
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
];
