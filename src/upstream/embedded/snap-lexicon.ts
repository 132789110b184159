/**
 * The lexicon of the embedded snap predictor: for each of the twelve profiles, the
 * English words that signal it in free-text notes and job titles (`snap-terms.ts`, where
 * they are listed and how they were written), and the texts that describe it.
 *
 * Term syntax (matched against words already lowercased, with apostrophes dropped and
 * split on anything that is not a letter or digit; see `snap-words.ts`):
 * - `audit*`        a stem: any word that starts with `audit` (audit, audits, auditor)
 * - `qa`            a whole word only
 * - `people person` a phrase: consecutive words; each part may be a stem (`push* back`)
 *
 * The matcher is a bag of words; a term right after a negation ("not detail-oriented")
 * is not found (`snap-words.ts`). The WordNet synonyms of the terms
 * (`snap-synonyms.json`) are generated from them: run `make lexicon-synonyms` after
 * changing a list.
 *
 * Texts: `summary` and `secondarySummary` take the person's name and start with it, so
 * that a placeholder such as "This person" still reads well. Visionary is never
 * predicted as a secondary profile (openapi/openapi.yaml); its `secondarySummary` exists only so
 * that every profile has the same shape.
 */
import type { ProfileName } from '../../domain/profiles';
import { SNAP_TERMS } from './snap-terms';

export interface ProfileLexicon {
  /** One line: who this profile is. */
  description: string;
  /** Words, stems and phrases that signal the profile (syntax above). */
  terms: readonly string[];
  /** The primary-profile paragraph: behaviour, motivation, decisions, how to engage. */
  summary: (name: string) => string;
  /** Two sentences: what this profile adds when it is the secondary one. */
  secondarySummary: (name: string) => string;
}

/** Changes whenever terms or texts change, so stored predictions can say which produced them. */
export const SNAP_LEXICON_VERSION = 'snap-lexicon-4';

