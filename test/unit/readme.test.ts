/**
 * The README is the users' page; the full text lives in docs/. The operations table in docs/operations.md and the
 * README's summary are generated from the resource tables (`npm run docs:operations`) and must agree with the node.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { RESOURCES } from '../../nodes/Lofty/resources';

const ROOT = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

describe('operations table (docs/operations.md)', () => {
	it('has exactly one row per operation, with its method and path', () => {
		const table = read('docs/operations.md');
		const rows = [...table.matchAll(/^\| ([^|]+) \| ([^|]+) \| `(\w+) ([^`]+)` \|/gm)].map((m) => `${m[1]}|${m[2]}|${m[3]} ${m[4]}`);
		const expected = RESOURCES.flatMap((r) => r.operations.map((op) => `${r.name}|${op.name}|${op.method} ${op.path}`));
		expect([...rows].sort()).toEqual([...expected].sort());
	});
});

describe('README', () => {
	const readme = read('README.md');

	it('opens with the two commands that work on a fresh machine', () => {
		const opening = readme.split('\n').slice(0, 6).join('\n');
		expect(opening).toMatch(/^```bash\nnpm install && npm start {3}#/m);
		expect(opening).toMatch(/^npm install && npm test {4}#/m);
	});

	it("summary: one row per resource, naming each of its operations in the node's order", () => {
		const summary = /<!-- operations-summary:start -->\n([\s\S]*?)\n<!-- operations-summary:end -->/.exec(readme)![1];
		const rows = [...summary.matchAll(/^\| ([^|]+) \| ([^|]+) \|$/gm)].filter((m) => m[1] !== 'Resource').map((m) => `${m[1]}: ${m[2]}`);
		const expected = RESOURCES.filter((r) => r.operations.length).map((r) => `${r.name}: ${r.operations.map((op) => op.name).join(', ')}`);
		expect([...rows].sort()).toEqual([...expected].sort());
	});

	it('gives the counts of the tables wherever it names them (npm run docs:operations writes them)', () => {
		const operations = RESOURCES.flatMap((r) => r.operations).length;
		const resources = RESOURCES.filter((r) => r.operations.length).length;
		const counts = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((m) => m.slice(1).map(Number));
		expect(counts(readme, /\b(\d+) operations over (\d+) resources\b/g)).toEqual([[operations, resources]]);
		expect(counts(readme, /\*\*Lofty\*\* node: (\d+) operations\b/g)).toEqual([[operations]]);
		expect(counts(read('docs/tested-versions.md'), /\btogether all (\d+) operations\b/g)).toEqual([[operations]]);
	});

	it("the AI section links the MCP server example and how to connect a client (issue 46)", () => {
		const ai = /## Using the node as an AI agent's tool\n([\s\S]*?)\n## /.exec(readme)![1];
		expect(ai).toContain('(examples/lofty-mcp-server.json)');
		expect(ai).toContain('(docs/ai-agents.md#a-lofty-mcp-server-in-one-workflow)');
		expect(read('docs/ai-agents.md')).toMatch(/^## A Lofty MCP server in one workflow$/m);
	});

	it("names each package whose engines npm install warns about on this Node (EBADENGINE), and says why it is harmless (issue 46)", () => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const semver = require('semver') as { satisfies: (version: string, range: string) => boolean };
		const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { engines?: { node?: string } }> };
		const warned = Object.entries(lock.packages)
			.filter(([at, p]) => at && p.engines?.node && !semver.satisfies(process.version, p.engines.node))
			.map(([at]) => at.split('node_modules/').pop()!);
		const note = /`npm install` prints[^\n]*`EBADENGINE`[\s\S]*?\n\n/.exec(readme)?.[0] ?? '';
		for (const name of new Set(warned)) expect([name, note.includes(`\`${name}\``)]).toEqual([name, true]);
		if (warned.length) expect(note).toMatch(/harmless/);
	});

	it('says what the first and later npm start take on a busy machine too, as docs/try-it.md does (issue 46)', () => {
		const said = (text: string) => /it downloads Node 24 and\s+n8n into[^()]*\(([^)]*)\); after that it starts in ([^.]*)\./.exec(text.replace(/\s+/g, ' '))?.slice(1);
		expect(said(readme)).toEqual(said(read('docs/try-it.md')));
		expect(said(readme)![0]).toMatch(/busy/);
		expect(said(readme)![1]).toMatch(/busy/);
	});

	it('stays a page for users: at most 300 lines, the rest linked from it', () => {
		expect(readme.split('\n').length).toBeLessThanOrEqual(300);
		for (const doc of ['operations', 'create-or-update', 'credentials', 'triggers', 'ai-agents', 'performance', 'queue-mode', 'tested-versions', 'development', 'api-readings', 'try-it'])
			expect(readme).toContain(`(docs/${doc}.md`);
	});
});
