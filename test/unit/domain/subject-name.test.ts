import type { CommsAnalysis, SnapPrediction } from '../../../src/domain/ports';
import { OUTPUT_LIMITS } from '../../../src/domain/bounded-output';
import { namedAnalysis, namedPrediction, withoutName } from '../../../src/domain/subject-name';

const PREDICTION: SnapPrediction = {
  profile: 'Steward',
  primary_code: 'SW',
  secondary_profile: 'Peacemaker',
  secondary_code: 'PM',
  confidence: 'Medium',
  reasoning: "The notes say the person's team relies on them.",
  summary: 'The person is a Steward: they keep commitments. Bring the person the facts.',
  secondary_profile_summary: null,
};

describe('withoutName', () => {
  test('when a subject is made anonymous, then only notes, age range and job type are left', () => {
    expect(withoutName({ name: 'Ada Lovelace', notes: 'n', ageRange: '30-39', jobType: 'Auditor' })).toStrictEqual({ notes: 'n', ageRange: '30-39', jobType: 'Auditor' });
    expect(withoutName({ name: 'Ada Lovelace', notes: 'n' })).toStrictEqual({ notes: 'n' });
  });

  test.each<[string, string, string, string]>([
    ['the whole name', 'Ada Lovelace', 'Ada Lovelace checks every figure.', 'the person checks every figure.'],
    ['a part, possessive', 'Ada Lovelace', "Ada's team trusts Lovelace's audits.", "the person's team trusts the person's audits."],
    ['a hyphenated part', 'Mohammed Al-Farsi', 'Al-Farsi decides fast.', 'the person decides fast.'],
    ['a part with an accent', 'José García', 'García plans ahead; José too.', 'the person plans ahead; the person too.'],
    ['a name written in lower case', 'mei ling chen', 'Mei asks Chen nothing.', 'the person asks the person nothing.'],
    ['a name written in capitals', 'PRIYA RAGHUNATHAN', 'Priya leads.', 'the person leads.'],
    ['a part in lower case (a word, not the name)', 'Will Bold', 'Will takes bold decisions.', 'the person takes bold decisions.'],
    ['a part inside another word', 'Ada Lovelace', 'Adam reads Adagio.', 'Adam reads Adagio.'],
    ['an initial (one letter)', 'J. Smith', 'J likes Smith.', 'J likes the person.'],
    ['a name with pattern characters', 'A.B. (Bob)', 'Bob and A.B. (Bob) met; AxB did not.', 'the person and the person met; AxB did not.'],
    ['a name in capitals', 'Ada Lovelace', 'ADA LOVELACE signs; ADA checks.', 'the person signs; the person checks.'],
    ['a part of a hyphenated first name', 'Jean-Luc Picard', 'Jean-Luc decides; Luc asks, Jean listens.', 'the person decides; the person asks, the person listens.'],
    ['another apostrophe than the name\'s', "Siobhan O'Brien", 'O’Brien plans; O\'Brien\'s team follows.', "the person plans; the person's team follows."],
    ['a title (not the name)', 'Dr. Ada Smith', 'Dr. Smith leads; Dr Jones helps.', 'Dr. the person leads; Dr Jones helps.'],
    ['Chinese, written without spaces', '李小龙', '李小龙是团队的领导。', 'the person是团队的领导。'],
    ['Japanese, with an honorific joined', '田中 花子', '田中さんは計画を立てる。', 'the personさんは計画を立てる。'],
    ['Korean, with a particle joined', '김민수', '김민수는 회의를 이끈다.', 'the person는 회의를 이끈다.'],
  ])('when the notes write %s, then the predictor reads the reference instead', (_name, name, notes, want) => {
    expect(withoutName({ name, notes }).notes).toBe(want);
  });
});

describe('namedPrediction', () => {
  test('when the texts say "the person", then each mention becomes the name, possessives included', () => {
    const named = namedPrediction(PREDICTION, 'Ada Lovelace');

    expect(named.reasoning).toBe("The notes say Ada Lovelace's team relies on them.");
    expect(named.summary).toBe('Ada Lovelace is a Steward: they keep commitments. Bring Ada Lovelace the facts.');
    expect(named.secondary_profile_summary).toBeNull();
    expect({ ...named, reasoning: null, summary: null }).toEqual({ ...PREDICTION, reasoning: null, summary: null });
  });

  test('when the name is blank or spaced oddly, then "This person" or the name on one line stands in', () => {
    expect(namedPrediction(PREDICTION, '   ').summary).toMatch(/^This person is a Steward/u);
    expect(namedPrediction(PREDICTION, ' Ada \n  Lovelace ').summary).toMatch(/^Ada Lovelace is a Steward/u);
  });

  test('when the name holds replacement patterns, then they are written as text', () => {
    expect(namedPrediction(PREDICTION, "$& $1 $'").summary).toMatch(/^\$& \$1 \$' is a Steward/u);
  });

  test('when a word only contains "the person", then it is left alone', () => {
    expect(namedPrediction({ ...PREDICTION, summary: 'Bathe personally; the personnel list.' }, 'Ada').summary).toBe('Bathe personally; the personnel list.');
  });
});

describe('namedAnalysis', () => {
  test('when advice says "the person", then it is named, while draft excerpts and the rewrite stay as written', () => {
    const analysis: CommsAnalysis = {
      profile: 'Steward',
      primary_code: 'SW',
      summary: 'The person reads as a Steward.',
      do: ['Thank the person for their care.'],
      dont: ['Rush the person.'],
      phrases_to_use: ['the person'],
      phrases_to_avoid: [],
      draft_analysis: { fit_score: 50, issues: [{ excerpt: 'Hi the person', suggestion: 'Greet the person warmly.' }], rewrite: 'Hi the person' },
    };

    const named = namedAnalysis(analysis, 'Sam');

    expect(named).toEqual({
      ...analysis,
      summary: 'Sam reads as a Steward.',
      do: ['Thank Sam for their care.'],
      dont: ['Rush Sam.'],
      phrases_to_use: ['Sam'],
      draft_analysis: { fit_score: 50, issues: [{ excerpt: 'Hi the person', suggestion: 'Greet Sam warmly.' }], rewrite: 'Hi the person' },
    });
  });
});

describe('a long name put in', () => {
  const longName = `Ada ${'Lovelace-Byron '.repeat(12).trim()}`.slice(0, 200);

  test('when texts at their limits get a 200-character name, then they stay within the spec\'s limits, cut as the bound cuts', () => {
    const summary = `${'Give the person the data first. '.repeat(320)}`.slice(0, OUTPUT_LIMITS.textChars);
    const advice = `${'Let the person decide. '.repeat(50)}`.slice(0, OUTPUT_LIMITS.adviceChars);
    const named = namedAnalysis(
      { profile: 'Steward', primary_code: 'SW', summary, do: [advice], dont: [advice], phrases_to_use: [], phrases_to_avoid: [], draft_analysis: { fit_score: 1, issues: [{ excerpt: 'x', suggestion: advice }], rewrite: 'x' } },
      longName,
    );

    expect([named.do[0]!.length, named.dont[0]!.length, named.draft_analysis!.issues[0]!.suggestion.length].every((length) => length <= OUTPUT_LIMITS.adviceChars)).toBe(true);
    expect(named.summary!.length).toBeLessThanOrEqual(OUTPUT_LIMITS.textChars);
    expect(named.do[0]!.endsWith('…')).toBe(true);
    expect(namedPrediction({ ...PREDICTION, reasoning: summary }, longName).reasoning!.length).toBeLessThanOrEqual(OUTPUT_LIMITS.textChars);
  });
});
