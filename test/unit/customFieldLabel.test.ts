/** A multi-choice custom field shows its allowed choices in its label, where the person types them (item 8, issue 28). */
import { choicesLabel } from '../../nodes/Lofty/model/customFields';
import type { CustomFieldDefinition } from '../../nodes/Lofty/model/types';

const field = (name: string, choices: string[]): CustomFieldDefinition => ({
	key: name,
	name,
	loftyType: 'multi_select',
	kind: 'choices',
	options: choices.map((c) => ({ name: c, value: c })),
});

describe('the label of a multi-choice custom field', () => {
	it('lists the choices', () => {
		expect(choicesLabel(field('Must-Haves', ['Pool', 'Garage', 'Yard', 'Home Office']))).toBe('Must-Haves (any of Pool, Garage, Yard, Home Office)');
	});
	it('cuts a long list with …', () => {
		const label = choicesLabel(field('Areas', ['Downtown', 'Westside', 'North Hills', 'Lakeview', 'Old Town', 'Riverside', 'Harbor']));
		expect(label).toBe('Areas (any of Downtown, Westside, North Hills, Lakeview, …)');
	});
	it('shows one very long choice whole', () => {
		expect(choicesLabel(field('X', ['A choice much longer than the forty-eight characters a label shows']))).toMatch(/^X \(any of A choice much longer .* shows\)$/);
	});
});
