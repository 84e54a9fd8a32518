/**
 * The one rule for what became of a failed write (transport/writeOutcome.ts): a 4xx was refused before anything was
 * applied, a 5xx, a 408 or no answer may have been applied, and anything that never reached Lofty was not sent.
 */
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { toNodeApiError } from '../../nodes/Lofty/transport/errors';
import { isUncertain, markUncertain, refusedBeforeApplying, writeOutcomeOf } from '../../nodes/Lofty/transport/writeOutcome';

const node = { id: '1', name: 'Lofty', type: 'n8n-nodes-lofty.lofty', typeVersion: 1, position: [0, 0], parameters: {} } as INode;
const answered = (httpCode: number) => toNodeApiError(node, { httpCode, message: `HTTP ${httpCode}` }, 0);

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
