/**
 * The regression gate of `make eval` on the embedded predictor (docs/evaluation.md): the
 * targets of the held-out half. Each check says what it wanted and what it got.
 */
import { CONFIDENCE_LEVELS } from '../../src/domain/profiles';
import { share, type HalfMeasures, type Ratio } from './measures';

export interface GateCheck {
  measure: string;
  target: string;
  got: string;
  passed: boolean;
}

export const percent = (r: Ratio): string => {
  const value = share(r);
  return value === null ? 'n/a (0 of 0)' : `${(value * 100).toFixed(1)}% (${r.hits}/${r.of})`;
};

const atLeast = (measure: string, r: Ratio, minimum: number): GateCheck => ({
  measure,
  target: `≥ ${minimum * 100}%`,
  got: percent(r),
  passed: r.of > 0 && (share(r) ?? 0) >= minimum,
});

export function gateChecks(held: HalfMeasures): GateCheck[] {
  const present = CONFIDENCE_LEVELS.filter((level) => held.byConfidence[level].of > 0).reverse(); // Low, Medium, High
  const shares = present.map((level) => share(held.byConfidence[level]) ?? 0);
  const rising = shares.every((value, index) => index === 0 || value > (shares[index - 1] ?? 1));
  const falseAbstention = share(held.abstention.falseAbstention);
  const other = Object.entries(held.statuses).filter(([status]) => status !== '201');
  return [
    atLeast('name-swap invariance', held.nameSwapInvariance, 1),
    atLeast('paraphrase agreement', held.paraphraseAgreement, 0.8),
    atLeast('top-2 accuracy', held.top2, 0.8),
    atLeast('abstention on no-evidence notes', held.abstention.recall, 1),
    {
      measure: 'false abstention on descriptions',
      target: '≤ 5%',
      got: percent(held.abstention.falseAbstention),
      passed: falseAbstention !== null && falseAbstention <= 0.05,
    },
    {
      measure: 'accuracy by confidence',
      target: 'strictly rising over the levels given (Low < Medium < High)',
      got: present.map((level) => `${level} ${percent(held.byConfidence[level])}`).join(', ') || 'no level',
      passed: present.length > 0 && rising,
    },
    atLeast('High-confidence top-1', held.byConfidence.High, 0.85),
    atLeast('repeatability', held.repeatability, 1),
    {
      measure: 'every call answered 201',
      target: 'no other status',
      got: other.length === 0 ? 'all 201' : other.map(([status, n]) => `${n}× ${status}`).join(', '),
      passed: other.length === 0,
    },
  ];
}
