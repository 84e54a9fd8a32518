#!/usr/bin/env node
/**
 * Rewrites the operations table of docs/operations.md (every operation, its endpoint and pagination) and the README's
 * summary (one row per resource, its operations) from the resource tables (run `npm run docs:operations`), and the
 * operation and resource counts written in README.md and docs/tested-versions.md.
 * test/unit/readme.test.ts fails when either and the node disagree.
 */
'use strict';

const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const root = path.resolve(__dirname, '..');
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.dev.json'], { cwd: root, stdio: 'inherit' });
const { RESOURCES } = require(path.join(root, '.build/nodes/Lofty/resources'));

function paging(p) {
	if (!p) return '';
	const where = p.in === 'body' ? ' (body)' : '';
	switch (p.style) {
		case 'offset':
			return `offset/limit (${p.maxPageSize})${p.scrollId ? ' + scrollId' : ''}${where}`;
		case 'page':
			return p.fixedPageSize ? `${p.pageParam}, fixed ${p.fixedPageSize}` : `${p.pageParam}/${p.sizeParam} (${p.maxPageSize})${where}`;
		case 'keyset':
			return `keyset ${p.cursorParam ?? 'currentId'} (${p.maxPageSize})`;
		case 'cursor':
			return `cursor (${p.maxPageSize})`;
		default:
			return p.style;
	}
}

const resources = [...RESOURCES].filter((r) => r.operations.length).sort((a, b) => a.name.localeCompare(b.name));
const rows = resources.flatMap((r) => r.operations.map((op) => `| ${r.name} | ${op.name} | \`${op.method} ${op.path}\` | ${paging(op.pagination)} |`));
const table = ['| Resource | Operation | Endpoint | Pagination |', '|---|---|---|---|', ...rows].join('\n');
const summary = ['| Resource | Operations |', '|---|---|', ...resources.map((r) => `| ${r.name} | ${r.operations.map((op) => op.name).join(', ')} |`)].join('\n');

/** Replaces what stands between `<!-- <marker>:start -->` and `<!-- <marker>:end -->` in a file. */
function writeBetween(file, marker, text) {
	const start = `<!-- ${marker}:start -->`;
	const end = `<!-- ${marker}:end -->`;
	const before = fs.readFileSync(file, 'utf8');
	if (!before.includes(start) || !before.includes(end)) throw new Error(`${path.relative(root, file)} lacks ${start} ... ${end}`);
	fs.writeFileSync(file, before.replace(new RegExp(`${start}[\\s\\S]*?${end}`), `${start}\n${text}\n${end}`));
}

writeBetween(path.join(root, 'docs', 'operations.md'), 'operations', table);
writeBetween(path.join(root, 'README.md'), 'operations-summary', summary);

// The counts in the prose (test/unit/readme.test.ts checks every place against the tables).
const COUNTS = [
	[/\b\d+ operations over \d+ resources\b/g, `${rows.length} operations over ${resources.length} resources`],
	[/(\*\*Lofty\*\* node: )\d+ operations\b/g, `$1${rows.length} operations`],
	[/\b(together all )\d+ operations\b/g, `$1${rows.length} operations`],
];
for (const file of ['README.md', path.join('docs', 'tested-versions.md')]) {
	const full = path.join(root, file);
	let text = fs.readFileSync(full, 'utf8');
	for (const [pattern, replacement] of COUNTS) text = text.replace(pattern, replacement);
	fs.writeFileSync(full, text);
}
console.log(`${rows.length} operations written to docs/operations.md, ${resources.length} resources to the README's summary`);
