/**
 * A multi-choice custom field's label in the mapper is short, so that n8n does not cut it (issue 37, item 7; issue 46,
 * item 7: "Must-Haves (Several, Com…" was cut on n8n 2.41.1): its choices are picked by name in Multi-Choice Custom
 * Fields (test/node/customFieldChoices.test.ts).
 */
import { choicesLabel } from '../../nodes/Lofty/model/customFieldsEditor';
import type { CustomFieldDefinition } from '../../nodes/Lofty/model/types';

const field = (name: string, choices: string[]): CustomFieldDefinition => ({
	key: name,
	name,
	loftyType: 'multi_select',
	kind: 'choices',
	options: choices.map((c) => ({ name: c, value: c })),
});

describe('the label of a multi-choice custom field', () => {
	it('names the field and that it takes a list, whatever the number of choices, in fewer characters than n8n 2.41.1 shows', () => {
		expect(choicesLabel(field('Must-Haves', ['Pool', 'Garage', 'Yard', 'Home Office']))).toBe('Must-Haves (List)');
		expect(choicesLabel(field('Areas', ['Downtown', 'Westside', 'North Hills', 'Lakeview', 'Old Town', 'Riverside', 'Harbor']))).toBe('Areas (List)');
		// n8n 2.41.1 cut "Must-Haves (Several, Comma-Separated)" after 23 characters ("Must-Haves (Several, Com…").
		expect(choicesLabel(field('Must-Haves', ['Pool'])).length).toBeLessThanOrEqual(23);
	});
});
