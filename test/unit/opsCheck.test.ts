/**
 * `npm run test:ops` (scripts/ops-check.js, its checks in scripts/ops-coverage.js) fails when an operation's sandbox
 * route is renamed and passes otherwise. The records are what node tests would record against the sandbox's real
 * route table (sandbox/resources): one request per path of each operation (its `path`, or each of its `routes`),
 * answered 200 where a route of the table takes it and 404 where none does, as the sandbox answers.
 */
import { RESOURCES } from '../../nodes/Lofty/resources';
import type { ResourceDef } from '../../nodes/Lofty/model/types';
import { type Route, Router } from '../../sandbox/core/router';
import { RESOURCES as SANDBOX } from '../../sandbox/resources';

interface Records {
	file: string;
	requests: Array<{ method: string; path: string; status: number }>;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { sentProblems, changelogProblems, operationRows } = require('../../scripts/ops-coverage') as {
	sentProblems: (resources: ResourceDef[], records: Records[]) => { problems: string[]; covered: number; total: number };
	changelogProblems: (resources: ResourceDef[], baseOperations: string, changelog: string, base: string) => string[];
	operationRows: (markdown: string) => Set<string>;
};

const ROUTES: Route[] = SANDBOX.flatMap((m) => m.routes);
const OPERATIONS = RESOURCES.flatMap((r) => r.operations.map((op) => ({ title: `${r.name} > ${op.name}`, resource: r.value, op })));
const pathsOf = (op: (typeof OPERATIONS)[number]['op']) => op.routes ?? [op.path];
const concrete = (template: string) => template.replace(/\{\w+\}/g, '123');

function routerOf(routes: Route[]): Router {
	const router = new Router();
	router.add(routes);
	return router;
}

const shape = (template: string) => template.replace(/\{\w+\}/g, '{}');
/**
 * 200 where the endpoint's own route takes the request; 404 where none does or where another endpoint's route takes
 * it (GET /v2.0/tasks/my-tasks renamed: /v2.0/tasks/{taskId} refuses `my-tasks` as an ID).
 */
function answer(router: Router, method: string, template: string): number {
	const matched = router.match(method, concrete(template));
	return matched && shape(matched.route.pattern) === shape(template) ? 200 : 404;
}

const ROUTER = routerOf(ROUTES);

/**
 * What each resource's node test file would record: every path of its operations, answered as `router` answers.
 * With `renamedRoute`, `router` is the sandbox's with that route renamed: only the requests it took are asked again.
 */
function records(router: Router, skip?: string, renamedRoute?: Route): Records[] {
	return RESOURCES.map((r) => ({
		file: `test/node/${r.value}.test.ts`,
		requests: r.operations
			.filter((op) => `${r.name} > ${op.name}` !== skip)
			.flatMap((op) => pathsOf(op).map((template) => {
				const path = concrete(template);
				const asked = !renamedRoute || ROUTER.match(op.method, path)?.route === renamedRoute;
				return { method: op.method, path, status: answer(asked ? router : ROUTER, op.method, template) };
			})),
	}));
}

/** The sandbox's routes with the one serving `method path` renamed (its last literal segment). */
function renamed(method: string, path: string): { routes: Route[]; route: Route } {
	const route = ROUTER.match(method, path)?.route;
	if (!route) throw new Error(`no sandbox route takes ${method} ${path}`);
	const segments = route.pattern.split('/');
	const last = segments.map((s, i) => (s.startsWith('{') ? -1 : i)).reduce((a, b) => Math.max(a, b));
	segments[last] = `${segments[last]}Renamed`;
	return { routes: ROUTES.map((r) => (r === route ? { ...r, pattern: segments.join('/') } : r)), route };
}

const titleOf = (problem: string) => /^(.*?) \((?:GET|POST|PUT|PATCH|DELETE) /.exec(problem)?.[1];

describe('npm run test:ops: every operation sent by a node test and answered 2xx', () => {
	it('passes on the sandbox as it is, every operation counted', () => {
		const { problems, covered, total } = sentProblems(RESOURCES, records(ROUTER));
		expect(problems).toEqual([]);
		expect(covered).toBe(OPERATIONS.length);
		expect(total).toBe(OPERATIONS.length);
	});

	it('fails when any operation\'s sandbox route is renamed, naming that operation and only those the route serves', () => {
		const missed: string[] = [];
		for (const { title, op } of OPERATIONS) {
			for (const template of pathsOf(op)) {
				const { routes, route } = renamed(op.method, concrete(template));
				const { problems } = sentProblems(RESOURCES, records(routerOf(routes), undefined, route));
				const served = OPERATIONS.filter((o) => o.op.method === route.method && pathsOf(o.op).some((p) => shape(p) === shape(route.pattern)));
				if (!problems.some((p) => titleOf(p) === title && p.includes(`(${op.method} ${template})`) && p.includes('never answered 2xx (got 404)'))) missed.push(`${title} (${template})`);
				expect(problems.map(titleOf).filter((t) => !served.some((o) => o.title === t))).toEqual([]);
			}
		}
		expect(missed).toEqual([]);
	});

	// The records hold method and path, not the operation: where operations share an endpoint (Task > Get Many and
	// Appointment > Get Many), a test of one counts for the others.
	it('fails when no node test sent an operation that has an endpoint of its own, naming it', () => {
		const router = ROUTER;
		const endpoints = (o: (typeof OPERATIONS)[number]) => pathsOf(o.op).map((p) => `${o.op.method} ${shape(p)}`);
		const own = OPERATIONS.filter((o) => endpoints(o).every((e) => OPERATIONS.every((other) => other === o || !endpoints(other).includes(e))));
		expect(own.length).toBeGreaterThan(OPERATIONS.length / 2);
		const missed = own.filter(({ title }) => {
			const { problems } = sentProblems(RESOURCES, records(router, title));
			return !(problems.length > 0 && problems.every((p) => titleOf(p) === title && p.includes('no node test')));
		});
		expect(missed.map((o) => o.title)).toEqual([]);
	});

	it('every operation whose path the values decide (`route`) lists the paths it may request (`routes`)', () => {
		expect(OPERATIONS.filter((o) => o.op.route && !o.op.routes?.length).map((o) => o.title)).toEqual([]);
		for (const { op } of OPERATIONS.filter((o) => o.op.routes)) for (const p of op.routes ?? []) expect(p).toMatch(/^\/v[12]\.0\//);
	});

	it('counts the paths of `routes` (Webhook > Get Event Record) only from that resource\'s node tests', () => {
		const eventRecord = OPERATIONS.find((o) => o.op.routes);
		expect(eventRecord?.title).toBe('Webhook > Get Event Record');
		const all = records(ROUTER);
		// The other resources' tests read the same records (Lead > Get, Note > Get, ...); the webhook tests read none.
		const withoutWebhook = all.map((r) => (r.file === 'test/node/webhook.test.ts' ? { ...r, requests: r.requests.filter((q) => q.path.startsWith('/v1.0/webhook')) } : r));
		const { problems } = sentProblems(RESOURCES, withoutWebhook);
		expect(problems.map(titleOf)).toEqual((eventRecord?.op.routes ?? []).map(() => 'Webhook > Get Event Record'));
		expect(problems[0]).toMatch(/no node test of webhook \(test\/node\/webhook\*\.test\.ts\) sent it/);
		// Any webhook test file counts (test/node/webhookEvents.test.ts); a test of another folder does not.
		const moved = all.map((r) => (r.file === 'test/node/webhook.test.ts' ? { ...r, file: 'test/node/webhookEvents.test.ts' } : r));
		expect(sentProblems(RESOURCES, moved).problems).toEqual([]);
		const trigger = all.map((r) => (r.file === 'test/node/webhook.test.ts' ? { ...r, file: 'test/trigger/webhook.test.ts' } : r));
		expect(sentProblems(RESOURCES, trigger).problems.map(titleOf)).toContain('Webhook > Get Event Record');
	});
});

describe('npm run test:ops: a new operation is named in the CHANGELOG', () => {
	const table = (titles: string[]) => titles.map((t) => `| ${t.replace(' > ', ' | ')} | \`GET /v1.0/x\` |  |`).join('\n');
	const base = table(OPERATIONS.map((o) => o.title));
	const archive = { ...RESOURCES[0], operations: [...RESOURCES[0].operations, { ...RESOURCES[0].operations[0], value: 'archive', name: 'Archive' }] };
	const withArchive = [archive, ...RESOURCES.slice(1)];
	const changelog = (lines: string) => `# Changelog\n\n## Unreleased\n\n${lines}\n## 0.1.0\n\n- Lead > Archive (an older release)\n`;

	it('names an operation the base lacks until the Unreleased section names it', () => {
		expect(operationRows(base).size).toBe(OPERATIONS.length);
		expect(changelogProblems(RESOURCES, base, changelog('- Nothing new'), 'main')).toEqual([]);
		expect(changelogProblems(withArchive, base, changelog('- Nothing new'), 'main')).toEqual([
			`${archive.name} > Archive: new since main, but CHANGELOG.md's Unreleased section does not name it ("${archive.name} > Archive")`,
		]);
		expect(changelogProblems(withArchive, base, changelog(`- **${archive.name} > Archive**: archives a lead`), 'main')).toEqual([]);
	});
});
