/**
 * `npm run test:mutation -- <module> [<module>...] [--concurrency N]`: Stryker mutation testing of the modules that own
 * a guarantee (test/mutation/modules.json), one module at a time, by hand (not in CI).
 *
 * Each module is mutated alone and tested by the test files that own its guarantee (modules.json), with per-test
 * coverage analysis (a mutant runs only the tests that reached it) and the TypeScript checker (a mutant that does not
 * compile is dropped before any test runs). At the end: the score, the counts, the time, and every surviving mutant
 * that test/mutation/survivors.json does not list with its reason (printed ready to be killed by a test or listed).
 *
 * A module is named by its path (`nodes/Lofty/transport/itemGate.ts`), its path under nodes/ or nodes/Lofty/
 * (`transport/itemGate.ts`), or its file name when that is unique (`itemGate`); `all` runs every module.
 * `--list` prints the modules and their test files; `--report` reads the last run's report of the module again against
 * survivors.json (after listing a survivor) without running anything. Reports: reports/mutation/<module>.html and .json; the last score
 * of each module: reports/mutation/scores.json. Stryker's sandbox: .stryker-tmp/ (both git-ignored).
 *
 * A module too slow for one sitting runs in parts: `--split N` prints the module's lines cut into N parts at top-level
 * statements (about as many mutants in each, as Stryker's instrumenter places them); `--part K/N` mutates part K only
 * (Stryker's `mutate` with the line range `path:from-to`), its report in reports/mutation/<module>.partKofN.html|json;
 * `--combine` joins the N parts' reports (each must have mutated the module's code as it is now) into <module>.json
 * and the module's score in scores.json, as one run would have.
 */
'use strict';

const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const ROOT = path.resolve(__dirname, '../..');
const MODULES = require('./modules.json');
const SURVIVORS = require('./survivors.json');
const REPORTS = path.join(ROOT, 'reports/mutation');

