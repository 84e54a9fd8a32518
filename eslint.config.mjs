// n8n's community-node lint rules (the same config `n8n-node lint` uses), from @n8n/node-cli.
// They cover **/*.ts (nodes/, credentials/ with their own rule sets) and package.json.
// `npm run lint` is `n8n-node lint`: n8n's CLI runs `eslint .` with this file, so the shipped code (nodes/,
// credentials/, package.json) gets exactly n8n's rules and the tooling below gets the general TypeScript rules.
// Not n8n's strict mode: strict mode requires this file to be n8n's two-line template, which would put the
// tests, the sandbox and the benchmarks (Node tooling: process, timers, fs, console) under the rules for node code.
import { config } from '@n8n/node-cli/eslint';

// Rules that are about shipped node/credential code: off for tests and the sandbox emulator.
const n8nRulesOff = Object.fromEntries(
	config
		.flatMap((block) => Object.keys(block.rules ?? {}))
		.filter((rule) => rule.startsWith('@n8n/community-nodes/') || rule.startsWith('n8n-nodes-base/'))
		.map((rule) => [rule, 'off']),
);

export default [
	{
		// Build output, caches and plain-JS tooling are not part of the published package.
		ignores: ['dist/**', '.build/**', 'coverage/**', 'node_modules/**', '.e2e/**', '.tryout/**', '.stryker-tmp/**', 'reports/**', 'scripts/**', '*.js', '*.mjs'],
	},
	...config,
	{
		// Tests, the sandbox and the benchmarks run on Node, never inside n8n: general TypeScript rules still
		// apply; logging, Node's globals and modules, fixtures with fake secrets and big-number literals are fine.
		files: ['test/**/*.ts', 'sandbox/**/*.ts', 'bench/**/*.ts'],
		linterOptions: { reportUnusedDisableDirectives: 'off' },
		rules: {
			...n8nRulesOff,
			'no-console': 'off',
			'no-loss-of-precision': 'off',
			'@typescript-eslint/no-explicit-any': 'off',
			'@typescript-eslint/no-non-null-assertion': 'off',
			// `interface A extends B {}` names a derived type.
			'@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
		},
	},
];
