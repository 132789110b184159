/**
 * The bench's children (scripts/bench/child-process.ts) share log files: every cold start
 * writes to one, and a fake upstream started twice under one label writes to the same.
 * What a child announces, and the log tail of its error, are its own lines only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { announced, logTail, startChild } from '../../../scripts/bench/child-process';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pps-bench-child-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function announcing(name: string, logFile: string) {
  const line = JSON.stringify({ baseURL: `http://${name}.invalid` });
  return startChild({ name, args: ['-e', `console.log(${JSON.stringify(line)})`], env: {}, logFile, cwd: dir });
}

describe('children sharing a log file', () => {
  test("when a second child writes to the first one's log file, then it announces its own line and its log tail is its own", async () => {
    const logFile = join(dir, 'shared.log');
    const first = announcing('first', logFile);
    expect(await announced(first, 'baseURL')).toEqual({ baseURL: 'http://first.invalid' });
    await first.exited;

    const second = announcing('second', logFile);
    expect(await announced(second, 'baseURL')).toEqual({ baseURL: 'http://second.invalid' });
    await second.exited;
    expect(logTail(second)).toBe('{"baseURL":"http://second.invalid"}');
  });
});
