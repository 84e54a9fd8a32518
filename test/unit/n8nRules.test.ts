/**
 * n8n's community-node lint rules newer than the installable @n8n/eslint-plugin-community-nodes (0.32.0, which
 * `npm run lint` runs): the 27 rules documented in n8n's repository (packages/@n8n/eslint-plugin-community-nodes/
 * docs/rules/, 71 docs) that 0.32.0 lacks, each ported from its doc (n8nRulesDescription.ts, n8nRulesSource.ts).
 * Each passes on the package as it ships (less the few places n8nRulesAllowed.ts gives a reason for) and fails on a
 * deliberately broken copy (n8nRulesBroken.ts). require-continue-on-fail and node-operation-error-itemindex are
 * also run on every path an item takes: n8nRulesItems.test.ts.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

import { ALLOWED, isAllowed } from './n8nRulesAllowed';
import { BROKEN } from './n8nRulesBroken';
import { DESCRIPTION_RULES } from './n8nRulesDescription';
import { ROOT, copyOf, loadPackage } from './n8nRulesPackage';
import { SOURCE_RULES } from './n8nRulesSource';

/** The rule docs in n8n's repository that the installed plugin does not have (docs read at commit 93cd6a05 and later). */
const NEWER_THAN_INSTALLED = [
	'cred-class-name-field-conventions',
	'cred-class-name-suffix',
	'cred-filename-against-convention',
	'hint-max-length',
	'icon-contrast',
	'no-ai-codex-category',
	'no-asterisk-in-option-names',
	'no-codex-subcategories',
	'no-duplicate-param-options',
	'no-hardcoded-ids',
	'no-logic-or-flow-nodes',
	'no-monorepo',
	'node-class-description-name-camelcase',
	'node-class-description-non-core-color',
	'node-filename-against-convention',
	'node-operation-error-itemindex',
	'non-required-fields-in-collection',
	'open-ended-node-fields',
	'options-sorted-alphabetically',
	'prefer-declarative-style',
	'require-community-node-keyword',
	'require-continue-on-fail',
	'require-mit-license',
	'require-param-default',
	'single-credential-per-node',
	'valid-codex-categories',
	'valid-node-categories',
];

const RULES = [...DESCRIPTION_RULES, ...SOURCE_RULES];
const pkg = loadPackage();
const findings = (rule: (typeof RULES)[number], facts = pkg) => rule.check(facts).filter((f) => !isAllowed(rule.name, f));

describe("n8n's newer community-node rules", () => {
	it('every rule newer than the installed plugin is ported, and the installed plugin has none of them (drop a port when it does)', () => {
		const installed = readdirSync(join(ROOT, 'node_modules', '@n8n', 'eslint-plugin-community-nodes', 'docs', 'rules')).map((f) => f.replace(/\.md$/, ''));
		expect(RULES.map((r) => r.name).sort()).toEqual(NEWER_THAN_INSTALLED);
		expect(installed.filter((r) => NEWER_THAN_INSTALLED.includes(r))).toEqual([]);
		expect(installed.length + NEWER_THAN_INSTALLED.length).toBe(71);
	});

	describe.each(RULES.map((r) => [r.name, r] as const))('%s', (name, rule) => {
		it('passes on the package', () => {
			expect(findings(rule)).toEqual([]);
		});

		it('fails on a deliberately broken copy', () => {
			const broken = copyOf(pkg);
			BROKEN[name](broken);
			expect(findings(rule, broken).length).toBeGreaterThan(0);
			// the copy was broken for this rule, not the package
			expect(findings(rule)).toEqual([]);
		});
	});

	it('the allow-list is small, each entry has its reason, and each still matches a place (a fixed place leaves the list)', () => {
		expect(ALLOWED.length).toBeLessThanOrEqual(6);
		for (const entry of ALLOWED) {
			expect({ entry: entry.params.join(', '), reason: entry.reason.length > 40 }).toEqual({ entry: entry.params.join(', '), reason: true });
			const rule = RULES.find((r) => r.name === entry.rule)!;
			const matched = rule.check(pkg).filter((f) => f.startsWith(`${entry.node}: `) && entry.params.includes(f.split(': ')[1].split('.').pop()!));
			expect({ entry: entry.params.join(', '), matched: [...new Set(matched.map((f) => f.split('.').pop()!.replace(/^.*: /, '')))].sort() }).toEqual({
				entry: entry.params.join(', '),
				matched: [...entry.params].sort(),
			});
		}
	});
});
