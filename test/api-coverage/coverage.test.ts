import { readFileSync, writeFileSync } from 'node:fs';

import { RESOURCES } from '../../nodes/Lofty/resources';
import { FIXTURE, loadEndpoints, normalise } from './endpoints';

const { endpoints, fromReference } = loadEndpoints();
// An operation reaches its own endpoint and, where Lofty follows the other reading of the contract, that one's method too.
const reachable = new Set(
	RESOURCES.flatMap((r) => r.operations.flatMap((op) => [op.method, op.otherReading?.method].filter(Boolean).map((method) => normalise(`${method} ${op.path}`)))),
);
const reachablePaths = new Set([...reachable].map((e) => e.split(' ')[1]));

describe('API coverage', () => {
	it('keeps the committed endpoint list in step with the reference files', () => {
		if (!fromReference) return;
		const committed = readFileSync(FIXTURE, 'utf8');
		const current = `${JSON.stringify(endpoints, null, 2)}\n`;
		if (process.env.UPDATE_ENDPOINTS) writeFileSync(FIXTURE, current);
		else expect(JSON.parse(committed)).toEqual(endpoints);
	});

	it('reaches every endpoint of the OpenAPI and of the spec from the node', () => {
		const wanted = [...new Set([...endpoints.openapi, ...endpoints.spec].map(normalise))];
		const missing = wanted.filter((e) => !reachable.has(e));
		const missingPaths = endpoints.specPaths.map(normalise).filter((p) => !reachablePaths.has(p));
		const total = wanted.length + endpoints.specPaths.length;
		// eslint-disable-next-line no-console
		console.log(`covered ${total - missing.length - missingPaths.length} of ${total} (OpenAPI ${endpoints.openapi.length} operations, spec ${endpoints.spec.length} endpoints and ${endpoints.specPaths.length} named paths)`);
		expect({ missing, missingPaths }).toEqual({ missing: [], missingPaths: [] });
	});
});
