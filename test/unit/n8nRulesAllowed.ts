/**
 * Where following one of n8n's newer community-node rules would make the package worse, and why. Kept small: each
 * entry names the rule, the node file and the parameters, and test/unit/n8nRules.test.ts fails when an entry no
 * longer matches anything (so a fixed place leaves the list) and when the list grows past its size.
 */
export interface Allowed {
	rule: string;
	node: string;
	params: string[];
	reason: string;
}

/** Saved workflows store a parameter under its path: moving a top-level field into a collection breaks every one. */
const BREAKS_SAVED =
	'moving a field into a collection changes its parameter path, so every saved workflow that set it would lose the setting';

export const ALLOWED: Allowed[] = [
	{
		rule: 'options-sorted-alphabetically',
		node: 'Lofty.node.ts',
		params: ['buyingTimeFrame', 'sellingTimeFrame'],
		reason: 'time ranges in ascending order (1-3, 3-6, 6-12, 12+ Months): sorted by name, "12+ Months" would stand between "1-3" and "3-6"',
	},
	{
		rule: 'non-required-fields-in-collection',
		node: 'Lofty.node.ts',
		params: ['returnAll', 'limit', 'simplify', 'output'],
		reason: `n8n's own list and output pattern: Return All, Limit and Simplify/Output stand at the top level in n8n's nodes and in its UX guidelines; ${BREAKS_SAVED}`,
	},
	{
		rule: 'non-required-fields-in-collection',
		node: 'Lofty.node.ts',
		params: ['timesIn', 'timesInV1'],
		reason: `"Times Without Offset Are In" decides what the dates typed above it mean, so it stands beside them, not hidden under Add Field; ${BREAKS_SAVED}`,
	},
	{
		rule: 'non-required-fields-in-collection',
		node: 'Lofty.node.ts',
		params: ['customFieldValues', 'customFieldChoices', 'transactionCustomFieldValues', 'transactionCustomFieldChoices', 'multiChoiceMode', 'email', 'phone'],
		reason: `the custom-field mapper (a resourceMapper, which n8n shows at the top level only), its multi-choice companion and Multi-Choice Values, which says what that companion does to the record's choices and so stands beside it; Create or Update's match keys, of which one is required (n8n's required flag cannot say "one of two"); ${BREAKS_SAVED}`,
	},
	{
		rule: 'non-required-fields-in-collection',
		node: 'LoftyTrigger.node.ts',
		params: ['fetchFullRecord'],
		reason: `what each event item holds (the event, or the record read from Lofty) is the trigger's main choice after its events; ${BREAKS_SAVED} (an active trigger included)`,
	},
];

/** Whether a rule's finding ("<node file>: <parameter path>") is allowed. */
export function isAllowed(rule: string, finding: string): boolean {
	const [node, path = ''] = finding.split(': ');
	const param = path.split('.').pop() ?? '';
	return ALLOWED.some((a) => a.rule === rule && a.node === node && a.params.includes(param));
}
