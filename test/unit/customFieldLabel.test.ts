/**
 * A multi-choice custom field's label in the mapper is short, so that n8n does not cut it (issue 37, item 7): its
 * choices are picked by name in Multi-Choice Custom Fields (test/node/customFieldChoices.test.ts).
 */
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
	it('names the field and how to type several, whatever the number of choices', () => {
		expect(choicesLabel(field('Must-Haves', ['Pool', 'Garage', 'Yard', 'Home Office']))).toBe('Must-Haves (Several, Comma-Separated)');
		expect(choicesLabel(field('Areas', ['Downtown', 'Westside', 'North Hills', 'Lakeview', 'Old Town', 'Riverside', 'Harbor']))).toBe('Areas (Several, Comma-Separated)');
	});
});
