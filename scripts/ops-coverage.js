/**
 * What `npm run test:ops` (scripts/ops-check.js) checks, without reading files or running anything
 * (test/unit/opsCheck.test.ts runs it on made-up records):
 * - sentProblems: every operation of the resource tables was sent by a node test and answered 2xx. An operation
 *   whose path the values decide (`route`) lists the templates it may request (`routes`): each of them must have
 *   been sent by a node test of its resource (test/node/<resource>*.test.ts) and answered 2xx.
 * - changelogProblems: every operation the tables have and the base's docs/operations.md lacks is named in
 *   CHANGELOG.md's Unreleased section as "Resource > Operation".
 */
'use strict';

const PLACEHOLDER = /^\{\w+\}$/;

/** A path template as a pattern of sent paths; the more literal segments, the more specific. */
function pathPattern(template) {
	const segments = template.split('/');
	const source = segments.map((s) => (PLACEHOLDER.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/');
	return { pattern: new RegExp(`^${source}$`), literal: segments.filter((s) => !PLACEHOLDER.test(s)).length };
}

/** One entry per path an operation must be seen to reach: its `path`, or each of its `routes`. */
function targetsOf(resources) {
	return resources.flatMap((r) =>
		r.operations.flatMap((op) => {
			const title = `${r.name} > ${op.name}`;
			const paths = op.routes ?? [op.path];
			return paths.map((path) => ({ title, resource: r.value, method: op.method, path, byRoutes: Boolean(op.routes), ...pathPattern(path), statuses: new Set() }));
		}),
	);
}

const is2xx = (status) => status >= 200 && status < 300;
const fileName = (file) => file.split(/[\\/]/).pop();

/**
 * `records`: [{file, requests: [{method, path, status}]}] as test/harness/opsLog.ts writes them (files relative to the
 * repository). A sent request counts for the most specific table paths it matches; a path of `routes` counts only
 * from its resource's node test files, as other operations read the same records.
 */
function sentProblems(resources, records) {
	const targets = targetsOf(resources);
	const byMethod = new Map();
	for (const t of targets) byMethod.set(t.method, [...(byMethod.get(t.method) ?? []), t]);
	for (const { file, requests } of records) {
		if (!file.split(/[\\/]/).join('/').startsWith('test/node/')) continue;
		for (const { method, path, status } of requests) {
			const candidates = (byMethod.get(method) ?? []).filter((t) => t.pattern.test(path));
			const matching = candidates.filter((t) => !t.byRoutes);
			const most = Math.max(...matching.map((t) => t.literal));
			const routed = candidates.filter((t) => t.byRoutes && fileName(file).startsWith(t.resource));
			for (const t of [...matching.filter((m) => m.literal === most), ...routed]) t.statuses.add(status);
		}
	}
	const problems = [];
	const failing = new Set();
	for (const t of targets) {
		const where = `${t.title} (${t.method} ${t.path})`;
		if (t.statuses.size === 0) {
			problems.push(`${where}: no node test ${t.byRoutes ? `of ${t.resource} (test/node/${t.resource}*.test.ts) ` : ''}sent it; test it in test/node/${t.resource}.test.ts`);
		} else if (![...t.statuses].some(is2xx)) {
			problems.push(`${where}: never answered 2xx (got ${[...t.statuses].sort().join(', ')}); is its sandbox route in sandbox/resources/<resource>/routes.ts, under this method and path?`);
		} else continue;
		failing.add(t.title);
	}
	const titles = new Set(targets.map((t) => t.title));
	return { problems, covered: titles.size - failing.size, total: titles.size };
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
