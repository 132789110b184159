/** The markdown report of `make eval` (test-output/eval/report.md), both halves side by side. */
import { CONFIDENCE_LEVELS, PROFILE_NAMES } from '../../src/domain/profiles';
import { PROFILE_GROUPS, type EvalSet } from './eval-set';
import { gateSummary, percent, verdictOf, type GateCheck } from './gate';
import type { HalfMeasures, Ratio } from './measures';
import type { CallResult } from './run-calls';

export interface ReportInput {
  predictor: string;
  plan: string;
  startedAt: Date;
  minutes: number;
  dev?: HalfMeasures;
  heldOut?: HalfMeasures;
  /** The gate's checks when the gate applies (the embedded predictor). */
  gate?: GateCheck[];
  results: readonly CallResult[];
  set: EvalSet;
}

const row = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;

export function reportMarkdown(input: ReportInput): string {
  const halves = [input.dev, input.heldOut].filter((half): half is HalfMeasures => half !== undefined);
  const header = row(['measure', ...halves.map((half) => half.half)]);
  const rule = row(['---', ...halves.map(() => '---:')]);
  const line = (label: string, pick: (half: HalfMeasures) => string) => row([label, ...halves.map(pick)]);
  const r = (pick: (half: HalfMeasures) => Ratio) => (half: HalfMeasures) => percent(pick(half));
  const lines: string[] = [
    '# Evaluation report (`make eval`)',
    '',
    `Predictor: **${input.predictor}**. Started ${input.startedAt.toISOString()}, ${input.minutes.toFixed(1)} minutes. Plan: ${input.plan}.`,
    'How the set was made and what each measure means: docs/evaluation.md.',
    '',
  ];
  if (input.gate) {
    lines.push(
      `## Gate (held-out half): ${gateSummary(input.gate)}`,
      '',
      row(['measure', 'target', 'held-out', '']),
      row(['---', '---', '---:', '---']),
      ...input.gate.map((check) => row([check.measure, check.target, check.got, check.passed ? 'pass' : `**${verdictOf(check)}**`])),
      '',
    );
  }
  lines.push(
    '## Measures',
    '',
    header,
    rule,
    line('people', (half) => String(half.people)),
    line('calls', (half) => String(half.calls)),
    line('descriptions answered 201', r((half) => half.answered)),
    line('primary top-1 accuracy', r((half) => half.top1)),
    line('primary top-2 accuracy (labelled primary is the predicted primary or secondary)', r((half) => half.top2)),
    line('acceptable secondary, when the primary is right', r((half) => half.acceptableSecondary)),
    line('paraphrase agreement (three descriptions, same primary)', r((half) => half.paraphraseAgreement)),
    line('name-swap invariance (the original under each name: same primary, secondary, confidence)', r((half) => half.nameSwapInvariance)),
    line('… and texts identical apart from the name', r((half) => half.nameSwapTextsIdentical)),
    line('repeatability (the same request again: same primary, secondary, confidence)', r((half) => half.repeatability)),
    line('abstention recall on no-evidence notes', r((half) => half.abstention.recall)),
    line('abstention precision (abstentions that were on no-evidence notes)', r((half) => half.abstention.precision)),
    line('false abstention on descriptions', r((half) => half.abstention.falseAbstention)),
    line('foreign-language notes abstained', r((half) => half.abstention.foreignAbstained)),
    line('foreign-language notes: top-1 when answered', r((half) => half.abstention.foreignTop1WhenAnswered)),
    ...CONFIDENCE_LEVELS.map((level) => line(`top-1 at confidence ${level}`, r((half) => half.byConfidence[level]))),
    line('500 rate', r((half) => half.rate500)),
    line('statuses', (half) => Object.entries(half.statuses).map(([status, n]) => `${n}× ${status === '0' ? 'no answer' : status}`).join(', ')),
    line('tokens per call (mean)', (half) => (half.tokensPerCall === null ? 'n/a' : half.tokensPerCall.toFixed(0))),
    line('seconds per call (mean / median / max)', (half) => `${half.seconds.mean.toFixed(3)} / ${half.seconds.median.toFixed(3)} / ${half.seconds.max.toFixed(3)}`),
    '',
    '## Top-1 accuracy by profile group and profile',
    '',
    header,
    rule,
    ...Object.entries(PROFILE_GROUPS).flatMap(([group, members]) => [
      line(`**${group}** (${members.join(', ')})`, (half) => percent(half.byGroup[group]?.top1 ?? { hits: 0, of: 0 })),
      line(`… predicted in the ${group} group`, (half) => percent(half.byGroup[group]?.sameGroup ?? { hits: 0, of: 0 })),
    ]),
    ...PROFILE_NAMES.map((profile) => line(profile, r((half) => half.byPrimary[profile]))),
    '',
    '## Confusion matrices',
    '',
    ...halves.map((half) => `![${half.half}](confusion-${half.half}.svg)`),
    '',
  );
  lines.push(...devMisses(input));
  return `${lines.join('\n')}\n`;
}

/** The development half's misses, for whoever tunes a predictor; the held-out half is shown only in aggregate. */
function devMisses(input: ReportInput): string[] {
  const people = new Map(input.set.people.map((person) => [person.id, person]));
  const misses = input.results.filter((result) => {
    if (result.call.half !== 'dev' || result.status !== 201 || !result.prediction) return false;
    if (result.call.purpose === 'description') return result.prediction.profile !== people.get(result.call.itemId)?.primary;
    if (result.call.purpose === 'no-evidence') return result.prediction.profile !== null;
    return false;
  });
  if (misses.length === 0) return [];
  return [
    '## Development half: misses (for tuning; the held-out half is never listed)',
    '',
    row(['item', 'description', 'labelled', 'predicted', 'secondary', 'confidence']),
    row(['---', '---:', '---', '---', '---', '---']),
    ...misses.map((result) =>
      row([
        result.call.itemId,
        result.call.purpose === 'description' ? String(result.call.description) : result.call.purpose,
        people.get(result.call.itemId)?.primary ?? '(no evidence)',
        result.prediction?.profile ?? 'null',
        result.prediction?.secondary_profile ?? 'null',
        result.prediction?.confidence ?? 'null',
      ]),
    ),
    '',
  ];
}
