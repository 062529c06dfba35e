/**
 * Compatibility-matrix rows recorded from the SDK end-to-end tests. A test declares, as its first
 * statement, which row (client, surface, upstream) and which features it checks with
 * `matrix.covers(row, ...features)`; when the test ends, vitest reports its outcome to an
 * `onTestFinished` hook that marks those features of that row: a feature is `pass` only when
 * every test that covered it passed, and one failing test turns it `FAIL` and names itself in the
 * row's note. Nothing is marked for a test that did not run, so the file's last test,
 * `matrix.checkDocument(context)`, first asserts that every other test of the file ran (a `-t`
 * filter leaves that last test out unless it matches it), then compares its section of
 * docs/compatibility.md with the rows (`GENGATE_UPDATE_DOCS=1` rewrites the section).
 */
import { expect, onTestFinished, type TestContext } from 'vitest';
import { installedVersion } from '../agents/agent-definition.js';
import { checkMatrixSection, type Feature, type MatrixRow } from '../agents/compatibility-matrix.js';

export interface MatrixCase {
  client: string;
  surface: string;
  upstream: string;
}

/** `name version` of an installed package, read from its package.json in node_modules. */
export function clientVersion(...packageNames: string[]): string {
  return packageNames.map((name) => `${name} ${installedVersion(name)}`).join(' + ');
}

interface TaskLike {
  type: string;
  name: string;
  mode: string;
  tasks?: TaskLike[];
}

function testsOf(task: TaskLike): TaskLike[] {
  return task.type === 'test' ? [task] : (task.tasks ?? []).flatMap(testsOf);
}

export class SdkMatrix {
  private readonly rows = new Map<string, MatrixRow>();

  constructor(private readonly section: string) {}

  /** Call first in a test: when the test ends, its outcome marks these features of the row. */
  covers(row: MatrixCase, ...features: Feature[]): void {
    onTestFinished(({ task }) => {
      const passed = task.result?.state === 'pass';
      const key = `${row.client}\u0000${row.surface}\u0000${row.upstream}`;
      const entry = this.rows.get(key) ?? { ...row, features: {}, note: '' };
      this.rows.set(key, entry);
      for (const feature of features) entry.features[feature] = (entry.features[feature] ?? true) && passed;
      if (!passed) entry.note = [entry.note, `failed: ${task.name}`].filter(Boolean).join('; ');
    });
  }

  /** The file's last test: every other test ran, and the document's section holds this run's rows. */
  checkDocument({ task }: TestContext): void {
    const file = task.file as unknown as TaskLike;
    const notRun = testsOf(file)
      .filter((test) => test !== (task as unknown as TaskLike) && test.mode !== 'run')
      .map((test) => test.name);
    expect(notRun, 'every test of the file must run for the matrix to be checked (run the whole file)').toEqual([]);
    const { documented, rendered } = checkMatrixSection(this.section, [...this.rows.values()]);
    expect(documented, 'docs/compatibility.md is stale: rerun this file with GENGATE_UPDATE_DOCS=1').toBe(rendered);
  }
}
