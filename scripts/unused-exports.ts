/**
 * Lists the exports of `src/` that no other file uses, through the TypeScript compiler: those
 * used by no file at all (dead code, to delete by hand), those used only inside their own file
 * (`--apply` removes their `export`), and those only tests use (the unit under test, or dead).
 * Every file of tsconfig.json counts as a user (tests, bench, fuzz).
 *
 *   node --import tsx scripts/unused-exports.ts [--apply]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');
const apply = process.argv.includes('--apply');
const config = ts.getParsedCommandLineOfConfigFile(resolve(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
if (!config) throw new Error('tsconfig.json could not be read');
const program = ts.createProgram(config.fileNames, config.options);
const checker = program.getTypeChecker();
const files = program.getSourceFiles().filter((file) => !file.isDeclarationFile && file.fileName.startsWith(`${root}/`));
const rel = (path: string): string => relative(root, path);
const isTest = (path: string): boolean => /\.test\.ts$|^(test|bench|fuzz)\//.test(rel(path));
const target = (symbol: ts.Symbol | undefined): ts.Symbol | undefined =>
  symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;

/** For each symbol, the files that name it (its declarations aside) and how often. */
const uses = new Map<ts.Symbol, Map<string, number>>();
for (const file of files) {
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) {
      const symbol = target(checker.getSymbolAtLocation(node));
      if (symbol && !symbol.declarations?.some((declaration) => (declaration as ts.NamedDeclaration).name === node)) {
        const byFile = uses.get(symbol) ?? new Map<string, number>();
        uses.set(symbol, byFile);
        byFile.set(file.fileName, (byFile.get(file.fileName) ?? 0) + 1);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
}

const report = { unused: [] as string[], local: [] as string[], testsOnly: [] as string[], kept: [] as string[] };
/** Per file, the `export ` keywords to remove. */
const edits = new Map<string, { start: number; end: number }[]>();
for (const file of files) {
  if (!rel(file.fileName).startsWith('src/') || isTest(file.fileName)) continue;
  const moduleSymbol = checker.getSymbolAtLocation(file);
  if (!moduleSymbol) continue;
  const local = new Set<ts.Symbol>();
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const symbol = target(exported)!;
    const byFile = uses.get(symbol) ?? new Map<string, number>();
    const others = [...byFile.keys()].filter((user) => user !== file.fileName);
    const name = `${rel(file.fileName)}: ${exported.name}`;
    if (others.length > 0) {
      if (others.every(isTest)) report.testsOnly.push(`${name} (${others.map(rel).join(', ')})`);
    } else if (!byFile.get(file.fileName)) report.unused.push(name);
    else if (exported.flags & ts.SymbolFlags.Alias) report.kept.push(`${name}: a re-export`);
    else local.add(symbol);
  }
  for (const symbol of local) {
    for (const declaration of symbol.declarations ?? []) {
      if (declaration.getSourceFile() !== file) continue;
      const statement = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
      if (ts.isVariableDeclaration(declaration) && declaration.parent.declarations.some((other) => !local.has(checker.getSymbolAtLocation(other.name)!))) {
        report.kept.push(`${rel(file.fileName)}: ${symbol.name}: declared with an export still used`);
        continue;
      }
      const modifiers = ts.canHaveModifiers(statement) ? (ts.getModifiers(statement) ?? []) : [];
      const keyword = modifiers.find((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
      if (!keyword || modifiers.some((modifier) => modifier.kind === ts.SyntaxKind.DefaultKeyword)) {
        report.kept.push(`${rel(file.fileName)}: ${symbol.name}: no plain export keyword`);
        continue;
      }
      let end = keyword.end;
      while (file.text[end] === ' ') end++;
      const list = edits.get(file.fileName) ?? [];
      if (!list.some((edit) => edit.start === keyword.getStart(file))) list.push({ start: keyword.getStart(file), end });
      edits.set(file.fileName, list);
    }
    report.local.push(`${rel(file.fileName)}: ${symbol.name}`);
  }
}

const section = (title: string, lines: string[]): void => {
  console.log(`${title} (${lines.length})`);
  for (const line of lines) console.log(`  ${line}`);
};
section('used by no file: delete', report.unused);
section(apply ? 'used only in their own file: export removed' : 'used only in their own file (--apply removes the export)', report.local);
section('used only by tests: the unit under test, or dead', report.testsOnly);
section('left as they are', report.kept);
if (apply) {
  for (const [path, list] of edits) {
    let text = readFileSync(path, 'utf8');
    for (const { start, end } of list.sort((a, b) => b.start - a.start)) text = text.slice(0, start) + text.slice(end);
    writeFileSync(path, text);
  }
  console.log('run `npx biome check --write src` to reformat lines that now fit');
}
