import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { RESOURCES } from '../../nodes/Lofty/resources';

describe('README operations table', () => {
	it('has exactly one row per operation, with its method and path', () => {
		const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
		const rows = [...readme.matchAll(/^\| ([^|]+) \| ([^|]+) \| `(\w+) ([^`]+)` \|/gm)].map((m) => `${m[1]}|${m[2]}|${m[3]} ${m[4]}`);
		const expected = RESOURCES.flatMap((r) => r.operations.map((op) => `${r.name}|${op.name}|${op.method} ${op.path}`));
		expect([...rows].sort()).toEqual([...expected].sort());
	});
});
