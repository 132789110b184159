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
 * same way (a whole answer, read at once, by its text). A report that gives one count and
 * not the other is completed by the estimate of the missing one, and the attempt is counted
 * as estimated.
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

/** Its usage report, when it gives both counts. */
function wholeReport({ usage }: AttemptTally): { promptTokens: number; completionTokens: number } | null {
  return usage && usage.promptTokens !== null && usage.completionTokens !== null ? { promptTokens: usage.promptTokens, completionTokens: usage.completionTokens } : null;
}

/**
 * What the attempt that answered cost: its report, or, where that lacks a count, the count it
 * gives and the estimate of the other: its prompt, and its completion by the chunks that
 * carried text or, for an answer read whole (no chunks), by the estimate of its text.
 */
export function answeredUsage(answered: AttemptTally, promptTokens: number, answerText: string): ReportedUsage | EstimatedUsage {
  return (
    wholeReport(answered) ?? {
      promptTokens: answered.usage?.promptTokens ?? promptTokens,
      completionTokens: answered.usage?.completionTokens ?? (answered.textChunks > 0 ? answered.textChunks : estimatedTextTokens(answerText)),
      estimated: true,
    }
  );
}

/**
 * What `attempts` cost: the usage they reported in whole, summed (null: none did), and the
 * estimate of those sent without a whole report, each count they did report kept (null: none).
 */
export function talliedUsage(attempts: readonly AttemptTally[], promptTokens: () => number): { reported: ReportedUsage | null; estimated: EstimatedUsage | null } {
  const reporting = attempts.flatMap((attempt) => wholeReport(attempt) ?? []);
  const unreported = attempts.filter((attempt) => attempt.sentAt !== undefined && wholeReport(attempt) === null);
  const sum = <T>(items: readonly T[], count: (item: T) => number): number => items.reduce((total, item) => total + count(item), 0);
  const prompt = unreported.length > 0 ? promptTokens() : 0;
  return {
    reported: reporting.length > 0 ? { promptTokens: sum(reporting, (usage) => usage.promptTokens), completionTokens: sum(reporting, (usage) => usage.completionTokens) } : null,
    estimated:
      unreported.length > 0
        ? {
            promptTokens: sum(unreported, (attempt) => attempt.usage?.promptTokens ?? prompt),
            completionTokens: sum(unreported, (attempt) => attempt.usage?.completionTokens ?? attempt.textChunks),
            estimated: true,
          }
        : null,
  };
}
