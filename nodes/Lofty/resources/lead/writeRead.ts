import type { IDataObject, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { requestSettings } from '../../model/execute';
import { sendByReading } from '../../model/readings';
import { TAG_SHAPE_READING } from '../../model/tagShape';
import type { OperationContext, OperationDef } from '../../model/types';
import { accountOf, loftyRequest } from '../../transport/request';
import { markUncertain, writeOutcomeOf } from '../../transport/writeOutcome';
import { afterWrite } from './fillEmpty';
import { type KnownLead, personKeys, remember } from './keys';
import { executionOf, rememberUncertainCreate } from './uncertainCreates';

/**
 * The lead writes of Create and Create or Update and the read after them. A write goes out once, in the tag shape the
 * account takes. Once Lofty has answered it, the item succeeds whatever the read after it meets (a 5xx or 429 past
 * the retries, a timeout, a lead not readable yet): the item carries what is known and a `note`, since running it
 * again would write again. A lead a create made is remembered by the person's emails and phones (keys.ts), and a
 * create without a certain outcome too (uncertainCreates.ts), whichever operation sent it (createThenRead).
 */

/**
 * Lofty makes a new lead readable only after a delay ("subsequent GET /v1.0/leads/{leadId} and similar read endpoints
 * may briefly return 404 right after create", OpenAPI, POST /v1.0/leads; no length is stated): a new lead is read
 * again after these waits, 3.75 s in all, and a search for a person whose create got no answer waits as long.
 */
export const LEAD_READ_WAITS_MS = [250, 500, 1000, 2000];
export const LEAD_READ_DELAY_MS = LEAD_READ_WAITS_MS.reduce((a, b) => a + b, 0);

export async function send(op: OperationContext, method: OperationDef['method'], path: string, body: unknown): Promise<IDataObject> {
	const request = { method, path, qs: {}, body: body as IDataObject };
	// Tags as names or as {tagName} objects, as the account takes them (docs/api-readings.md, row 21).
	const answer = await sendByReading(op.ctx, TAG_SHAPE_READING, request, op.values, async (w) => await loftyRequest(op.ctx, { ...w, ...requestSettings(op.ctx, op.itemIndex) }, op.itemIndex));
	return answer !== null && typeof answer === 'object' && !Array.isArray(answer) ? (answer as IDataObject) : {};
}

export const notFound = (error: unknown) => error instanceof NodeApiError && String(error.httpCode) === '404';

/** The error as the node reports it (re-wrapping a NodeApiError hands back the same error). */
export function failure(op: OperationContext, error: unknown): Error {
	if (error instanceof NodeApiError) return new NodeApiError(op.ctx.getNode(), error as unknown as JsonObject);
	return new NodeOperationError(op.ctx.getNode(), error as Error, { itemIndex: op.itemIndex });
}

async function getLead(op: OperationContext, leadId: string): Promise<IDataObject> {
	const answer = (await loftyRequest(op.ctx, { method: 'GET', path: `/v1.0/leads/${leadId}`, ...requestSettings(op.ctx, op.itemIndex) }, op.itemIndex)) as IDataObject;
	return (answer?.lead as IDataObject | undefined) ?? answer;
}

/**
 * The lead after a write Lofty answered: read again through the read delay after a create (once after an update of a
 * lead created a moment ago). Never fails: when the read does not succeed, the lead's ID and a `note` (`readable:
 * false`).
 */
export async function readAfterWrite(op: OperationContext, leadId: string, fresh: 'created' | 'recent' | false): Promise<{ lead: IDataObject; readable: boolean }> {
	const waits = fresh === 'created' ? LEAD_READ_WAITS_MS : [];
	const done = fresh === 'created' ? 'created' : 'updated';
	for (let attempt = 0; ; attempt++) {
		try {
			return { lead: await getLead(op, leadId), readable: true };
		} catch (error) {
			if (notFound(error) && attempt < waits.length) {
				await sleep(waits[attempt]);
				continue;
			}
			const note =
				fresh && notFound(error)
					? 'Lofty has not made the new lead readable yet; read it later with Lead > Get'
					: `The lead was ${done}; reading it back failed (${(error as Error).message}). Read it later with Lead > Get.`;
			return { lead: { leadId, note }, readable: false };
		}
	}
}

/**
 * The lead as Lofty has it now, before a write; for a lead Lofty cannot read yet, `whileUnreadable`; undefined when it
 * is gone.
 */
export async function currentLead(op: OperationContext, leadId: string, whileUnreadable: IDataObject | undefined): Promise<IDataObject | undefined> {
	try {
		return await getLead(op, leadId);
	} catch (error) {
		if (notFound(error)) return whileUnreadable;
		throw failure(op, error);
	}
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** What a person searches Lofty by for a lead whose create got no certain answer: its emails, phones and name. */
function searchBy(body: IDataObject): IDataObject {
	const name = [body.firstName, body.lastName].filter((v) => typeof v === 'string' && v).join(' ');
	return { ...(strings(body.emails).length ? { emails: strings(body.emails) } : {}), ...(strings(body.phones).length ? { phones: strings(body.phones) } : {}), ...(name ? { name } : {}) };
}

function searchWords(by: IDataObject): string {
	const parts = [...strings(by.emails).map((e) => `email ${e}`), ...strings(by.phones).map((p) => `phone ${p}`)];
	return parts.length ? parts.join(' or ') : `name ${String(by.name ?? '')}`;
}

/**
 * Sends a lead create and reads the new lead back (readAfterWrite), for Lead > Create and Create or Update alike: the
 * one place a lead this process made is remembered (keys.ts, uncertainCreates.ts). Once Lofty answered, before the
 * read, the lead is remembered under every email and phone the create sent (as written; after the read, as Lofty holds
 * it), so that Create or Update for the person a moment later updates it even while Lofty cannot find it yet. A create
 * without a certain outcome fails the item, remembered by those emails and phones with the person it named; the error
 * says what to search Lofty by (`context.searchBy`). `searched`: the caller found no lead of the person before (Create
 * or Update), so the lead made is the person's only one.
 */
export async function createThenRead(
	op: OperationContext,
	create: OperationDef,
	path: string,
	body: IDataObject,
	searched = false,
): Promise<{ answer: IDataObject; leadId: string; lead: IDataObject; readable: boolean }> {
	const account = await accountOf(op.ctx);
	const emails = strings(body.emails);
	const phones = strings(body.phones);
	const keys = personKeys(emails, phones);
	let answer: IDataObject;
	try {
		answer = await send(op, create.method, path, body);
	} catch (error) {
		if (writeOutcomeOf(error) !== 'uncertain') throw failure(op, error);
		const by = searchBy(body);
		if (keys.length) {
			const person = { firstName: body.firstName, lastName: body.lastName, emails };
			rememberUncertainCreate(account, { execution: executionOf(op.ctx), itemIndex: op.itemIndex, readableBy: Date.now() + LEAD_READ_DELAY_MS, what: (error as Error).message, keys, person });
		}
		(error as NodeOperationError).context.searchBy = by;
		throw failure(
			op,
			markUncertain(
				error as Error,
				`The lead may have been created. Search Lofty by ${searchWords(by)} (Lead > Get Many) before running this item again.${keys.length ? ' Create or Update items for this person in this n8n process search again once Lofty can read a new lead, and update the lead they find instead of creating another.' : ''}`,
				'replace',
			),
		);
	}
	const leadId = String(answer.leadId);
	const made: KnownLead = { leadId, emails, phones, fields: afterWrite({}, body), recent: true, alone: searched };
	const known = keys.length > 0 && answer.leadId !== undefined && answer.leadId !== null;
	if (known) remember(account, keys, made);
	const read = await readAfterWrite(op, leadId, 'created');
	if (known && read.readable) remember(account, keys, { ...made, fields: read.lead, recent: false });
	return { answer, leadId, ...read };
}
