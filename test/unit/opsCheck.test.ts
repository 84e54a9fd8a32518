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
	requests: Array<{ resource: string; operation: string; method: string; path: string; status: number }>;
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
 * What each resource's node test file would record: every path of its operations, sent by a run of that operation,
 * answered as `router` answers.
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
				return { resource: r.value, operation: op.value, method: op.method, path, status: answer(asked ? router : ROUTER, op.method, template) };
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

	it('fails when no node test ran an operation, naming it and only it', () => {
		const missed = OPERATIONS.filter(({ title }) => {
			const { problems } = sentProblems(RESOURCES, records(ROUTER, title));
			return !(problems.length > 0 && problems.every((p) => titleOf(p) === title && p.includes('no node test ran this operation')));
		});
		expect(missed.map((o) => o.title)).toEqual([]);
	});

	// Task > Get Many and Appointment > Get Many both read GET /v1.0/tasks: a run of one is no test of the other.
	it('fails when only another operation sharing the endpoint sent it, naming the uncovered one and the one that did', () => {
		const endpoint = (o: (typeof OPERATIONS)[number]) => pathsOf(o.op).map((p) => `${o.op.method} ${shape(p)}`);
		const shared = OPERATIONS.filter((o) => OPERATIONS.some((other) => other !== o && endpoint(other).some((e) => endpoint(o).includes(e))));
		expect(shared.map((o) => o.title)).toEqual(expect.arrayContaining(['Task > Get Many', 'Appointment > Get Many']));
		for (const { title, op } of shared) {
			const { problems } = sentProblems(RESOURCES, records(ROUTER, title));
			expect(problems.map(titleOf)).toEqual(pathsOf(op).map(() => title));
			expect(problems.join('\n')).toMatch(/no node test ran this operation and sent it \(only runs of .+ sent it, which counts for them, not for it\)/);
		}
		const { problems } = sentProblems(RESOURCES, records(ROUTER, 'Task > Get Many'));
		expect(problems[0]).toContain('only runs of Appointment > Get Many sent it');
	});

	it('every operation whose path the values decide (`route`) lists the paths it may request (`routes`)', () => {
		expect(OPERATIONS.filter((o) => o.op.route && !o.op.routes?.length).map((o) => o.title)).toEqual([]);
		for (const { op } of OPERATIONS.filter((o) => o.op.routes)) for (const p of op.routes ?? []) expect(p).toMatch(/^\/v[12]\.0\//);
	});

	it('counts the paths of `routes` (Webhook > Get Event Record) only from runs of that operation', () => {
		const eventRecord = OPERATIONS.find((o) => o.op.routes);
		expect(eventRecord?.title).toBe('Webhook > Get Event Record');
		// The other operations' runs send the same paths (Lead > Get, Note > Get, ...); no run of Get Event Record does.
		const { problems } = sentProblems(RESOURCES, records(ROUTER, 'Webhook > Get Event Record'));
		expect(problems.map(titleOf)).toEqual((eventRecord?.op.routes ?? []).map(() => 'Webhook > Get Event Record'));
		expect(problems[0]).toMatch(/no node test ran this operation and sent it \(only runs of .+ sent it/);
		// Any node test file counts; a test outside test/node does not.
		const all = records(ROUTER);
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
