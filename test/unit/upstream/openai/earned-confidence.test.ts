import type { SnapPrediction } from '../../../../src/domain/ports';
import { earnedConfidence } from '../../../../src/upstream/openai/earned-confidence';

const AUDITOR = { notes: 'Meticulous, accurate, thorough and detail-focused in every audit.', jobType: 'Auditor' };

function answer(overrides: Partial<SnapPrediction>): SnapPrediction {
  return {
    profile: 'Precisionist',
    primary_code: 'PR',
    secondary_profile: 'Investigator',
    secondary_code: 'IV',
    confidence: 'High',
    reasoning: 'r',
    summary: 's',
    secondary_profile_summary: 't',
    ...overrides,
  };
}

describe('earnedConfidence', () => {
  test.each<[string, Partial<SnapPrediction>, { notes: string; jobType?: string }, string]>([
    ['the model says High about junk', { profile: 'Trailblazer', primary_code: 'TB' }, { notes: 'Says no.' }, 'Low'],
    ['the model says High about notes in another language', {}, { notes: 'Arbeitet sehr genau, prüft jede Zahl zweimal und plant jede Woche im Voraus.' }, 'Low'],
    [
      'the model says High about notes in another language whose loanwords the lexicon reads as the same profile',
      {},
      { notes: 'Er arbeitet sehr genau und gründlich, prüft jedes Audit zweimal, achtet auf jedes Detail und kontrolliert jede Zahl, bevor er etwas unterschreibt.' },
      'Low',
    ],
    ['the model says High against the evidence', { profile: 'Ambassador', primary_code: 'AM' }, AUDITOR, 'Low'],
    ['the model says High and the evidence agrees strongly', {}, AUDITOR, 'High'],
    ['the model says Low and the evidence agrees strongly', { confidence: 'Low' }, AUDITOR, 'Low'],
    ['the model says nothing and the evidence agrees strongly', { confidence: null }, AUDITOR, 'High'],
    ['the model says High and the evidence agrees with one term', {}, { notes: 'Accurate.' }, 'Medium'],
    ['the model says High and the evidence is split evenly', {}, { notes: 'Owns the audit and the plan.' }, 'Low'],
    ['the model names no profile', { profile: null, primary_code: null }, AUDITOR, 'Low'],
  ])('when %s, then the confidence is %s', (_name, overrides, subject, want) => {
    expect(earnedConfidence(answer(overrides), subject)).toBe(want);
  });
});
