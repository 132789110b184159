import type { SnapPrediction } from '../../../src/domain/ports';
import { heldToTaxonomy } from '../../../src/domain/taxonomy';

const GIVEN: SnapPrediction = {
  profile: 'Nurturer',
  primary_code: 'NU',
  secondary_profile: 'Peacemaker',
  secondary_code: 'PM',
  confidence: 'Medium',
  reasoning: 'r',
  summary: 's',
  secondary_profile_summary: 'ss',
};

describe('heldToTaxonomy', () => {
  test('when the answer obeys the taxonomy, then it is kept as given and no rule is applied', () => {
    expect(heldToTaxonomy(GIVEN)).toEqual({ prediction: GIVEN, repairs: [] });
  });

  test('when a code contradicts its profile name, then the name decides the code', () => {
    const { prediction, repairs } = heldToTaxonomy({ ...GIVEN, primary_code: 'TB', secondary_code: 'IV' });
    expect([prediction.primary_code, prediction.secondary_code]).toEqual(['NU', 'PM']);
    expect(repairs).toEqual(['name-decides-code']);
  });

  test('when a code comes without its name, then the code gives the name', () => {
    const { prediction, repairs } = heldToTaxonomy({ ...GIVEN, profile: null, primary_code: 'SW' });
    expect([prediction.profile, prediction.primary_code]).toEqual(['Steward', 'SW']);
    expect(repairs).toEqual(['name-decides-code']);
  });

  test('when the secondary equals the primary, then there is no secondary (name, code and summary null) and the confidence is Low', () => {
    const { prediction, repairs } = heldToTaxonomy({ ...GIVEN, secondary_profile: 'Nurturer', secondary_code: 'NU', confidence: 'High' });
    expect(prediction).toEqual({ ...GIVEN, secondary_profile: null, secondary_code: null, secondary_profile_summary: null, confidence: 'Low' });
    expect(repairs).toEqual(['secondary-equals-primary']);
  });

  test('when only the secondary code names the primary, then the code gives the name and the equal secondary is dropped', () => {
    const { prediction, repairs } = heldToTaxonomy({ ...GIVEN, secondary_profile: null, secondary_code: 'NU' });
    expect([prediction.secondary_profile, prediction.secondary_code]).toEqual([null, null]);
    expect(repairs).toEqual(['name-decides-code', 'secondary-equals-primary']);
  });

  test('when there is no profile but a secondary or a summary, then there is no profile at all: every profile field null, the confidence Low', () => {
    const { prediction, repairs } = heldToTaxonomy({ ...GIVEN, profile: null, primary_code: null, confidence: 'High' });
    expect(prediction).toEqual({ ...GIVEN, profile: null, primary_code: null, secondary_profile: null, secondary_code: null, summary: null, secondary_profile_summary: null, confidence: 'Low' });
    expect(repairs).toEqual(['no-profile-no-secondary']);
  });

  test('when there is no profile and nothing else, then only the confidence is held Low and no rule is counted', () => {
    const nothing = { ...GIVEN, profile: null, primary_code: null, secondary_profile: null, secondary_code: null, summary: null, secondary_profile_summary: null };
    expect(heldToTaxonomy({ ...nothing, confidence: 'Medium' })).toEqual({ prediction: { ...nothing, confidence: 'Low' }, repairs: [] });
  });
});
