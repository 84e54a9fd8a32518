/** Wire shapes of transactions: LeadTransaction (V1) and TransactionV2Item (V2 search). */
import type { Store } from '../../core/store';
import type { Lead } from '../../core/types';
import { DATE_FIELDS, NUMBER_FIELDS, type Transaction } from './state';

export function leadName(lead: Lead | undefined): string {
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
export function transactionV2View(tx: Transaction, store: Store): Record<string, unknown> {
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
