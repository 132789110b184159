/**
 * Every token counted (docs/upstream.md, "Every token counted"): each
 * attempt of a call is tallied as it goes (sent or not, the text chunks of its answer that
 * arrived, the usage it reported), and an attempt that was sent and ended without a usage
 * report (a timeout, a client that left, a connection lost, an HTTP error) is counted by
 * an estimate, marked as such. Prompt tokens: what was sent, by the script-aware estimate
 * of domain/text-tokens.ts (about 4 characters a token of English, more for CJK text), once
 * per attempt sent. Completion tokens: the chunks of text that arrived, one token each
 * (OpenAI streams about one token a chunk; llama.cpp merges a few, 12 tokens in 9 chunks
 * in a probe, so this is a lower bound there, as for any server that batches tokens). An
 * attempt never sent (it waited for a socket) cost
 * nothing and is not counted. An answer that came without a usage report is estimated the
 * same way (a whole answer, read at once, by its text).
 */
import { estimatedTextTokens } from '../../domain/text-tokens';

export interface ReportedUsage {
  promptTokens: number | null;
  completionTokens: number | null;
}

export interface EstimatedUsage {
  promptTokens: number;
  completionTokens: number;
  estimated: true;
}

/** What is known of one attempt, filled in while it runs. */
export interface AttemptTally {
  /** When it was written to its socket (`performance.now()`); undefined while it waits for one, or if it never left. */
  sentAt: number | undefined;
  /** When it ended, answered or failed (`performance.now()`). */
  endedAt: number | undefined;
  /** Chunks of the answer that carried text (content or refusal). */
  textChunks: number;
  /** Its usage report, once one arrived. */
  usage: ReportedUsage | null;
}

export const newTally = (): AttemptTally => ({ sentAt: undefined, endedAt: undefined, textChunks: 0, usage: null });

/** Estimated tokens of the messages sent once. */
export function estimatedPromptTokens(messages: readonly { content: string }[]): number {
  return estimatedTextTokens(messages.map((message) => message.content).join(''));
}

/**
 * What the attempt that answered cost when its answer reported no usage: its prompt, and
 * its completion by the chunks that carried text or, for an answer read whole (no chunks),
 * by the estimate of its text.
 */
export function answeredEstimate(answered: AttemptTally, promptTokens: number, answerText: string): EstimatedUsage {
  return { promptTokens, completionTokens: answered.textChunks > 0 ? answered.textChunks : estimatedTextTokens(answerText), estimated: true };
}

/**
 * What `attempts` cost: the usage they reported, summed (null: none reported), and the
 * estimate of those sent without a report (null: none).
 */
export function talliedUsage(attempts: readonly AttemptTally[], promptTokens: () => number): { reported: ReportedUsage | null; estimated: EstimatedUsage | null } {
  const reporting = attempts.flatMap((attempt) => (attempt.usage ? [attempt.usage] : []));
  const unreported = attempts.filter((attempt) => attempt.sentAt !== undefined && attempt.usage === null);
  const sum = (counts: (number | null)[]): number | null => (counts.every((count) => count === null) ? null : counts.reduce<number>((total, count) => total + (count ?? 0), 0));
  return {
    reported: reporting.length > 0 ? { promptTokens: sum(reporting.map((usage) => usage.promptTokens)), completionTokens: sum(reporting.map((usage) => usage.completionTokens)) } : null,
    estimated:
      unreported.length > 0
        ? { promptTokens: unreported.length * promptTokens(), completionTokens: unreported.reduce((total, attempt) => total + attempt.textChunks, 0), estimated: true }
        : null,
  };
}
