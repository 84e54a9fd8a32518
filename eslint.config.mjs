// n8n's community-node lint rules (the same config `n8n-node lint` uses), from @n8n/node-cli.
// They cover **/*.ts (nodes/, credentials/ with their own rule sets) and package.json.
// `npm run lint` lints nodes/, credentials/ and package.json with exactly these rules.
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
		ignores: ['dist/**', '.build/**', 'coverage/**', 'node_modules/**', '.e2e/**', 'scripts/**', '*.js', '*.mjs'],
	},
	...config,
	{
		// Tests and the sandbox are linted only by `eslint .` (not by `npm run lint`): general
		// TypeScript rules still apply; logging, fixtures with fake secrets and big-number literals are fine.
		files: ['test/**/*.ts', 'sandbox/**/*.ts'],
		rules: {
			...n8nRulesOff,
			'no-console': 'off',
			'no-loss-of-precision': 'off',
			'@typescript-eslint/no-explicit-any': 'off',
			'@typescript-eslint/no-non-null-assertion': 'off',
		},
	},
];
