/** Transactions as the sandbox keeps them: records, pipelines, custom fields, Brokermint links; codes and errors. */
import { ApiError } from '../../core/errors';
import type { Obj } from '../../core/params';
import type { Store } from '../../core/store';

export const TX_CODES = {
	TRANSACTION_NOT_EXIST: 200060,
	TRANSACTION_NAME: 200062,
	TRANSACTION_STATUS_INVALID: 200125,
	LIMIT_NOT_VALID: 20042,
	LEAD_NOT_EXIST: 20006,
} as const;

export const TRANSACTION_TYPES = ['Purchase', 'Listing', 'Lease', 'Other'] as const;
export const PAY_TYPES = ['TEAM', 'AGENT', 'VENDOR_PARTNER', 'LEAD', 'OTHER', 'BROKERAGE', 'UPLINE'];
export const NUMBER_FIELDS = ['homePrice', 'commissionRate', 'gci', 'teamRevenue', 'agentRevenue'] as const;
export const DATE_FIELDS = [
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
export const ADDRESS_FIELDS = ['unit', 'label', 'state', 'city', 'zipCode', 'streetAddress', 'county'] as const;

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

/** The resource's state in a store (tests use it to arrange data). */
export const transactionState = (store: Store): TransactionState => store.ext('transaction', () => new TransactionState());

// ---------- errors ----------

export const txNotExist = (id: bigint | string): ApiError =>
	new ApiError(404, TX_CODES.TRANSACTION_NOT_EXIST, `TRANSACTION_NOT_EXIST: transaction ${String(id)} does not exist or does not belong to this lead`);
export const nameBlank = (): ApiError => new ApiError(400, TX_CODES.TRANSACTION_NAME, 'TRANSACTION_NAME_BLANK: transactionName must not be blank');
export const nameHtml = (): ApiError => new ApiError(400, TX_CODES.TRANSACTION_NAME, "TRANSACTION_NAME_HTML: transactionName must not contain '<' or '>'");
export const statusInvalid = (status: string, type: string): ApiError =>
	new ApiError(400, TX_CODES.TRANSACTION_STATUS_INVALID, `TRANSACTION_STATUS_INVALID: '${status}' is not a stage of the ${type} pipeline`);
