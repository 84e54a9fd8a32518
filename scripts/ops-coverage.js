/**
 * What `npm run test:ops` (scripts/ops-check.js) checks, without reading files or running anything
 * (test/unit/opsCheck.test.ts runs it on made-up records):
 * - sentProblems: every operation of the resource tables was sent by a node test's run of that operation (its own
 *   resource and operation, not another operation's run that reaches the same endpoint) and answered 2xx. An
 *   operation whose path the values decide (`route`) lists the templates it may request (`routes`): each of them must
 *   have been sent by a run of it and answered 2xx.
 * - changelogProblems: every operation the tables have and the base's docs/operations.md lacks is named in
 *   CHANGELOG.md's Unreleased section as "Resource > Operation".
 */
'use strict';

const PLACEHOLDER = /^\{\w+\}$/;

/** A path template as a pattern of sent paths. */
function pathPattern(template) {
	const source = template.split('/').map((s) => (PLACEHOLDER.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/');
	return new RegExp(`^${source}$`);
}

/** One entry per path an operation must be seen to reach: its `path`, or each of its `routes`. */
function targetsOf(resources) {
	return resources.flatMap((r) =>
		r.operations.flatMap((op) => {
			const title = `${r.name} > ${op.name}`;
			const paths = op.routes ?? [op.path];
			return paths.map((path) => ({ title, resource: r.value, operation: op.value, method: op.method, path, pattern: pathPattern(path), statuses: new Set(), others: new Set() }));
		}),
	);
}

const is2xx = (status) => status >= 200 && status < 300;

/**
 * `records`: [{file, requests: [{resource, operation, method, path, status}]}] as test/harness/opsLog.ts writes them
 * (files relative to the repository; resource and operation those of the node run that sent the request). A sent
 * request counts for a table path of its own operation only; where another operation's run sent it, that is named.
 */
function sentProblems(resources, records) {
	const targets = targetsOf(resources);
	const titles = new Map(resources.flatMap((r) => r.operations.map((op) => [`${r.value}:${op.value}`, `${r.name} > ${op.name}`])));
	for (const { file, requests } of records) {
		if (!file.split(/[\\/]/).join('/').startsWith('test/node/')) continue;
		for (const { resource, operation, method, path, status } of requests) {
			for (const t of targets.filter((c) => c.method === method && c.pattern.test(path))) {
				if (t.resource === resource && t.operation === operation) t.statuses.add(status);
				else if (is2xx(status)) t.others.add(titles.get(`${resource}:${operation}`) ?? `${resource} > ${operation}`);
			}
		}
	}
	const problems = [];
	const failing = new Set();
	for (const t of targets) {
		const where = `${t.title} (${t.method} ${t.path})`;
		if (t.statuses.size === 0) {
			const others = t.others.size ? `only runs of ${[...t.others].sort().join(', ')} sent it, ` : '';
			problems.push(`${where}: no node test ran this operation and sent it (${others}which counts for them, not for it); test it in test/node/${t.resource}.test.ts`);
		} else if (![...t.statuses].some(is2xx)) {
			problems.push(`${where}: never answered 2xx (got ${[...t.statuses].sort().join(', ')}); is its sandbox route in sandbox/resources/<resource>/routes.ts, under this method and path?`);
		} else continue;
		failing.add(t.title);
	}
	const all = new Set(targets.map((t) => t.title));
	return { problems, covered: all.size - failing.size, total: all.size };
}

/** The "Resource > Operation" titles of the rows of a docs/operations.md text. */
function operationRows(markdown) {
	return new Set([...markdown.matchAll(/^\| ([^|]+?) \| ([^|]+?) \| `[A-Z]+ [^`]*` \|/gm)].map((m) => `${m[1]} > ${m[2]}`));
}

/** `baseOperations`: docs/operations.md as the base has it. */
function changelogProblems(resources, baseOperations, changelog, base) {
	const known = operationRows(baseOperations);
	const unreleased = (/^## Unreleased\n([\s\S]*?)(?=^## )/m.exec(changelog) ?? /^## Unreleased\n([\s\S]*)/m.exec(changelog) ?? ['', ''])[1];
	const titles = resources.flatMap((r) => r.operations.map((op) => `${r.name} > ${op.name}`));
	return titles
		.filter((title) => !known.has(title) && !unreleased.includes(title))
		.map((title) => `${title}: new since ${base}, but CHANGELOG.md's Unreleased section does not name it ("${title}")`);
}

module.exports = { sentProblems, changelogProblems, operationRows };
