/** Readers of transaction request bodies: values, dates, commissions, custom fields, the name rules. */
import { invalidParam } from '../../core/errors';
import { type Obj, asObject, optInt64, optNumber, optString } from '../../core/params';
import { type Commission, type Commissions, DATE_FIELDS, NUMBER_FIELDS, PAY_TYPES, type Transaction, type TransactionState, nameBlank, nameHtml } from './state';

export function readEpochMs(o: Obj, name: string): number | null | undefined {
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
export function checkName(o: Obj, required: boolean): string | undefined {
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
export function applyValues(tx: Transaction, o: Obj, state: TransactionState): void {
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
export function resolveType(state: TransactionState, raw: unknown): string {
	return typeof raw === 'string' && state.pipelineOf(raw) ? raw : state.pipelines[0].transactionType;
}

export function parseIsoDate(o: Obj, name: string): number | undefined {
	const v = optString(o, name);
	if (v === undefined || v.trim() === '') return undefined;
	const ms = Date.parse(v);
	if (Number.isNaN(ms)) throw invalidParam(`'${name}' must be an ISO 8601 date-time such as 2026-01-31T09:00:00Z, got '${v}'`);
	return ms;
}
