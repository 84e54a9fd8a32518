import type { IDataObject } from 'n8n-workflow';

import { InvalidValue } from '../../model/params';
import type { OperationContext } from '../../model/types';
import { TRANSACTION_TYPES } from './fields';
import { itemRead } from '../../model/itemRead';

/** What transaction writes check before sending, what their answers are checked for, and the hints on Lofty's refusals. */

const PAY_TYPES = ['TEAM', 'AGENT', 'VENDOR_PARTNER', 'LEAD', 'OTHER', 'BROKERAGE', 'UPLINE'];
const COMMISSION_LISTS = ['preSplit', 'split', 'postSplit'];
const COMMISSION_IDS = ['id', 'payTo', 'splitPayTo'];

/** IDs inside user JSON arrive as digit strings when large; Lofty gets them as exact integers. */
function exactId(value: unknown): unknown {
	return typeof value === 'string' && /^\d+$/.test(value.trim()) ? BigInt(value.trim()) : value;
}

/** Checks the commission structure against the enums of the OpenAPI Commission schema. */
function checkCommissions(op: OperationContext): void {
	const commissions = op.values.commissions as IDataObject | undefined;
	if (commissions === undefined) return;
	const field = 'Commissions (JSON)';
	for (const [key, list] of Object.entries(commissions)) {
		if (!COMMISSION_LISTS.includes(key)) throw new InvalidValue(field, `has an unknown key "${key}"; use preSplit, split and postSplit`);
		if (!Array.isArray(list)) throw new InvalidValue(field, `"${key}" must be a list of commission entries`);
		list.forEach((entry: unknown, index) => {
			if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
				throw new InvalidValue(field, `${key}[${index}] must be an object`);
			}
			const row = entry as IDataObject;
			for (const name of ['payType', 'splitPayType']) {
				if (row[name] !== undefined && !PAY_TYPES.includes(row[name] as string)) {
					throw new InvalidValue(field, `${key}[${index}].${name} must be one of ${PAY_TYPES.join(', ')}, got ${JSON.stringify(row[name])}`);
				}
			}
			if (row.calculateType !== undefined && row.calculateType !== 'PERCENT' && row.calculateType !== 'AMOUNT') {
				throw new InvalidValue(field, `${key}[${index}].calculateType must be PERCENT or AMOUNT, got ${JSON.stringify(row.calculateType)}`);
			}
			if (row.value !== undefined && (typeof row.value !== 'number' || !Number.isFinite(row.value))) {
				throw new InvalidValue(field, `${key}[${index}].value must be a number`);
			}
			for (const name of COMMISSION_IDS) if (row[name] !== undefined) row[name] = exactId(row[name]) as IDataObject;
		});
	}
}

/** The rules of the name (api-spec.md: not blank; `<` or `>` gives TRANSACTION_NAME_HTML). */
function checkName(op: OperationContext): void {
	const name = op.values.transactionName;
	if (typeof name === 'string' && /[<>]/.test(name)) {
		throw new InvalidValue('Transaction Name', 'must not contain < or > (Lofty would answer TRANSACTION_NAME_HTML)');
	}
}

export function checkWrite(op: OperationContext): void {
	checkName(op);
	const type = op.values.transactionType;
	// The dropdown is filled from the pipelines; an expression may still give anything. The API
	// takes only these four, case-sensitive, and silently replaces any other value.
	if (type !== undefined && !TRANSACTION_TYPES.includes(type as string)) {
		throw new InvalidValue('Type', `must be one of ${TRANSACTION_TYPES.join(', ')} (case-sensitive), got ${JSON.stringify(type)}`);
	}
	checkCommissions(op);
}

/** Create and update answer with the saved transaction: say so when Lofty replaced the type or status. */
export function withFallbackWarnings(response: unknown, op: OperationContext): IDataObject {
	const record: IDataObject =
		response !== null && typeof response === 'object' && !Array.isArray(response) ? { ...(response as IDataObject) } : { result: response as string };
	const warnings: string[] = [];
	const askedType = op.values.transactionType as string | undefined;
	const askedStatus = op.values.transactionStatus as string | undefined;
	if (askedType && typeof record.transactionType === 'string' && record.transactionType !== askedType) {
		warnings.push(`Lofty saved the type as "${record.transactionType}", not "${askedType}": the team has no pipeline of that type`);
	}
	if (askedStatus && typeof record.transactionStatus === 'string' && record.transactionStatus.toLowerCase() !== askedStatus.trim().toLowerCase()) {
		warnings.push(
			`Lofty saved the status as "${record.transactionStatus}", not "${askedStatus}": that name is not a stage of the ${String(record.transactionType ?? askedType ?? '')} pipeline, so the first stage was used`,
		);
	}
	if (warnings.length) record.warnings = warnings;
	return record;
}

interface Pipeline {
	transactionType?: string;
	stages?: Array<{ name?: string }>;
}

/** After 200125: the valid statuses of the transaction's type, fetched from the pipelines. */
export async function listValidStatuses(failure: { code?: string | number }, op: OperationContext): Promise<string | undefined> {
	if (String(failure.code) !== '200125' && failure.code !== 'TRANSACTION_STATUS_INVALID') return undefined;
	let type = op.values.transactionType as string | undefined;
	if (!type) {
		const current = (await itemRead(op.ctx, op.itemIndex, {
			method: 'GET',
			path: `/v1.0/leads/${op.values.leadId as string}/transaction/${op.values.transactionId as string}`,
		}).catch(() => undefined)) as IDataObject | undefined;
		type = typeof current?.transactionType === 'string' ? current.transactionType : undefined;
	}
	const response = (await itemRead(op.ctx, op.itemIndex, { method: 'GET', path: '/v2.0/transactions/pipelines' })) as IDataObject;
	const pipelines = (Array.isArray(response?.pipelines) ? response.pipelines : []) as Pipeline[];
	const names = (p: Pipeline) => (p.stages ?? []).map((s) => s.name).filter(Boolean).join(', ');
	const own = pipelines.find((p) => p.transactionType === type);
	if (own) return `Valid statuses for ${type}: ${names(own)}.`;
	const all = pipelines.map((p) => `${p.transactionType}: ${names(p)}`).join('; ');
	return all ? `Valid statuses by type: ${all}.` : undefined;
}

export const NAME_HINT =
	'The transaction name (the property address or deal name) is empty or contains < or >. Give a plain-text name such as "123 Main St".';
export const NOT_EXIST_HINT =
	'No such transaction on this lead: the ID is wrong, the transaction was deleted, or it belongs to another lead. Pick the transaction from the list for the chosen lead.';
export const STATUS_HINT =
	'The status is not a stage of the team\'s transaction pipeline for this transaction\'s type (stage names are set per team in Lofty). Pick a status from the list, or use one of the names below.';
export const COMMISSION_HINT =
	'Lofty rejected a value; for commissions, check the preSplit / split / postSplit entries (pay types, PERCENT or AMOUNT, values). The message names what is wrong.';