/** The module's path under the repository for what the user typed, or an error naming the candidates. */
function resolveModule(name) {
	const all = Object.keys(MODULES);
	const clean = name.replace(/\\/g, '/').replace(/^\.\//, '');
	const exact = all.find((m) => m === clean || m === `nodes/${clean}` || m === `nodes/Lofty/${clean}`);
	if (exact) return exact;
	const base = clean.replace(/\.ts$/, '');
	const matches = all.filter((m) => m.endsWith(`/${base}.ts`));
	if (matches.length === 1) return matches[0];
	throw new Error(
		matches.length
			? `"${name}" names several modules: ${matches.join(', ')}`
			: `"${name}" is not a module of test/mutation/modules.json (npm run test:mutation -- --list)`,
	);
}

/** reports/mutation/<slug>: the module's path under nodes/ with / as _ (transport_itemGate). */
const slugOf = (module) => module.replace(/^nodes\/(Lofty\/)?/, '').replace(/\.ts$/, '').replace(/\//g, '_');

/** A part's name in report file names: part2of3. */
const partName = (part) => `part${part.k}of${part.n}`;

/** Where Stryker's instrumenter places the module's mutants (no test runs): [{ from, to }] lines, 1-based. */
async function mutantLines(module) {
	const { Instrumenter } = await import('@stryker-mutator/instrumenter');
	const quiet = () => false;
	const logger = { debug() {}, info() {}, warn() {}, error() {}, trace() {}, fatal() {}, isDebugEnabled: quiet, isInfoEnabled: quiet, isTraceEnabled: quiet, isWarnEnabled: quiet, isErrorEnabled: quiet, isFatalEnabled: quiet };
	const content = fs.readFileSync(path.join(ROOT, module), 'utf8');
	const { mutants } = await new Instrumenter(logger).instrument([{ name: path.join(ROOT, module), content, mutate: true }], { ignorers: [], plugins: null, excludedMutations: [] });
	return mutants.map((m) => ({ from: m.location.start.line + 1, to: m.location.end.line + 1 }));
}

/**
 * The module's lines cut into `n` parts at top-level statements, each with about as many of the module's mutants:
 * [{ from, to, mutants }] (lines 1-based, inclusive; the first from line 1, the last to the last line). A mutant lies
 * inside one top-level statement, so each mutant is in exactly one part.
 */
async function splitModule(module, n) {
	const ts = require('typescript');
	const text = fs.readFileSync(path.join(ROOT, module), 'utf8');
	const file = ts.createSourceFile(module, text, ts.ScriptTarget.Latest, true);
	const lineOf = (pos) => file.getLineAndCharacterOfPosition(pos).line + 1;
	const lines = text.split('\n');
	const statements = file.statements.map((st) => ({ from: lineOf(st.getStart(file)), to: lineOf(st.getEnd()) }));
	if (n < 1 || n > statements.length) throw new Error(`${module} has ${statements.length} top-level statements: it splits into 1 to ${statements.length} parts`);
	const mutants = await mutantLines(module);
	// before[i]: the mutants of the statements before statement i.
	const before = [0];
	for (const st of statements) before.push(before[before.length - 1] + mutants.filter((m) => m.from >= st.from && m.to <= st.to).length);
	const total = before[statements.length];
	// starts[j]: the first statement of part j+1, where the mutants before it come closest to j/n of all.
	const starts = [0];
	for (let j = 1; j < n; j++) {
		let best = starts[j - 1] + 1;
		for (let i = best; i <= statements.length - (n - j); i++) if (Math.abs(before[i] - (j * total) / n) < Math.abs(before[best] - (j * total) / n)) best = i;
		starts.push(best);
	}
	const last = lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
	return starts.map((first, i) => {
		const next = i === n - 1 ? statements.length : starts[i + 1];
		return { from: i === 0 ? 1 : statements[first].from, to: i === n - 1 ? last : statements[next].from - 1, mutants: before[next] - before[first] };
	});
}

function strykerOptions(module, concurrency, part, range) {
	const tests = MODULES[module];
	const slug = part ? `${slugOf(module)}.${partName(part)}` : slugOf(module);
	return {
		packageManager: 'npm',
		mutate: [range ? `${module}:${range.from}-${range.to}` : module],
		testRunner: 'jest',
		coverageAnalysis: 'perTest',
		checkers: ['typescript'],
		// The shipped code's own tsconfig: a mutant that does not compile in the package is dropped.
		tsconfigFile: 'tsconfig.json',
		typescriptChecker: { prioritizePerformanceOverAccuracy: true },
		jest: {
			projectType: 'custom',
			configFile: 'jest.config.js',
			// Every mutant runs only the tests that covered it (perTest); related-test lookup would run more.
			enableFindRelatedTests: false,
			config: {
				// The module's test set only: jest loads no other test file, in the dry run or for a mutant.
				testMatch: tests.map((file) => `<rootDir>/${file}`),
				// The checker above already type-checked each mutant: ts-jest only transpiles.
				transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.dev.json', isolatedModules: true }] },
			},
		},
		// Stryker's instrumented module carries every mutant at once: no type check of it in the test run.
		disableTypeChecks: 'nodes/**/*.ts',
		concurrency,
		// A loaded shared machine runs tests several times slower than the dry run measured: a mutant is a timeout only
		// when it takes three times as long plus 10 s.
		timeoutFactor: 3,
		timeoutMS: 10000,
		reporters: ['clear-text', 'progress-append-only', 'json', 'html'],
		clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true, reportMutants: false },
		jsonReporter: { fileName: path.join('reports/mutation', `${slug}.json`) },
		htmlReporter: { fileName: path.join('reports/mutation', `${slug}.html`) },
		thresholds: { high: 90, low: 85, break: null },
		tempDirName: '.stryker-tmp',
		cleanTempDir: true,
		// What the tests never read stays out of Stryker's sandbox copy.
		ignorePatterns: ['dist', '.build', '.e2e', '.tryout', 'coverage', 'screenshots', '.test-output', 'reports', '*.tgz', 'bench', 'examples', 'icons'],
		logLevel: 'info',
		fileLogLevel: 'off',
		allowConsoleColors: false,
	};
}

/** The source line of a mutant and the code it replaces: how survivors.json names a mutant (line numbers move). */
function describeMutant(source, mutant) {
	const lines = source.split('\n');
	const { start, end } = mutant.location;
	const line = lines[start.line - 1].trim();
	let original;
	if (start.line === end.line) original = lines[start.line - 1].slice(start.column - 1, end.column - 1);
	else original = [lines[start.line - 1].slice(start.column - 1), ...lines.slice(start.line, end.line - 1), lines[end.line - 1].slice(0, end.column - 1)].join('\n');
	return { line, original, replacement: mutant.replacement ?? '', mutator: mutant.mutatorName, at: start.line };
}

const oneLine = (text) => text.replace(/\s+/g, ' ').trim();

/** Whether survivors.json lists this mutant: same module, mutator, replaced code and replacement, on a line with that text. */
function listed(module, m) {
	return SURVIVORS.find(
		(s) =>
			s.module === module &&
			s.mutator === m.mutator &&
			oneLine(s.original) === oneLine(m.original) &&
			oneLine(s.replacement) === oneLine(m.replacement) &&
			oneLine(m.line).includes(oneLine(s.line)),
	);
}

function count(results) {
	const by = (status) => results.filter((r) => r.status === status).length;
	const c = {
		killed: by('Killed'),
		timeout: by('Timeout'),
		survived: by('Survived'),
		noCoverage: by('NoCoverage'),
		compileErrors: by('CompileError'),
		runtimeErrors: by('RuntimeError'),
		ignored: by('Ignored'),
	};
	const detected = c.killed + c.timeout;
	const valid = detected + c.survived + c.noCoverage;
	c.total = results.length;
	c.score = valid ? Math.round((detected / valid) * 10000) / 100 : 100;
	return c;
}

async function runModule(module, concurrency, part) {
	const { Stryker } = await import('@stryker-mutator/core');
	const range = part && (await splitModule(module, part.n))[part.k - 1];
	if (range) console.log(`${module}: part ${part.k} of ${part.n}, lines ${range.from}-${range.to} (${range.mutants} mutants, before the type check)`);
	const started = Date.now();
	const results = await new Stryker(strykerOptions(module, concurrency, part, range)).runMutationTest();
	const seconds = Math.round((Date.now() - started) / 1000);
	const mine = results.filter((r) => path.resolve(ROOT, r.fileName) === path.resolve(ROOT, module));
	return summarise(module, mine, seconds, concurrency, { part });
}

/** The module's mutants in a Stryker JSON report, with the source they were made from. */
function readReport(module, file) {
	const report = JSON.parse(fs.readFileSync(file, 'utf8'));
	const entry = Object.entries(report.files).find(([name]) => path.resolve(ROOT, name) === path.resolve(ROOT, module));
	return { report, name: entry?.[0], source: entry?.[1].source, mutants: entry ? entry[1].mutants : [] };
}

/**
 * `--combine`: the reports of the module's N parts joined into <module>.json and its score in scores.json (the time:
 * the parts' times added). Every part must be there, and must have mutated the module's code as it is now.
 */
async function combineModule(module) {
	const slug = slugOf(module);
	const names = fs.existsSync(REPORTS) ? fs.readdirSync(REPORTS) : [];
	const pattern = new RegExp(`^${slug.replace(/[.]/g, '\\.')}\\.part(\\d+)of(\\d+)\\.json$`);
	const found = names.map((f) => pattern.exec(f)).filter(Boolean).map((m) => ({ file: path.join(REPORTS, m[0]), k: Number(m[1]), n: Number(m[2]) }));
	if (!found.length) throw new Error(`no part reports of ${module} (reports/mutation/${slug}.partKofN.json): run --part K/N first`);
	// The newest split that is complete.
	const splits = [...new Set(found.map((f) => f.n))].filter((n) => found.filter((f) => f.n === n).length === n);
	if (!splits.length) {
		const n = Math.max(...found.map((f) => f.n));
		const missing = Array.from({ length: n }, (_, i) => i + 1).filter((k) => !found.some((f) => f.n === n && f.k === k));
		throw new Error(`${module}: part(s) ${missing.map((k) => `${k}/${n}`).join(', ')} not run yet`);
	}
	const newest = (n) => Math.max(...found.filter((f) => f.n === n).map((f) => fs.statSync(f.file).mtimeMs));
	const n = splits.sort((a, b) => newest(b) - newest(a))[0];
	const current = fs.readFileSync(path.join(ROOT, module), 'utf8');
	const scoresFile = path.join(REPORTS, 'scores.json');
	const scores = fs.existsSync(scoresFile) ? JSON.parse(fs.readFileSync(scoresFile, 'utf8')) : {};
	const partScores = scores[module]?.parts ?? {};
	const ranges = await splitModule(module, n);
	let joined;
	let seconds = 0;
	const mutants = [];
	for (let k = 1; k <= n; k++) {
		const part = readReport(module, path.join(REPORTS, `${slug}.${partName({ k, n })}.json`));
		if (part.source !== current) throw new Error(`${module}: part ${k}/${n} mutated other code than the module's now: run it again`);
		const { from, to } = ranges[k - 1];
		if (part.mutants.some((m) => m.location.start.line < from || m.location.end.line > to)) throw new Error(`${module}: the report of part ${k}/${n} holds mutants outside its lines ${from}-${to}`);
		joined ??= part;
		mutants.push(...part.mutants.map((m) => ({ ...m, id: `${k}.${m.id}` })));
		seconds += partScores[`${k}/${n}`]?.seconds ?? 0;
	}
	joined.report.files = { [joined.name]: { ...joined.report.files[joined.name], mutants } };
	fs.writeFileSync(path.join(REPORTS, `${slug}.json`), JSON.stringify(joined.report));
	console.log(`${module}: ${n} parts joined into reports/mutation/${slug}.json`);
	return summarise(module, mutants, seconds, partScores[`1/${n}`]?.concurrency ?? 0, { parts: n });
}

/** `--report`: the last run's JSON report of the module read again against survivors.json (no mutant is run). */
function reportModule(module) {
	const file = path.join(REPORTS, `${slugOf(module)}.json`);
	if (!fs.existsSync(file)) throw new Error(`no report of ${module} yet (${path.relative(ROOT, file)}): run it first`);
	const report = JSON.parse(fs.readFileSync(file, 'utf8'));
	const entry = Object.entries(report.files).find(([name]) => path.resolve(ROOT, name) === path.resolve(ROOT, module));
	const scores = fs.existsSync(path.join(REPORTS, 'scores.json')) ? JSON.parse(fs.readFileSync(path.join(REPORTS, 'scores.json'), 'utf8')) : {};
	const last = scores[module] ?? {};
	return summarise(module, entry ? entry[1].mutants : [], last.seconds ?? 0, last.concurrency ?? 0, { record: false });
}

/**
 * Prints the module's score and every undetected mutant survivors.json does not list; records it in scores.json
 * unless `record` is false (a `part`'s score under the module's `parts`; `parts`: the count a combined score joins).
 */
function summarise(module, mine, seconds, concurrency, { record = true, part, parts } = {}) {
	const source = fs.readFileSync(path.join(ROOT, module), 'utf8');
	const c = count(mine);
	const undetected = mine.filter((r) => r.status === 'Survived' || r.status === 'NoCoverage').map((r) => ({ status: r.status, ...describeMutant(source, r) }));
	const unlisted = undetected.filter((m) => !listed(module, m));
	// A part holds some of the module's mutants only: the listed ones of other parts are not stale.
	const stale = part ? [] : SURVIVORS.filter((s) => s.module === module && !undetected.some((m) => listed(module, m) === s));

	const listedCount = undetected.length - unlisted.length;
	console.log(`\n${module}${part ? ` part ${part.k}/${part.n}` : ''}: mutation score ${c.score} % (${c.killed} killed, ${c.timeout} timeouts, ${c.survived} survived, ${c.noCoverage} no coverage; ${c.compileErrors} did not compile) in ${seconds} s`);
	console.log(`  tests: ${MODULES[module].join(', ')}`);
	console.log(`  ${listedCount} undetected mutant(s) listed in test/mutation/survivors.json, ${unlisted.length} not listed`);
	for (const m of unlisted) {
		console.log(`  NOT LISTED ${m.status} line ${m.at}: ${m.mutator}: ${oneLine(m.original).slice(0, 120)} -> ${oneLine(m.replacement).slice(0, 120)}`);
		console.log(`    ${JSON.stringify({ module, mutator: m.mutator, line: m.line, original: m.original, replacement: m.replacement, reason: '' })}`);
	}
	for (const s of stale) console.log(`  listed but not undetected any more (remove it from survivors.json): line "${s.line}" ${s.mutator} -> ${s.replacement}`);

	if (!record) return { module, ...c, unlisted: unlisted.length, seconds };
	fs.mkdirSync(REPORTS, { recursive: true });
	const scoresFile = path.join(REPORTS, 'scores.json');
	const scores = fs.existsSync(scoresFile) ? JSON.parse(fs.readFileSync(scoresFile, 'utf8')) : {};
	let commit = '';
	try {
		commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
	} catch {
		// not a git checkout: the scores carry no commit
	}
	const entry = { ...c, unlisted: unlisted.length, seconds, concurrency, tests: MODULES[module], commit, at: new Date().toISOString() };
	if (part) scores[module] = { ...scores[module], parts: { ...scores[module]?.parts, [`${part.k}/${part.n}`]: entry } };
	else scores[module] = { ...entry, ...(parts ? { parts: scores[module]?.parts } : {}) };
	fs.writeFileSync(scoresFile, `${JSON.stringify(scores, null, 2)}\n`);
	return { module, ...c, unlisted: unlisted.length, seconds };
}

async function main() {
	const args = process.argv.slice(2);
	let concurrency = Number(process.env.LOFTY_MUTATION_CONCURRENCY ?? 2);
	let reportOnly = false;
	let combine = false;
	let part;
	let split;
	const names = [];
	for (let i = 0; i < args.length; i++) {
		if (args[i] === '--concurrency') concurrency = Number(args[++i]);
		else if (args[i].startsWith('--concurrency=')) concurrency = Number(args[i].slice('--concurrency='.length));
		else if (args[i] === '--report') reportOnly = true;
		else if (args[i] === '--combine') combine = true;
		else if (args[i] === '--split') split = Number(args[++i]);
		else if (args[i] === '--part') {
			const m = /^(\d+)\/(\d+)$/.exec(args[++i] ?? '');
			if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2])) throw new Error('--part K/N: part K of N (1 <= K <= N), e.g. --part 1/3');
			part = { k: Number(m[1]), n: Number(m[2]) };
		}
		else if (args[i] === '--list') {
			for (const [m, tests] of Object.entries(MODULES)) console.log(`${m}\n  ${tests.join('\n  ')}`);
			return;
		} else names.push(args[i]);
	}
	if (!names.length) throw new Error('name a module (npm run test:mutation -- transport/itemGate.ts), or all; --list shows them');
	const modules = names.includes('all') ? Object.keys(MODULES) : names.map(resolveModule);
	if ((part || split || combine) && modules.length !== 1) throw new Error('--part, --split and --combine take one module');
	if (split) {
		for (const [i, r] of (await splitModule(modules[0], split)).entries()) console.log(`--part ${i + 1}/${split}: ${modules[0]}:${r.from}-${r.to} (${r.mutants} mutants, before the type check)`);
		return;
	}
	const summary = [];
	for (const module of modules) summary.push(reportOnly ? reportModule(module) : combine ? await combineModule(module) : await runModule(module, concurrency, part));
	if (summary.length > 1) {
		console.log('\nmodule | score | killed | timeouts | survived | no coverage | not listed | seconds');
		for (const s of summary) console.log(`${s.module} | ${s.score} % | ${s.killed} | ${s.timeout} | ${s.survived} | ${s.noCoverage} | ${s.unlisted} | ${s.seconds}`);
	}
	// A part's score is not the module's: only its unlisted survivors fail it.
	const failing = summary.filter((s) => (!part && s.score < 85) || s.unlisted > 0);
	if (failing.length) {
		console.log(`\nBelow 85 % or with undetected mutants not listed: ${failing.map((s) => s.module).join(', ')}`);
		process.exitCode = 1;
	}
}

main().catch((error) => {
	console.error(error instanceof Error ? error.message : error);
	process.exitCode = 1;
});
