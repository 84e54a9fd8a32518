import type { INodeProperties, INodePropertyMode } from 'n8n-workflow';

import { Lofty } from '../../nodes/Lofty/Lofty.node';

/** What the editor says to text in a record's ID field (issue 19, point 8): IDs are digits, and the other ways in. */

const properties = new Lofty().description.properties;
const locators = properties.filter((p): p is INodeProperties & { modes: INodePropertyMode[] } => p.type === 'resourceLocator' && Array.isArray(p.modes));
const byIdMode = (p: { modes: INodePropertyMode[] }) => p.modes.find((m) => m.name === 'id')!;
const rule = (mode: INodePropertyMode) => (mode.validation?.[0] as unknown as { properties: { regex: string; errorMessage: string } }).properties;

describe('By ID fields in the editor', () => {
	it('refuse a name with a message that says IDs are digits and names the other modes the field has', () => {
		const numeric = locators.filter((p) => new RegExp(rule(byIdMode(p)).regex).test('123') && !new RegExp(rule(byIdMode(p)).regex).test('12-task'));
		expect(numeric.length).toBeGreaterThan(10);
		for (const p of numeric) {
			const { regex, errorMessage } = rule(byIdMode(p));
			expect(new RegExp(regex).test('Jane Doe')).toBe(false);
			expect(errorMessage).toMatch(/: an ID is digits only, e\.g\. \d+; choose /);
			const hasUrl = p.modes.some((m) => m.name === 'url');
			expect([p.displayName, /By URL/.test(errorMessage)]).toEqual([p.displayName, hasUrl]);
		}
	});

	it('the lead field points to By URL; a transaction (no Lofty URL shape) to From List only', () => {
		const lead = locators.find((p) => p.name === 'leadId' && p.displayName === 'Lead')!;
		expect(rule(byIdMode(lead)).errorMessage).toBe('Not a valid lead ID: an ID is digits only, e.g. 651095960136641; choose By URL for a link from Lofty, or From List to search');
		const deal = locators.find((p) => p.name === 'transactionId')!;
		expect(rule(byIdMode(deal)).errorMessage).toBe('Not a valid transaction ID: an ID is digits only, e.g. 10001; choose From List to search');
	});
});
