/**
 * The one rule for what became of a failed write (transport/writeOutcome.ts): a 4xx was refused before anything was
 * applied, a 5xx, a 408 or no answer may have been applied, and anything that never reached Lofty was not sent.
 */
import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { toNodeApiError } from '../../nodes/Lofty/transport/errors';
import { LOFTY_ERROR_CODES } from '../../nodes/Lofty/transport/errorCodes';
import {
	UNCERTAIN_5XX,
	answeredOutcome,
	isUncertain,
	markUncertain,
	outcomeOfCode,
	refusedBeforeApplying,
	uncertainDescription,
	uncertainStatus,
	writeOutcomeOf,
} from '../../nodes/Lofty/transport/writeOutcome';

const node = { id: '1', name: 'Lofty', type: 'n8n-nodes-lofty.lofty', typeVersion: 1, position: [0, 0], parameters: {} } as INode;
const answered = (httpCode: number, code?: string | number) => toNodeApiError(node, { httpCode, code, message: `HTTP ${httpCode}` }, 0);

describe('writeOutcomeOf', () => {
	it.each([
		[400, 'refused'],
		[404, 'refused'],
		[409, 'refused'],
		[429, 'refused'],
		[408, 'uncertain'],
		[500, 'uncertain'],
		[502, 'uncertain'],
		[503, 'uncertain'],
	])('HTTP %i: %s', (status, outcome) => {
		expect(writeOutcomeOf(answered(status))).toBe(outcome);
	});

	it('no answer (marked by the transport) is uncertain; an error that never reached Lofty was not sent', () => {
		expect(writeOutcomeOf(markUncertain(new NodeOperationError(node, 'The connection to Lofty was lost')))).toBe('uncertain');
		expect(writeOutcomeOf(new NodeOperationError(node, 'Invalid value for "Email": is not an email'))).toBe('notSent');
		expect(writeOutcomeOf(new Error('Could not reach Lofty'))).toBe('notSent');
	});

	it('markUncertain sets writeUncertain and puts its description first, or in place of the one there', () => {
		const error = markUncertain(answered(500), 'May have been applied.', 'replace');
		expect(isUncertain(error)).toBe(true);
		expect(error.description).toBe('May have been applied.');
		expect(markUncertain(new NodeOperationError(node, 'x', { description: 'Check.' }), 'Lost.').description).toBe('Lost. Check.');
	});

	it('only a 4xx other than 408 is refused before applying', () => {
		expect([399, 400, 408, 451, 499, 500].map(refusedBeforeApplying)).toEqual([false, true, false, true, true, false]);
	});
});

describe('a 2xx answer carrying an error code: its outcome by what the code means', () => {
	it.each<[number, string | number, string]>([
		[200, 20005, 'uncertain'],
		[200, '20005', 'uncertain'],
		[201, 20005, 'uncertain'],
		[200, 'INVALID_PARAMETER', 'refused'],
		[200, 20012, 'refused'],
		[200, 'MISSING_PARAMETER', 'refused'],
		[200, 'PERMISSION_DENIED', 'refused'],
		[200, 'LEAD_NOT_EXIST', 'refused'],
		[200, 990105, 'refused'],
		[200, 'SEAT_INSUFFICIENT', 'refused'],
		[200, 200060, 'refused'],
		[200, 20006, 'refused'],
		[200, 'SOMETHING_NEW', 'refused'],
		[200, 200050, 'refused'],
		[200, 2000, 'refused'],
		[299, 'INVALID_PARAMETER', 'refused'],
	])('HTTP %i with code %s: %s', (status, code, outcome) => {
		expect(writeOutcomeOf(answered(status, code))).toBe(outcome);
		expect(answeredOutcome({ httpCode: status, code })).toBe(outcome);
	});

	it('every code the spec names is a refusal but the internal error; the status decides outside 2xx', () => {
		const named = Object.keys(LOFTY_ERROR_CODES);
		expect(named.filter((code) => outcomeOfCode(code) === 'uncertain')).toEqual(['20005']);
		expect(outcomeOfCode(undefined)).toBe('refused');
		expect(outcomeOfCode(20005)).toBe('uncertain');
		// Outside 2xx the code does not change the status's outcome.
		expect(answeredOutcome({ httpCode: 500, code: 'INVALID_PARAMETER' })).toBe('uncertain');
		expect(answeredOutcome({ httpCode: 400, code: 20005 })).toBe('refused');
		expect(answeredOutcome({ httpCode: 300, code: 20005 })).toBe('notSent');
		expect(answeredOutcome({ httpCode: 199 })).toBe('notSent');
		expect(answeredOutcome({ httpCode: 408 })).toBe('uncertain');
		expect(answeredOutcome({ httpCode: 429 })).toBe('refused');
	});

	it('the description of an uncertain answer says what Lofty answered; a refusal has none', () => {
		expect(uncertainDescription({ httpCode: 200, code: 20005 })).toBe(
			'Lofty answered HTTP 200 with its internal-error code (20005), so this change may or may not have been applied. It was not sent again, so that it cannot be applied twice: check in Lofty whether the change was made before running this item again.',
		);
		expect(uncertainDescription({ httpCode: 204, code: '20005' })).toMatch(/^Lofty answered HTTP 204 with its internal-error code/);
		expect(uncertainDescription({ httpCode: 200, code: 'NEW_CODE' })).toBeUndefined();
		expect(uncertainDescription({ httpCode: 500 })).toBe(UNCERTAIN_5XX);
		expect(uncertainDescription({ httpCode: 408 })).toBe(UNCERTAIN_5XX);
		expect(uncertainDescription({ httpCode: 200, code: 'INVALID_PARAMETER' })).toBeUndefined();
		expect(uncertainDescription({ httpCode: 400 })).toBeUndefined();
	});

	it('only a 5xx or a 408 leaves a status uncertain', () => {
		expect([200, 407, 408, 409, 499, 500, 599].map(uncertainStatus)).toEqual([false, false, true, false, false, true, true]);
	});

	it('an error without a status was not sent', () => {
		const noStatus = toNodeApiError(node, { httpCode: 0, message: 'x' }, 0);
		expect(writeOutcomeOf(noStatus)).toBe('notSent');
	});
});


describe('marks and texts (found by mutation testing: npm run test:mutation -- writeOutcome)', () => {
	it("the status is read from the error, or from Lofty's answer when the error has none", () => {
		expect(writeOutcomeOf(new NodeApiError(node, { message: 'Service Unavailable' }, { httpCode: '503' }))).toBe('uncertain');
		expect(writeOutcomeOf(new NodeApiError(node, { message: 'Bad Request' }, { httpCode: '400' }))).toBe('refused');
		expect(writeOutcomeOf(new NodeApiError(node, { message: 'x', httpCode: 502 }))).toBe('uncertain');
	});

	it("markUncertain keeps the error's context and, without a description of its own, the error's description", () => {
		const error = new NodeOperationError(node, 'x', { description: 'Check.', itemIndex: 2 });
		markUncertain(error);
		expect(error.context).toMatchObject({ itemIndex: 2, writeUncertain: true });
		expect(error.description).toBe('Check.');
		expect(markUncertain(new NodeOperationError(node, 'x'), 'Lost.').description).toBe('Lost.');
	});

	it('the 5xx description says the change may have been applied and was not sent again', () => {
		expect(UNCERTAIN_5XX).toBe(
			'Lofty failed while handling this change, so it may or may not have been applied. It was not sent again, so that it cannot be applied twice: check in Lofty whether the change was made before running this item again.',
		);
	});
});
