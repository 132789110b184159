import { mapSnapPrediction } from '../../../../src/upstream/openai/map-snap-prediction';
import type { SnapPrediction } from '../../../../src/domain/ports';

const FULL: SnapPrediction = {
  profile: 'Investigator',
  primary_code: 'IV',
  secondary_profile: 'Precisionist',
  secondary_code: 'PR',
  confidence: 'Medium',
  reasoning: 'Asks for sources.',
  summary: 'Analytical.',
  secondary_profile_summary: 'Exacting.',
};

describe('mapSnapPrediction', () => {
  test.each<[string, Record<string, unknown>, Partial<SnapPrediction>]>([
    ['all fields are valid', { ...FULL }, FULL],
    ['the profile is missing', { ...FULL, profile: undefined }, { profile: null, primary_code: null }],
    ['the profile is not a string', { ...FULL, profile: 3 }, { profile: null, primary_code: null }],
    ['the profile is unknown', { ...FULL, profile: 'Wizard' }, { profile: null, primary_code: null }],
    ['the profile is lower case', { ...FULL, profile: 'investigator' }, { profile: null, primary_code: null }],
    ['the code is missing', { ...FULL, primary_code: null }, { primary_code: 'IV' }],
    ['the code is unknown', { ...FULL, secondary_code: 'ZZ' }, { secondary_code: 'PR' }],
    ['the code contradicts the name', { ...FULL, primary_code: 'TB' }, { primary_code: 'IV' }],
    ['only a code is given', { ...FULL, secondary_profile: null }, { secondary_profile: null, secondary_code: null }],
    [
      'the secondary profile is Visionary',
      { ...FULL, secondary_profile: 'Visionary', secondary_code: 'VI' },
      { secondary_profile: 'Visionary', secondary_code: 'VI' },
    ],
    ['the confidence is lower case', { ...FULL, confidence: 'high' }, { confidence: null }],
    ['the confidence is a number', { ...FULL, confidence: 0.9 }, { confidence: null }],
    ['a text is blank', { ...FULL, summary: '   ' }, { summary: null }],
    ['a text is an array', { ...FULL, reasoning: ['a'] }, { reasoning: null }],
  ])('when %s, then it maps as expected', (_, given, want) => {
    expect(mapSnapPrediction(given)).toEqual({ ...FULL, ...want });
  });
});