export const SNAP_LEXICON: Readonly<Record<ProfileName, ProfileLexicon>> = {
  Trailblazer: {
    description: 'Pioneers new ground: acts first, takes risks and is energised by the untried.',
    terms: SNAP_TERMS.Trailblazer,
    summary: (name) =>
      `${name} is a Trailblazer: they move first and work out the map as they go. ` +
      'They are motivated by the chance to do what nobody has done yet, and by the ' +
      'freedom to do it their own way. They decide quickly and on instinct, accept risk ' +
      'as the price of progress, and lose interest once a path becomes routine. Bring ' +
      'them the opportunity and the autonomy, and keep the approvals light.',
    secondarySummary: (name) =>
      `${name} also has a Trailblazer streak: when things stall, they are likely to try ` +
      'something new rather than wait for permission. Expect them to volunteer for the ' +
      'untested option.',
  },
  Challenger: {
    description: 'Tests ideas by pushing on them: direct, competitive and driven by results.',
    terms: SNAP_TERMS.Challenger,
    summary: (name) =>
      `${name} is a Challenger: direct, candid and comfortable with friction. They are ` +
      'motivated by winning, by measurable results and by being taken seriously, and ' +
      'they respect people who push back with substance. They decide fast once they have ' +
      'heard the strongest arguments, and they test proposals by attacking them. Be ' +
      'brief, come with evidence and expect to defend your position.',
    secondarySummary: (name) =>
      `${name} also has a Challenger side: they will probe weak points and say so ` +
      'plainly. Take their hard questions as engagement rather than hostility.',
  },
  Visionary: {
    description: 'Sees the big picture and the long term: ideas, possibilities and where things could go.',
    terms: SNAP_TERMS.Visionary,
    summary: (name) =>
      `${name} is a Visionary: they think in possibilities and long horizons, and connect ` +
      'ideas that others keep apart. They are motivated by purpose and by the chance to ' +
      'shape what comes next, and can lose patience with detail that does not serve the ' +
      'larger aim. They decide by whether something fits the picture they have in mind, ' +
      'often intuitively. Start with the why and the destination; bring the details after.',
    secondarySummary: (name) =>
      `${name} also has a Visionary streak: they look past the task at hand to where it ` +
      'could lead. Tie requests to the larger aim.',
  },
  Catalyst: {
    description: 'Gets things moving: energetic, enthusiastic and quick to turn ideas into action.',
    terms: SNAP_TERMS.Catalyst,
    summary: (name) =>
      `${name} is a Catalyst: they bring energy into a room and turn talk into motion. ` +
      'They are motivated by momentum, visible progress and the excitement of something ' +
      'new starting, and they rally people around it. They decide quickly, favour action ' +
      'over analysis, and would rather adjust on the way than wait for certainty. Keep ' +
      'the pace up, show progress early and give them something to champion.',
    secondarySummary: (name) =>
      `${name} also has a Catalyst side: a bias for action. They can be counted on to ` +
      'restart a stalled effort and to lift the energy of the people around them.',
  },
  Connector: {
    description: 'Builds and keeps relationships: sociable, well networked and knows who should meet whom.',
    terms: SNAP_TERMS.Connector,
    summary: (name) =>
      `${name} is a Connector: they build and keep relationships, and they know who ` +
      'should meet whom. They are motivated by people, belonging and the shared wins of ' +
      'a wide network. They decide by talking things through and by who is involved, ' +
      'and they trust recommendations from people they know. Make it personal, take ' +
      'time for the relationship and show who else is on board.',
    secondarySummary: (name) =>
      `${name} also has a Connector side: they pay attention to relationships and will ` +
      'often bring in the right person or open a door through their network.',
  },
  Ambassador: {
    description: 'Represents people and ideas to others: persuasive, polished and aware of reputation.',
    terms: SNAP_TERMS.Ambassador,
    summary: (name) =>
      `${name} is an Ambassador: they represent their team, product or organisation to ` +
      'others, and do it with polish. They are motivated by recognition, by winning ' +
      'people over and by how things look to those who matter. They decide with an eye ' +
      'on reputation and the audience, and they like a story they can tell. Give them a ' +
      'message worth carrying and credit for carrying it well.',
    secondarySummary: (name) =>
      `${name} also has an Ambassador side: they think about how a message will land ` +
      'and who will hear it, and they can speak persuasively for a cause they believe in.',
  },
  Nurturer: {
    description: 'Looks after people: caring, supportive and invested in others growing.',
    terms: SNAP_TERMS.Nurturer,
    summary: (name) =>
      `${name} is a Nurturer: they notice how people are doing and put real effort into ` +
      'helping them grow. They are motivated by being useful to others and by seeing the ' +
      'people they support succeed. They decide with wellbeing in mind, weigh who could ' +
      "be hurt by a choice, and may put others' needs ahead of their own. Be warm and " +
      'sincere, acknowledge the people side of any request and thank them for their help.',
    secondarySummary: (name) =>
      `${name} also has a Nurturer side: they check that people are supported and may ` +
      'offer to help even when they are busy.',
  },
  Peacemaker: {
    description: 'Keeps a group together: calm, patient and looking for common ground.',
    terms: SNAP_TERMS.Peacemaker,
    summary: (name) =>
      `${name} is a Peacemaker: calm, patient and steady, they keep a group working ` +
      'together. They are motivated by harmony, fairness and a stable team, and they ' +
      'listen to every side before saying where they stand. They decide by consensus, ' +
      'prefer compromise to confrontation, and may hold back disagreement to keep the ' +
      'peace. Invite their view explicitly, avoid pressure and give them time to consider.',
    secondarySummary: (name) =>
      `${name} also has a Peacemaker side: they look for common ground and calm tension, ` +
      'and may not voice disagreement unless asked directly.',
  },
  Steward: {
    description: 'Protects what they are responsible for: dependable, loyal and careful with resources.',
    terms: SNAP_TERMS.Steward,
    summary: (name) =>
      `${name} is a Steward: dependable, loyal and careful with what they are responsible ` +
      'for. They are motivated by duty, stability and protecting the people, resources ' +
      'and standards in their care. They decide cautiously, lean on what has worked ' +
      'before and want risks understood before anything changes. Respect existing ' +
      'commitments, explain what a change protects and keep your promises.',
    secondarySummary: (name) =>
      `${name} also has a Steward side: a strong sense of responsibility. They weigh ` +
      'what a decision puts at risk and honour commitments already made.',
  },
  Systematizer: {
    description: 'Brings order: plans, processes and schedules that make work repeatable.',
    terms: SNAP_TERMS.Systematizer,
    summary: (name) =>
      `${name} is a Systematizer: they bring order, plans and repeatable processes to ` +
      'whatever they touch. They are motivated by efficiency, predictability and doing a ' +
      'job the right way once. They decide by laying out the steps, the schedule and the ' +
      'dependencies, and they dislike surprises and last-minute changes. Come with a ' +
      'clear plan, realistic timelines and defined next steps.',
    secondarySummary: (name) =>
      `${name} also has a Systematizer side: they want a plan, clear owners and a ` +
      'timeline, and will likely draw one up if nobody else does.',
  },
  Precisionist: {
    description: 'Gets it exactly right: careful with detail, accuracy and quality.',
    terms: SNAP_TERMS.Precisionist,
    summary: (name) =>
      `${name} is a Precisionist: careful, exact and attentive to the details others ` +
      'miss. They are motivated by quality, accuracy and getting it right, and they hold ' +
      'themselves and others to high standards. They decide once the facts check out, ' +
      'double-check before committing and distrust claims they cannot verify. Be ' +
      'precise, show your working and give them time to review.',
    secondarySummary: (name) =>
      `${name} also has a Precisionist side: an eye for detail. They check the numbers ` +
      'and the wording, and spot the error before it ships.',
  },
  Investigator: {
    description: 'Wants to understand why: curious, analytical and led by evidence.',
    terms: SNAP_TERMS.Investigator,
    summary: (name) =>
      `${name} is an Investigator: curious and analytical, they want to understand how ` +
      'and why things work. They are motivated by insight, by hard problems and by ' +
      'knowing more than the surface. They decide on evidence and logic after exploring ' +
      'the alternatives, and they ask many questions before they commit. Bring data and ' +
      'sources, welcome their questions and let them reach their own conclusion.',
    secondarySummary: (name) =>
      `${name} also has an Investigator side: they ask why, want the data behind a ` +
      'claim and may dig deeper than the task strictly requires.',
  },
};
