#!/usr/bin/env node
/**
 * Rewrites the README's operations table from the resource tables (run `npm run docs:operations`).
 * test/unit/readme.test.ts fails when the table and the node disagree.
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

const rows = [...RESOURCES]
	.filter((r) => r.operations.length)
	.sort((a, b) => a.name.localeCompare(b.name))
	.flatMap((r) => r.operations.map((op) => `| ${r.name} | ${op.name} | \`${op.method} ${op.path}\` | ${paging(op.pagination)} |`));
const table = ['| Resource | Operation | Endpoint | Pagination |', '|---|---|---|---|', ...rows].join('\n');
const readmePath = path.join(root, 'README.md');
const readme = fs.readFileSync(readmePath, 'utf8');
const start = '<!-- operations:start -->';
const end = '<!-- operations:end -->';
const updated = readme.replace(new RegExp(`${start}[\\s\\S]*?${end}`), `${start}\n${table}\n${end}`);
fs.writeFileSync(readmePath, updated);
console.log(`${rows.length} operations written to README.md`);
