/**
 * Runs a command of the contract tests in the project root; rejects with its output when it
 * fails. Asynchronous, so servers in the test's own process (a fake upstream) keep answering.
 */
import { execFile } from 'node:child_process';
import { PROJECT_ROOT } from './live-service';

export function run(command: string, args: string[], env: Record<string, string> = {}, timeoutMs = 180_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const options = { cwd: PROJECT_ROOT, env: { ...process.env, ...env }, encoding: 'utf8' as const, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 };
    execFile(command, args, options, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(' ')} exited with ${error.code ?? error.signal}:\n${stdout}\n${stderr}`));
      else resolve(stdout);
    });
  });
}
