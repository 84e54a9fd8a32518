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

function strykerOptions(module, concurrency) {
	const tests = MODULES[module];
	const slug = slugOf(module);
	return {
		packageManager: 'npm',
		mutate: [module],
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

async function runModule(module, concurrency) {
	const { Stryker } = await import('@stryker-mutator/core');
	const started = Date.now();
	const results = await new Stryker(strykerOptions(module, concurrency)).runMutationTest();
	const seconds = Math.round((Date.now() - started) / 1000);
	const mine = results.filter((r) => path.resolve(ROOT, r.fileName) === path.resolve(ROOT, module));
	return summarise(module, mine, seconds, concurrency);
}

/** `--report`: the last run's JSON report of the module read again against survivors.json (no mutant is run). */
function reportModule(module) {
	const file = path.join(REPORTS, `${slugOf(module)}.json`);
	if (!fs.existsSync(file)) throw new Error(`no report of ${module} yet (${path.relative(ROOT, file)}): run it first`);
	const report = JSON.parse(fs.readFileSync(file, 'utf8'));
	const entry = Object.entries(report.files).find(([name]) => path.resolve(ROOT, name) === path.resolve(ROOT, module));
	const scores = fs.existsSync(path.join(REPORTS, 'scores.json')) ? JSON.parse(fs.readFileSync(path.join(REPORTS, 'scores.json'), 'utf8')) : {};
	const last = scores[module] ?? {};
	return summarise(module, entry ? entry[1].mutants : [], last.seconds ?? 0, last.concurrency ?? 0, false);
}

/** Prints the module's score and every undetected mutant survivors.json does not list; `record`: into scores.json. */
function summarise(module, mine, seconds, concurrency, record = true) {
	const source = fs.readFileSync(path.join(ROOT, module), 'utf8');
	const c = count(mine);
	const undetected = mine.filter((r) => r.status === 'Survived' || r.status === 'NoCoverage').map((r) => ({ status: r.status, ...describeMutant(source, r) }));
	const unlisted = undetected.filter((m) => !listed(module, m));
	const stale = SURVIVORS.filter((s) => s.module === module && !undetected.some((m) => listed(module, m) === s));

	const listedCount = undetected.length - unlisted.length;
	console.log(`\n${module}: mutation score ${c.score} % (${c.killed} killed, ${c.timeout} timeouts, ${c.survived} survived, ${c.noCoverage} no coverage; ${c.compileErrors} did not compile) in ${seconds} s`);
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
	scores[module] = { ...c, unlisted: unlisted.length, seconds, concurrency, tests: MODULES[module], commit, at: new Date().toISOString() };
	fs.writeFileSync(scoresFile, `${JSON.stringify(scores, null, 2)}\n`);
	return { module, ...c, unlisted: unlisted.length, seconds };
}

async function main() {
	const args = process.argv.slice(2);
	let concurrency = Number(process.env.LOFTY_MUTATION_CONCURRENCY ?? 2);
	let reportOnly = false;
	const names = [];
	for (let i = 0; i < args.length; i++) {
		if (args[i] === '--concurrency') concurrency = Number(args[++i]);
		else if (args[i].startsWith('--concurrency=')) concurrency = Number(args[i].slice('--concurrency='.length));
		else if (args[i] === '--report') reportOnly = true;
		else if (args[i] === '--list') {
			for (const [m, tests] of Object.entries(MODULES)) console.log(`${m}\n  ${tests.join('\n  ')}`);
			return;
		} else names.push(args[i]);
	}
	if (!names.length) throw new Error('name a module (npm run test:mutation -- transport/itemGate.ts), or all; --list shows them');
	const modules = names.includes('all') ? Object.keys(MODULES) : names.map(resolveModule);
	const summary = [];
	for (const module of modules) summary.push(reportOnly ? reportModule(module) : await runModule(module, concurrency));
	if (summary.length > 1) {
		console.log('\nmodule | score | killed | timeouts | survived | no coverage | not listed | seconds');
		for (const s of summary) console.log(`${s.module} | ${s.score} % | ${s.killed} | ${s.timeout} | ${s.survived} | ${s.noCoverage} | ${s.unlisted} | ${s.seconds}`);
	}
	const failing = summary.filter((s) => s.score < 85 || s.unlisted > 0);
	if (failing.length) {
		console.log(`\nBelow 85 % or with undetected mutants not listed: ${failing.map((s) => s.module).join(', ')}`);
		process.exitCode = 1;
	}
}

main().catch((error) => {
	console.error(error instanceof Error ? error.message : error);
	process.exitCode = 1;
});
